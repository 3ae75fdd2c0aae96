//! One feedback item as labelled, sanitized display text: the single builder behind the TUI's
//! detail view and the CLI's `show` text.
//!
//! Both sinks draw only what [`detail_fields`] returns, never a field of [`FeedbackDetail`]
//! itself, so every server string, open enumerations included (status, platform, delivery
//! channel and status), passes through the sanitizer on its way to a terminal. The builder takes
//! the item apart with an exhaustive destructure (no `..`): a field added to the wire types does
//! not compile until it is handled here.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::{AppRef, Delivery, Feedback, FeedbackDetail, Metadata, ProjectRef};
use feedback_core::text::Clean;
use feedback_core::timefmt::{ago, local};

/// Shown for a field the item does not have.
pub const NONE: &str = "—";

/// The item's displayable text, every string sanitized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetailFields {
    /// The message, multi-line (line breaks kept, everything else made safe).
    pub message: Clean,
    /// The item's facts in display order: `(label, one-line value)`.
    pub facts: Vec<(&'static str, Clean)>,
    /// Metadata the SDK sends, `(key, value)`, one line each.
    pub built_in: Vec<(Clean, Clean)>,
    /// Metadata the app sends, `(key, value)`, one line each.
    pub custom: Vec<(Clean, Clean)>,
    /// One entry per delivery channel.
    pub delivery: Vec<DeliveryFields>,
}

/// One delivery channel, sanitized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryFields {
    pub channel: Clean,
    pub status: Clean,
    pub link: Option<Clean>,
}

fn line(text: &str) -> Clean {
    Clean::line(text)
}

/// The display text of `detail`; `now` and `tz` give the received time's age and zone.
#[must_use]
pub fn detail_fields(detail: &FeedbackDetail, now: Timestamp, tz: &TimeZone) -> DetailFields {
    let FeedbackDetail {
        feedback:
            Feedback {
                id,
                message,
                reporter_email,
                status,
                received_at,
                tags,
                app,
                project,
            },
        metadata: Metadata { built_in, custom },
        delivery,
    } = detail;
    let ProjectRef {
        id: project_id,
        name: project_name,
    } = project;
    // Composites are made of parts each sanitized on its own (an escape cut off at a part's
    // end never takes the next part into it).
    let app = app.as_ref().map_or_else(
        || Clean::fixed(NONE),
        |AppRef { id, name, platform }| {
            line(&format!(
                "{} · {} ({})",
                line(name),
                line(platform.as_str()),
                line(id)
            ))
        },
    );
    let tags = if tags.is_empty() {
        Clean::fixed(NONE)
    } else {
        line(&tags.join(", "))
    };
    let facts = vec![
        ("Id", line(id.as_str())),
        ("Status", line(status.as_str())),
        (
            "Reporter",
            reporter_email.as_deref().map_or(Clean::fixed(NONE), line),
        ),
        (
            "Received",
            line(&format!(
                "{} ({})",
                local(*received_at, tz),
                ago(now, *received_at)
            )),
        ),
        (
            "Project",
            line(&format!("{} ({})", line(project_name), line(project_id))),
        ),
        ("App", app),
        ("Tags", tags),
    ];
    DetailFields {
        message: Clean::text(message),
        facts,
        built_in: pairs(built_in),
        custom: pairs(custom),
        delivery: delivery.iter().map(delivery_fields).collect(),
    }
}

fn pairs(map: &std::collections::BTreeMap<String, String>) -> Vec<(Clean, Clean)> {
    map.iter().map(|(k, v)| (line(k), line(v))).collect()
}

fn delivery_fields(delivery: &Delivery) -> DeliveryFields {
    let Delivery {
        channel,
        status,
        external_url,
    } = delivery;
    DeliveryFields {
        channel: line(channel.as_str()),
        status: line(status.as_str()),
        link: external_url.as_deref().map(line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Channel, DeliveryStatus, Platform, Status};

    fn hostile_detail() -> FeedbackDetail {
        let bad = |s: &str| format!("{s}\u{1b}]0;t\u{7}\u{9b}2J\u{202e}");
        let crate::Data { data: mut detail } = serde_json::from_str::<crate::Data<FeedbackDetail>>(
            include_str!("../../../assets/fixtures/feedback_detail.json"),
        )
        .unwrap_or_else(|e| panic!("fixture: {e}"));
        let f = &mut detail.feedback;
        f.status = Status::Other(bad("new"));
        if let Some(app) = &mut f.app {
            app.platform = Platform::Other(bad("ios"));
        }
        detail.delivery = vec![Delivery {
            channel: Channel::Other(bad("pager")),
            status: DeliveryStatus::Other(bad("sent")),
            external_url: Some(bad("https://x.example/1")),
        }];
        detail
    }

    #[test]
    fn enum_values_are_sanitized_like_every_other_field() {
        let fields = detail_fields(&hostile_detail(), Timestamp::UNIX_EPOCH, &TimeZone::UTC);
        let status = &fields.facts[1];
        assert_eq!(status, &("Status", Clean::line("new␛␛\u{FFFD}")));
        assert!(fields.facts[5].1.contains("ios␛␛\u{FFFD}"), "{fields:?}");
        let delivery = &fields.delivery[0];
        assert_eq!(delivery.channel, "pager␛␛\u{FFFD}");
        assert_eq!(delivery.status, "sent␛␛\u{FFFD}");
        let all = fields
            .facts
            .iter()
            .map(|(_, v)| v.as_str())
            .chain([
                fields.message.as_str(),
                &*delivery.channel,
                &*delivery.status,
            ])
            .chain(delivery.link.as_deref());
        for text in all {
            assert!(feedback_core::text::is_clean(text), "{text:?}");
        }
    }
}
