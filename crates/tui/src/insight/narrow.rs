//! What `Enter` on a group does to the list: the filter (pane or search qualifier) that lists
//! exactly the group's items on top of the view the groups are of, and the mask privacy mode
//! puts over the values of such qualifiers wherever a search is shown.

use jiff::civil::Date;

use feedback_store::pivot::{By, Group};

/// Why a group cannot narrow the list.
pub const NO_NARROW: &str = "cannot narrow to the items without a value";

/// What choosing a group does to the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Narrow {
    /// Filter the app pane by this app id.
    App(String),
    /// Filter the tag pane by this tag.
    Tag(String),
    /// Append this qualifier text to the search.
    Search(String),
}

/// How to narrow the list to `group` of a pivot by `by`. `pane_tag`: the tag pane already
/// filters, so a tag group is a search term (replacing the pane's tag would drop it).
pub fn narrow(by: &By, group: &Group, pane_tag: bool) -> Result<Narrow, String> {
    let Some(key) = group.key.as_deref() else {
        // The search language can say "without an app / a tag"; not "without a version".
        return match by {
            By::App => Ok(Narrow::Search("-has:app".to_owned())),
            By::Tag => Ok(Narrow::Search("-has:tag".to_owned())),
            _ => Err(NO_NARROW.to_owned()),
        };
    };
    Ok(match by {
        By::App => Narrow::App(key.to_owned()),
        By::Tag if pane_tag => Narrow::Search(qualifier("tag", key)),
        By::Tag => Narrow::Tag(key.to_owned()),
        By::Platform => Narrow::Search(qualifier("platform", key)),
        // A version group is one app's (or of the items without an app): its items are that
        // app's with that version.
        By::Version => Narrow::Search(match group.app_word.as_ref().or(group.app.as_ref()) {
            Some(app) => format!("{} {}", qualifier("app", app), qualifier("version", key)),
            None => format!("-has:app {}", qualifier("version", key)),
        }),
        By::Os => Narrow::Search(os(group, key)),
        By::Locale => Narrow::Search(qualifier("locale", key)),
        By::Meta(name) => Narrow::Search(qualifier(&format!("meta.{name}"), key)),
        By::Day => {
            let day: Date = key.parse().map_err(|_| format!("bad day {key:?}"))?;
            Narrow::Search(range(day, day.tomorrow().map_err(|e| e.to_string())?))
        }
        By::Week => {
            let first = week_start(key).ok_or_else(|| format!("bad week {key:?}"))?;
            let next = first
                .checked_add(jiff::Span::new().days(7))
                .map_err(|e| e.to_string())?;
            Narrow::Search(range(first, next))
        }
    })
}

/// The OS pivot tells "iOS 17" from "Android 17" (same key): `os:` would match both, so the
/// platform's own key is named (`meta.iOSVersion:17`); an unknown label falls back to `os:`.
fn os(group: &Group, key: &str) -> String {
    let label = group.label.as_deref().unwrap_or_default();
    if label.starts_with("iOS ") {
        qualifier("meta.iOSVersion", key)
    } else if label.starts_with("Android ") {
        qualifier("meta.androidVersion", key)
    } else {
        qualifier("os", key)
    }
}

/// `name:value`, the value quoted when it has a space, a quote or a parenthesis.
fn qualifier(name: &str, value: &str) -> String {
    if value.is_empty() || value.contains(|c: char| c.is_whitespace() || "()\"".contains(c)) {
        // A quote cannot be escaped in the search language: it is dropped from the phrase.
        format!("{name}:\"{}\"", value.replace('"', ""))
    } else {
        format!("{name}:{value}")
    }
}

fn range(from: Date, to: Date) -> String {
    format!("after:{from} before:{to}")
}

/// The Monday of ISO week `2026-W47`.
fn week_start(key: &str) -> Option<Date> {
    let (year, week) = key.split_once("-W")?;
    let week = jiff::civil::ISOWeekDate::new(
        year.parse().ok()?,
        week.parse().ok()?,
        jiff::civil::Weekday::Monday,
    )
    .ok()?;
    Some(week.date())
}

/// `search` with `extra` appended (an empty search becomes `extra`). The search is put in
/// parentheses: `OR` binds more loosely than the implicit AND, so `a OR b extra` would read
/// `a OR (b AND extra)`.
#[must_use]
pub fn append_search(search: &str, extra: &str) -> String {
    let search = search.trim();
    if search.is_empty() {
        extra.to_owned()
    } else {
        format!("({search}) {extra}")
    }
}

/// `search` as shown in privacy mode: the values of `meta.KEY:`, `email:` and `from:` terms
/// masked (custom values and emails are what privacy hides), the rest kept.
#[must_use]
pub fn mask_search(search: &str, privacy: bool) -> std::borrow::Cow<'_, str> {
    if !privacy || !search.contains(':') {
        return std::borrow::Cow::Borrowed(search);
    }
    let mut out = String::with_capacity(search.len());
    let mut rest = search;
    while let Some((before, name, after)) = next_private(rest) {
        out.push_str(before);
        out.push_str(name);
        let end = value_end(after);
        out.push_str(if end == 0 { "" } else { crate::privacy::MASK });
        rest = &after[end..];
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// The text before the next private qualifier, the qualifier's `name:`, and what follows it.
fn next_private(text: &str) -> Option<(&str, &str, &str)> {
    for (i, c) in text.char_indices() {
        let at_word =
            i == 0 || text[..i].ends_with(|p: char| p.is_whitespace() || "(-".contains(p));
        if !at_word || c.is_whitespace() {
            continue;
        }
        let word = &text[i..];
        let colon = word.find(':')?;
        let name = &word[..colon];
        if name.contains(|c: char| c.is_whitespace() || "()\"".contains(c)) {
            continue;
        }
        let lower = name.to_ascii_lowercase();
        if lower.starts_with("meta.") || lower == "email" || lower == "from" {
            let end = i + colon + 1;
            return Some((&text[..i], &text[i..end], &text[end..]));
        }
    }
    None
}

/// Where a qualifier's value ends: a quoted phrase at its closing quote, else at a space, `)`
/// or a quote (the end of a phrase the term is in).
fn value_end(text: &str) -> usize {
    if let Some(quoted) = text.strip_prefix('"') {
        return quoted.find('"').map_or(text.len(), |n| n + 2);
    }
    text.find(|c: char| c.is_whitespace() || ")\"".contains(c))
        .unwrap_or(text.len())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn group(key: Option<&str>, label: Option<&str>) -> Group {
        Group {
            key: key.map(str::to_owned),
            label: label.map(str::to_owned),
            count: 1,
            daily: Vec::new(),
            app: None,
            app_word: None,
            first_seen: None,
            text: feedback_store::pivot::Shown::default(),
        }
        .labelled()
    }

    fn n(by: &By, key: &str) -> Narrow {
        narrow(by, &group(Some(key), None), false).unwrap()
    }

    #[test]
    fn each_kind_narrows_to_its_group() {
        assert_eq!(n(&By::App, "a1"), Narrow::App("a1".into()));
        assert_eq!(n(&By::Tag, "bug"), Narrow::Tag("bug".into()));
        assert_eq!(
            n(&By::Platform, "ios"),
            Narrow::Search("platform:ios".into())
        );
        assert_eq!(
            n(&By::Version, "2.3.1"),
            Narrow::Search("-has:app version:2.3.1".into())
        );
        // A version group of an app lists that app's items of the version.
        let mut of_app = group(Some("3.10.0"), Some("Trailhead iOS 3.10.0"));
        of_app.app = Some("app_t".into());
        assert_eq!(
            narrow(&By::Version, &of_app, false),
            Ok(Narrow::Search("app:app_t version:3.10.0".into()))
        );
        // Written as the query names the app: its slug or name, quoted when it has a space.
        of_app.app_word = Some("trailhead-ios".into());
        assert_eq!(
            narrow(&By::Version, &of_app, false),
            Ok(Narrow::Search("app:trailhead-ios version:3.10.0".into()))
        );
        of_app.app_word = Some("Trailhead iOS".into());
        assert_eq!(
            narrow(&By::Version, &of_app, false),
            Ok(Narrow::Search(
                "app:\"Trailhead iOS\" version:3.10.0".into()
            ))
        );
        assert_eq!(n(&By::Os, "17.2"), Narrow::Search("os:17.2".into()));
        assert_eq!(
            n(&By::Locale, "de-DE"),
            Narrow::Search("locale:de-DE".into())
        );
        assert_eq!(
            n(&By::Meta("plan".into()), "pro plus"),
            Narrow::Search("meta.plan:\"pro plus\"".into())
        );
        assert_eq!(
            n(&By::Day, "2026-11-30"),
            Narrow::Search("after:2026-11-30 before:2026-12-01".into())
        );
        assert_eq!(
            n(&By::Week, "2026-W47"),
            Narrow::Search("after:2026-11-16 before:2026-11-23".into())
        );
        assert!(narrow(&By::Week, &group(Some("junk"), None), false).is_err());
    }

    #[test]
    fn the_none_group_narrows_where_the_search_language_can_say_it() {
        let none = group(None, None);
        assert_eq!(
            narrow(&By::App, &none, false),
            Ok(Narrow::Search("-has:app".into()))
        );
        assert_eq!(
            narrow(&By::Tag, &none, true),
            Ok(Narrow::Search("-has:tag".into()))
        );
        assert_eq!(
            narrow(&By::Version, &none, false),
            Err(NO_NARROW.to_owned())
        );
    }

    #[test]
    fn a_tag_under_a_tag_pane_and_an_os_by_platform_are_search_terms() {
        let bug = group(Some("needs triage"), None);
        assert_eq!(
            narrow(&By::Tag, &bug, true),
            Ok(Narrow::Search("tag:\"needs triage\"".into()))
        );
        let ios = group(Some("17"), Some("iOS 17"));
        let android = group(Some("17"), Some("Android 17"));
        assert_eq!(
            narrow(&By::Os, &ios, false),
            Ok(Narrow::Search("meta.iOSVersion:17".into()))
        );
        assert_eq!(
            narrow(&By::Os, &android, false),
            Ok(Narrow::Search("meta.androidVersion:17".into()))
        );
    }

    #[test]
    fn the_search_is_parenthesised_before_a_term_is_appended() {
        assert_eq!(append_search("", "os:17"), "os:17");
        assert_eq!(append_search("crash ", "os:17"), "(crash) os:17");
        assert_eq!(
            append_search("crash OR sync", "platform:web"),
            "(crash OR sync) platform:web"
        );
    }

    #[test]
    fn privacy_masks_custom_values_and_emails_in_a_search() {
        let m = |s| mask_search(s, true).into_owned();
        assert_eq!(
            m("tag:crash meta.userId:u_010220"),
            "tag:crash meta.userId:•••"
        );
        assert_eq!(
            m("(crash OR x) meta.plan:\"team plan\" os:17"),
            "(crash OR x) meta.plan:••• os:17"
        );
        assert_eq!(m("-email:a@b.c (from:x@y.z)"), "-email:••• (from:•••)");
        assert_eq!(m("Meta.Plan:pro"), "Meta.Plan:•••");
        assert_eq!(m("\"a meta.x:y\" version:1"), "\"a meta.x:•••\" version:1");
        assert_eq!(m("plain words"), "plain words");
        assert_eq!(mask_search("meta.plan:pro", false), "meta.plan:pro");
    }
}
