//! A stored row written as JSON straight from the store's borrowed columns: in the API's item
//! shape (the default of `jsonl`), the same JSON as the item itself serializes to (field order,
//! names, the status and platform as their types write them, the time as RFC 3339); or as the
//! object of `--fields` columns that a row holds, as [`Field::json`] writes them, reading only
//! the columns they need.

use std::borrow::Cow;

use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

use super::fields::Field;
use feedback_api::{Platform, Status};
use feedback_store::{AppRow, ItemRow, RefRow, RowNeeds};

/// What of a stored row these columns read, or `None` when one of them is not in a row
/// (metadata and delivery are a detail's).
#[must_use]
pub fn needs(fields: &[Field]) -> Option<RowNeeds> {
    let mut needs = RowNeeds::ID;
    for field in fields {
        match field {
            Field::Id => {}
            Field::ReceivedAt => needs.received = true,
            Field::Status => needs.status = true,
            Field::Message => needs.message = true,
            Field::ReporterEmail => needs.email = true,
            Field::Tags => needs.tags = true,
            Field::Project | Field::ProjectId | Field::ProjectName => needs.project = true,
            Field::App | Field::AppId | Field::AppName | Field::AppPlatform => needs.app = true,
            _ => return None,
        }
    }
    Some(needs)
}

/// How stored rows are written as JSON lines: the API's item shape, or the object of these
/// columns (each one a row holds). Owned and `Send`, so the lines can be made on another
/// thread than the one reading the rows.
#[derive(Debug, Clone)]
pub(crate) struct RowLines {
    pub columns: Option<Vec<Field>>,
}

impl RowLines {
    /// Appends `row` to `out` as one line of JSON, made safe for a terminal.
    pub(crate) fn write(&self, row: &ItemRow<'_>, out: &mut Vec<u8>) -> serde_json::Result<()> {
        let start = out.len();
        match &self.columns {
            None => api_item(row, out)?,
            Some(columns) => serde_json::to_writer(&mut *out, &RowFields(row, columns))?,
        }
        feedback_core::text::output::terminal_safe_json_tail(out, start);
        out.push(b'\n');
        Ok(())
    }
}

/// A row as the object of these columns, each of them one a row holds (see [`needs`]).
pub(crate) struct RowFields<'a, 'r>(pub &'a ItemRow<'r>, pub &'a [Field]);

impl Serialize for RowFields<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (row, columns) = (self.0, self.1);
        let app = row.app.as_ref();
        let mut map = serializer.serialize_map(Some(columns.len()))?;
        for field in columns {
            let name = field.name();
            match field {
                Field::Id => map.serialize_entry(&name, row.id)?,
                Field::ReceivedAt => map.serialize_entry(&name, &row.received_at)?,
                Field::Status => map.serialize_entry(&name, &Status::from(row.status))?,
                Field::App => map.serialize_entry(&name, &app.map(App))?,
                Field::AppId => map.serialize_entry(&name, &app.map(|a| a.id))?,
                Field::AppName => map.serialize_entry(&name, &app.map(|a| a.name))?,
                Field::AppPlatform => map.serialize_entry(
                    &name,
                    &app.map(|a| Platform::from(a.platform).as_str().to_owned()),
                )?,
                Field::Project => map.serialize_entry(&name, &Project(&row.project))?,
                Field::ProjectId => map.serialize_entry(&name, row.project.id)?,
                Field::ProjectName => map.serialize_entry(&name, row.project.name)?,
                Field::Tags => map.serialize_entry(&name, &tags(row.tags))?,
                Field::ReporterEmail => map.serialize_entry(&name, &row.email)?,
                Field::Message => map.serialize_entry(&name, row.message)?,
                other => {
                    return Err(serde::ser::Error::custom(format!(
                        "{} is not in a stored row",
                        other.name()
                    )));
                }
            }
        }
        map.end()
    }
}

/// Appends `row` as the API's `Feedback` serializes: its fields in order, each value written
/// by serde_json, the keys and punctuation as the text serde_json writes around them (a
/// struct's serializer writes and escapes every key of every row anew: a tenth of an export).
fn api_item(row: &ItemRow<'_>, out: &mut Vec<u8>) -> serde_json::Result<()> {
    fn put<T: Serialize + ?Sized>(
        out: &mut Vec<u8>,
        before: &str,
        value: &T,
    ) -> serde_json::Result<()> {
        out.extend_from_slice(before.as_bytes());
        serde_json::to_writer(&mut *out, value)
    }
    put(out, r#"{"id":"#, row.id)?;
    put(out, r#","message":"#, row.message)?;
    put(out, r#","reporter_email":"#, &row.email)?;
    put(out, r#","status":"#, &Status::from(row.status))?;
    put(out, r#","received_at":"#, &row.received_at)?;
    put(out, r#","tags":"#, &tags(row.tags))?;
    match &row.app {
        None => out.extend_from_slice(br#","app":null"#),
        Some(app) => {
            put(out, r#","app":{"id":"#, app.id)?;
            put(out, r#","name":"#, app.name)?;
            put(out, r#","platform":"#, &Platform::from(app.platform))?;
            out.push(b'}');
        }
    }
    put(out, r#","project":{"id":"#, row.project.id)?;
    put(out, r#","name":"#, row.project.name)?;
    out.extend_from_slice(b"}}");
    Ok(())
}

/// The stored tags (a JSON array of strings), borrowed where they need no unescaping; a
/// damaged value reads as no tags, as the stored item does.
fn tags(stored: &str) -> Vec<Cow<'_, str>> {
    #[derive(serde::Deserialize)]
    struct Tags<'t>(#[serde(borrow)] Vec<Cow<'t, str>>);
    if stored == "[]" {
        return Vec::new();
    }
    serde_json::from_str::<Tags<'_>>(stored)
        .map(|t| t.0)
        .unwrap_or_default()
}

struct App<'a, 'r>(&'a AppRow<'r>);

impl Serialize for App<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut app = serializer.serialize_struct("AppRef", 3)?;
        app.serialize_field("id", self.0.id)?;
        app.serialize_field("name", self.0.name)?;
        app.serialize_field("platform", &Platform::from(self.0.platform))?;
        app.end()
    }
}

struct Project<'a, 'r>(&'a RefRow<'r>);

impl Serialize for Project<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut project = serializer.serialize_struct("ProjectRef", 2)?;
        project.serialize_field("id", self.0.id)?;
        project.serialize_field("name", self.0.name)?;
        project.end()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::{RowFields, api_item};
    use crate::export::fields::{Record, Selection};
    use feedback_api::{Feedback, Status};
    use feedback_store::{RowNeeds, Store, StoreError, ViewQuery};

    /// A store of the simulator's data and the odd items below, and its view of everything.
    fn filled() -> (Store, ViewQuery, usize) {
        let anchor = "2026-11-20T12:00:00Z".parse().unwrap();
        let data = feedback_sim::data::generate(3, 400, anchor);
        let mut items: Vec<Feedback> = data.items().map(|d| d.feedback).collect();
        let mut odd = items[0].clone();
        odd.id = feedback_api::FeedbackId("odd-one".into());
        odd.status = Status::from("spam");
        odd.tags = vec!["quote\"d".into(), "tab\there".into(), "ünïcode".into()];
        odd.app = None;
        odd.reporter_email = None;
        items.push(odd);
        let store = Store::listed_in_memory(&items, anchor).unwrap();
        (store, ViewQuery::listed(None), items.len())
    }

    /// The rule: a row is written as its item serializes (the API's `Feedback`), for every
    /// item of the simulator's data (hostile and international text, an app of a platform
    /// this version does not know, items without an app or an email), an item of a status
    /// this version does not know, and tags that need escaping.
    #[test]
    fn a_row_is_written_as_its_item_serializes() {
        let (store, view, count) = filled();
        let mut expected = Vec::new();
        store
            .view_items_each(&view, None, 100, |batch| {
                expected.extend(
                    batch
                        .iter()
                        .map(|i| serde_json::to_string(&i.feedback).unwrap()),
                );
                Ok::<_, StoreError>(())
            })
            .unwrap();
        let mut written = Vec::new();
        store
            .view_rows_each(&view, None, RowNeeds::ALL, |row| {
                let mut line = Vec::new();
                api_item(row, &mut line).unwrap();
                written.push(String::from_utf8(line).unwrap());
                Ok::<_, StoreError>(())
            })
            .unwrap();
        assert_eq!(written.len(), count);
        assert_eq!(written, expected);
        assert!(written.iter().any(|l| l.contains(r#""status":"spam""#)));
    }

    /// The rule: a row's columns are written as `Field::json` writes them of its item, whether
    /// the row was read whole or with only the columns they need.
    #[test]
    fn a_rows_columns_are_written_as_the_fields_of_its_item() {
        let (store, view, _) = filled();
        let fields = |names: &str| match Selection::parse(Some(names)).unwrap() {
            Selection::Fields(fields) => fields,
            other => panic!("{other:?}"),
        };
        let every = fields(
            "message,id,received_at,status,app,app_id,app_name,app_platform,project,project_id,\
             project_name,tags,reporter_email",
        );
        assert_eq!(super::needs(&every), Some(RowNeeds::ALL));
        assert_eq!(super::needs(&fields("id,metadata")), None);
        for names in [
            "message,id,received_at,status,app,app_id,app_name,app_platform,project,project_id,\
             project_name,tags,reporter_email",
            "id",
            "id,received_at,status",
            "app_name,project_id",
            "message,tags",
            "reporter_email,app_platform",
        ] {
            let columns = fields(names);
            let mut expected = Vec::new();
            store
                .view_items_each(&view, None, 100, |batch| {
                    for item in batch {
                        let record = Record::bare(item.feedback);
                        let object: serde_json::Map<String, serde_json::Value> = columns
                            .iter()
                            .map(|f| (f.name(), f.json(&record, &columns)))
                            .collect();
                        expected.push(serde_json::Value::Object(object));
                    }
                    Ok::<_, StoreError>(())
                })
                .unwrap();
            let needs = super::needs(&columns).unwrap();
            for read in [needs, RowNeeds::ALL] {
                let mut written = Vec::new();
                store
                    .view_rows_each(&view, None, read, |row| {
                        let text = serde_json::to_string(&RowFields(row, &columns)).unwrap();
                        // The keys in the columns' order.
                        let first = format!("{{\"{}\":", columns[0].name());
                        assert!(text.starts_with(&first), "{text}");
                        written.push(serde_json::from_str::<serde_json::Value>(&text).unwrap());
                        Ok::<_, StoreError>(())
                    })
                    .unwrap();
                assert_eq!(written, expected, "{names} read with {read:?}");
            }
        }
    }
}
