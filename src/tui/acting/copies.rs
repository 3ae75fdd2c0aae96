//! The text of copies and pipes of one or many items, built from their details. Everything
//! that goes to the clipboard (a sink like the screen: OSC 52 especially) is [`Clean`]: each
//! value is sanitized as it is taken from the item, and the copy is assembled from those
//! values; the Markdown block keeps a message's line breaks as quoted lines. With privacy
//! mode on the email is left out of the Markdown block and masked in the JSON, and custom
//! metadata values are masked. Many items: one block per item, a blank line between (JSON:
//! one object per line, JSON lines, as `|` pipes them).

use std::fmt::Write as _;

use crate::api::FeedbackDetail;
use crate::text::Clean;
use crate::text::output::terminal_safe_json;

/// The Markdown block of one item, ready to paste into an issue: the message quoted, then the
/// app, platform, version, OS, locale, received time (UTC), reporter (unless `private`), the
/// delivery links and the item's id.
#[must_use]
pub fn markdown(detail: &FeedbackDetail, private: bool) -> Clean {
    let f = &detail.feedback;
    let mut out = String::new();
    for line in Clean::text(&f.message).split('\n') {
        let line = line.trim_end();
        if line.is_empty() {
            out.push_str(">\n");
        } else {
            let _ = writeln!(out, "> {}", md_escape(line));
        }
    }
    out.push('\n');
    let sdk = &detail.metadata.built_in;
    if let Some(app) = &f.app {
        fact(&mut out, "App", &Clean::line(&app.name));
        fact(&mut out, "Platform", &Clean::line(app.platform.as_str()));
    }
    if let Some(version) = sdk.get("appVersion") {
        let version = match sdk.get("buildNumber") {
            Some(number) => Clean::line(&format!("{version} (build {number})")),
            None => Clean::line(version),
        };
        fact(&mut out, "Version", &version);
    }
    if let Some(os) = os(sdk) {
        fact(&mut out, "OS", &os);
    }
    if let Some(locale) = sdk.get("locale") {
        fact(&mut out, "Locale", &Clean::line(locale));
    }
    let received = f.received_at.strftime("%Y-%m-%d %H:%M:%S UTC").to_string();
    fact(&mut out, "Received", &Clean::line(&received));
    if let (Some(email), false) = (&f.reporter_email, private) {
        fact(&mut out, "Reporter", &Clean::line(email));
    }
    for delivery in &detail.delivery {
        if let Some(link) = delivery.external_url.as_deref().and_then(web_link) {
            // The link is an autolink (not escaped: `web_link` normalised it); the label is
            // escaped like every value.
            let label = md_escape(&channel_label(delivery.channel.as_str()));
            let _ = writeln!(out, "- **{label}:** <{link}>");
        }
    }
    let id = Clean::line(&format!("{} ({})", f.id.as_str(), f.project.name));
    fact(&mut out, "Feedback", &id);
    // Clean values, the block's own labels and Markdown escapes: checked as a whole once
    // more, which changes nothing.
    Clean::text(&out)
}

/// One `- **Label:** value` line, the value escaped.
fn fact(out: &mut String, label: &'static str, value: &Clean) {
    let _ = writeln!(out, "- **{label}:** {}", md_escape(value));
}

/// `line` (one sanitized line) with its Markdown made inert, so a pasted block shows the text
/// as typed and pings nobody: `\` `` ` `` `*` `[` `]` `<` `>` `|` `~` `&` are escaped, `_` where
/// it could start or end emphasis (not inside a word: `fb_1` stays), `@` and `#` at a word's
/// start (mentions, issue references, headings), and a leading `-` `+` `=` or `1. ` (lists,
/// setext headings).
#[must_use]
pub fn md_escape(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len() + 8);
    let lead = chars.iter().take_while(|c| **c == ' ').count();
    let digits = chars[lead..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    for (i, &c) in chars.iter().enumerate() {
        let prev_word = i > 0 && chars[i - 1].is_alphanumeric();
        let next_word = chars.get(i + 1).is_some_and(|n| n.is_alphanumeric());
        let escape = match c {
            '\\' | '`' | '*' | '[' | ']' | '<' | '>' | '|' | '~' | '&' => true,
            '_' => !(prev_word && next_word),
            '@' | '#' => !prev_word,
            '-' | '+' | '=' => i == lead,
            '.' | ')' => {
                digits > 0 && i == lead + digits && chars.get(i + 1).is_none_or(|n| *n == ' ')
            }
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A delivery channel as a person reads it (`issue_tracker`: "Issue tracker"; an unknown one
/// as sent, sanitized).
fn channel_label(channel: &str) -> Clean {
    match channel {
        "issue_tracker" => Clean::fixed("Issue tracker"),
        "email" => Clean::fixed("Email"),
        "webhook" => Clean::fixed("Webhook"),
        other => Clean::line(other),
    }
}

/// The operating system the SDK reported, named.
fn os(sdk: &std::collections::BTreeMap<String, String>) -> Option<Clean> {
    if let Some(v) = sdk.get("iOSVersion") {
        return Some(Clean::line(&format!("iOS {v}")));
    }
    if let Some(v) = sdk.get("androidVersion") {
        return Some(Clean::line(&format!("Android {v}")));
    }
    sdk.get("osVersion").map(|v| Clean::line(v))
}

/// An http(s) link, normalised (a space or `>` cannot end the `<…>` early: the URL is
/// written in printable ASCII, so sanitizing it changes nothing); others are left out of the
/// block.
fn web_link(raw: &str) -> Option<Clean> {
    url::Url::parse(raw)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .map(|u| Clean::line(u.as_str()))
}

/// The item as JSON, as the service sent it (`show --format json`), with privacy's masks;
/// escapes and control characters written as `\u` escapes. `pretty` for one item copied,
/// else one line (JSON lines).
#[must_use]
pub fn json(detail: &FeedbackDetail, private: bool, pretty: bool) -> String {
    let shown = crate::tui::privacy::detail(detail, private);
    let text = if pretty {
        serde_json::to_string_pretty(&*shown)
    } else {
        serde_json::to_string(&*shown)
    };
    // Serializing plain data cannot fail; an empty object would say so if it did.
    terminal_safe_json(text.unwrap_or_else(|_| "{}".to_owned()))
}

/// The JSON lines `|` writes to a command's stdin: one object per item, each line ending in
/// a newline.
#[must_use]
pub fn json_lines(details: &[FeedbackDetail], private: bool) -> String {
    let mut out = String::new();
    for detail in details {
        out.push_str(&json(detail, private, false));
        out.push('\n');
    }
    out
}

/// What a copy of `details` is: its text, what the status bar calls it, and how many items
/// had nothing to give (no link).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyText {
    pub text: Clean,
    pub what: &'static str,
    pub missing: usize,
}

/// Which copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Link,
    Message,
    Id,
    Markdown,
    Json,
}

/// The text of a copy of `details`: one piece per item, in order, blank lines between
/// blocks (ids and links one per line; JSON one object per line when many). Each piece is
/// [`Clean`] as it is made.
#[must_use]
pub fn copy_text(kind: Kind, details: &[FeedbackDetail], private: bool) -> CopyText {
    let many = details.len() > 1;
    let (pieces, what): (Vec<Option<Clean>>, &'static str) = match kind {
        Kind::Link => (
            details
                .iter()
                .map(|d| d.issue_tracker_url().map(Clean::line))
                .collect(),
            if many {
                "the issue-tracker links"
            } else {
                "the issue-tracker link"
            },
        ),
        Kind::Id => (
            details
                .iter()
                .map(|d| Some(Clean::line(d.feedback.id.as_str())))
                .collect(),
            if many { "the ids" } else { "the id" },
        ),
        Kind::Message => (
            details
                .iter()
                .map(|d| Some(Clean::text(&d.feedback.message)))
                .collect(),
            if many { "the messages" } else { "the message" },
        ),
        Kind::Markdown => (
            details.iter().map(|d| Some(markdown(d, private))).collect(),
            if many {
                "the Markdown blocks"
            } else {
                "the Markdown block"
            },
        ),
        Kind::Json => (
            details
                .iter()
                // Terminal-safe JSON already: checked as the type the clipboard takes.
                .map(|d| Some(Clean::text(&json(d, private, !many))))
                .collect(),
            if many { "the JSON lines" } else { "the JSON" },
        ),
    };
    let missing = pieces.iter().filter(|p| p.is_none()).count();
    let text = match kind {
        // Each block ends in a line break: a blank line between blocks, one at the end.
        Kind::Markdown => Clean::join(&pieces.into_iter().flatten().collect::<Vec<_>>(), "\n"),
        Kind::Link | Kind::Id | Kind::Json | Kind::Message => {
            let pieces: Vec<Clean> = pieces
                .into_iter()
                .flatten()
                .map(|p| p.trim_end_breaks())
                .collect();
            let separator = if kind == Kind::Message { "\n\n" } else { "\n" };
            Clean::join(&pieces, separator)
        }
    };
    CopyText {
        text,
        what,
        missing,
    }
}

#[cfg(test)]
mod tests;
