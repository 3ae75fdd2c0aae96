//! Completing the word before the cursor in the search prompt (`Tab`): a qualifier's name
//! (`ver` → `version:`), or after a qualifier, one of its values: the ones this module knows
//! (`has:`, `is:`, `status:`, `platform:`) and the ones the caller knows (stored apps,
//! projects, tags, versions, OS versions, locales, `meta.KEY:` values, views' names), best first: those that begin with what was typed, then those that contain
//! it. A value with a space is quoted; one with a quote cannot be written and is left out.

/// What can complete the word before the cursor: it starts at byte `start` of the text, and
/// each candidate replaces it whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completions {
    pub start: usize,
    pub candidates: Vec<String>,
}

/// The completions of the word that ends `before` (the prompt's text up to the cursor);
/// `values(name)` gives the stored values of a qualifier (`app`, `project`, `tag`, `version`,
/// `meta.plan`: lower case), best first.
/// `None` when nothing completes it.
#[must_use]
pub fn complete(before: &str, values: impl Fn(&str) -> Vec<String>) -> Option<Completions> {
    let start = word_start(before);
    let word = &before[start..];
    let candidates: Vec<String> = match word.split_once(':') {
        None => {
            let typed = word.to_lowercase();
            // A negated word keeps its `-`.
            let (sign, typed) = match typed.strip_prefix('-') {
                Some(rest) => ("-", rest.to_owned()),
                None => ("", typed),
            };
            super::qualifier::QUALIFIERS
                .iter()
                .filter(|q| q.starts_with(&typed) && **q != typed)
                .map(|q| format!("{sign}{q}"))
                .collect()
        }
        Some((name, typed)) => {
            let bare = name.trim_start_matches('-').to_lowercase();
            let typed = typed.trim_start_matches('"').to_lowercase();
            let mut all: Vec<String> = super::qualifier::known_values(&bare)
                .iter()
                .map(|v| (*v).to_owned())
                .collect();
            for value in values(&bare) {
                if !all.iter().any(|v| v.to_lowercase() == value.to_lowercase()) {
                    all.push(value);
                }
            }
            let begins = all.iter().filter(|v| v.to_lowercase().starts_with(&typed));
            let contains = all.iter().filter(|v| {
                let v = v.to_lowercase();
                !v.starts_with(&typed) && v.contains(&typed)
            });
            begins
                .chain(contains)
                .filter(|v| !v.contains('"') && !v.is_empty())
                .map(|v| {
                    if v.chars().any(char::is_whitespace) {
                        format!("{name}:\"{v}\"")
                    } else {
                        format!("{name}:{v}")
                    }
                })
                .filter(|c| c != word)
                .collect()
        }
    };
    (!candidates.is_empty()).then_some(Completions { start, candidates })
}

/// Where the last word of `text` starts: after the last space outside quotes.
fn word_start(text: &str) -> usize {
    let mut start = 0;
    let mut quoted = false;
    for (at, c) in text.char_indices() {
        if c == '"' {
            quoted = !quoted;
        } else if c.is_whitespace() && !quoted {
            start = at + c.len_utf8();
        }
    }
    start
}

#[cfg(test)]
mod tests {
    use super::{Completions, complete};

    fn stored(name: &str) -> Vec<String> {
        match name {
            "app" => vec![
                "Trailhead iOS".into(),
                "Nimbus Notes Web".into(),
                "Ledger\"ly".into(),
            ],
            "tag" => vec!["bug".into(), "crash".into(), "billing".into()],
            _ => Vec::new(),
        }
    }

    fn candidates(before: &str) -> Vec<String> {
        complete(before, stored)
            .map(|c| c.candidates)
            .unwrap_or_default()
    }

    #[test]
    fn a_qualifiers_beginning_completes_to_its_name() {
        assert_eq!(
            complete("crash ver", stored),
            Some(Completions {
                start: 6,
                candidates: vec!["version:".into()],
            })
        );
        assert_eq!(candidates("a"), ["app:", "after:", "age:", "assignee:"]);
        assert_eq!(candidates("-ta"), ["-tag:"]);
        assert!(candidates("zz").is_empty(), "nothing completes it");
    }

    #[test]
    fn a_qualifiers_values_complete_best_first_quoted_where_needed() {
        // Those that begin with what was typed, then those that contain it.
        assert_eq!(candidates("tag:b"), ["tag:bug", "tag:billing"]);
        assert_eq!(candidates("tag:i"), ["tag:billing"]);
        assert_eq!(
            candidates("crash app:o"),
            ["app:\"Trailhead iOS\"", "app:\"Nimbus Notes Web\""]
        );
        assert_eq!(
            complete("x app:\"trail", stored).map(|c| (c.start, c.candidates)),
            Some((2, vec!["app:\"Trailhead iOS\"".to_owned()]))
        );
        assert_eq!(
            candidates("is:s"),
            ["is:seen", "is:starred", "is:snoozed", "is:unseen"]
        );
        assert_eq!(
            candidates("platform:"),
            ["platform:ios", "platform:android", "platform:web"]
        );
        // A value with a quote cannot be written as a qualifier's value.
        assert!(!candidates("app:l").iter().any(|c| c.contains("Ledger")));
        // What is typed whole is no completion of itself.
        assert!(candidates("tag:bug").is_empty());
    }
}
