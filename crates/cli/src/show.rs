//! `feedback-inbox show ID`: one item as readable text (sanitized) or as JSON (original text),
//! with the links the local store holds on it (tickets: `links`).

use std::fmt::Write as _;
use std::io::Write;

use clap::Args;
use jiff::tz::TimeZone;

use super::CliError;
use super::output::ShowFormat;
use feedback_api::detail_fields::{DetailFields, detail_fields};
use feedback_api::{Client, FeedbackDetail};
use feedback_core::text::Clean;
use feedback_core::width::{fit, width};
use feedback_team_sync::SharedLink;

#[derive(Debug, Clone, Args)]
pub struct ShowArgs {
    /// The feedback item's short id.
    pub id: String,
    #[arg(long, value_enum, default_value_t = ShowFormat::Text)]
    pub format: ShowFormat,
}

pub async fn run(
    client: &Client,
    store: Option<feedback_store::Store>,
    args: &ShowArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let detail = client.get_feedback(&args.id).await?;
    let links = match &store {
        Some(store) => feedback_team_sync::links_now(store, &[detail.feedback.id.to_string()])?
            .into_values()
            .next()
            .unwrap_or_default(),
        None => Vec::new(),
    };
    match args.format {
        ShowFormat::Json => {
            let mut json = serde_json::to_value(&detail)?;
            if let Some(object) = json.as_object_mut() {
                object.insert("links".to_owned(), serde_json::to_value(&links)?);
            }
            let json = super::output::terminal_safe_json(serde_json::to_string_pretty(&json)?);
            writeln!(out, "{json}")?;
        }
        ShowFormat::Text => {
            let mut text = render_text(&detail, jiff::Timestamp::now(), &TimeZone::system());
            text.push_str(&links_text(&links));
            out.write_all(text.as_bytes())?;
        }
    }
    out.flush()?;
    Ok(())
}

/// The Links section of the text form (empty without links): each ticket's short name, its
/// address and title, and who linked it.
fn links_text(links: &[SharedLink]) -> String {
    if links.is_empty() {
        return String::new();
    }
    let mut text = "\nLinks\n".to_owned();
    for l in links {
        let title = l
            .link
            .title()
            .map(|t| format!("  {}", Clean::line(t)))
            .unwrap_or_default();
        let by =
            l.by.as_deref()
                .map(|b| format!("  by {}", Clean::line(b)))
                .unwrap_or_default();
        let pending = if l.pending { "  (not yet sent)" } else { "" };
        let _ = writeln!(
            text,
            "  {}  {}{title}{by}{pending}",
            l.link.short_name(),
            Clean::line(l.link.url())
        );
    }
    text
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

    #[test]
    fn the_links_section_names_each_ticket_inertly() {
        let link =
            |url: &str, title: Option<&str>| feedback_core::link::Link::new(url, title).unwrap();
        let links = [
            SharedLink {
                link: link(
                    "https://t.example/TICKET-26944",
                    Some("Crash \u{202e}on start"),
                ),
                by: Some("bo\u{1b}[2J".to_owned()),
                at: jiff::Timestamp::UNIX_EPOCH,
                pending: false,
            },
            SharedLink {
                link: link("https://docs.example/crash", None),
                by: None,
                at: jiff::Timestamp::UNIX_EPOCH,
                pending: true,
            },
        ];
        let text = links_text(&links);
        assert!(
            text.starts_with("\nLinks\n  TICKET-26944  https://t.example/TICKET-26944  Crash "),
            "{text}"
        );
        assert!(text.contains("  by bo␛"), "{text}");
        assert!(
            text.contains("  crash  https://docs.example/crash  (not yet sent)\n"),
            "{text}"
        );
        assert!(
            !text
                .chars()
                .any(|c| (c.is_control() && c != '\n') || c == '\u{202e}'),
            "{text}"
        );
        assert_eq!(links_text(&[]), "");
    }
}
