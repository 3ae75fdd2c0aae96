//! The webhook payload. Its names are the webhook's camelCase ones (`appId`, `receivedAt`,
//! `email`, `metadata.builtin`), distinct from the REST names, so it has its own types. An event
//! name other than `feedback.created` is kept with its raw body, never a decode error.

use std::collections::BTreeMap;
use std::fmt;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::model::{
    AppRef, Feedback, FeedbackDetail, FeedbackId, Metadata, Platform, ProjectRef, Status,
};

/// The only event kind the spec lists.
pub const FEEDBACK_CREATED: &str = "feedback.created";

/// A verified delivery's event.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A new submission.
    FeedbackCreated(Submission),
    /// An event kind this version does not know, kept as it came.
    Other {
        name: String,
        body: serde_json::Value,
    },
}

/// `feedback` of a `feedback.created` delivery.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Submission {
    pub id: FeedbackId,
    pub app_id: String,
    pub app_name: String,
    pub project_id: String,
    pub project_name: String,
    pub message: String,
    pub email: Option<String>,
    #[serde(default)]
    pub metadata: WebhookMetadata,
    pub received_at: Timestamp,
}

/// `feedback.metadata`: `builtin` here, `built_in` in the REST API.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebhookMetadata {
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "crate::model::string_map"
    )]
    pub builtin: BTreeMap<String, String>,
    #[serde(default, deserialize_with = "crate::model::string_map")]
    pub custom: BTreeMap<String, String>,
}

/// Why a body that passed the signature check is not a usable event.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BodyError {
    #[error("the body is not JSON: {0}")]
    NotJson(String),
    #[error("the body has no \"event\" name")]
    NoEventName,
    #[error("a feedback.created body does not have the expected fields: {0}")]
    BadFeedback(String),
}

/// The body of a `feedback.created` delivery, for parsing.
#[derive(Deserialize)]
struct Created {
    feedback: Submission,
}

#[derive(Serialize)]
struct Envelope<'a> {
    event: &'a str,
    feedback: &'a Submission,
}

impl Event {
    /// Parses a raw body (call only after the signature holds).
    pub fn parse(body: &[u8]) -> Result<Self, BodyError> {
        let value: serde_json::Value =
            feedback_core::json::from_slice(body).map_err(|e| BodyError::NotJson(describe(&e)))?;
        let name = value
            .get("event")
            .and_then(serde_json::Value::as_str)
            .ok_or(BodyError::NoEventName)?
            .to_owned();
        if name != FEEDBACK_CREATED {
            return Ok(Self::Other { name, body: value });
        }
        feedback_core::json::from_slice::<Created>(body)
            .map(|created| Self::FeedbackCreated(created.feedback))
            .map_err(|e| BodyError::BadFeedback(describe(&e)))
    }

    /// The event name.
    #[must_use]
    pub fn name(&self) -> &str {
        match self {
            Self::FeedbackCreated(_) => FEEDBACK_CREATED,
            Self::Other { name, .. } => name,
        }
    }

    /// The idempotency key: `feedback.id`, when the body has one.
    #[must_use]
    pub fn feedback_id(&self) -> Option<&str> {
        match self {
            Self::FeedbackCreated(s) => Some(s.id.as_str()),
            Self::Other { body, .. } => body.pointer("/feedback/id")?.as_str(),
        }
    }

    /// What makes a delivery a repeat: `feedback.id` for `feedback.created` (the spec's
    /// idempotency key); for another kind, its name and `feedback.id`, so a later event about the
    /// same submission is not mistaken for a repeat of its creation. `None`: always recorded.
    #[must_use]
    pub fn idempotency_key(&self) -> Option<String> {
        match self {
            Self::FeedbackCreated(s) => Some(s.id.0.clone()),
            Self::Other { name, .. } => self.feedback_id().map(|id| format!("{name} {id}")),
        }
    }

    /// The event as one JSON document (the original names and text).
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Self::FeedbackCreated(feedback) => serde_json::to_value(Envelope {
                event: FEEDBACK_CREATED,
                feedback,
            })
            .unwrap_or_default(),
            Self::Other { body, .. } => body.clone(),
        }
    }
}

/// A JSON error in words that never quote the body: serde's messages can echo a value, and a
/// rejected body must not reach logs or the screen. Field names are ours, so they stay.
fn describe(error: &serde_json::Error) -> String {
    let text = error.to_string();
    if text.starts_with("missing field") {
        return text;
    }
    let kind = match error.classify() {
        serde_json::error::Category::Io => "read error",
        serde_json::error::Category::Syntax => "syntax error",
        serde_json::error::Category::Data => "a field of the wrong type",
        serde_json::error::Category::Eof => "it ends early",
    };
    format!("{kind} at line {} column {}", error.line(), error.column())
}

impl Submission {
    /// The payload the service sends for a stored item (the item must have an app: every
    /// delivery comes from an app's webhook).
    #[must_use]
    pub fn from_detail(item: &FeedbackDetail) -> Option<Self> {
        let f = &item.feedback;
        let app = f.app.as_ref()?;
        Some(Self {
            id: f.id.clone(),
            app_id: app.id.clone(),
            app_name: app.name.clone(),
            project_id: f.project.id.clone(),
            project_name: f.project.name.clone(),
            message: f.message.clone(),
            email: f.reporter_email.clone(),
            metadata: WebhookMetadata {
                builtin: item.metadata.built_in.clone(),
                custom: item.metadata.custom.clone(),
            },
            received_at: f.received_at,
        })
    }

    /// The list item this submission becomes: status `new`, no tags yet; the payload does not
    /// carry the app's platform, so `platform` comes from what the caller knows (or `?`).
    #[must_use]
    pub fn to_feedback(&self, platform: Option<Platform>) -> Feedback {
        Feedback {
            id: self.id.clone(),
            message: self.message.clone(),
            reporter_email: self.email.clone(),
            status: Status::New,
            received_at: self.received_at,
            tags: Vec::new(),
            app: Some(AppRef {
                id: self.app_id.clone(),
                name: self.app_name.clone(),
                platform: platform.unwrap_or_else(|| Platform::Other("?".to_owned())),
            }),
            project: ProjectRef {
                id: self.project_id.clone(),
                name: self.project_name.clone(),
            },
        }
    }

    /// REST-shaped metadata of this submission.
    #[must_use]
    pub fn rest_metadata(&self) -> Metadata {
        Metadata {
            built_in: self.metadata.builtin.clone(),
            custom: self.metadata.custom.clone(),
        }
    }

    /// The JSON body the service sends for this submission.
    #[must_use]
    pub fn to_body(&self) -> Vec<u8> {
        serde_json::to_vec(&Envelope {
            event: FEEDBACK_CREATED,
            feedback: self,
        })
        .unwrap_or_default()
    }
}

impl fmt::Display for Event {
    /// One safe line: time, id, project / app, email and the message's first line, all
    /// sanitized and cut.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use feedback_core::excerpt::excerpt;
        match self {
            Self::FeedbackCreated(s) => {
                let first = s.message.lines().next().unwrap_or("");
                write!(
                    f,
                    "{} {} {} {} / {} {} {}",
                    FEEDBACK_CREATED,
                    s.received_at,
                    excerpt(s.id.as_str(), 40),
                    excerpt(&s.project_name, 30),
                    excerpt(&s.app_name, 30),
                    excerpt(s.email.as_deref().unwrap_or("-"), 40),
                    excerpt(first, 80),
                )
            }
            Self::Other { name, .. } => write!(
                f,
                "{} (an event kind this version does not know; kept){}",
                excerpt(name, 60),
                self.feedback_id()
                    .map(|id| format!(" feedback {}", excerpt(id, 40)))
                    .unwrap_or_default()
            ),
        }
    }
}
