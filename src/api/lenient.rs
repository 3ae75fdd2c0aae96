//! Lenient reading of the service's items: one item's odd field never costs its page.
//!
//! A page or list is read as plain JSON values first, then item by item: a field that is
//! missing, `null` or of the wrong type is given a neutral value (empty text, no tags, no app,
//! default metadata) and logged; a timestamp without an offset is read as UTC. Only an item
//! without a usable identity (no `id`, or no `tag` for a tag count) is skipped, and logged, so
//! the rest of its page is still shown. Every body goes through [`crate::json::from_slice`].

use jiff::Timestamp;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::model::{Cursor, Feedback, FeedbackDetail, Page};
use crate::text::sanitize_line;

mod items;

pub use items::{app, detail, feedback, project, tag};

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
pub fn feedback_page_counted(body: &[u8]) -> serde_json::Result<CountedPage> {
    let raw: RawList = crate::json::from_slice(body)?;
    Ok(CountedPage {
        page: Page {
            data: items(&raw.data, "feedback", feedback),
            next_cursor: raw.next_cursor,
        },
        received: raw.data.len(),
    })
}

/// A single feedback item; `None` when it has no id.
pub fn feedback_detail(body: &[u8]) -> serde_json::Result<Option<FeedbackDetail>> {
    let raw: RawItem = crate::json::from_slice(body)?;
    Ok(read_item(&raw.data, "feedback item", detail))
}

/// A discovery list (`{ data: [...] }`) read item by item with `read`.
pub fn list<T>(
    body: &[u8],
    what: &'static str,
    read: fn(&mut Fields<'_>) -> Option<T>,
) -> serde_json::Result<Vec<T>> {
    let raw: RawList = crate::json::from_slice(body)?;
    Ok(items(&raw.data, what, read))
}

fn items<T>(
    values: &[Value],
    what: &'static str,
    read: fn(&mut Fields<'_>) -> Option<T>,
) -> Vec<T> {
    values
        .iter()
        .filter_map(|value| read_item(value, what, read))
        .collect()
}

/// Reads one item, logging what was unreadable, or why the item was skipped.
fn read_item<T>(
    value: &Value,
    what: &'static str,
    read: fn(&mut Fields<'_>) -> Option<T>,
) -> Option<T> {
    let Some(map) = value.as_object() else {
        tracing::warn!(what, "skipped an item that is not an object");
        return None;
    };
    let mut problems = Vec::new();
    let mut fields = Fields {
        map,
        prefix: "",
        problems: &mut problems,
    };
    let item = read(&mut fields);
    let id = map
        .get("id")
        .or_else(|| map.get("tag"))
        .map_or_else(String::new, |v| {
            sanitize_line(&scalar_text(v).unwrap_or_default()).into_owned()
        });
    match &item {
        None => tracing::warn!(what, %id, "skipped an item without a usable id"),
        Some(_) if !problems.is_empty() => tracing::warn!(
            what,
            %id,
            problems = %problems.join("; "),
            "kept an item with unreadable fields"
        ),
        Some(_) => {}
    }
    item
}

/// The fields of one JSON object, and the list of problems found reading them.
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
    prefix: &'static str,
    problems: &'a mut Vec<String>,
}

impl<'a> Fields<'a> {
    fn note(&mut self, name: &str, problem: &str) {
        self.problems
            .push(format!("{}{name}: {problem}", self.prefix));
    }

    /// A present, non-null value.
    fn get(&self, name: &str) -> Option<&'a Value> {
        self.map.get(name).filter(|v| !v.is_null())
    }

    /// The identity of an item: a non-empty string or an integer.
    fn id(&self, name: &str) -> Option<String> {
        self.get(name)
            .and_then(|v| match v {
                Value::String(s) => Some(s.clone()),
                Value::Number(n) if n.is_u64() || n.is_i64() => Some(n.to_string()),
                _ => None,
            })
            .filter(|s| !s.trim().is_empty())
    }

    /// Text that should be there; missing or unreadable gives "".
    fn text(&mut self, name: &str) -> String {
        self.opt_text(name).unwrap_or_else(|| {
            if self.get(name).is_none() {
                self.note(name, "missing");
            }
            String::new()
        })
    }

    /// Optional text; a number or boolean is shown as its text.
    fn opt_text(&mut self, name: &str) -> Option<String> {
        let value = self.get(name)?;
        let text = scalar_text(value);
        if text.is_none() {
            self.note(name, "not text");
        }
        text
    }

    fn open<E: for<'s> From<&'s str>>(&mut self, name: &str) -> E {
        E::from(self.text(name).as_str())
    }

    fn opt_open<E: for<'s> From<&'s str>>(&mut self, name: &str) -> Option<E> {
        self.opt_text(name).map(|s| E::from(s.as_str()))
    }

    /// A time that should be there; unreadable gives the Unix epoch.
    fn time(&mut self, name: &str) -> Timestamp {
        self.opt_time(name).unwrap_or_else(|| {
            if self.get(name).is_none() {
                self.note(name, "missing");
            }
            Timestamp::UNIX_EPOCH
        })
    }

    fn opt_time(&mut self, name: &str) -> Option<Timestamp> {
        let value = self.get(name)?;
        let time = match value {
            Value::String(s) => parse_time(s),
            Value::Number(n) => n.as_i64().and_then(|s| Timestamp::from_second(s).ok()),
            _ => None,
        };
        if time.is_none() {
            self.note(name, "not a time");
        }
        time
    }

    /// A list of strings; other elements are shown as text or dropped.
    fn strings(&mut self, name: &str) -> Vec<String> {
        match self.get(name) {
            None => Vec::new(),
            Some(Value::Array(values)) => {
                let texts: Vec<String> = values.iter().filter_map(scalar_text).collect();
                if texts.len() < values.len() {
                    self.note(name, "some entries are not text");
                }
                texts
            }
            Some(_) => {
                self.note(name, "not a list");
                Vec::new()
            }
        }
    }

    /// The object under `name`, read with `read` under a prefix for problems.
    fn object<T>(
        &mut self,
        name: &'static str,
        prefix: &'static str,
        read: impl FnOnce(&mut Fields<'_>) -> Option<T>,
    ) -> Option<T> {
        match self.get(name) {
            None => None,
            Some(Value::Object(map)) => read(&mut Fields {
                map,
                prefix,
                problems: self.problems,
            }),
            Some(_) => {
                self.note(name, "not an object");
                None
            }
        }
    }
}

/// A string, number or boolean as text.
fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// RFC 3339 with an offset; without one, the civil time is read as UTC.
fn parse_time(text: &str) -> Option<Timestamp> {
    text.parse::<Timestamp>().ok().or_else(|| {
        let civil = text.parse::<jiff::civil::DateTime>().ok()?;
        civil
            .to_zoned(jiff::tz::TimeZone::UTC)
            .ok()
            .map(|z| z.timestamp())
    })
}

#[cfg(test)]
mod tests;
