//! The text of copies and pipes of one or many items, built from their details. Everything
//! that goes to the clipboard (a sink like the screen: OSC 52 especially) is sanitized here;
//! the Markdown block keeps a message's line breaks as quoted lines. With privacy mode on the
//! email is left out of the Markdown block and masked in the JSON, and custom metadata
//! values are masked. Many items: one block per item, a blank line between (JSON: one object
//! per line, JSON lines, as `|` pipes them).

use std::fmt::Write as _;

use crate::api::FeedbackDetail;
use crate::text::output::terminal_safe_json;
use crate::text::{Clean, sanitize, sanitize_line};

/// The Markdown block of one item, ready to paste into an issue: the message quoted, then the
/// app, platform, version, OS, locale, received time (UTC), reporter (unless `private`), the
/// delivery links and the item's id.
#[must_use]
pub fn markdown(detail: &FeedbackDetail, private: bool) -> String {
    let f = &detail.feedback;
    let mut out = String::new();
    for line in sanitize(&f.message).split('\n') {
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
        fact(&mut out, "App", &app.name);
        fact(&mut out, "Platform", app.platform.as_str());
    }
    if let Some(version) = sdk.get("appVersion") {
        match sdk.get("buildNumber") {
            Some(number) => fact(&mut out, "Version", &format!("{version} (build {number})")),
            None => fact(&mut out, "Version", version),
        }
    }
    if let Some(os) = os(sdk) {
        fact(&mut out, "OS", &os);
    }
    if let Some(locale) = sdk.get("locale") {
        fact(&mut out, "Locale", locale);
    }
    let received = f.received_at.strftime("%Y-%m-%d %H:%M:%S UTC").to_string();
    fact(&mut out, "Received", &received);
    if let (Some(email), false) = (&f.reporter_email, private) {
        fact(&mut out, "Reporter", email);
    }
    for delivery in &detail.delivery {
        if let Some(link) = delivery.external_url.as_deref().and_then(web_link) {
            // The link is an autolink (not escaped: `web_link` normalised it); the label is
            // the service's text, sanitized and escaped like every value.
            let label = md_escape(&sanitize_line(&channel_label(delivery.channel.as_str())));
            let _ = writeln!(out, "- **{label}:** <{link}>");
        }
    }
    fact(
        &mut out,
        "Feedback",
        &format!("{} ({})", f.id.as_str(), f.project.name),
    );
    out
}

/// One `- **Label:** value` line, the value sanitized and escaped.
fn fact(out: &mut String, label: &str, value: &str) {
    let _ = writeln!(out, "- **{label}:** {}", md_escape(&sanitize_line(value)));
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
/// as sent: the caller sanitizes and escapes it).
fn channel_label(channel: &str) -> String {
    match channel {
        "issue_tracker" => "Issue tracker".to_owned(),
        "email" => "Email".to_owned(),
        "webhook" => "Webhook".to_owned(),
        other => other.to_owned(),
    }
}

/// The operating system the SDK reported, named.
fn os(sdk: &std::collections::BTreeMap<String, String>) -> Option<String> {
    if let Some(v) = sdk.get("iOSVersion") {
        return Some(format!("iOS {v}"));
    }
    if let Some(v) = sdk.get("androidVersion") {
        return Some(format!("Android {v}"));
    }
    sdk.get("osVersion").cloned()
}

/// An http(s) link, normalised (a space or `>` cannot end the `<…>` early); others are left
/// out of the block.
fn web_link(raw: &str) -> Option<String> {
    url::Url::parse(raw)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .map(String::from)
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
/// blocks (ids and links one per line; JSON one object per line when many).
#[must_use]
pub fn copy_text(kind: Kind, details: &[FeedbackDetail], private: bool) -> CopyText {
    let many = details.len() > 1;
    let (pieces, what): (Vec<Option<String>>, &'static str) = match kind {
        Kind::Link => (
            details
                .iter()
                .map(|d| d.issue_tracker_url().map(|u| sanitize_line(u).into_owned()))
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
                .map(|d| Some(sanitize_line(d.feedback.id.as_str()).into_owned()))
                .collect(),
            if many { "the ids" } else { "the id" },
        ),
        Kind::Message => (
            details
                .iter()
                .map(|d| Some(sanitize(&d.feedback.message).into_owned()))
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
                .map(|d| Some(json(d, private, !many)))
                .collect(),
            if many { "the JSON lines" } else { "the JSON" },
        ),
    };
    let missing = pieces.iter().filter(|p| p.is_none()).count();
    let pieces: Vec<String> = pieces.into_iter().flatten().collect();
    let separator = match kind {
        Kind::Link | Kind::Id | Kind::Json => "\n",
        Kind::Message | Kind::Markdown => "\n\n",
    };
    let joined = pieces
        .iter()
        .map(|p| p.trim_end_matches('\n'))
        .collect::<Vec<_>>()
        .join(separator);
    let text = if kind == Kind::Markdown && !joined.is_empty() {
        format!("{joined}\n")
    } else {
        joined
    };
    CopyText {
        // Every piece is sanitized as it is made (as a line, or keeping its line breaks);
        // the whole is checked once more as the type the clipboard takes.
        text: Clean::text(&text),
        what,
        missing,
    }
}

#[cfg(test)]
mod tests;
