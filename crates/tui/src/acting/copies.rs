//! The text of copies and pipes of one or many items, built from their details. Everything
//! that goes to the clipboard (a sink like the screen: OSC 52 especially) is [`Clean`]: each
//! value is sanitized as it is taken from the item, and the copy is assembled from those
//! values; the Markdown block keeps a message's line breaks as quoted lines. With privacy
//! mode on the email and the note are left out of the Markdown block and masked in the JSON,
//! and custom metadata values are masked. Many items: one block per item, a rule between
//! (JSON: one object per line, JSON lines, as `|` pipes them).

use std::fmt::Write as _;

use serde::Serialize;

use feedback_api::FeedbackDetail;
use feedback_core::text::Clean;
use feedback_core::text::output::terminal_safe_json;
use feedback_store::Triage;

/// An item as it is copied or piped: its detail, the user's triage state, and the team's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copied {
    pub detail: FeedbackDetail,
    /// As stored (a snooze already over reads as none).
    pub triage: Triage,
    /// With a team, when the team touched the item.
    pub team: Option<TeamCopy>,
    /// The item's links (tickets), oldest first.
    pub links: Vec<crate::team::ShownLink>,
}

impl Copied {
    /// An item nobody triaged.
    #[must_use]
    pub fn untriaged(detail: FeedbackDetail) -> Self {
        Self {
            detail,
            triage: Triage::default(),
            team: None,
            links: Vec::new(),
        }
    }
}

/// The team's state of a copied item: its owner, labels, and the other members' notes (this
/// member's own is the triage note).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TeamCopy {
    pub owner: Option<Clean>,
    pub labels: Clean,
    /// Author and text, oldest first.
    pub notes: Vec<(Clean, Clean)>,
}

impl TeamCopy {
    /// The copy of `shown`, as member `me` sees it.
    #[must_use]
    pub fn of(shown: &crate::team::TeamShown, me: Option<&str>) -> Self {
        Self {
            owner: shown.owner_shown.clone(),
            labels: shown.labels.clone(),
            notes: shown
                .notes
                .iter()
                .filter(|(author, ..)| Some(author.as_str()) != me)
                .map(|(_, author, body, _)| (author.clone(), body.clone()))
                .collect(),
        }
    }
}

/// The Markdown block of one item, ready to paste into an issue: the message quoted, then the
/// app, platform, version, OS, locale, tags, received time (UTC), reporter (unless `private`),
/// with a team its owner and labels, the delivery links, the item's links (tickets), the notes,
/// yours and teammates' (unless `private`), and the item's id.
#[must_use]
pub fn markdown(item: &Copied, private: bool) -> Clean {
    let detail = &item.detail;
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
    if !f.tags.is_empty() {
        fact(&mut out, "Tags", &Clean::line(&f.tags.join(", ")));
    }
    let received = f.received_at.strftime("%Y-%m-%d %H:%M:%S UTC").to_string();
    fact(&mut out, "Received", &Clean::line(&received));
    if let (Some(email), false) = (&f.reporter_email, private) {
        fact(&mut out, "Reporter", &Clean::line(email));
    }
    if let Some(team) = &item.team {
        let owner = team.owner.clone().unwrap_or_else(|| Clean::fixed("nobody"));
        fact(&mut out, "Owner", &owner);
        if !team.labels.is_empty() {
            fact(&mut out, "Labels", &team.labels);
        }
    }
    for delivery in &detail.delivery {
        if let Some(link) = delivery.external_url.as_deref().and_then(web_link) {
            // The link is an autolink (not escaped: `web_link` normalised it); the label is
            // escaped like every value.
            let label = md_escape(&channel_label(delivery.channel.as_str()));
            let _ = writeln!(out, "- **{label}:** <{link}>");
        }
    }
    for link in &item.links {
        // The address is in its normal form, printable ASCII with `<`, `>` and spaces escaped:
        // an autolink as it is. The title is escaped like every value.
        match &link.title {
            Some(title) => {
                let _ = writeln!(out, "- **Ticket:** <{}> {}", link.url, md_escape(title));
            }
            None => {
                let _ = writeln!(out, "- **Ticket:** <{}>", link.url);
            }
        }
    }
    if let (Some(note), false) = (&item.triage.note, private) {
        // The note's lines as one: the block's facts are one line each.
        fact(&mut out, "Note", &Clean::line(note.trim()));
    }
    for (author, body) in item.team.iter().flat_map(|t| &t.notes).filter(|_| !private) {
        let line = Clean::line(&format!("{author}: {}", body.trim()));
        fact(&mut out, "Teammate's note", &line);
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
pub(crate) fn md_escape(line: &str) -> String {
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

/// The item as JSON, as the service sent it (`show --format json`), with privacy's masks and
/// the user's triage state under `triage` (its note masked by privacy too) and its links under
/// `links`; escapes and
/// control characters written as `\u` escapes. `pretty` for one item copied, else one line
/// (JSON lines).
#[must_use]
pub fn json(item: &Copied, private: bool, pretty: bool) -> String {
    let shown = crate::privacy::detail(&item.detail, private);
    let t = &item.triage;
    let note = t.note.as_deref().map(|n| crate::privacy::value(n, private));
    let links = item
        .links
        .iter()
        .map(|l| LinkJson {
            url: l.link.url(),
            title: l.link.title(),
            by: l.by.as_deref(),
            at: l.at,
            pending: l.pending,
        })
        .collect();
    let value = WithTriage {
        detail: &shown,
        triage: TriageJson {
            seen: t.seen,
            starred: t.starred,
            done: t.done,
            snoozed_until: t.snoozed_until,
            note: note.as_deref(),
        },
        links,
    };
    let text = if pretty {
        serde_json::to_string_pretty(&value)
    } else {
        serde_json::to_string(&value)
    };
    // Serializing plain data cannot fail; an empty object would say so if it did.
    terminal_safe_json(text.unwrap_or_else(|_| "{}".to_owned()))
}

/// The item's JSON: the service's shape, `triage`, and `links`.
#[derive(Serialize)]
struct WithTriage<'a> {
    #[serde(flatten)]
    detail: &'a FeedbackDetail,
    triage: TriageJson<'a>,
    links: Vec<LinkJson<'a>>,
}

/// A link in the item's JSON, as `show --format json` writes it.
#[derive(Serialize)]
struct LinkJson<'a> {
    url: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    by: Option<&'a str>,
    at: jiff::Timestamp,
    pending: bool,
}

#[derive(Serialize)]
struct TriageJson<'a> {
    seen: bool,
    starred: bool,
    done: bool,
    snoozed_until: Option<jiff::Timestamp>,
    note: Option<&'a str>,
}

/// The JSON lines `|` writes to a command's stdin: one object per item, each line ending in
/// a newline.
#[must_use]
pub(crate) fn json_lines(items: &[Copied], private: bool) -> String {
    let mut out = String::new();
    for item in items {
        out.push_str(&json(item, private, false));
        out.push('\n');
    }
    out
}

/// What a copy of `details` is: its text, what the status bar calls it, and how many items
/// had nothing to give (no link).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CopyText {
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

/// The text of a copy of `items`: one piece per item, in order, a rule between Markdown
/// blocks, blank lines between messages (ids and links one per line; JSON one object per line
/// when many). Each piece is [`Clean`] as it is made.
#[must_use]
pub(crate) fn copy_text(kind: Kind, items: &[Copied], private: bool) -> CopyText {
    let many = items.len() > 1;
    let details = || items.iter().map(|i| &i.detail);
    let (pieces, what): (Vec<Option<Clean>>, &'static str) = match kind {
        Kind::Link => (
            details()
                .map(|d| d.issue_tracker_url().map(Clean::line))
                .collect(),
            if many {
                "the issue-tracker links"
            } else {
                "the issue-tracker link"
            },
        ),
        Kind::Id => (
            details()
                .map(|d| Some(Clean::line(d.feedback.id.as_str())))
                .collect(),
            if many { "the ids" } else { "the id" },
        ),
        Kind::Message => (
            details()
                .map(|d| Some(Clean::text(&d.feedback.message)))
                .collect(),
            if many { "the messages" } else { "the message" },
        ),
        Kind::Markdown => (
            items.iter().map(|i| Some(markdown(i, private))).collect(),
            if many {
                "the Markdown blocks"
            } else {
                "the Markdown block"
            },
        ),
        Kind::Json => (
            items
                .iter()
                // Terminal-safe JSON already: checked as the type the clipboard takes.
                .map(|i| Some(Clean::text(&json(i, private, !many))))
                .collect(),
            if many { "the JSON lines" } else { "the JSON" },
        ),
    };
    let missing = pieces.iter().filter(|p| p.is_none()).count();
    let text = match kind {
        // Each block ends in a line break: a rule between blocks, blank lines around it (so
        // it is never read as a heading's underline), one line break at the end.
        Kind::Markdown => Clean::join(
            &pieces.into_iter().flatten().collect::<Vec<_>>(),
            "\n---\n\n",
        ),
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
