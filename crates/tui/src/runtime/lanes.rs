//! Where each effect runs: one exhaustive map from effect to lane, used by the executor and by
//! the test harness alike, so a test runs the effects through the routing the inbox uses.

use feedback_store::search::Reading;

use super::reads::{FreshnessOf, Task};
use crate::effect::Effect;
use feedback_store::Shared;

/// The lane an effect runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lane {
    /// A read on the list's connection, on the reading thread; `first`: a view query, which
    /// goes before the other reads waiting.
    Read { first: bool },
    /// A read that walks many rows (pane counts, the views' counts, pivots, trends, the
    /// enrichment queue), on the counts' connection and thread: it never holds a view back.
    Count,
    /// A triage write, or a read that must come after the writes queued, on the writes'
    /// thread, one at a time and in order (drained at quit).
    Write,
    /// A write of the config file, on a blocking thread of its own; its answer comes back.
    Detached,
    /// The view remembered for the next start: a store write nothing waits for (a failure is
    /// logged), on a blocking thread of its own.
    Remember,
    /// Network work: a sync job or a detail fetch, in a tokio task.
    Network,
    /// Top issues: seconds of work on a thread and connection of their own, with progress.
    Long,
    /// The clipboard, the browser, the mouse capture: in place, in order with the frames.
    Local,
    /// Needs the terminal handed over (`$EDITOR`, a pipe to a command): the loop runs it.
    Terminal,
}

/// The lane of `effect`.
#[must_use]
pub(crate) fn lane(effect: &Effect) -> Lane {
    match effect {
        Effect::Query { .. } => Lane::Read { first: true },
        Effect::LoadRows { .. }
        | Effect::LoadDetail { .. }
        | Effect::ResolveMarks { .. }
        | Effect::ViewIds { .. }
        | Effect::Gather { .. }
        | Effect::FindSimilar { .. }
        | Effect::LoadSearches
        | Effect::TeamHistory { .. } => Lane::Read { first: false },
        Effect::LoadPanes { .. }
        | Effect::CompletionValues { .. }
        | Effect::CountViews { .. }
        | Effect::MetaKeys
        | Effect::Pivot { .. }
        | Effect::Trend { .. }
        | Effect::QueueDetails { .. }
        | Effect::ClearQueue
        | Effect::QueuedCount => Lane::Count,
        Effect::Triage { .. }
        | Effect::TriageUndo { .. }
        | Effect::StoreRevs
        | Effect::TeamRecord { .. }
        | Effect::UndoStates { .. } => Lane::Write,
        Effect::WriteView { .. } => Lane::Detached,
        Effect::SaveView(_) | Effect::RememberSearch { .. } => Lane::Remember,
        Effect::Sync(_) | Effect::FetchDetail { .. } => Lane::Network,
        Effect::TopIssues { .. } => Lane::Long,
        Effect::Copy { .. }
        | Effect::OpenUrl { .. }
        | Effect::SetMouseCapture(_)
        | Effect::TeamSend
        | Effect::TeamLooking(_)
        | Effect::ViewsChanged(_) => Lane::Local,
        Effect::EditNote { .. } | Effect::Pipe { .. } => Lane::Terminal,
    }
}

/// The store work of an effect in a store lane with an answer (read, count, write, detached),
/// as a closure that returns the answer; `None` for the other lanes.
#[must_use]
pub(crate) fn store_task(
    store: &Shared,
    effect: Effect,
    reading: &Reading,
    freshness: &FreshnessOf,
) -> Option<Task> {
    match &effect {
        Effect::Query { .. }
        | Effect::LoadRows { .. }
        | Effect::LoadPanes { .. }
        | Effect::LoadSearches
        | Effect::CompletionValues { .. }
        | Effect::LoadDetail { .. } => super::reads::task(store, effect, reading, freshness),
        Effect::ResolveMarks { .. } | Effect::ViewIds { .. } | Effect::Gather { .. } => {
            super::acting::task(store, &effect)
        }
        Effect::FindSimilar { .. } => super::similar::task(store, &effect),
        Effect::CountViews { .. } | Effect::WriteView { .. } => {
            super::views::task(store, &effect, reading)
        }
        Effect::MetaKeys
        | Effect::Pivot { .. }
        | Effect::Trend { .. }
        | Effect::QueueDetails { .. }
        | Effect::ClearQueue
        | Effect::QueuedCount => super::insight::task(store, &effect, reading),
        Effect::Triage { .. } | Effect::TriageUndo { .. } | Effect::StoreRevs => {
            super::triage_writes::task(store, effect)
        }
        Effect::TeamRecord { .. } | Effect::TeamHistory { .. } | Effect::UndoStates { .. } => {
            super::team::task(store, effect)
        }
        Effect::SaveView(_)
        | Effect::RememberSearch { .. }
        | Effect::Sync(_)
        | Effect::FetchDetail { .. }
        | Effect::TopIssues { .. }
        | Effect::Copy { .. }
        | Effect::OpenUrl { .. }
        | Effect::SetMouseCapture(_)
        | Effect::EditNote { .. }
        | Effect::Pipe { .. }
        | Effect::TeamSend
        | Effect::TeamLooking(_)
        | Effect::ViewsChanged(_) => None,
    }
}
