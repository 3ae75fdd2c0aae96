//! How qualifier values name things: an app or project by its id, name or slug, and any value
//! compared case-insensitively (so "CAFÉ" names "café"); and the list of known names an error
//! about an unknown one shows.

use crate::text::Clean;

/// Case-insensitive comparison key: Unicode lower case.
#[must_use]
pub fn fold_case(s: &str) -> String {
    s.to_lowercase()
}

/// A name as a slug: lower case, runs of anything but letters and digits become one `-`.
fn slugify(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.to_lowercase().chars() {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// True when `value` names this entity: its id (exact), name or slug (case-insensitive). The
/// command line's `--app`/`--project` match with it too, so names mean the same everywhere.
#[must_use]
pub fn names(value: &str, id: &str, name: &str, slug: Option<&str>) -> bool {
    let want = fold_case(value);
    id == value
        || fold_case(name) == want
        || slug.is_some_and(|s| fold_case(s) == want)
        || slugify(name) == want
}

/// True when `value` begins this entity's name or slug (case-insensitive): what an app or
/// project named by a prefix, unique among them, means.
#[must_use]
pub fn begins(value: &str, name: &str, slug: Option<&str>) -> bool {
    let want = fold_case(value);
    !want.is_empty()
        && (fold_case(name).starts_with(&want)
            || slug.is_some_and(|s| fold_case(s).starts_with(&want))
            || slugify(name).starts_with(&want))
}

/// "known: "a", "b" and 3 more" (each name sanitized on its own: server text), or `none`
/// when there is nothing.
#[must_use]
pub fn known_list<S: AsRef<str> + Ord>(mut known: Vec<S>, none: &str) -> Clean {
    known.sort_unstable();
    known.dedup();
    let shown: Vec<String> = known
        .iter()
        .take(8)
        .map(|n| format!("\"{}\"", Clean::line(n.as_ref())))
        .collect();
    let more = known.len().saturating_sub(shown.len());
    // Clean names in the program's words: sanitizing the whole changes nothing.
    Clean::line(&match (shown.is_empty(), more) {
        (true, _) => none.to_owned(),
        (false, 0) => format!("known: {}", shown.join(", ")),
        (false, more) => format!("known: {} and {more} more", shown.join(", ")),
    })
}
