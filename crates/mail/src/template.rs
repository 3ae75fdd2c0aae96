//! A reply's text from a template: `{app}`, `{version}`, `{ticket}` (the item's newest link),
//! `{agent}` (who replies), `{id}` and `{project}` filled in with the item's values, each made
//! one inert line first; `{{` and `}}` are braces. An unknown variable is an error naming the
//! known ones, never sent as it is. The reporter's message is quoted below the reply.

use feedback_core::text::Clean;

/// The subject of a template that gives none.
pub const DEFAULT_SUBJECT: &str = "Re: your feedback on {app}";

/// The variables a template may name.
pub const VARIABLES: [&str; 6] = ["app", "version", "ticket", "agent", "id", "project"];

/// An item's values for a template (raw: each is made one clean line when filled in).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Values {
    pub app: Option<String>,
    pub version: Option<String>,
    pub ticket: Option<String>,
    pub agent: Option<String>,
    pub id: String,
    pub project: Option<String>,
}

/// A variable's value in an item: known, the item lacking it, or no such variable.
enum Value<'a> {
    Known(&'a str),
    Lacking,
    NoSuchVariable,
}

impl Values {
    fn get(&self, name: &str) -> Value<'_> {
        let value = match name {
            "app" => self.app.as_deref(),
            "version" => self.version.as_deref(),
            "ticket" => self.ticket.as_deref(),
            "agent" => self.agent.as_deref(),
            "id" => Some(self.id.as_str()),
            "project" => self.project.as_deref(),
            _ => return Value::NoSuchVariable,
        };
        value.map_or(Value::Lacking, Value::Known)
    }
}

/// Why a template could not be filled in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    #[error(
        "unknown variable {{{0}}}; known: {{app}} {{version}} {{ticket}} {{agent}} {{id}} {{project}}"
    )]
    Unknown(Clean),
    #[error("a {{ without its }} (write {{{{ for a brace)")]
    Unclosed,
}

/// `text` with its variables filled in from `values`; a value the item lacks reads `—`.
///
/// # Errors
/// An unknown variable, or a brace left open.
pub fn fill(text: &str, values: &Values) -> Result<String, TemplateError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['{', '}']) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some(after) = tail.strip_prefix("{{") {
            out.push('{');
            rest = after;
        } else if let Some(after) = tail.strip_prefix("}}") {
            out.push('}');
            rest = after;
        } else if let Some(after) = tail.strip_prefix('}') {
            out.push('}');
            rest = after;
        } else {
            let inner = &tail[1..];
            let end = inner.find('}').ok_or(TemplateError::Unclosed)?;
            let name = inner[..end].trim();
            match values.get(name) {
                Value::Known(value) => out.push_str(&Clean::line(value)),
                Value::Lacking => out.push('—'),
                Value::NoSuchVariable => return Err(TemplateError::Unknown(Clean::line(name))),
            }
            rest = &inner[end + 1..];
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// `reply`, then the reporter's `message` quoted below it (each line `> `, made inert), with
/// when they wrote it.
#[must_use]
pub fn with_quote(reply: &str, message: &str, written: &str) -> String {
    let mut out = reply.trim_end().to_owned();
    out.push_str("\n\nOn ");
    out.push_str(&Clean::line(written));
    out.push_str(", you wrote:\n");
    for line in Clean::text(message).lines() {
        out.push('>');
        if !line.is_empty() {
            out.push(' ');
            out.push_str(line.trim_end());
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn values() -> Values {
        Values {
            app: Some("Nimbus \u{1b}[31mNotes".to_owned()),
            version: Some("3.10.0".to_owned()),
            ticket: None,
            agent: Some("Ana".to_owned()),
            id: "2qgddabg".to_owned(),
            project: Some("Nimbus".to_owned()),
        }
    }

    #[test]
    fn variables_are_filled_in_inert_and_an_unknown_one_is_refused() {
        let text = fill(
            "Hi, {app} {version} ({ticket}) — {agent}. {{not}} {id}",
            &values(),
        )
        .unwrap();
        assert_eq!(text, "Hi, Nimbus ␛Notes 3.10.0 (—) — Ana. {not} 2qgddabg");
        assert_eq!(
            fill(DEFAULT_SUBJECT, &values()).unwrap(),
            "Re: your feedback on Nimbus ␛Notes"
        );
        assert!(matches!(fill("{name}", &values()), Err(TemplateError::Unknown(n)) if n == "name"));
        assert_eq!(fill("{app", &values()), Err(TemplateError::Unclosed));
        for name in VARIABLES {
            assert!(fill(&format!("{{{name}}}"), &values()).is_ok(), "{name}");
        }
    }

    #[test]
    fn the_reporters_message_is_quoted_below_inert() {
        let text = with_quote(
            "Fixed in 3.10.1.\n",
            "It crashes\n\n\u{1b}]0;x\u{7}again",
            "2026-11-30",
        );
        assert_eq!(
            text,
            "Fixed in 3.10.1.\n\nOn 2026-11-30, you wrote:\n> It crashes\n>\n> ␛again\n"
        );
    }
}
