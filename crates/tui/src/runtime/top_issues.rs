//! Runs Top issues for the inbox: on a blocking thread with a connection of its own
//! (seconds of work must not hold the list's reads back; an in-memory store has one connection
//! and shares it), reporting progress over the channel as it goes.

use feedback_store::search::Reading;
use jiff::Timestamp;
use tokio::sync::mpsc::UnboundedSender;

use crate::action::Msg;
use crate::failure::Failure;
use crate::state::ViewSpec;
use feedback_store::pivot::{SERIES_DAYS, Window};
use feedback_store::search::Context;
use feedback_store::similar::TopIssues;
use feedback_store::{Shared, Store};

/// At most this many of the view's newest items are grouped.
pub const MAX_ITEMS: usize = 100_000;
/// At most this many clusters are listed.
pub(crate) const MAX_CLUSTERS: usize = 500;

/// Starts the computation; its progress and answer come back as messages.
pub(super) fn run(
    store: &Shared,
    tx: &UnboundedSender<Msg>,
    request_id: u64,
    spec: ViewSpec,
    now: Timestamp,
    reading: &Reading,
) {
    let (store, tx, cx) = (store.clone(), tx.clone(), reading.at(now));
    tokio::task::spawn_blocking(move || {
        let work = |s: &Store| compute(s, &spec, &cx, request_id, &tx);
        let result = match store.read(Store::open_again) {
            Some(Ok(own)) => work(&own),
            Some(Err(error)) => Err(Failure::from(error)),
            None => store.read(work),
        };
        let _ = tx.send(Msg::TopIssuesLoaded {
            request_id,
            result: result.map(Box::new),
        });
    });
}

/// The clusters of the view `spec` (done and snoozed items hidden as in the list).
pub fn compute(
    store: &Store,
    spec: &ViewSpec,
    cx: &Context,
    request_id: u64,
    tx: &UnboundedSender<Msg>,
) -> Result<TopIssues, Failure> {
    let view = store
        .view_query(spec, cx, false)
        .ok()
        .ok_or(Failure::ViewDoesNotApply)?;
    let window = Window::ending(cx.now, &cx.tz, SERIES_DAYS);
    let mut last = 0;
    let mut progress = |percent: u8| {
        if percent > last {
            last = percent;
            let _ = tx.send(Msg::TopIssuesProgress {
                request_id,
                percent,
            });
        }
    };
    store
        .top_issues(&view, &window, MAX_ITEMS, MAX_CLUSTERS, &mut progress)
        .map_err(Failure::from)
}
