//! Qualifier names and values: which names exist, and parsing of the values that can be checked
//! without the store (dates, ages, `has:`). Names of apps and projects are checked when compiled.

use std::ops::Range;

use jiff::SignedDuration;
use jiff::civil::{Date, DateTime};

use super::QueryError;
use super::ast::{AgeCmp, Assignee, Filter, FilterKind, Has, Is, MetaKey};
use crate::text::Clean;

/// Every qualifier, as it is typed (`meta.` takes a key after it): what the prompt completes,
/// the errors list and the help names. Each parses (the match in [`parse`]; a test holds the two
/// together).
pub(crate) const QUALIFIERS: [&str; 26] = [
    "app:",
    "project:",
    "platform:",
    "tag:",
    "status:",
    "email:",
    "from:",
    "id:",
    "version:",
    "os:",
    "locale:",
    "meta.",
    "has:",
    "is:",
    "after:",
    "before:",
    "age:",
    "assignee:",
    "owner:",
    "label:",
    "note-by:",
    "note:",
    "ticket:",
    "replied-by:",
    "replied:",
    "view:",
];

/// `has:` values, each as completed and listed; then the other spellings it reads.
const HAS: [(&str, Has); 6] = [
    ("email", Has::Email),
    ("link", Has::Link),
    ("tag", Has::Tag),
    ("app", Has::App),
    ("note", Has::Note),
    ("ticket", Has::Ticket),
];
const HAS_ALSO: [(&str, Has); 3] = [
    ("tags", Has::Tag),
    ("notes", Has::Note),
    ("tickets", Has::Ticket),
];

/// `is:` values, each as completed and listed; then the other spellings it reads.
const IS: [(&str, Is); 8] = [
    ("unseen", Is::Unseen),
    ("seen", Is::Seen),
    ("starred", Is::Starred),
    ("done", Is::Done),
    ("snoozed", Is::Snoozed),
    ("unclaimed", Is::Unclaimed),
    ("mine", Is::Mine),
    ("replied", Is::Replied),
];
const IS_ALSO: [(&str, Is); 3] = [
    ("unread", Is::Unseen),
    ("read", Is::Seen),
    ("star", Is::Starred),
];

/// The values this module knows of qualifier `name` (lower case), for completion.
#[must_use]
pub(crate) fn known_values(name: &str) -> Vec<&'static str> {
    match name {
        "has" => HAS.iter().map(|(v, _)| *v).collect(),
        "is" => IS.iter().map(|(v, _)| *v).collect(),
        "status" => vec!["new", "archived"],
        "platform" => vec!["ios", "android", "web"],
        _ => Vec::new(),
    }
}

/// The qualifiers as an error lists them: `app: project: … meta.KEY: …`.
fn listed() -> String {
    QUALIFIERS
        .iter()
        .map(|q| if *q == "meta." { "meta.KEY:" } else { q })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The flag `value` (any case) names in `table`, then in `also`; else an error listing
/// `qualifier:VALUE` for each of `table`.
fn flag<T: Copy>(
    qualifier: &str,
    table: &[(&str, T)],
    also: &[(&str, T)],
    value: &str,
    span: &Range<usize>,
) -> Result<T, QueryError> {
    let lower = value.to_ascii_lowercase();
    table
        .iter()
        .chain(also)
        .find(|(name, _)| *name == lower)
        .map(|(_, flag)| *flag)
        .ok_or_else(|| {
            let known: Vec<String> = table
                .iter()
                .map(|(name, _)| format!("{qualifier}:{name}"))
                .collect();
            QueryError::new(
                span.clone(),
                Clean::line(&format!(
                    "unknown `{qualifier}:{}`; known: {}",
                    Clean::line(value),
                    known.join(" ")
                )),
            )
        })
}

/// Parses `name:value` into a filter.
pub(super) fn parse(
    name: &str,
    value: &str,
    span: Range<usize>,
    value_span: Range<usize>,
) -> Result<Filter, QueryError> {
    let lower = name.to_ascii_lowercase();
    if value.trim().is_empty() {
        return Err(QueryError::new(
            span,
            Clean::line(&format!("`{name}:` needs a value")),
        ));
    }
    let owned = value.to_owned();
    let kind = match lower.as_str() {
        "app" => FilterKind::App(owned),
        "project" => FilterKind::Project(owned),
        "platform" => FilterKind::Platform(owned),
        "tag" => FilterKind::Tag(owned),
        "status" => FilterKind::Status(owned),
        "email" | "from" => FilterKind::Email(owned),
        "id" => FilterKind::Id(owned),
        "version" | "os" | "locale" => FilterKind::Meta {
            key: metadata_keys(&lower).unwrap_or(MetaKey::BuiltIn(&[])),
            value: owned,
        },
        "has" => FilterKind::Has(has(value, &value_span)?),
        "is" => FilterKind::Is(is(value, &value_span)?),
        "after" => FilterKind::After(date(value, &value_span)?),
        "before" => FilterKind::Before(date(value, &value_span)?),
        "age" => age(value, &value_span)?,
        "assignee" | "owner" => FilterKind::Assignee(Assignee::parse(value)),
        "label" => FilterKind::Label(owned),
        "note-by" => FilterKind::NoteBy(Assignee::parse(value)),
        "note" => FilterKind::Note(owned),
        "ticket" => FilterKind::Ticket(owned),
        "replied-by" => FilterKind::RepliedBy(Assignee::parse(value)),
        "replied" => match age(value, &value_span)? {
            FilterKind::Age { cmp, age } => FilterKind::Replied { cmp, age },
            other => other,
        },
        "view" => FilterKind::View(owned),
        _ => match metadata_keys(name) {
            Some(key) => FilterKind::Meta { key, value: owned },
            _ => {
                return Err(QueryError::new(
                    span.start..span.start + name.len() + 1,
                    Clean::line(&format!(
                        "unknown qualifier `{name}:`; known: {} (quote text that has a colon)",
                        listed()
                    )),
                ));
            }
        },
    };
    Ok(Filter {
        kind,
        span,
        value_span,
    })
}

/// The metadata keys qualifier `name` reads: `version:` appVersion, `os:` iOSVersion and
/// androidVersion, `locale:`, `meta.KEY:` that key (as typed); `None` for the other
/// qualifiers. Also what the prompt completes their values from.
#[must_use]
pub fn metadata_keys(name: &str) -> Option<MetaKey> {
    match name.to_ascii_lowercase().as_str() {
        "version" => Some(MetaKey::BuiltIn(&["appVersion"])),
        "os" => Some(MetaKey::BuiltIn(&["iOSVersion", "androidVersion"])),
        "locale" => Some(MetaKey::BuiltIn(&["locale"])),
        lower => lower
            .strip_prefix("meta.")
            .filter(|key| !key.is_empty())
            .map(|_| MetaKey::Any(name["meta.".len()..].to_owned())),
    }
}

fn has(value: &str, span: &Range<usize>) -> Result<Has, QueryError> {
    flag("has", &HAS, &HAS_ALSO, value, span)
}

fn is(value: &str, span: &Range<usize>) -> Result<Is, QueryError> {
    flag("is", &IS, &IS_ALSO, value, span)
}

/// A local date (`2026-11-01`, midnight) or date and time (`2026-11-01T09:30`). Also read by
/// the command line's `--since`/`--until`, so they and `after:`/`before:` agree.
pub fn date(value: &str, span: &Range<usize>) -> Result<DateTime, QueryError> {
    // A date-time first: jiff's date parser accepts "2026-11-01T09:30" and drops the time.
    if let Ok(at) = value.parse::<DateTime>() {
        return Ok(at);
    }
    value
        .parse::<Date>()
        .map(|d| d.to_datetime(jiff::civil::Time::midnight()))
        .map_err(|_| {
            QueryError::new(
                span.clone(),
                Clean::line(&format!(
                    "bad date `{}`: expected a date like 2026-11-01 or 2026-11-01T09:30",
                    Clean::line(value)
                )),
            )
        })
}

/// `<7d`, `>2w`, `<=3h`, `>=30m`, or a bare `7d` (younger than).
fn age(value: &str, span: &Range<usize>) -> Result<FilterKind, QueryError> {
    let bad = || {
        QueryError::new(
            span.clone(),
            Clean::line(&format!(
                "bad age `{}`: expected <7d or >2w (units m h d w)",
                Clean::line(value)
            )),
        )
    };
    let (cmp, rest) = if let Some(rest) = value.strip_prefix("<=") {
        (AgeCmp::Younger { inclusive: true }, rest)
    } else if let Some(rest) = value.strip_prefix(">=") {
        (AgeCmp::Older { inclusive: true }, rest)
    } else if let Some(rest) = value.strip_prefix('<') {
        (AgeCmp::Younger { inclusive: false }, rest)
    } else if let Some(rest) = value.strip_prefix('>') {
        (AgeCmp::Older { inclusive: false }, rest)
    } else {
        (AgeCmp::Younger { inclusive: false }, value)
    };
    let age = duration(rest).ok_or_else(bad)?;
    Ok(FilterKind::Age { cmp, age })
}

/// A bare age, `7d`, `36h`, `30m`, `2w` (at most 200 years); `None` when it is not one. Also
/// read by the command line's `--since`/`--until`, so they and `age:` agree.
#[must_use]
pub fn duration(value: &str) -> Option<SignedDuration> {
    let unit_at = value.find(|c: char| !c.is_ascii_digit())?;
    let count: i64 = value[..unit_at].parse().ok()?;
    let seconds = match &value[unit_at..] {
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => return None,
    };
    let total = count
        .checked_mul(seconds)
        .filter(|s| *s <= 200 * 366 * 86_400)?;
    Some(SignedDuration::from_secs(total))
}

/// The instant a local date-time means in `tz` (jiff's compatible choice in a gap or fold),
/// for `after:`/`before:` and `--since`/`--until` alike.
pub fn local_instant(
    at: DateTime,
    tz: &jiff::tz::TimeZone,
    span: &Range<usize>,
) -> Result<jiff::Timestamp, QueryError> {
    at.to_zoned(tz.clone()).map(|z| z.timestamp()).map_err(|e| {
        QueryError::new(
            span.clone(),
            Clean::line(&format!("date out of range: {e}")),
        )
    })
}

/// `now` less `age`, for `age:` and `--since 7d` alike.
pub fn age_cutoff(
    now: jiff::Timestamp,
    age: SignedDuration,
    span: &Range<usize>,
) -> Result<jiff::Timestamp, QueryError> {
    now.checked_sub(age)
        .map_err(|e| QueryError::new(span.clone(), Clean::line(&format!("age out of range: {e}"))))
}
