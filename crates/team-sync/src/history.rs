//! An event as a person reads it in an item's history ("claimed", "assigned to bo", "labels
//! +crash -ios", "noted: …"): the same words in `team log` and in the inbox's detail. Every name,
//! label and note in it is a teammate's text, sanitized here.

use feedback_core::team_event::{Change, EventChange};
use feedback_core::text::Clean;

/// What the event recording `change` did, in a few words.
#[must_use]
pub fn describe(change: &EventChange) -> Clean {
    let change = match change {
        EventChange::Known(change) => change,
        // A kind a newer version writes: shown as it is.
        EventChange::Unknown { kind, .. } => return Clean::line(kind),
    };
    let words = match change {
        Change::Claim => "claimed".to_owned(),
        Change::Unclaim => "unclaimed".to_owned(),
        Change::TakeOver { from } => format!("took over from {}", Clean::line(from)),
        Change::Assign { to, .. } => format!("assigned to {}", Clean::line(to)),
        Change::Done(true) => "marked done".to_owned(),
        Change::Done(false) => "reopened".to_owned(),
        Change::Snooze(Some(until)) => format!("snoozed until {until}"),
        Change::Snooze(None) => "woke".to_owned(),
        Change::Labels { add, remove } => {
            let signed = add
                .iter()
                .map(|l| format!("+{}", Clean::line(l)))
                .chain(remove.iter().map(|l| format!("-{}", Clean::line(l))));
            format!("labels {}", signed.collect::<Vec<_>>().join(" "))
        }
        Change::Note { body, .. } if body.trim().is_empty() => "removed their note".to_owned(),
        Change::Note { body, .. } => {
            format!("noted: {}", feedback_core::excerpt::excerpt(body, 60))
        }
        Change::Link(link) => match link.title() {
            Some(title) => format!("linked {} ({})", link.short_name(), Clean::line(title)),
            None => format!("linked {}", link.short_name()),
        },
        Change::Reply { subject, .. } => format!("replied: {}", Clean::line(subject)),
        Change::Unlink { url } => match feedback_core::link::Link::new(url, None) {
            Ok(link) => format!("unlinked {}", link.short_name()),
            Err(_) => format!("unlinked {}", Clean::line(url)),
        },
    };
    Clean::line(&words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn described(kind: &str, body: &str) -> String {
        describe(&EventChange::decode(kind, body)).to_string()
    }

    #[test]
    fn events_read_as_words_with_a_teammates_text_inert() {
        assert_eq!(described("claim", "{}"), "claimed");
        assert_eq!(
            described("assign", r#"{"to":"bo\u001b[2J"}"#),
            "assigned to bo␛"
        );
        assert_eq!(
            described("labels", r#"{"add":["crash"],"remove":["ios"]}"#),
            "labels +crash -ios"
        );
        assert_eq!(
            described("note", r#"{"note_id":"n","body":""}"#),
            "removed their note"
        );
        assert_eq!(
            described("snooze", r#"{"until":"2026-12-04T09:00:00Z"}"#),
            "snoozed until 2026-12-04T09:00:00Z"
        );
        assert_eq!(described("done", r#"{"done":false}"#), "reopened");
        let titled = described(
            "link",
            r#"{"url":"https://t.example/T-1","title":"Crash \u202enow"}"#,
        );
        assert!(titled.starts_with("linked T-1 (Crash "), "{titled}");
        assert!(!titled.contains('\u{202e}'), "{titled}");
        // A title on two lines is no link this version takes: shown by its kind.
        assert_eq!(
            described(
                "link",
                r#"{"url":"https://t.example/T-1","title":"a\u001b[2J"}"#
            ),
            "link"
        );
        assert_eq!(
            described(
                "unlink",
                r#"{"url":"https://github.com/acme/app/issues/7"}"#
            ),
            "unlinked app#7"
        );
        assert_eq!(
            described(
                "reply",
                r#"{"reply_id":"r","to":"a@example.org","subject":"Fixed \u001b[2J","body":"b"}"#
            ),
            "replied: Fixed ␛"
        );
    }

    #[test]
    fn a_kind_this_version_does_not_know_is_shown_by_its_name_inert() {
        assert_eq!(described("escalate", "{}"), "escalate");
        assert_eq!(described("esc\u{1b}[31m", "{}"), "esc␛");
    }
}
