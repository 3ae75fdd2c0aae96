//! Turning qualifier values into the stored values they mean: app and project names or slugs
//! into reference keys (or the beginning of one name; an unknown name is an error that lists
//! the known ones, one that begins several names lists those), and tag, status
//! and metadata values into the exact spellings stored, compared case-insensitively in Rust
//! ([`fold_case`], so "CAFÉ" finds "café") while the final SQL stays an index-friendly `IN (…)`.

use std::ops::Range;

use rusqlite::{Connection, OptionalExtension};

use feedback_core::query::{QueryError, begins, fold_case, known_list, names};
use feedback_core::text::Clean;

/// Distinct values read one index seek at a time before giving up on listing them.
pub(super) const MAX_DISTINCT: usize = 2000;

/// Which kind of reference a name resolves against.
#[derive(Clone, Copy)]
pub(crate) enum RefKind {
    App,
    Project,
}

impl RefKind {
    fn word(self) -> &'static str {
        match self {
            Self::App => "app",
            Self::Project => "project",
        }
    }

    fn listed_sql(self) -> &'static str {
        match self {
            Self::App => "SELECT id, name, slug FROM apps",
            Self::Project => "SELECT id, name, slug FROM projects",
        }
    }

    fn refs_sql(self) -> &'static str {
        match self {
            Self::App => "SELECT k, id, name FROM app_refs",
            Self::Project => "SELECT k, id, name FROM project_refs",
        }
    }
}

/// The reference keys (`app_refs.k` / `project_refs.k`) an app or project name means; an empty
/// list when the name is known but no stored item has it; an error when nothing has that name.
pub(super) fn refs(
    conn: &Connection,
    kind: RefKind,
    value: &str,
    span: &Range<usize>,
) -> Result<Vec<i64>, QueryError> {
    let db = |e: rusqlite::Error| db_error(span, &e);
    let listed: Vec<(String, String, Option<String>)> = conn
        .prepare_cached(kind.listed_sql())
        .and_then(|mut s| {
            s.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect()
        })
        .map_err(db)?;
    let stored: Vec<(i64, String, String)> = conn
        .prepare_cached(kind.refs_sql())
        .and_then(|mut s| {
            s.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect()
        })
        .map_err(db)?;
    let ids: Vec<&str> = listed
        .iter()
        .filter(|(id, name, slug)| names(value, id, name, slug.as_deref()))
        .map(|(id, _, _)| id.as_str())
        .chain(
            stored
                .iter()
                .filter(|(_, id, name)| names(value, id, name, None))
                .map(|(_, id, _)| id.as_str()),
        )
        .collect();
    let ids = if ids.is_empty() {
        // No name, slug or id is the value: the one whose name it begins, when only one does.
        let mut begun: Vec<(&str, &str)> = listed
            .iter()
            .filter(|(_, name, slug)| begins(value, name, slug.as_deref()))
            .map(|(id, name, _)| (id.as_str(), name.as_str()))
            .chain(
                stored
                    .iter()
                    .filter(|(_, _, name)| begins(value, name, None))
                    .map(|(_, id, name)| (id.as_str(), name.as_str())),
            )
            .collect();
        begun.sort_unstable_by_key(|(id, _)| *id);
        begun.dedup_by_key(|(id, _)| *id);
        match begun.as_slice() {
            [] => {
                let mut known: Vec<&str> = listed.iter().map(|(_, n, _)| n.as_str()).collect();
                known.extend(stored.iter().map(|(_, _, n)| n.as_str()));
                return Err(unknown(kind.word(), value, known, span));
            }
            [(id, _)] => vec![*id],
            several => {
                let names = several.iter().map(|(_, name)| *name).collect();
                return Err(ambiguous(kind.word(), value, names, span));
            }
        }
    } else {
        ids
    };
    Ok(stored
        .iter()
        .filter(|(_, id, _)| ids.contains(&id.as_str()))
        .map(|(k, _, _)| *k)
        .collect())
}

/// For each app or project id the store knows, the word the query's `app:` / `project:` takes
/// for it alone: its slug, else its name, when that names no other (as [`refs`] matches
/// them); else its id. What a drill-down writes into the search, so the query reads as the
/// user would type it.
pub(crate) fn words(
    conn: &Connection,
    kind: RefKind,
) -> rusqlite::Result<std::collections::HashMap<String, String>> {
    let listed: Vec<(String, String, Option<String>)> = conn
        .prepare_cached(kind.listed_sql())?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let stored: Vec<(String, String)> = conn
        .prepare_cached(kind.refs_sql())?
        .query_map([], |r| Ok((r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    // Who each candidate word names, as `refs` would read it.
    let named_alone = |word: &str, id: &str| {
        listed
            .iter()
            .filter(|(i, name, slug)| names(word, i, name, slug.as_deref()))
            .map(|(i, _, _)| i)
            .chain(
                stored
                    .iter()
                    .filter(|(i, name)| names(word, i, name, None))
                    .map(|(i, _)| i),
            )
            .all(|i| i == id)
    };
    let catalog = listed
        .iter()
        .map(|(id, name, slug)| (id, name, slug.as_deref()))
        .chain(stored.iter().map(|(id, name)| (id, name, None)));
    let mut words = std::collections::HashMap::new();
    for (id, name, slug) in catalog {
        if words.contains_key(id) {
            continue; // The catalog's entry (with its slug) comes first.
        }
        let word = [slug, Some(name.as_str())]
            .into_iter()
            .flatten()
            .find(|w| !w.is_empty() && named_alone(w, id))
            .unwrap_or(id);
        words.insert(id.clone(), word.to_owned());
    }
    Ok(words)
}

/// "app "Tr" could be any of: …" with the names it begins, sanitized (server text).
fn ambiguous(word: &str, value: &str, names: Vec<&str>, span: &Range<usize>) -> QueryError {
    let list = known_list(names, "");
    QueryError::new(
        span.clone(),
        Clean::line(&format!(
            "{word} \"{}\" begins more than one name: {} (type more of it)",
            Clean::line(value),
            list.as_str().trim_start_matches("known: ")
        )),
    )
}

/// "no app named X; known: …" with the first few known names, sanitized (they are server text).
fn unknown(word: &str, value: &str, known: Vec<&str>, span: &Range<usize>) -> QueryError {
    let list = known_list(known, &format!("no {word}s are stored yet"));
    QueryError::new(
        span.clone(),
        Clean::line(&format!(
            "no {word} named \"{}\"; {list} (name as shown, slug or id)",
            Clean::line(value)
        )),
    )
}

/// "no stored feedback has tag X; known: …": a value no stored item has and the service's
/// vocabulary does not name either is most likely a typo, and an empty list would not say so.
pub(super) fn unknown_value(
    what: &str,
    value: &str,
    known: Vec<String>,
    span: &Range<usize>,
) -> QueryError {
    let list = known_list(known, "none is stored yet");
    QueryError::new(
        span.clone(),
        Clean::line(&format!(
            "no stored feedback has {what} \"{}\"; {list}",
            Clean::line(value)
        )),
    )
}

/// Distinct values of one column, for [`unknown_value`]'s list (at most a few more than shown).
pub(super) fn distinct(
    conn: &Connection,
    sql: &str,
    span: &Range<usize>,
) -> Result<Vec<String>, QueryError> {
    conn.prepare_cached(sql)
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .map_err(|e| db_error(span, &e))
}

/// App reference keys whose platform is `value` (case-insensitive, any raw platform).
pub(super) fn platform_refs(
    conn: &Connection,
    value: &str,
    span: &Range<usize>,
) -> Result<Vec<i64>, QueryError> {
    let want = fold_case(value);
    let rows: Vec<(i64, String)> = conn
        .prepare_cached("SELECT k, platform FROM app_refs")
        .and_then(|mut s| s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect())
        .map_err(|e| db_error(span, &e))?;
    Ok(rows
        .into_iter()
        .filter(|(_, platform)| fold_case(platform) == want)
        .map(|(k, _)| k)
        .collect())
}

/// The stored spellings equal to `value` ignoring case, found by walking the distinct values
/// of an index one seek at a time. `next_sql` selects the least value greater than `?1` (with
/// `extra` as `?2…`). `None` when there are more than [`MAX_DISTINCT`] distinct values: the
/// caller then falls back to SQLite's ASCII `COLLATE NOCASE`.
pub(super) fn spellings(
    conn: &Connection,
    next_sql: &str,
    extra: &[&str],
    value: &str,
    span: &Range<usize>,
) -> Result<Option<Vec<String>>, QueryError> {
    let want = fold_case(value);
    let mut stmt = conn
        .prepare_cached(next_sql)
        .map_err(|e| db_error(span, &e))?;
    let mut found = Vec::new();
    // Start after '': the empty value never matches (a qualifier needs a value).
    let mut after = rusqlite::types::Value::Text(String::new());
    for _ in 0..MAX_DISTINCT {
        let mut params: Vec<rusqlite::types::Value> = vec![after.clone()];
        params.extend(
            extra
                .iter()
                .map(|e| rusqlite::types::Value::Text((*e).to_owned())),
        );
        let next: Option<String> = stmt
            .query_row(rusqlite::params_from_iter(params), |r| r.get(0))
            .optional()
            .map_err(|e| db_error(span, &e))?;
        let Some(next) = next else {
            return Ok(Some(found));
        };
        if fold_case(&next) == want {
            found.push(next.clone());
        }
        after = rusqlite::types::Value::Text(next);
    }
    Ok(None)
}

/// A database failure while compiling, blamed on the term being compiled.
pub(super) fn db_error(span: &Range<usize>, e: &rusqlite::Error) -> QueryError {
    QueryError::new(span.clone(), Clean::line(&format!("store error: {e}")))
}
