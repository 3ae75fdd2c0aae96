//! The team's labels as members type them: `+name` adds, `-name` removes. A label is trimmed,
//! one line, 1 to 64 characters; the team keeps it as typed (it is sanitized where shown).

/// The labels to add and to remove, from words like `+crash -ios`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LabelChanges {
    pub add: Vec<String>,
    pub remove: Vec<String>,
    /// The words that were neither (item ids, for the command line).
    pub other: Vec<String>,
}

/// Splits `words` into labels to add, labels to remove and the rest.
///
/// # Errors
/// A `+` or `-` word whose label is empty, too long, or holds a control character.
pub fn parse<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<LabelChanges, String> {
    let mut changes = LabelChanges::default();
    for word in words {
        // `-` alone is no label: the command line's "ids from stdin".
        if word == "-" {
            changes.other.push(word.to_owned());
        } else if let Some(label) = word.strip_prefix('+') {
            changes.add.push(label_name(label)?);
        } else if let Some(label) = word.strip_prefix('-') {
            changes.remove.push(label_name(label)?);
        } else {
            changes.other.push(word.to_owned());
        }
    }
    Ok(changes)
}

/// A label as the team keeps it.
fn label_name(label: &str) -> Result<String, String> {
    let label = label.trim();
    if label.is_empty() || label.chars().count() > 64 || label.chars().any(char::is_control) {
        return Err(format!(
            "a label is 1 to 64 characters on one line: {:?}",
            feedback_core::text::Clean::line(label).as_str()
        ));
    }
    Ok(label.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_into_labels_added_removed_and_the_rest() {
        let changes = parse(["fb_1", "+bug", "fb_2", "-ios", "+ crash ", "-"]).unwrap();
        assert_eq!(changes.other, ["fb_1", "fb_2", "-"]);
        assert_eq!(changes.add, ["bug", "crash"]);
        assert_eq!(changes.remove, ["ios"]);
        assert!(parse(["+"]).is_err());
        assert!(parse(["+a\u{1b}b"]).is_err());
        assert!(parse([&*format!("+{}", "x".repeat(65))]).is_err());
    }
}
