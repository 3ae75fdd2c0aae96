//! `feedback-inbox show ID`: one item as readable text (sanitized) or as JSON (original text).

use std::io::Write;

use clap::Args;
use jiff::tz::TimeZone;

use super::CliError;
use super::output::ShowFormat;
use feedback_api::detail_fields::{DetailFields, detail_fields};
use feedback_api::{Client, FeedbackDetail};
use feedback_core::text::Clean;
use feedback_core::width::{fit, width};

#[derive(Debug, Clone, Args)]
pub struct ShowArgs {
    /// The feedback item's short id.
    pub id: String,
    #[arg(long, value_enum, default_value_t = ShowFormat::Text)]
    pub format: ShowFormat,
}

pub async fn run(client: &Client, args: &ShowArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let detail = client.get_feedback(&args.id).await?;
    match args.format {
        ShowFormat::Json => {
            let json = super::output::terminal_safe_json(serde_json::to_string_pretty(&detail)?);
            writeln!(out, "{json}")?;
        }
        ShowFormat::Text => {
            let text = render_text(&detail, jiff::Timestamp::now(), &TimeZone::system());
            out.write_all(text.as_bytes())?;
        }
    }
    out.flush()?;
    Ok(())
}

/// The text form, built only from [`detail_fields`], so every value printed is sanitized.
#[must_use]
pub fn render_text(detail: &FeedbackDetail, now: jiff::Timestamp, tz: &TimeZone) -> String {
    let DetailFields {
        message,
        facts,
        built_in,
        custom,
        delivery,
    } = detail_fields(detail, now, tz);
    let mut lines: Vec<String> = facts
        .into_iter()
        .map(|(label, value)| format!("{}{value}", fit(label, 11)))
        .collect();
    lines.push(String::new());
    lines.push("Message".to_owned());
    lines.extend(message.lines().map(|line| format!("  {line}")));
    push_pairs(&mut lines, "Metadata (built-in)", built_in);
    push_pairs(&mut lines, "Metadata (custom)", custom);
    let delivery = delivery.into_iter().map(|d| {
        let link = d.link.map(|u| format!("  {u}")).unwrap_or_default();
        (d.channel, Clean::line(&format!("{}{link}", d.status)))
    });
    push_pairs(&mut lines, "Delivery", delivery.collect());
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// A titled, aligned key/value list (skipped when empty).
fn push_pairs(lines: &mut Vec<String>, title: &str, pairs: Vec<(Clean, Clean)>) {
    if pairs.is_empty() {
        return;
    }
    let cells = pairs.iter().map(|(k, _)| width(k)).max().unwrap_or(0);
    lines.push(String::new());
    lines.push(title.to_owned());
    for (key, value) in pairs {
        lines.push(format!("  {}  {value}", fit(&key, cells)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_view_is_sanitized_and_aligned() {
        let json = r#"{"id":"ab12","message":"line one\n\u001b]0;title\u0007two","reporter_email":null,
            "status":"new","received_at":"2026-01-02T03:04:05Z","tags":["bug","ui"],"app":null,
            "project":{"id":"p1","name":"Proj"},
            "metadata":{"built_in":{"appVersion":"1.2","locale":"de-DE"},"custom":{}},
            "delivery":[{"channel":"issue_tracker","status":"delivered","external_url":"https://x.example/1"},
                        {"channel":"pager","status":"queued","external_url":null}]}"#;
        let detail: FeedbackDetail = serde_json::from_str(json).unwrap();
        let now: jiff::Timestamp = "2026-01-05T03:04:05Z".parse().unwrap();
        let text = render_text(&detail, now, &TimeZone::UTC);
        assert!(
            text.contains("Received   2026-01-02 03:04:05 UTC (3d ago)"),
            "{text}"
        );
        assert!(text.contains("  line one\n  ␛two"), "{text}");
        assert!(
            text.contains("  appVersion  1.2\n  locale      de-DE"),
            "{text}"
        );
        assert!(
            text.contains("issue_tracker  delivered  https://x.example/1"),
            "{text}"
        );
        assert!(text.contains("pager          queued"), "{text}");
        assert!(!text.contains("Metadata (custom)"));
        assert!(!text.chars().any(|c| c.is_control() && c != '\n'));
    }
}
