//! A search as typed and as parsed, kept together: the text is parsed once, where it is set,
//! and every reader (the store's compiler, the highlights, the list's columns, the triage
//! figures) takes the parsed tree from here. Two searches are the same view when their texts
//! are equal.

use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Query, QueryError, parse};

/// A search's text and what it parses to (its error when it does not parse).
#[derive(Debug, Clone)]
pub struct SearchText {
    text: String,
    parsed: Result<Arc<Query>, QueryError>,
}

impl SearchText {
    /// Parses `text` once.
    #[must_use]
    pub fn new(text: impl Into<String>) -> Self {
        let text = text.into();
        let parsed = parse(&text).map(Arc::new);
        Self { text, parsed }
    }

    /// The text as typed.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The parsed query, or why the text does not parse.
    pub fn parsed(&self) -> Result<&Query, &QueryError> {
        self.parsed.as_deref()
    }

    /// The parsed query; `None` when the text does not parse.
    #[must_use]
    pub fn query(&self) -> Option<&Query> {
        self.parsed().ok()
    }
}

/// The empty search: every item.
impl Default for SearchText {
    fn default() -> Self {
        Self::new(String::new())
    }
}

/// The same text is the same search.
impl PartialEq for SearchText {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for SearchText {}

impl PartialEq<str> for SearchText {
    fn eq(&self, other: &str) -> bool {
        self.text == other
    }
}

impl PartialEq<&str> for SearchText {
    fn eq(&self, other: &&str) -> bool {
        self.text == *other
    }
}

impl std::ops::Deref for SearchText {
    type Target = str;

    fn deref(&self) -> &str {
        &self.text
    }
}

impl From<&str> for SearchText {
    fn from(text: &str) -> Self {
        Self::new(text)
    }
}

impl From<String> for SearchText {
    fn from(text: String) -> Self {
        Self::new(text)
    }
}

impl std::fmt::Display for SearchText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// Saved as its text.
impl Serialize for SearchText {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

/// Read from its text, parsed as it is read (a text that does not parse is kept with its
/// error, as one typed would be).
impl<'de> Deserialize<'de> for SearchText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Self::new)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_text_is_parsed_once_and_kept_with_its_error() {
        let good = SearchText::new("crash tag:bug");
        assert_eq!(good.query(), Some(&parse("crash tag:bug").unwrap()));
        let bad = SearchText::new("(crash");
        assert_eq!(bad.parsed().unwrap_err(), &parse("(crash").unwrap_err());
        assert_eq!(bad.as_str(), "(crash");
    }

    #[test]
    fn searches_are_equal_by_text_and_saved_as_text() {
        assert_eq!(SearchText::new("a b"), SearchText::from("a b"));
        assert_ne!(SearchText::new("a b"), SearchText::new("a  b"));
        let json = serde_json::to_string(&SearchText::new("x \"y\"")).unwrap();
        assert_eq!(json, r#""x \"y\"""#);
        let back: SearchText = serde_json::from_str(&json).unwrap();
        assert_eq!(back, "x \"y\"");
        assert!(back.query().is_some());
    }
}
