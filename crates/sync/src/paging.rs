//! One list request of a walk and the checks that keep it from looping; a background request
//! that gives way when the user arrives.

use super::{Priority, Syncer};
use feedback_api::lenient::CountedPage;
use feedback_api::{ApiError, Cursor, FeedbackQuery};
use feedback_store::sync_state::Key;

/// [`fetch`], but a background request gives way to the user: when a user operation arrives
/// while it waits (the client's pacing or a retry's backoff included) or runs, it is dropped
/// and `Ok(None)` tells the caller to end its step. Nothing is written before a page returns,
/// so nothing is lost; the next step asks again.
pub(super) async fn fetch_as(
    sy: &Syncer,
    priority: Priority,
    query: &FeedbackQuery,
    cursor_key: Option<&Key>,
) -> Result<Option<CountedPage>, ApiError> {
    if priority == Priority::User {
        return fetch(sy, query, cursor_key).await.map(Some);
    }
    let arrived = sy.gate.arrived();
    if sy.gate.user_waiting() {
        return Ok(None);
    }
    tokio::select! {
        page = fetch(sy, query, cursor_key) => page.map(Some),
        () = arrived => Ok(None),
    }
}

/// One list request, with the checks that keep a walk from looping: no empty page with a next
/// cursor, no next cursor equal to the one sent, no item received after the position the
/// cursor continues after (the list is keyset-paged, newest first).
pub(super) async fn fetch(
    sy: &Syncer,
    query: &FeedbackQuery,
    cursor_key: Option<&Key>,
) -> Result<CountedPage, ApiError> {
    let counted = sy.client.list_feedback_counted(query).await?;
    check_page(query.cursor.as_ref(), cursor_key, &counted)?;
    Ok(counted)
}

pub(super) fn check_page(
    sent: Option<&Cursor>,
    cursor_key: Option<&Key>,
    counted: &CountedPage,
) -> Result<(), ApiError> {
    let next = counted.page.next_cursor.as_ref();
    if counted.received == 0 && next.is_some() {
        return Err(ApiError::Paging {
            reason: "it sent an empty page with a next cursor",
        });
    }
    if next.is_some() && next == sent {
        return Err(ApiError::Paging {
            reason: "it sent a next cursor it had already sent",
        });
    }
    // Only a time above the position is proof of a loop: a service may break ties of one
    // `received` in another order than (received, id), and a repeated cursor is caught above.
    if let Some(key) = cursor_key
        && counted
            .page
            .data
            .iter()
            .any(|item| Key::of(item).received > key.received)
    {
        return Err(ApiError::Paging {
            reason: "it sent items above the position of the cursor",
        });
    }
    Ok(())
}
