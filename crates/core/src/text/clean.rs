//! [`Clean`]: text that is inert on a terminal, in a copy and in a table cell. It can only be
//! made by sanitizing ([`Clean::line`], [`Clean::text`]) or from text written in the program
//! ([`Clean::fixed`]), so a sink that takes a `Clean` (the list's rows, the panes, a copy, a
//! table cell) cannot be handed the service's raw bytes: the compiler finds such a sink.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Mode, clean};

/// Sanitized text: one line ([`Clean::line`]) or several ([`Clean::text`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Clean(Box<str>);

impl Clean {
    /// `raw` as one line: line breaks and tabs become spaces (see [`super::sanitize_line`]).
    #[must_use]
    pub fn line(raw: &str) -> Self {
        Self(clean(raw, Mode::Line).into())
    }

    /// `raw` with its line breaks kept (see [`super::sanitize`]).
    #[must_use]
    pub fn text(raw: &str) -> Self {
        Self(clean(raw, Mode::Multi).into())
    }

    /// Text the program itself writes (a label, a placeholder).
    #[must_use]
    pub fn fixed(text: &'static str) -> Self {
        Self::text(text)
    }

    /// Clean parts joined with `separator` (one line when the parts and separator are).
    #[must_use]
    pub fn join(parts: &[Clean], separator: &'static str) -> Self {
        let joined = parts
            .iter()
            .map(Clean::as_str)
            .collect::<Vec<_>>()
            .join(separator);
        // Each part is clean; checked again as a whole, which costs a scan and changes nothing.
        Self::text(&joined)
    }

    /// The first line that is not blank ([`super::output::first_line`]): a line of clean text
    /// is a clean line, so it is not scanned again.
    #[must_use]
    pub fn first_line(&self) -> Self {
        Self(super::output::first_line(&self.0).into())
    }

    /// Without its trailing line breaks: what is left of clean text is clean, so it is not
    /// scanned again.
    #[must_use]
    pub fn trim_end_breaks(&self) -> Self {
        Self(self.0.trim_end_matches('\n').into())
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    #[must_use]
    pub fn into_string(self) -> String {
        self.0.into_string()
    }
}

impl std::ops::Deref for Clean {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Clean {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Clean {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a terminal widget takes (a ratatui `Span`, say).
impl From<Clean> for std::borrow::Cow<'static, str> {
    fn from(clean: Clean) -> Self {
        std::borrow::Cow::Owned(clean.into_string())
    }
}

impl From<Clean> for String {
    fn from(clean: Clean) -> Self {
        clean.into_string()
    }
}

impl PartialEq<str> for Clean {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Clean {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

/// Written as its text.
impl Serialize for Clean {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

/// Read back as one line, sanitized again: a saved file is outside the program's hands.
impl<'de> Deserialize<'de> for Clean {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        Ok(Self::line(&raw))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn clean_text_is_made_only_by_sanitizing() {
        assert_eq!(Clean::line("a\u{1b}[2Jb\nc"), "a␛b c");
        assert_eq!(Clean::text("a\u{1b}]52;c;eA==\u{7}b\nc"), "a␛b\nc");
        assert_eq!(Clean::line("x\u{202E}y"), "x\u{FFFD}y");
        let joined = Clean::join(&[Clean::line("#a\u{1b}"), Clean::line("#b")], " ");
        assert_eq!(
            joined, "#a␛ #b",
            "a cut-off escape never takes the next part"
        );
        assert_eq!(Clean::text("a\r\nb\r\n\n").trim_end_breaks(), "a\nb");
    }

    #[test]
    fn a_saved_label_is_sanitized_again_as_it_is_read() {
        let read: Clean = serde_json::from_str(r#""evil\u001b[31m name""#).unwrap();
        assert_eq!(read, "evil␛ name");
        assert_eq!(serde_json::to_string(&read).unwrap(), r#""evil␛ name""#);
    }
}
