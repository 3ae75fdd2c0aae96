//! `--fields`: which columns an export has and in which order, and what each column holds: a
//! [`Clean`] cell for the text sinks (table, csv; sanitized here, as it is made) and a value
//! for the JSON ones (the server's text, escaped by the serializer).
//!
//! Metadata and delivery links appear only in an item's detail, so a [`Record`] carries them
//! when known (`None`: not known, shown empty or `null`, never as "no metadata"); so is the
//! item's triage state, which only the local store holds.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::super::CliError;
use super::super::output::{first_line, short_time};
use feedback_api::{Channel, Delivery, Feedback, Metadata};
use feedback_core::text::Clean;
use feedback_store::Triage;
use feedback_team_sync::SharedLink;

/// One item of an export: the list item, with its detail's parts when they are known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub feedback: Feedback,
    pub metadata: Option<Metadata>,
    pub delivery: Option<Vec<Delivery>>,
    /// The item's triage state in the local store, when read (a snooze already over reads as
    /// none).
    pub triage: Option<Triage>,
    /// The item's links (this store's and the team's, with unsent changes laid over), when read.
    pub links: Option<Vec<SharedLink>>,
}

impl Record {
    /// A record with nothing known beyond the list item.
    #[must_use]
    pub fn bare(feedback: Feedback) -> Self {
        Self {
            feedback,
            metadata: None,
            delivery: None,
            triage: None,
            links: None,
        }
    }

    /// The external link of a delivery channel, when there is one.
    fn link(&self, channel: &str) -> Option<&str> {
        self.delivery
            .as_deref()?
            .iter()
            .find(|d| d.channel.as_str() == channel)?
            .external_url
            .as_deref()
    }
}

/// A column of an export.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    Id,
    ReceivedAt,
    Status,
    /// The app as "Name (platform)" in text, the app object in JSON.
    App,
    AppId,
    AppName,
    AppPlatform,
    /// The project's name in text, the project object in JSON.
    Project,
    ProjectId,
    ProjectName,
    Tags,
    ReporterEmail,
    Message,
    /// Both metadata maps (JSON text in a cell).
    Metadata,
    /// The delivery channels (JSON text in a cell).
    Delivery,
    /// One built-in metadata key (`meta.KEY`).
    BuiltIn(String),
    /// One custom metadata key (`custom.KEY`).
    Custom(String),
    /// The external link of one delivery channel (`link.CHANNEL`).
    Link(String),
    /// Metadata keys and links outside the columns, as a JSON object (`list --fields all` in
    /// csv and table: keys first seen after the first page).
    Extra,
    /// The triage state, from the local store.
    Seen,
    Starred,
    Done,
    SnoozedUntil,
    Note,
    /// The links on the item (tickets), from the local store.
    Links,
}

/// The plain field names, in the order `--fields` lists them in errors.
const NAMES: &[(&str, Field)] = &[
    ("id", Field::Id),
    ("received_at", Field::ReceivedAt),
    ("status", Field::Status),
    ("app", Field::App),
    ("app_id", Field::AppId),
    ("app_name", Field::AppName),
    ("app_platform", Field::AppPlatform),
    ("project", Field::Project),
    ("project_id", Field::ProjectId),
    ("project_name", Field::ProjectName),
    ("tags", Field::Tags),
    ("reporter_email", Field::ReporterEmail),
    ("message", Field::Message),
    ("metadata", Field::Metadata),
    ("delivery", Field::Delivery),
    ("seen", Field::Seen),
    ("starred", Field::Starred),
    ("done", Field::Done),
    ("snoozed_until", Field::SnoozedUntil),
    ("note", Field::Note),
    ("links", Field::Links),
];

/// The built-in metadata keys the spec names: `list --fields all` always has their columns.
pub(crate) const KNOWN_BUILT_INS: &[&str] = &[
    "appVersion",
    "buildNumber",
    "iOSVersion",
    "androidVersion",
    "locale",
];

impl Field {
    /// Parses one name of `--fields`.
    pub fn parse(name: &str) -> Result<Self, CliError> {
        if let Some((_, field)) = NAMES.iter().find(|(n, _)| *n == name) {
            return Ok(field.clone());
        }
        let keyed = [
            ("meta.", Field::BuiltIn as fn(String) -> Field),
            ("custom.", Field::Custom),
            ("link.", Field::Link),
        ];
        for (prefix, make) in keyed {
            if let Some(key) = name.strip_prefix(prefix).filter(|k| !k.is_empty()) {
                return Ok(make(key.to_owned()));
            }
        }
        Err(CliError::Usage(format!(
            "unknown field `{}` in --fields; valid: {}, meta.KEY, custom.KEY, link.CHANNEL ({}), \
             or all",
            feedback_core::text::sanitize_line(name),
            NAMES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", "),
            Channel::KNOWN.join(", "),
        )))
    }

    /// The name as `--fields` takes it (and as CSV headers and JSON keys show it).
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Self::BuiltIn(key) => format!("meta.{key}"),
            Self::Custom(key) => format!("custom.{key}"),
            Self::Link(channel) => format!("link.{channel}"),
            Self::Extra => "extra".to_owned(),
            plain => NAMES
                .iter()
                .find(|(_, f)| f == plain)
                .map_or_else(String::new, |(n, _)| (*n).to_owned()),
        }
    }

    /// The name as CSV headers and table titles show it (a metadata key or a channel is the
    /// server's text), sanitized as one line.
    #[must_use]
    pub fn label(&self) -> Clean {
        Clean::line(&self.name())
    }

    /// True when the column needs the item's detail (metadata or delivery).
    #[must_use]
    pub(crate) fn needs_detail(&self) -> bool {
        matches!(
            self,
            Self::Metadata
                | Self::Delivery
                | Self::BuiltIn(_)
                | Self::Custom(_)
                | Self::Link(_)
                | Self::Extra
        )
    }

    /// True when the column is the item's triage state, which the local store holds.
    #[must_use]
    pub(crate) fn needs_triage(&self) -> bool {
        matches!(
            self,
            Self::Seen | Self::Starred | Self::Done | Self::SnoozedUntil | Self::Note | Self::Links
        )
    }

    /// The column's cell in tab-separated output: whole, on one line, times in RFC 3339.
    #[must_use]
    pub(crate) fn tsv(&self, record: &Record, columns: &[Field]) -> Clean {
        match self {
            Self::Message => Clean::line(&record.feedback.message),
            Self::ReceivedAt | Self::SnoozedUntil => match self.json(record, columns) {
                Value::String(text) => Clean::line(&text),
                _ => Clean::default(),
            },
            other => other.text(record, false, columns),
        }
    }

    /// The column's cell for a table (`csv` false) or a CSV file, sanitized: one line, but for
    /// a CSV file's message, which keeps its line breaks (CSV quoting keeps them). `columns`
    /// are the export's columns (for [`Field::Extra`]).
    #[must_use]
    pub fn text(&self, record: &Record, csv: bool, columns: &[Field]) -> Clean {
        let text = self.raw_text(record, csv, columns);
        if csv && *self == Self::Message {
            Clean::text(&text)
        } else {
            Clean::line(&text)
        }
    }

    fn raw_text(&self, record: &Record, csv: bool, columns: &[Field]) -> String {
        let item = &record.feedback;
        let app = item.app.as_ref();
        match self {
            Self::ReceivedAt if !csv => short_time(item.received_at),
            Self::App if !csv && app.is_none() => "—".to_owned(),
            Self::App => app.map_or_else(String::new, |a| format!("{} ({})", a.name, a.platform)),
            Self::Project => item.project.name.clone(),
            Self::Tags => item.tags.join(if csv { ";" } else { "," }),
            Self::Message if !csv => first_line(&item.message).to_owned(),
            Self::Note if !csv => match &record.triage {
                Some(Triage {
                    note: Some(note), ..
                }) => first_line(note).to_owned(),
                _ => String::new(),
            },
            Self::SnoozedUntil if !csv => record
                .triage
                .as_ref()
                .and_then(|t| t.snoozed_until)
                .map_or_else(String::new, short_time),
            // A table names each ticket by its short name, a CSV file by its address.
            Self::Links => record.links.as_deref().map_or_else(String::new, |links| {
                let each = links.iter().map(|l| {
                    if csv {
                        l.link.url().to_owned()
                    } else {
                        l.link.short_name().to_string()
                    }
                });
                each.collect::<Vec<_>>().join(if csv { " " } else { ", " })
            }),
            Self::Seen | Self::Starred | Self::Done => match self.json(record, columns) {
                Value::Bool(true) => "yes".to_owned(),
                Value::Bool(false) => "no".to_owned(),
                _ => String::new(),
            },
            Self::Metadata | Self::Delivery | Self::Extra => match self.json(record, columns) {
                Value::Null => String::new(),
                value => value.to_string(),
            },
            other => match other.json(record, columns) {
                Value::String(text) => text,
                _ => String::new(),
            },
        }
    }

    /// The column's JSON value (`null` for what is absent or not known).
    #[must_use]
    pub fn json(&self, record: &Record, columns: &[Field]) -> Value {
        let item = &record.feedback;
        let app = item.app.as_ref();
        let text = |s: Option<&str>| s.map_or(Value::Null, |s| Value::String(s.to_owned()));
        match self {
            Self::Id => json!(item.id),
            Self::ReceivedAt => json!(item.received_at),
            Self::Status => json!(item.status),
            Self::App => json!(item.app),
            Self::AppId => text(app.map(|a| a.id.as_str())),
            Self::AppName => text(app.map(|a| a.name.as_str())),
            Self::AppPlatform => text(app.map(|a| a.platform.as_str())),
            Self::Project => json!(item.project),
            Self::ProjectId => json!(item.project.id),
            Self::ProjectName => json!(item.project.name),
            Self::Tags => json!(item.tags),
            Self::ReporterEmail => json!(item.reporter_email),
            Self::Message => json!(item.message),
            Self::Metadata => json!(record.metadata),
            Self::Delivery => json!(record.delivery),
            Self::BuiltIn(key) => text(meta(record, false, key)),
            Self::Custom(key) => text(meta(record, true, key)),
            Self::Link(channel) => text(record.link(channel)),
            Self::Extra => extra(record, columns),
            Self::Seen => triage(record, |t| json!(t.seen)),
            Self::Starred => triage(record, |t| json!(t.starred)),
            Self::Done => triage(record, |t| json!(t.done)),
            Self::SnoozedUntil => triage(record, |t| json!(t.snoozed_until)),
            Self::Note => triage(record, |t| json!(t.note)),
            Self::Links => record.links.as_ref().map_or(Value::Null, |l| json!(l)),
        }
    }
}

/// A value of the record's triage state; `null` when it was not read.
fn triage(record: &Record, value: impl Fn(&Triage) -> Value) -> Value {
    record.triage.as_ref().map_or(Value::Null, value)
}

fn meta<'a>(record: &'a Record, custom: bool, key: &str) -> Option<&'a str> {
    let metadata = record.metadata.as_ref()?;
    let map = if custom {
        &metadata.custom
    } else {
        &metadata.built_in
    };
    map.get(key).map(String::as_str)
}

/// The record's metadata keys and links that have no column, as `{"custom.KEY": value, …}`;
/// `null` when there are none.
fn extra(record: &Record, columns: &[Field]) -> Value {
    let mut found = serde_json::Map::new();
    for (field, value) in keyed_values(record) {
        if !columns.contains(&field) {
            found.insert(field.name(), Value::String(value.to_owned()));
        }
    }
    if found.is_empty() {
        Value::Null
    } else {
        Value::Object(found)
    }
}

/// Every keyed field the record has a value for: metadata keys, and links that are set.
fn keyed_values(record: &Record) -> Vec<(Field, &str)> {
    let mut out = Vec::new();
    if let Some(metadata) = &record.metadata {
        for (key, value) in &metadata.built_in {
            out.push((Field::BuiltIn(key.clone()), value.as_str()));
        }
        for (key, value) in &metadata.custom {
            out.push((Field::Custom(key.clone()), value.as_str()));
        }
    }
    for delivery in record.delivery.iter().flatten() {
        if let Some(url) = &delivery.external_url {
            out.push((
                Field::Link(delivery.channel.as_str().to_owned()),
                url.as_str(),
            ));
        }
    }
    out
}

/// The keyed columns of `--fields all`: metadata keys and delivery channels.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Keys {
    pub built_in: BTreeSet<String>,
    pub custom: BTreeSet<String>,
    pub channels: BTreeSet<String>,
}

impl Keys {
    /// What `list` always has: the built-ins the spec names and its delivery channels.
    #[must_use]
    pub fn known() -> Self {
        Self {
            built_in: KNOWN_BUILT_INS.iter().map(|k| (*k).to_owned()).collect(),
            custom: BTreeSet::new(),
            channels: Channel::KNOWN.iter().map(|c| (*c).to_owned()).collect(),
        }
    }

    /// Adds the keys and channels of these records.
    pub fn add(&mut self, records: &[Record]) {
        for record in records {
            if let Some(metadata) = &record.metadata {
                self.built_in.extend(metadata.built_in.keys().cloned());
                self.custom.extend(metadata.custom.keys().cloned());
            }
            for delivery in record.delivery.iter().flatten() {
                self.channels.insert(delivery.channel.as_str().to_owned());
            }
        }
    }

    /// The columns: `meta.*`, `custom.*`, then `link.*`, each sorted.
    #[must_use]
    pub fn columns(&self) -> Vec<Field> {
        let built_in = self.built_in.iter().cloned().map(Field::BuiltIn);
        let custom = self.custom.iter().cloned().map(Field::Custom);
        let links = self.channels.iter().cloned().map(Field::Link);
        built_in.chain(custom).chain(links).collect()
    }
}

/// What `--fields` asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Selection {
    /// No `--fields`: each format's usual shape.
    #[default]
    Default,
    /// These columns, in this order.
    Fields(Vec<Field>),
    /// Every field, the metadata keys and the delivery links.
    All,
}

impl Selection {
    /// Parses `--fields` (`None`: not given). Names are separated by commas; a name twice is
    /// kept once; `all` stands alone.
    pub fn parse(text: Option<&str>) -> Result<Self, CliError> {
        let Some(text) = text else {
            return Ok(Self::Default);
        };
        let names: Vec<&str> = text
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .collect();
        if names == ["all"] {
            return Ok(Self::All);
        }
        if names.is_empty() || names.contains(&"all") {
            return Err(CliError::Usage(
                "--fields takes a comma list of field names, or `all` alone".to_owned(),
            ));
        }
        let mut fields: Vec<Field> = Vec::new();
        for name in names {
            let field = Field::parse(name)?;
            if !fields.contains(&field) {
                fields.push(field);
            }
        }
        Ok(Self::Fields(fields))
    }

    /// True when the export shows the items' links.
    #[must_use]
    pub(crate) fn needs_links(&self) -> bool {
        matches!(self, Self::Fields(fields) if fields.contains(&Field::Links))
    }

    /// True when the export shows the items' triage state.
    #[must_use]
    pub(crate) fn needs_triage(&self) -> bool {
        match self {
            Self::Default | Self::All => false,
            Self::Fields(fields) => fields.iter().any(Field::needs_triage),
        }
    }

    /// True when the export needs the items' details.
    #[must_use]
    pub(crate) fn needs_detail(&self) -> bool {
        match self {
            Self::Default => false,
            Self::All => true,
            Self::Fields(fields) => fields.iter().any(Field::needs_detail),
        }
    }
}

/// The columns of the CSV export without `--fields` (and the first of `--fields all`).
pub(crate) const CSV_DEFAULT: &[Field] = &[
    Field::Id,
    Field::ReceivedAt,
    Field::Status,
    Field::AppId,
    Field::AppName,
    Field::AppPlatform,
    Field::ProjectId,
    Field::ProjectName,
    Field::Tags,
    Field::ReporterEmail,
    Field::Message,
];

/// The columns of the table without `--fields`.
pub(crate) const TABLE_DEFAULT: &[Field] = &[
    Field::Id,
    Field::ReceivedAt,
    Field::Status,
    Field::App,
    Field::Tags,
    Field::ReporterEmail,
    Field::Message,
];

/// The keys of a JSON object with `--fields all`: the detail's shape (the list item's fields,
/// `metadata`, `delivery`).
pub(crate) const JSON_ALL: &[Field] = &[
    Field::Id,
    Field::Message,
    Field::ReporterEmail,
    Field::Status,
    Field::ReceivedAt,
    Field::Tags,
    Field::App,
    Field::Project,
    Field::Metadata,
    Field::Delivery,
];
