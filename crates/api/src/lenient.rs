//! Lenient reading of the service's items: one item's odd field never costs its page.
//!
//! A page or list is read as plain JSON values first, then item by item, each as its wire type
//! ([`crate::model`]) through [`tracked::Tracked`]. The wire types say in their serde
//! attributes how each field is read ([`fields`]): a field that is missing, `null` or of the
//! wrong type is given a neutral value (empty text, no tags, no app, default metadata) and
//! noted; a timestamp without an offset is read as UTC. Only an item without a usable identity
//! (no `id`, or no `tag` for a tag count) is skipped, so the rest of its page is still shown.
//! What was replaced, or why an item was skipped, is logged here, one line per item with its
//! id. Every body goes through [`feedback_core::json::from_slice`].

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::model::{Cursor, DetailParts, DetailRest, Feedback, FeedbackDetail, Page};
use feedback_core::text::sanitize_line;

pub(crate) mod fields;
mod notes;
mod tracked;

use tracked::Tracked;

/// The shape every list answer shares, with its items still unread.
#[derive(Deserialize)]
struct RawList {
    data: Vec<Value>,
    #[serde(default)]
    next_cursor: Option<Cursor>,
}

/// `{ data: <item> }` with the item still unread.
#[derive(Deserialize)]
struct RawItem {
    data: Value,
}

/// A feedback page: the page's shape must hold; its items are read one by one.
pub fn feedback_page(body: &[u8]) -> serde_json::Result<Page<Feedback>> {
    feedback_page_counted(body).map(|counted| counted.page)
}

/// A feedback page and the number of items its body held.
#[derive(Debug, Clone)]
pub struct CountedPage {
    pub page: Page<Feedback>,
    /// Items in the body's `data`, hopeless ones (skipped) included: a page whose items were all
    /// skipped was still not an empty page.
    pub received: usize,
}

/// [`feedback_page`], with the number of items the body held.
pub(crate) fn feedback_page_counted(body: &[u8]) -> serde_json::Result<CountedPage> {
    let raw: RawList = feedback_core::json::from_slice(body)?;
    Ok(CountedPage {
        page: Page {
            data: items(&raw.data, "feedback"),
            next_cursor: raw.next_cursor,
        },
        received: raw.data.len(),
    })
}

/// A single feedback item; `None` when it has no id.
pub fn feedback_detail(body: &[u8]) -> serde_json::Result<Option<FeedbackDetail>> {
    let raw: RawItem = feedback_core::json::from_slice(body)?;
    Ok(read_item(&raw.data, "feedback item", |value| {
        // Read as its two halves from the same object, so each field is named in the notes
        // (serde's flatten would hand the list item's fields on without their names).
        Ok(FeedbackDetail::from(DetailParts {
            feedback: Feedback::deserialize(Tracked(value))?,
            rest: DetailRest::deserialize(Tracked(value))?,
        }))
    }))
}

/// A discovery list (`{ data: [...] }`) read item by item as `T` (a project, an app, a tag
/// count).
pub fn list<T: DeserializeOwned>(body: &[u8], what: &'static str) -> serde_json::Result<Vec<T>> {
    let raw: RawList = feedback_core::json::from_slice(body)?;
    Ok(items(&raw.data, what))
}

fn items<T: DeserializeOwned>(values: &[Value], what: &'static str) -> Vec<T> {
    values
        .iter()
        .filter_map(|value| read_item(value, what, |value| T::deserialize(Tracked(value))))
        .collect()
}

/// Reads one item, logging what was replaced, or why the item was skipped.
fn read_item<T>(
    value: &Value,
    what: &'static str,
    read: impl FnOnce(&Value) -> serde_json::Result<T>,
) -> Option<T> {
    let Some(map) = value.as_object() else {
        tracing::warn!(what, "skipped an item that is not an object");
        return None;
    };
    let (item, problems) = notes::collect(|| read(value));
    let id = map
        .get("id")
        .or_else(|| map.get("tag"))
        .map_or_else(String::new, |v| {
            sanitize_line(&fields::scalar_text(v).unwrap_or_default()).into_owned()
        });
    match &item {
        Err(_) => tracing::warn!(what, %id, "skipped an item without a usable id"),
        Ok(_) if !problems.is_empty() => tracing::warn!(
            what,
            %id,
            problems = %problems.join("; "),
            "kept an item with unreadable fields"
        ),
        Ok(_) => {}
    }
    item.ok()
}

#[cfg(test)]
mod tests;
