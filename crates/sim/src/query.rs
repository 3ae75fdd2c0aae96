//! A page of the feedback list: the shortest index list that applies, a binary search to the
//! cursor's position, then a walk down the list checking the other filters.

use super::catalog;
use super::cursor::Position;
use super::data::Dataset;
use super::index::{Body, Entry, status_code};
use feedback_api::model::{Feedback, FeedbackDetail, Status};

/// The list filters, as validated by the route (ids lower-cased).
#[derive(Debug, Clone, Copy)]
pub struct ListQuery<'a> {
    pub status: &'a Status,
    pub app: Option<&'a str>,
    pub project: Option<&'a str>,
    pub tag: Option<&'a str>,
}

/// One filter resolved against the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    /// Not filtered on.
    Any,
    /// Table entry number `n`.
    Is(usize),
    /// A value no generated item has (only whole items can match).
    Outside,
}

impl Want {
    fn of(value: Option<&str>, position: impl Fn(&str) -> Option<usize>) -> Self {
        match value {
            None => Self::Any,
            Some(v) => position(v).map_or(Self::Outside, Self::Is),
        }
    }

    fn accepts(self, n: usize) -> bool {
        match self {
            Self::Any => true,
            Self::Is(want) => want == n,
            Self::Outside => false,
        }
    }
}

/// The filters resolved against the tables.
struct Resolved {
    status: Want,
    app: Want,
    project: Want,
    tag: Want,
}

impl Resolved {
    fn of(data: &Dataset, q: &ListQuery<'_>) -> Self {
        let status = match q.status {
            Status::Other(_) => Want::Outside,
            known => Want::Is(usize::from(status_code(known))),
        };
        Self {
            status,
            app: Want::of(q.app, |id| data.apps.iter().position(|a| a.id == id)),
            project: Want::of(q.project, |id| {
                data.projects.iter().position(|p| p.id == id)
            }),
            tag: Want::of(q.tag, |tag| catalog::TAGS.iter().position(|t| *t == tag)),
        }
    }

    /// True when a filter names a value no generated item has (only whole items can match).
    fn outside_tables(&self) -> bool {
        [self.status, self.app, self.project, self.tag].contains(&Want::Outside)
    }

    fn seeded_matches(&self, entry: &Entry) -> bool {
        self.status.accepts(usize::from(entry.status))
            && self.app.accepts(usize::from(entry.app))
            && self.project.accepts(usize::from(entry.project))
            && match self.tag {
                Want::Any => true,
                Want::Is(bit) => entry.tags & (1 << bit) != 0,
                Want::Outside => false,
            }
    }
}

/// True when a whole item passes the filters; its list is the entry's (an item may be listed
/// under a status other than its own: see `Dataset::insert_listed`).
fn item_matches(entry: &Entry, item: &FeedbackDetail, q: &ListQuery<'_>, status: Want) -> bool {
    let f = &item.feedback;
    status.accepts(usize::from(entry.status))
        && scope_matches(item, q.app, q.project)
        && q.tag.is_none_or(|t| f.tags.iter().any(|x| x == t))
}

/// True when a whole item is in scope of an app id and a project id.
#[must_use]
pub(crate) fn scope_matches(
    item: &FeedbackDetail,
    app: Option<&str>,
    project: Option<&str>,
) -> bool {
    let f = &item.feedback;
    app.is_none_or(|a| f.app.as_ref().is_some_and(|x| x.id == a))
        && project.is_none_or(|p| f.project.id == p)
}

/// The list of the table entry a filter names.
fn pick(tables: &[Vec<u32>], want: Want) -> Option<&[u32]> {
    match want {
        Want::Is(n) => tables.get(n).map(Vec::as_slice),
        Want::Any | Want::Outside => None,
    }
}

impl Dataset {
    /// True when an entry is in scope of an app id and a project id.
    pub(crate) fn in_scope(&self, entry: &Entry, app: Option<&str>, project: Option<&str>) -> bool {
        match &entry.body {
            Body::Full(item) => scope_matches(item, app, project),
            Body::Seed(_) => {
                let named = |table: Option<&String>, want: Option<&str>| {
                    want.is_none_or(|w| table.is_some_and(|id| id == w))
                };
                let app_id = self.apps.get(usize::from(entry.app)).map(|a| &a.id);
                let project_id = self.projects.get(usize::from(entry.project)).map(|p| &p.id);
                named(app_id, app) && named(project_id, project)
            }
        }
    }

    /// The positions to walk for `resolved`: the shortest list that holds every match.
    fn candidates(&self, resolved: &Resolved) -> &[u32] {
        let index = &self.index;
        if resolved.outside_tables() {
            return &index.full;
        }
        let lists = [
            pick(&index.status, resolved.status),
            pick(&index.apps, resolved.app),
            pick(&index.projects, resolved.project),
            pick(&index.tags, resolved.tag),
        ];
        lists
            .into_iter()
            .flatten()
            .min_by_key(|l| l.len())
            .unwrap_or(&index.full)
    }

    /// Up to `limit` items matching `q` strictly after `after` (newest first), and the position
    /// to continue from when more match.
    #[must_use]
    pub fn page(
        &self,
        q: &ListQuery<'_>,
        after: Option<&Position>,
        limit: usize,
    ) -> (Vec<Feedback>, Option<Position>) {
        let resolved = Resolved::of(self, q);
        let start = after.map_or(self.entries.len(), |p| {
            self.entries
                .partition_point(|e| e.key() < (p.received_at, p.id.as_str()))
        });
        let candidates = self.candidates(&resolved);
        let end = candidates.partition_point(|&p| (p as usize) < start);
        let mut matching = candidates[..end]
            .iter()
            .rev()
            .filter_map(|&p| self.entries.get(p as usize))
            .filter(|e| match &e.body {
                Body::Full(item) => item_matches(e, item, q, resolved.status),
                Body::Seed(_) => resolved.seeded_matches(e),
            });
        let data: Vec<Feedback> = matching
            .by_ref()
            .take(limit)
            .map(|e| self.materialize_feedback(e))
            .collect();
        let more = matching.next().is_some();
        let next = match data.last() {
            Some(last) if more => Some(Position {
                received_at: last.received_at,
                id: last.id.0.clone(),
            }),
            _ => None,
        };
        (data, next)
    }
}
