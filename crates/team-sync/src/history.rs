//! An event as a person reads it in an item's history ("claimed", "assigned to bo", "labels
//! +crash -ios", "noted: …"): the same words in `team log` and in the inbox's detail. Every name,
//! label and note in it is a teammate's text, sanitized here.

use feedback_core::text::Clean;

/// What the event of `kind` with JSON `body` did, in a few words.
#[must_use]
pub fn describe(kind: &str, body: &str) -> Clean {
    let body: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
    let text = |key: &str| {
        body.get(key)
            .and_then(|v| v.as_str())
            .map_or_else(|| Clean::fixed("?"), Clean::line)
    };
    let list = |key: &str| -> Vec<String> {
        body.get(key)
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str())
                    .map(|l| Clean::line(l).to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    let words = match kind {
        "claim" => "claimed".to_owned(),
        "unclaim" => "unclaimed".to_owned(),
        "take-over" => format!("took over from {}", text("from")),
        "assign" => format!("assigned to {}", text("to")),
        "done" => {
            if body.get("done").and_then(serde_json::Value::as_bool) == Some(true) {
                "marked done".to_owned()
            } else {
                "reopened".to_owned()
            }
        }
        "snooze" => match body.get("until").and_then(|v| v.as_str()) {
            Some(until) => format!("snoozed until {}", Clean::line(until)),
            None => "woke".to_owned(),
        },
        "labels" => {
            let mut parts: Vec<String> = list("add").into_iter().map(|l| format!("+{l}")).collect();
            parts.extend(list("remove").into_iter().map(|l| format!("-{l}")));
            format!("labels {}", parts.join(" "))
        }
        "note" => {
            let note = body.get("body").and_then(|v| v.as_str()).unwrap_or("");
            if note.trim().is_empty() {
                "removed their note".to_owned()
            } else {
                format!("noted: {}", feedback_core::excerpt::excerpt(note, 60))
            }
        }
        // A kind a newer version writes: shown as it is.
        other => Clean::line(other).to_string(),
    };
    Clean::line(&words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_read_as_words_with_a_teammates_text_inert() {
        assert_eq!(describe("claim", "{}").as_str(), "claimed");
        assert_eq!(
            describe("assign", r#"{"to":"bo\u001b[2J"}"#).as_str(),
            "assigned to bo␛"
        );
        assert_eq!(
            describe("labels", r#"{"add":["crash"],"remove":["ios"]}"#).as_str(),
            "labels +crash -ios"
        );
        assert_eq!(
            describe("note", r#"{"body":""}"#).as_str(),
            "removed their note"
        );
        assert_eq!(describe("escalate", "{}").as_str(), "escalate");
    }
}
