//! The search history the `/` prompt goes through: the searches kept with Enter, newest first
//! (the store keeps them: `store::searches`), and where in it the prompt is.

use feedback_store::SEARCHES_KEPT;

/// The searches, newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchHistory {
    entries: Vec<String>,
}

impl SearchHistory {
    /// The stored searches (newest first) arrived; those kept since the inbox started stay
    /// newer.
    pub fn loaded(&mut self, stored: Vec<String>) {
        let newer = std::mem::take(&mut self.entries);
        self.entries = stored;
        for text in newer.into_iter().rev() {
            self.remember(&text);
        }
    }

    /// `text` is the newest search (blank text is not kept).
    pub(crate) fn remember(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        self.entries.retain(|e| e != text);
        self.entries.insert(0, text.to_owned());
        self.entries.truncate(SEARCHES_KEPT);
    }

    /// The `n`th newest search (0: the newest).
    #[must_use]
    pub fn get(&self, n: usize) -> Option<&str> {
        self.entries.get(n).map(String::as_str)
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The newest search from the `from`th on that holds `needle` (any case).
    #[must_use]
    pub fn find(&self, from: usize, needle: &str) -> Option<usize> {
        let needle = needle.trim().to_lowercase();
        self.entries
            .iter()
            .enumerate()
            .skip(from)
            .find(|(_, e)| e.to_lowercase().contains(&needle))
            .map(|(n, _)| n)
    }
}

/// Where the prompt is in the history while `Up`, `Down` or `Ctrl-R` go through it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Browsing {
    /// The search shown ([`SearchHistory::get`]).
    pub at: usize,
    /// What the prompt held before: `Down` past the newest puts it back; `Ctrl-R` looks for it.
    pub typed: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newest_first_once_each_the_stored_behind_what_this_run_kept() {
        let mut history = SearchHistory::default();
        history.remember("crash");
        history.remember("  ");
        history.loaded(vec!["tag:bug".into(), "crash".into(), "refund".into()]);
        assert_eq!(history.get(0), Some("crash"));
        assert_eq!(history.get(1), Some("tag:bug"));
        assert_eq!(history.len(), 3);
        assert_eq!(history.find(0, "REF"), Some(2));
        assert_eq!(history.find(1, "crash"), None);
        for n in 0..200 {
            history.remember(&format!("q{n}"));
        }
        assert_eq!(history.len(), SEARCHES_KEPT);
    }
}
