//! The store's lanes: each lane's effects as the closure its thread runs, one exhaustive match
//! per lane. The executor and the test harness both take their store work from here, so a test
//! runs the effects through the routing the inbox uses.

use feedback_store::Shared;
use feedback_store::search::Reading;

use super::reads::{FreshnessOf, Shape, Task};
#[cfg(any(test, feature = "testing"))]
use crate::effect::Effect;
use crate::effect::{Count, Read, Write};

/// A read on the list's connection.
#[must_use]
pub(crate) fn read(store: &Shared, read: Read, reading: &Reading, freshness: &FreshnessOf) -> Task {
    match read {
        Read::Query {
            request_id,
            spec,
            anchor,
            rows,
            now,
            limit,
            open,
        } => super::reads::view_loaded(
            store,
            request_id,
            (*spec, anchor),
            Shape { rows, limit },
            open,
            reading.at(now),
            freshness,
        ),
        Read::LoadRows {
            request_id,
            start,
            keys,
        } => super::reads::rows(store, request_id, start, keys),
        Read::LoadDetail { id } => super::reads::detail(store, id),
        Read::LoadSearches => super::reads::searches(store),
        Read::ResolveMarks { request_id, keys } => {
            super::acting::resolve_marks(store, request_id, keys)
        }
        Read::ViewIds { request_id, keys } => super::acting::view_ids(store, request_id, keys),
        Read::Gather { request_id, ids } => super::acting::gather(store, request_id, ids),
        Read::FindSimilar {
            request_id,
            key,
            limit,
        } => super::similar::find(store, request_id, key, limit),
        Read::TeamHistory { id } => super::team::history(store, id),
    }
}

/// A read that walks many rows, on the counts' connection.
#[must_use]
pub(crate) fn count(store: &Shared, count: Count, reading: &Reading) -> Task {
    match count {
        Count::LoadPanes {
            request_id,
            status,
            project,
        } => super::reads::load_panes(store, request_id, status, project),
        Count::CompletionValues { name, key } => super::reads::completion_values(store, name, key),
        Count::CountViews {
            request_id,
            specs,
            now,
        } => super::saved_views::count_task(store, request_id, specs, reading.at(now)),
        Count::MetaKeys => super::insight::meta_keys(store),
        Count::Pivot {
            request_id,
            spec,
            by,
            now,
        } => super::insight::pivot(store, request_id, &spec, by, reading.at(now)),
        Count::Trend {
            request_id,
            spec,
            by,
            now,
        } => super::insight::trend(store, request_id, &spec, by, reading.at(now)),
        Count::QueueDetails { spec, now } => {
            super::insight::queue_details(store, spec, reading.at(now))
        }
        Count::ClearQueue => super::insight::clear_queue(store),
        Count::QueuedCount => super::insight::queued_count(store),
    }
}

/// A write, or a read that must come after the writes queued, in order.
#[must_use]
pub(crate) fn write(store: &Shared, write: Write) -> Task {
    match write {
        Write::Triage {
            ids,
            change,
            at,
            cause,
            what,
            team,
        } => super::triage_writes::triage(store, ids, change, at, cause, what, team),
        Write::TriageUndo {
            changes,
            at,
            team,
            what,
        } => super::triage_writes::undo(store, changes, at, team, what),
        Write::AppendNote {
            ids,
            text,
            at,
            what,
            team,
        } => super::triage_writes::append_note(store, ids, text, at, what, team),
        Write::QueueReplies { replies, at } => super::replies::queue(store, replies, at),
        Write::RecordReplies {
            replies,
            member,
            at,
        } => super::replies::record(store, replies, member, at),
        Write::StoreRevs => super::triage_writes::store_revs(store),
        Write::TeamRecord {
            member,
            changes,
            at,
        } => super::team::record(store, member, changes, at),
        Write::UndoStates { step, confirmed } => super::team::undo_states(store, step, confirmed),
    }
}

/// Where an effect's work is, for the test harness.
#[cfg(any(test, feature = "testing"))]
pub(crate) enum Work {
    /// A store lane's work (a read, a count, a write, the config file's write).
    Store(Task),
    /// Another lane's effect, as it was.
    Elsewhere(Box<Effect>),
}

/// The work of `effect`, as the executor would run it when it is a store lane's.
#[cfg(any(test, feature = "testing"))]
pub(crate) fn work(
    store: &Shared,
    effect: Effect,
    reading: &Reading,
    freshness: &FreshnessOf,
) -> Work {
    match effect {
        Effect::Read(r) => Work::Store(read(store, r, reading, freshness)),
        Effect::Count(c) => Work::Store(count(store, c, reading)),
        Effect::Write(w) => Work::Store(write(store, w)),
        Effect::WriteView { path, view } => Work::Store(super::saved_views::write(path, view)),
        other @ (Effect::Remember(_)
        | Effect::Network(_)
        | Effect::TopIssues { .. }
        | Effect::Local(_)
        | Effect::Terminal(_)) => Work::Elsewhere(Box::new(other)),
    }
}
