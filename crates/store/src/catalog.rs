//! What the panes and `store info` read: the account's projects, apps and tags as last listed,
//! the count of stored items per project, app and tag for one status, and the store's size.

use std::collections::BTreeMap;

use jiff::Timestamp;
use rusqlite::OptionalExtension;

use super::read::micros;
use super::{Store, StoreError};
use feedback_api::{App, Platform, Project, Region, Tag};

/// A pane entry with its count of stored items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameCount {
    pub id: String,
    pub name: String,
    /// The app's platform; empty for projects and tags.
    pub platform: String,
    pub count: u64,
}

/// Stored items per project, app and tag, for one status.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    pub projects: Vec<NameCount>,
    pub apps: Vec<NameCount>,
    pub tags: Vec<NameCount>,
}

/// What `store info` prints, apart from the sync state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Info {
    pub bytes: u64,
    /// Items per status value as the service gave it (an item whose status this version does
    /// not know counts under that value, not under the list it is kept in).
    pub by_status: BTreeMap<String, u64>,
    /// Items whose detail (metadata, delivery) was fetched.
    pub with_detail: u64,
    pub oldest: Option<Timestamp>,
    pub newest: Option<Timestamp>,
}

/// The meta key of the catalog's time (Unix seconds).
const CATALOG_AT: &str = "catalog_at";

impl Store {
    /// Stored items per project, app and tag, of one status (all statuses with `None`), most
    /// first; names as the items carry them.
    pub fn counts(&self, status: Option<&str>) -> Result<Counts, StoreError> {
        let filter = if status.is_some() {
            "items.status = ?1"
        } else {
            "?1 IS NULL"
        };
        let run = |sql: String| -> Result<Vec<NameCount>, StoreError> {
            let mut stmt = self.conn.prepare_cached(&sql).map_err(|e| self.error(e))?;
            stmt.query_map([status], |row| {
                Ok(NameCount {
                    id: row.get(0)?,
                    name: row.get(1)?,
                    platform: row.get(2)?,
                    count: row.get::<_, i64>(3)?.unsigned_abs(),
                })
            })
            .and_then(Iterator::collect)
            .map_err(|e| self.error(e))
        };
        // Each count walks one index range (items_by_project, items_by_app, item_tags), never
        // the items themselves.
        Ok(Counts {
            projects: run(format!(
                "SELECT p.id, max(p.name), '', sum(c) AS n FROM (
                   SELECT r.k, (SELECT count(*) FROM items WHERE items.project = r.k AND {filter}) AS c
                   FROM project_refs r) x JOIN project_refs p ON p.k = x.k
                 GROUP BY p.id HAVING n > 0 ORDER BY n DESC, p.id"
            ))?,
            apps: run(format!(
                "SELECT a.id, max(a.name), max(a.platform), sum(c) AS n FROM (
                   SELECT r.k, (SELECT count(*) FROM items WHERE items.app = r.k AND {filter}) AS c
                   FROM app_refs r) x JOIN app_refs a ON a.k = x.k
                 GROUP BY a.id HAVING n > 0 ORDER BY n DESC, a.id"
            ))?,
            tags: run(format!(
                "SELECT tag, tag, '', count(*) AS n FROM item_tags AS items WHERE {filter}
                 GROUP BY tag ORDER BY n DESC, tag"
            ))?,
        })
    }

    /// When sync's discovery last stored the projects and apps (the meta key `catalog_at`, unix
    /// seconds): how far the catalog can be trusted for names.
    pub fn catalog_at(&self) -> Result<Option<Timestamp>, StoreError> {
        let value: Option<String> = self
            .conn
            .query_row(
                "SELECT value FROM meta WHERE key = ?1",
                [CATALOG_AT],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| self.error(e))?;
        Ok(value
            .and_then(|v| v.parse::<i64>().ok())
            .and_then(|s| Timestamp::from_second(s).ok()))
    }

    /// Records that discovery stored the catalog at `at` (read back by [`Store::catalog_at`]).
    pub fn mark_catalog(&mut self, at: Timestamp) -> Result<(), StoreError> {
        self.transact(|tx| {
            tx.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
                rusqlite::params![CATALOG_AT, at.as_second().to_string()],
            )
            .map(drop)
        })
    }

    /// The account's projects, as last listed.
    pub fn projects(&self) -> Result<Vec<Project>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT id, name, slug, created_at FROM projects ORDER BY name, id")
            .map_err(|e| self.error(e))?;
        stmt.query_map([], |row| {
            Ok(Project {
                id: row.get(0)?,
                name: row.get(1)?,
                slug: row.get(2)?,
                created_at: row
                    .get::<_, Option<String>>(3)?
                    .and_then(|t| t.parse().ok()),
            })
        })
        .and_then(Iterator::collect)
        .map_err(|e| self.error(e))
    }

    /// The account's apps (of one project), as last listed.
    pub fn apps(&self, project: Option<&str>) -> Result<Vec<App>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT id, project_id, name, slug, platform, app_identifier, region FROM apps
                 WHERE ?1 IS NULL OR project_id = ?1 ORDER BY name, id",
            )
            .map_err(|e| self.error(e))?;
        stmt.query_map([project], |row| {
            Ok(App {
                id: row.get(0)?,
                project_id: row.get(1)?,
                name: row.get(2)?,
                slug: row.get(3)?,
                platform: row
                    .get::<_, Option<String>>(4)?
                    .map(|p| Platform::from(p.as_str())),
                app_identifier: row.get(5)?,
                region: row
                    .get::<_, Option<String>>(6)?
                    .map(|r| Region::from(r.as_str())),
            })
        })
        .and_then(Iterator::collect)
        .map_err(|e| self.error(e))
    }

    /// The account's tags with the server's counts, as last listed.
    pub fn server_tags(&self) -> Result<Vec<Tag>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT tag, count FROM server_tags ORDER BY count DESC, tag")
            .map_err(|e| self.error(e))?;
        stmt.query_map([], |row| {
            Ok(Tag {
                tag: row.get(0)?,
                count: row.get::<_, i64>(1)?.unsigned_abs(),
            })
        })
        .and_then(Iterator::collect)
        .map_err(|e| self.error(e))
    }

    /// Whether every app id in `apps` is known: listed by the service or named on a stored item.
    pub fn knows_apps<'a>(
        &self,
        apps: impl IntoIterator<Item = &'a String>,
    ) -> Result<bool, StoreError> {
        let mut find = self
            .conn
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM apps WHERE id = ?1)
                 OR EXISTS (SELECT 1 FROM app_refs WHERE id = ?1)",
            )
            .map_err(|e| self.error(e))?;
        for app in apps {
            let found: bool = find
                .query_row([app], |row| row.get(0))
                .map_err(|e| self.error(e))?;
            if !found {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The projects stored items name, as `(id, name)`, whether or not a list has them.
    pub fn named_projects(&self) -> Result<Vec<(String, String)>, StoreError> {
        let read = || -> rusqlite::Result<Vec<(String, String)>> {
            let mut stmt = self
                .conn
                .prepare("SELECT DISTINCT id, name FROM project_refs")?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect()
        };
        read().map_err(|e| self.error(e))
    }

    /// The apps stored items name, as `(id, name, project id)`, whether or not a list has them;
    /// the project is that of one stored item of the app.
    pub fn named_apps(&self) -> Result<Vec<(String, String, Option<String>)>, StoreError> {
        let read = || -> rusqlite::Result<Vec<(String, String, Option<String>)>> {
            let mut stmt = self.conn.prepare(
                "SELECT DISTINCT a.id, a.name, (SELECT p.id FROM items AS i JOIN project_refs \
                 AS p ON p.k = i.project WHERE i.app = a.k LIMIT 1) FROM app_refs AS a",
            )?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect()
        };
        read().map_err(|e| self.error(e))
    }

    /// The app's platform from the stored apps, else from an item of that app seen in a list.
    pub fn known_platform(&self, app_id: &str) -> Result<Option<Platform>, StoreError> {
        self.conn
            .query_row(
                "SELECT platform FROM apps WHERE id = ?1 AND platform IS NOT NULL
             UNION ALL
             SELECT platform FROM app_refs WHERE id = ?1 AND platform <> '?'
             LIMIT 1",
                [app_id],
                |row| row.get::<_, String>(0),
            )
            .optional()
            .map(|found| found.map(|p| Platform::from(p.as_str())))
            .map_err(|e| self.error(e))
    }

    /// Size and item counts, for `store info`.
    pub fn info(&self) -> Result<Info, StoreError> {
        let conn = &self.conn;
        let wrap = |e| self.error(e);
        let pages: i64 = conn
            .pragma_query_value(None, "page_count", |r| r.get(0))
            .map_err(wrap)?;
        let page_size: i64 = conn
            .pragma_query_value(None, "page_size", |r| r.get(0))
            .map_err(wrap)?;
        let mut by_status = BTreeMap::new();
        let mut stmt = conn
            .prepare_cached(
                "SELECT coalesce(unknown_status, status) AS shown, count(*) FROM items \
                 GROUP BY shown ORDER BY shown",
            )
            .map_err(wrap)?;
        let rows = stmt
            .query_map([], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
            })
            .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
            .map_err(wrap)?;
        for (status, n) in rows {
            by_status.insert(status, n.unsigned_abs());
        }
        let with_detail: i64 = conn
            .query_row("SELECT count(detail_at) FROM items", [], |row| row.get(0))
            .map_err(wrap)?;
        // The ends of the key are the newest and oldest items (keys follow received times,
        // newest first).
        let end = |order: &str| -> rusqlite::Result<Option<i64>> {
            conn.query_row(
                &format!("SELECT received FROM items ORDER BY k {order} LIMIT 1"),
                [],
                |row| row.get(0),
            )
            .optional()
        };
        let (oldest, newest) = (end("DESC").map_err(wrap)?, end("ASC").map_err(wrap)?);
        Ok(Info {
            bytes: (pages * page_size).unsigned_abs(),
            by_status,
            with_detail: with_detail.unsigned_abs(),
            oldest: oldest.and_then(micros),
            newest: newest.and_then(micros),
        })
    }
}
