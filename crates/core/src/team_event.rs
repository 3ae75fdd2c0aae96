//! A team's shared triage changes and the events that record them, as one typed model: a
//! member's [`Change`] (what the team backend sends, the store's outbox keeps, and the inbox lays
//! over what it shows), and a [`TeamEvent`], a change as the team's database recorded it, read
//! once from its kind and JSON body into an [`EventChange`]. A kind this version does not know
//! (a newer version wrote it) stays as its text and is shown as its kind; it is never dropped.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::link::Link;

/// A change to one item's shared state (kept in a store's outbox as its JSON).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// Own the item; lost when someone else owns it.
    Claim,
    /// Take the item over from `from`, who owns it now (confirmed by the user, recorded).
    TakeOver {
        from: String,
    },
    /// Give up your own item.
    Unclaim,
    /// Give the item to a member; `from`, the owner as the user saw it (the change is lost when
    /// the owner changed since).
    Assign {
        to: String,
        from: Option<String>,
    },
    Done(bool),
    Snooze(Option<Timestamp>),
    Labels {
        add: Vec<String>,
        remove: Vec<String>,
    },
    /// A note, or a new version of one (`note_id` again).
    Note {
        note_id: String,
        body: String,
    },
    /// A link to what was made from the item outside (a ticket); linked again, its title is
    /// the new one.
    Link(Link),
    /// The link to this URL (in its normal form) removed.
    Unlink {
        url: String,
    },
    /// A reply to the item's reporter left (the mail server took it): its id, the address,
    /// the subject and the text, for the team's history.
    Reply {
        reply_id: String,
        to: String,
        subject: String,
        body: String,
    },
}

impl Change {
    /// The event's kind the team records this change as.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Claim => "claim",
            Self::TakeOver { .. } => "take-over",
            Self::Unclaim => "unclaim",
            Self::Assign { .. } => "assign",
            Self::Done(_) => "done",
            Self::Snooze(_) => "snooze",
            Self::Labels { .. } => "labels",
            Self::Note { .. } => "note",
            Self::Link(_) => "link",
            Self::Unlink { .. } => "unlink",
            Self::Reply { .. } => "reply",
        }
    }

    /// The event's body the team records this change with (its database's functions read it).
    #[must_use]
    pub fn body(&self) -> serde_json::Value {
        match self {
            Self::Claim | Self::Unclaim => json!({}),
            Self::TakeOver { from } => json!({ "from": from }),
            Self::Assign { to, from } => json!({ "to": to, "from": from }),
            Self::Done(done) => json!({ "done": done }),
            Self::Snooze(until) => json!({ "until": until.map(|t| t.to_string()) }),
            Self::Labels { add, remove } => json!({ "add": add, "remove": remove }),
            Self::Note { note_id, body } => json!({ "note_id": note_id, "body": body }),
            Self::Link(link) => json!({ "url": link.url(), "title": link.title() }),
            Self::Unlink { url } => json!({ "url": url }),
            Self::Reply {
                reply_id,
                to,
                subject,
                body,
            } => json!({ "reply_id": reply_id, "to": to, "subject": subject, "body": body }),
        }
    }

    /// The change an event of `kind` with JSON `body` records; `None` for a kind this version
    /// does not know or a body that does not read as its kind's.
    #[must_use]
    pub fn from_event(kind: &str, body: &str) -> Option<Self> {
        #[derive(Deserialize)]
        struct From {
            from: String,
        }
        #[derive(Deserialize)]
        struct Assign {
            to: String,
            #[serde(default)]
            from: Option<String>,
        }
        #[derive(Deserialize)]
        struct Done {
            done: bool,
        }
        #[derive(Deserialize)]
        struct Snooze {
            #[serde(default)]
            until: Option<String>,
        }
        #[derive(Deserialize)]
        struct Labels {
            #[serde(default)]
            add: Vec<String>,
            #[serde(default)]
            remove: Vec<String>,
        }
        #[derive(Deserialize)]
        struct Note {
            note_id: String,
            body: String,
        }
        #[derive(Deserialize)]
        struct Linked {
            url: String,
            #[serde(default)]
            title: Option<String>,
        }
        #[derive(Deserialize)]
        struct Unlinked {
            url: String,
        }
        #[derive(Deserialize)]
        struct Replied {
            reply_id: String,
            to: String,
            subject: String,
            body: String,
        }
        fn read<T: for<'de> Deserialize<'de>>(body: &str) -> Option<T> {
            serde_json::from_str(body).ok()
        }
        Some(match kind {
            "claim" => Self::Claim,
            "unclaim" => Self::Unclaim,
            "take-over" => Self::TakeOver {
                from: read::<From>(body)?.from,
            },
            "assign" => {
                let Assign { to, from } = read(body)?;
                Self::Assign { to, from }
            }
            "done" => Self::Done(read::<Done>(body)?.done),
            "snooze" => Self::Snooze(match read::<Snooze>(body)?.until {
                Some(until) => Some(until.parse().ok()?),
                None => None,
            }),
            "labels" => {
                let Labels { add, remove } = read(body)?;
                Self::Labels { add, remove }
            }
            "note" => {
                let Note { note_id, body } = read(body)?;
                Self::Note { note_id, body }
            }
            "link" => {
                let Linked { url, title } = read(body)?;
                Self::Link(Link::new(&url, title.as_deref()).ok()?)
            }
            "unlink" => Self::Unlink {
                url: read::<Unlinked>(body)?.url,
            },
            "reply" => {
                let Replied {
                    reply_id,
                    to,
                    subject,
                    body,
                } = read(body)?;
                Self::Reply {
                    reply_id,
                    to,
                    subject,
                    body,
                }
            }
            _ => return None,
        })
    }
}

/// What an event records: a change this version reads, or one it does not (kept as it came).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventChange {
    Known(Change),
    /// A kind (or a body) this version cannot read: shown by its kind, kept as its text.
    Unknown {
        kind: String,
        body: String,
    },
}

impl EventChange {
    /// The event of `kind` with JSON `body`, read.
    #[must_use]
    pub fn decode(kind: &str, body: &str) -> Self {
        Change::from_event(kind, body).map_or_else(
            || Self::Unknown {
                kind: kind.to_owned(),
                body: body.to_owned(),
            },
            Self::Known,
        )
    }

    /// The event's kind, as the team records it.
    #[must_use]
    pub fn kind(&self) -> &str {
        match self {
            Self::Known(change) => change.kind(),
            Self::Unknown { kind, .. } => kind,
        }
    }

    /// The event's body as JSON text (an unknown one as it came).
    #[must_use]
    pub fn body_text(&self) -> String {
        match self {
            Self::Known(change) => change.body().to_string(),
            Self::Unknown { body, .. } => body.clone(),
        }
    }

    /// The event's body as JSON (an unknown one that is not JSON: `null`).
    #[must_use]
    pub fn body_json(&self) -> serde_json::Value {
        match self {
            Self::Known(change) => change.body(),
            Self::Unknown { body, .. } => serde_json::from_str(body).unwrap_or_default(),
        }
    }

    /// The change, when this version reads it.
    #[must_use]
    pub fn known(&self) -> Option<&Change> {
        match self {
            Self::Known(change) => Some(change),
            Self::Unknown { .. } => None,
        }
    }
}

/// One change as the team's database recorded it: its number in the team's order, its
/// client-made id, the member who made it, the item, and the server's time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamEvent {
    pub seq: i64,
    pub event_id: String,
    /// The member who acted (the role that wrote it: the database's word).
    pub member: String,
    pub item_id: String,
    pub change: EventChange,
    pub at: Timestamp,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn every_kind() -> Vec<Change> {
        vec![
            Change::Claim,
            Change::TakeOver { from: "bo".into() },
            Change::Unclaim,
            Change::Assign {
                to: "cy".into(),
                from: None,
            },
            Change::Assign {
                to: "cy".into(),
                from: Some("bo".into()),
            },
            Change::Done(true),
            Change::Done(false),
            Change::Snooze(Some("2026-12-04T09:00:00Z".parse().unwrap())),
            Change::Snooze(None),
            Change::Labels {
                add: vec!["crash".into()],
                remove: vec!["ios".into()],
            },
            Change::Note {
                note_id: "n1".into(),
                body: "first look".into(),
            },
            Change::Link(Link::new("https://tracker.example/T-1", Some("Crash")).unwrap()),
            Change::Link(Link::new("https://tracker.example/T-2", None).unwrap()),
            Change::Unlink {
                url: "https://tracker.example/T-1".into(),
            },
            Change::Reply {
                reply_id: "r1".into(),
                to: "ana@example.org".into(),
                subject: "Fixed".into(),
                body: "It is fixed.\n> it crashed".into(),
            },
        ]
    }

    #[test]
    fn every_change_reads_back_from_the_event_it_records() {
        for change in every_kind() {
            let body = change.body().to_string();
            assert_eq!(
                Change::from_event(change.kind(), &body),
                Some(change.clone()),
                "{body}"
            );
        }
    }

    #[test]
    fn the_bodies_are_the_teams_wire_form() {
        // Written from the team's schema: its functions read these keys.
        let json = |c: Change| c.body().to_string();
        assert_eq!(json(Change::Claim), "{}");
        assert_eq!(
            json(Change::TakeOver { from: "bo".into() }),
            r#"{"from":"bo"}"#
        );
        assert_eq!(
            json(Change::Assign {
                to: "cy".into(),
                from: None
            }),
            r#"{"from":null,"to":"cy"}"#
        );
        assert_eq!(json(Change::Done(true)), r#"{"done":true}"#);
        assert_eq!(json(Change::Snooze(None)), r#"{"until":null}"#);
        assert_eq!(
            json(Change::Note {
                note_id: "n".into(),
                body: "b".into()
            }),
            r#"{"body":"b","note_id":"n"}"#
        );
        assert_eq!(
            json(Change::Link(
                Link::new("https://t.example/T-1", Some("Crash")).unwrap()
            )),
            r#"{"title":"Crash","url":"https://t.example/T-1"}"#
        );
        assert_eq!(
            json(Change::Link(
                Link::new("https://t.example/T-1", None).unwrap()
            )),
            r#"{"title":null,"url":"https://t.example/T-1"}"#
        );
        assert_eq!(
            json(Change::Unlink {
                url: "https://t.example/T-1".into()
            }),
            r#"{"url":"https://t.example/T-1"}"#
        );
    }

    #[test]
    fn the_databases_spacing_and_missing_optional_keys_read() {
        assert_eq!(
            Change::from_event("assign", r#"{"to": "bo"}"#),
            Some(Change::Assign {
                to: "bo".into(),
                from: None
            })
        );
        assert_eq!(
            Change::from_event("labels", r#"{"add": ["x"]}"#),
            Some(Change::Labels {
                add: vec!["x".into()],
                remove: vec![]
            })
        );
    }

    #[test]
    fn an_unknown_kind_or_a_body_that_does_not_read_is_kept_as_it_came() {
        for (kind, body) in [
            ("escalate", r#"{"to":"tier2"}"#),
            ("done", r#"{"done":"yes"}"#),
            ("snooze", r#"{"until":"next week"}"#),
            ("note", "not json"),
            ("link", r#"{"url":"javascript:alert(1)"}"#),
            ("link", r#"{"title":"no address"}"#),
        ] {
            let change = EventChange::decode(kind, body);
            assert_eq!(
                change,
                EventChange::Unknown {
                    kind: kind.into(),
                    body: body.into()
                }
            );
            assert_eq!(change.kind(), kind);
            assert_eq!(change.body_text(), body);
        }
    }

    proptest! {
        #[test]
        fn labels_and_notes_of_any_text_survive_the_event(
            add in proptest::collection::vec(".{0,12}", 0..4),
            remove in proptest::collection::vec(".{0,12}", 0..4),
            note in ".{0,40}",
        ) {
            for change in [
                Change::Labels { add: add.clone(), remove: remove.clone() },
                Change::Note { note_id: "n".into(), body: note.clone() },
            ] {
                let event = EventChange::decode(change.kind(), &change.body().to_string());
                prop_assert_eq!(event, EventChange::Known(change));
            }
        }
    }
}
