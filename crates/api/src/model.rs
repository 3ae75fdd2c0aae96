//! Wire types of the service's REST API, shared by the client and the simulator.
//!
//! Field names are the API's snake_case names. Enumerations are *open*: a value the spec does not
//! list decodes into `Other(..)` and is shown as-is, so a new server value is never a decode error.
//! Unknown extra fields are ignored. Each field's serde attribute says how it is read leniently
//! ([`super::lenient::fields`]): what a missing, `null` or unreadable value becomes, and that
//! only an item's identity is demanded.

use std::collections::BTreeMap;
use std::fmt;

use jiff::Timestamp;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_with::{As, Same};

use super::lenient::fields::{Count, Entries, Id, Needed, OrDefault, Text, TextMap, Texts, Time};

/// Declares an open enumeration: known wire values plus `Other(String)` for anything else.
macro_rules! open_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $wire:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($variant,)+
            /// A value this version does not know; kept verbatim.
            Other(String),
        }

        impl $name {
            /// The values the spec lists, in order.
            pub const KNOWN: &'static [&'static str] = &[$($wire),+];

            /// The wire value.
            #[must_use]
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $wire,)+
                    Self::Other(other) => other,
                }
            }

            /// True for a value the spec lists.
            #[must_use]
            pub fn is_known(&self) -> bool {
                !matches!(self, Self::Other(_))
            }
        }

        /// The empty value, `Other("")`: what an unreadable one is read as.
        impl Default for $name {
            fn default() -> Self {
                Self::Other(String::new())
            }
        }

        impl From<&str> for $name {
            fn from(value: &str) -> Self {
                match value {
                    $($wire => Self::$variant,)+
                    other => Self::Other(other.to_owned()),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let value = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
                Ok(Self::from(value.as_ref()))
            }
        }
    };
}

open_enum! {
    /// Feedback status; `new` is the list operation's default filter.
    Status { New => "new", Archived => "archived" }
}

open_enum! {
    /// Platform of an app (the spec shows values only in examples).
    Platform { Ios => "ios", Android => "android", Web => "web" }
}

open_enum! {
    /// Data region of an app or key.
    Region { Eu => "eu", Us => "us" }
}

open_enum! {
    /// Delivery channel of a submission.
    Channel { Email => "email", Webhook => "webhook", IssueTracker => "issue_tracker" }
}

open_enum! {
    /// Delivery status of one channel (values appear in examples only).
    DeliveryStatus { Delivered => "delivered", Pending => "pending", Failed => "failed" }
}

/// Declares a string newtype that is transparent on the wire.
macro_rules! string_id {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub String);

        impl $name {
            #[must_use]
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<&str> for $name {
            fn from(value: &str) -> Self {
                Self(value.to_owned())
            }
        }
    };
}

string_id! {
    /// Short public id of a feedback submission.
    FeedbackId
}

string_id! {
    /// Opaque pagination cursor, taken from a previous `next_cursor`.
    Cursor
}

/// The app a submission came from (list and detail).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppRef {
    #[serde(default, deserialize_with = "As::<Needed<Text>>::deserialize")]
    pub id: String,
    #[serde(default, deserialize_with = "As::<Needed<Text>>::deserialize")]
    pub name: String,
    #[serde(default, deserialize_with = "As::<Needed<Text>>::deserialize")]
    pub platform: Platform,
}

/// The project a submission belongs to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectRef {
    #[serde(default, deserialize_with = "As::<Needed<Text>>::deserialize")]
    pub id: String,
    #[serde(default, deserialize_with = "As::<Needed<Text>>::deserialize")]
    pub name: String,
}

/// A feedback list item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Feedback {
    #[serde(deserialize_with = "As::<Id>::deserialize")]
    pub id: FeedbackId,
    #[serde(default, deserialize_with = "As::<Needed<Text>>::deserialize")]
    pub message: String,
    #[serde(
        default,
        deserialize_with = "As::<OrDefault<Option<Text>>>::deserialize"
    )]
    pub reporter_email: Option<String>,
    #[serde(default, deserialize_with = "As::<Needed<Text>>::deserialize")]
    pub status: Status,
    #[serde(default, deserialize_with = "As::<Needed<Time>>::deserialize")]
    pub received_at: Timestamp,
    #[serde(default, deserialize_with = "As::<OrDefault<Texts>>::deserialize")]
    pub tags: Vec<String>,
    #[serde(default, deserialize_with = "As::<OrDefault<Same>>::deserialize")]
    pub app: Option<AppRef>,
    #[serde(default, deserialize_with = "As::<Needed<Same>>::deserialize")]
    pub project: ProjectRef,
}

/// Metadata of a submission: SDK-provided and custom key/values, each value as text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metadata {
    #[serde(default, deserialize_with = "As::<OrDefault<TextMap>>::deserialize")]
    pub built_in: BTreeMap<String, String>,
    #[serde(default, deserialize_with = "As::<OrDefault<TextMap>>::deserialize")]
    pub custom: BTreeMap<String, String>,
}

/// What is known of an item beyond its list fields: its metadata (a webhook's, or a detail's),
/// and its delivery links once a detail was read (`None` until then). Shared through the
/// team's mirror with the item.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Extras {
    pub metadata: Metadata,
    pub delivery: Option<Vec<Delivery>>,
}

/// One delivery channel of a submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delivery {
    #[serde(default, deserialize_with = "As::<Needed<Text>>::deserialize")]
    pub channel: Channel,
    #[serde(default, deserialize_with = "As::<Needed<Text>>::deserialize")]
    pub status: DeliveryStatus,
    #[serde(
        default,
        deserialize_with = "As::<OrDefault<Option<Text>>>::deserialize"
    )]
    pub external_url: Option<String>,
}

/// A single feedback item with metadata and delivery.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "DetailParts")]
pub struct FeedbackDetail {
    #[serde(flatten)]
    pub feedback: Feedback,
    pub metadata: Metadata,
    pub delivery: Vec<Delivery>,
}

/// How a detail is read: its list item's fields and the rest, from the same object.
#[derive(Deserialize)]
pub(crate) struct DetailParts {
    #[serde(flatten)]
    pub feedback: Feedback,
    #[serde(flatten)]
    pub rest: DetailRest,
}

/// What a detail holds beyond its list item.
#[derive(Deserialize)]
pub(crate) struct DetailRest {
    #[serde(default, deserialize_with = "As::<OrDefault<Same>>::deserialize")]
    pub metadata: Metadata,
    #[serde(
        default,
        deserialize_with = "As::<OrDefault<Entries<Same>>>::deserialize"
    )]
    pub delivery: Vec<Delivery>,
}

impl From<DetailParts> for FeedbackDetail {
    fn from(DetailParts { feedback, rest }: DetailParts) -> Self {
        Self {
            feedback,
            metadata: rest.metadata,
            delivery: rest.delivery,
        }
    }
}

impl FeedbackDetail {
    /// The issue-tracker link, when that channel created one.
    #[must_use]
    pub fn issue_tracker_url(&self) -> Option<&str> {
        self.delivery
            .iter()
            .find(|d| d.channel == Channel::IssueTracker)
            .and_then(|d| d.external_url.as_deref())
    }
}

/// A project of the account. Which fields are required is not specified; `id` and `name` are
/// expected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Project {
    #[serde(deserialize_with = "As::<Id>::deserialize")]
    pub id: String,
    #[serde(default, deserialize_with = "As::<Needed<Text>>::deserialize")]
    pub name: String,
    #[serde(
        default,
        deserialize_with = "As::<OrDefault<Option<Text>>>::deserialize"
    )]
    pub slug: Option<String>,
    #[serde(
        default,
        deserialize_with = "As::<OrDefault<Option<Time>>>::deserialize"
    )]
    pub created_at: Option<Timestamp>,
}

/// An app of the account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct App {
    #[serde(deserialize_with = "As::<Id>::deserialize")]
    pub id: String,
    #[serde(
        default,
        deserialize_with = "As::<OrDefault<Option<Text>>>::deserialize"
    )]
    pub project_id: Option<String>,
    #[serde(default, deserialize_with = "As::<Needed<Text>>::deserialize")]
    pub name: String,
    #[serde(
        default,
        deserialize_with = "As::<OrDefault<Option<Text>>>::deserialize"
    )]
    pub slug: Option<String>,
    #[serde(
        default,
        deserialize_with = "As::<OrDefault<Option<Text>>>::deserialize"
    )]
    pub platform: Option<Platform>,
    #[serde(
        default,
        deserialize_with = "As::<OrDefault<Option<Text>>>::deserialize"
    )]
    pub app_identifier: Option<String>,
    #[serde(
        default,
        deserialize_with = "As::<OrDefault<Option<Text>>>::deserialize"
    )]
    pub region: Option<Region>,
}

/// A distinct tag with the number of items carrying it; a count that is not a whole number
/// counts as 0.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tag {
    #[serde(deserialize_with = "As::<Id>::deserialize")]
    pub tag: String,
    #[serde(default, deserialize_with = "As::<Needed<Count>>::deserialize")]
    pub count: u64,
}

/// The error body: `{ error: <code>, message?: <text> }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    pub error: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// A page of the feedback list; both keys are always present.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Page<T> {
    pub data: Vec<T>,
    pub next_cursor: Option<Cursor>,
}

/// `{ data: T }`, the shape of single items and discovery lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Data<T> {
    pub data: T,
}

/// Accepts an object whose values are strings, and also numbers/booleans (turned into their
/// text) so a sloppy server value is shown rather than failing the whole item.
pub(crate) fn string_map<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<BTreeMap<String, String>, D::Error> {
    let raw = Option::<BTreeMap<String, serde_json::Value>>::deserialize(deserializer)?;
    Ok(raw
        .unwrap_or_default()
        .into_iter()
        .map(|(key, value)| {
            let text = match value {
                serde_json::Value::String(s) => s,
                serde_json::Value::Null => String::new(),
                other => other.to_string(),
            };
            (key, text)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_enum_values_are_kept() {
        let d: Delivery = serde_json::from_str(
            r#"{"channel":"pager","status":"bounced","external_url":null,"extra":1}"#,
        )
        .unwrap();
        assert_eq!(d.channel, Channel::Other("pager".into()));
        assert_eq!(d.status.as_str(), "bounced");
        assert_eq!(serde_json::to_string(&d.channel).unwrap(), r#""pager""#);
    }

    #[test]
    fn known_enum_values_round_trip() {
        for value in Channel::KNOWN {
            let c = Channel::from(*value);
            assert!(c.is_known());
            assert_eq!(c.as_str(), *value);
        }
    }

    #[test]
    fn detail_flattens_feedback_and_finds_issue_link() {
        let json = r#"{"id":"ab12","message":"hi","reporter_email":null,"status":"new",
            "received_at":"2026-01-02T03:04:05Z","tags":["bug"],"app":null,
            "project":{"id":"p","name":"P"},
            "metadata":{"built_in":{"appVersion":"1.2"},"custom":{"n":3}},
            "delivery":[{"channel":"issue_tracker","status":"delivered","external_url":"https://x/1"}]}"#;
        let d: FeedbackDetail = serde_json::from_str(json).unwrap();
        assert_eq!(d.feedback.id.as_str(), "ab12");
        assert_eq!(d.metadata.custom["n"], "3");
        assert_eq!(d.issue_tracker_url(), Some("https://x/1"));
    }

    #[test]
    fn page_without_next_cursor_is_the_last_page_but_data_is_required() {
        assert!(serde_json::from_str::<Page<Tag>>(r#"{"next_cursor":null}"#).is_err());
        let p: Page<Tag> = serde_json::from_str(r#"{"data":[]}"#).unwrap();
        assert!(p.next_cursor.is_none());
    }
}
