//! The pivot by app version: a version number means something only within its app (Trailhead's
//! 3.10.0 is not Nimbus's), so a group is one version of one app, labelled "Trailhead iOS
//! 3.10.0". Groups are ordered by app, then by version precedence (semantic versioning where
//! the version parses as one, 3.2.0 before 3.10.0; the others after them, as text), and each
//! carries the day its version was first seen in its app in the store.
//!
//! The group queries give each group's app as its reference key in the label column (see
//! `query::Store::column`); this module turns those into app ids and names, merging the
//! references of one app (an app renamed has one per name).

use std::cmp::Ordering;
use std::collections::HashMap;

use super::{Group, VERSION_KEY, key_time};
use crate::{Store, StoreError};

/// The label column of a version pivot's statements: the item's app reference key, as text
/// (`0`: no app).
pub(super) const APP_LABEL: &str = "CAST(coalesce(items.app, 0) AS TEXT)";

/// A version group's identity: its version and its app's id.
type VersionOfApp = (Option<String>, Option<String>);

impl Store {
    /// Turns the groups of a version pivot (labelled by app reference key) into groups of one
    /// version of one app, with their apps' ids, names and first-seen times.
    pub(super) fn version_groups(&self, groups: Vec<Group>) -> Result<Vec<Group>, StoreError> {
        let apps = self.version_apps()?;
        let words = self.app_words()?;
        let first_seen = self.first_seen(&apps)?;
        let mut merged: Vec<Group> = Vec::with_capacity(groups.len());
        let mut index: HashMap<VersionOfApp, usize> = HashMap::new();
        for mut group in groups {
            let app = group
                .label
                .take()
                .and_then(|k| k.parse::<i64>().ok())
                .and_then(|k| apps.get(&k));
            group.app = app.map(|(id, _)| id.clone());
            group.app_word = group
                .app
                .as_ref()
                .map(|id| words.get(id).cloned().unwrap_or_else(|| id.clone()));
            if let (Some((_, name)), Some(version)) = (app, &group.key) {
                group.label = Some(format!("{name} {version}"));
            }
            group.first_seen = first_seen
                .get(&(group.key.clone(), group.app.clone()))
                .and_then(|&k| key_time(k));
            let identity = (group.key.clone(), group.app.clone());
            match index.get(&identity) {
                Some(&at) => {
                    let into = &mut merged[at];
                    into.count += group.count;
                    for (slot, n) in into.daily.iter_mut().zip(&group.daily) {
                        *slot = slot.saturating_add(*n);
                    }
                }
                None => {
                    index.insert(identity, merged.len());
                    merged.push(group);
                }
            }
        }
        Ok(merged)
    }

    /// Every app reference key with its app's id and name (the name of the app's lowest
    /// reference key, so one app shows one name).
    fn version_apps(&self) -> Result<HashMap<i64, (String, String)>, StoreError> {
        let mut names: HashMap<String, String> = HashMap::new();
        let mut refs = HashMap::new();
        self.each_row("SELECT k, id, name FROM app_refs ORDER BY k", &[], |row| {
            let (k, id, name): (i64, String, String) = (row.get(0)?, row.get(1)?, row.get(2)?);
            let name = names.entry(id.clone()).or_insert(name).clone();
            refs.insert(k, (id, name));
            Ok(())
        })?;
        Ok(refs)
    }

    /// The key of the oldest stored item of each (version, app id): its first sighting.
    fn first_seen(
        &self,
        apps: &HashMap<i64, (String, String)>,
    ) -> Result<HashMap<VersionOfApp, i64>, StoreError> {
        let sql = "SELECT m.value, coalesce(items.app, 0), max(m.k) FROM item_meta m \
                   JOIN items ON items.k = m.k WHERE m.custom = 0 AND m.key = ?1 GROUP BY 1, 2";
        let mut oldest: HashMap<VersionOfApp, i64> = HashMap::new();
        let key = rusqlite::types::Value::Text(VERSION_KEY.to_owned());
        self.each_row(sql, &[key], |row| {
            let version: Option<String> = row.get(0)?;
            let app = apps.get(&row.get::<_, i64>(1)?).map(|(id, _)| id.clone());
            let k: i64 = row.get(2)?;
            let slot = oldest.entry((version, app)).or_insert(k);
            *slot = (*slot).max(k);
            Ok(())
        })?;
        Ok(oldest)
    }
}

/// The version pivot's order: by app (its name, then id; no app last), then by version
/// precedence; the items without a version last of all.
pub(super) fn sort_by_app_and_version(groups: &mut [Group]) {
    groups.sort_by(|a, b| {
        a.key
            .is_none()
            .cmp(&b.key.is_none())
            .then_with(|| a.app.is_none().cmp(&b.app.is_none()))
            .then_with(|| app_name(a).cmp(app_name(b)))
            .then_with(|| a.app.cmp(&b.app))
            .then_with(|| precedence(a.key.as_deref(), b.key.as_deref()))
    });
}

/// The app's name in a group's label ("Trailhead iOS" of "Trailhead iOS 3.10.0").
fn app_name(group: &Group) -> &str {
    match (&group.label, &group.key) {
        (Some(label), Some(version)) => label
            .strip_suffix(version.as_str())
            .map_or(label.as_str(), str::trim_end),
        _ => "",
    }
}

/// Version precedence: two semantic versions by their numbers, then their pre-release parts
/// (a pre-release before its release); a semantic version before a version that is not one;
/// those by text.
#[must_use]
pub fn precedence(a: Option<&str>, b: Option<&str>) -> Ordering {
    match (a.and_then(Semver::parse), b.and_then(Semver::parse)) {
        (Some(x), Some(y)) => x.cmp(&y).then_with(|| a.cmp(&b)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => a.cmp(&b),
    }
}

/// A version in semantic versioning's shape: `MAJOR.MINOR.PATCH`, an optional `-pre.release`
/// and an optional `+build` (which precedence ignores).
#[derive(Debug, PartialEq, Eq)]
struct Semver<'a> {
    core: [u64; 3],
    pre: Vec<&'a str>,
}

impl<'a> Semver<'a> {
    fn parse(text: &'a str) -> Option<Self> {
        let text = text.split_once('+').map_or(text, |(v, _)| v);
        let (core, pre) = match text.split_once('-') {
            Some((core, pre)) => (core, Some(pre)),
            None => (text, None),
        };
        let mut numbers = core.split('.').map(number);
        let parsed = [numbers.next()??, numbers.next()??, numbers.next()??];
        if numbers.next().is_some() {
            return None;
        }
        let pre: Vec<&str> = match pre {
            Some(pre) => pre.split('.').collect(),
            None => Vec::new(),
        };
        let valid =
            |p: &&str| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
        if !pre.iter().all(valid) {
            return None;
        }
        Some(Self { core: parsed, pre })
    }
}

/// A numeric identifier: digits, no leading zero.
fn number(text: &str) -> Option<u64> {
    let digits = !text.is_empty() && text.chars().all(|c| c.is_ascii_digit());
    (digits && (text == "0" || !text.starts_with('0')))
        .then(|| text.parse().ok())
        .flatten()
}

impl Ord for Semver<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.core
            .cmp(&other.core)
            .then_with(|| match (self.pre.is_empty(), other.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => pre_release(&self.pre, &other.pre),
            })
    }
}

impl PartialOrd for Semver<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Pre-release identifiers compared one by one: numbers numerically and before words, words
/// as ASCII text; a shorter list that agrees so far first.
fn pre_release(a: &[&str], b: &[&str]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let order = match (number(x), number(y)) {
            (Some(m), Some(n)) => m.cmp(&n),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => x.cmp(y),
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    a.len().cmp(&b.len())
}

#[cfg(test)]
mod tests {
    use std::cmp::Ordering;

    use super::precedence;

    #[test]
    fn versions_sort_by_semantic_precedence_then_as_text() {
        let mut versions = vec![
            "3.10.0",
            "3.2.0",
            "3.2.0-beta.11",
            "3.2.0-beta.2",
            "3.2.0-alpha",
            "10.0.0",
            "3.2.0+build.7",
            "2.14",
            "build 12",
            "1.0.0-rc.1",
            "01.2.3",
        ];
        versions.sort_by(|a, b| precedence(Some(a), Some(b)));
        assert_eq!(
            versions,
            [
                "1.0.0-rc.1",
                "3.2.0-alpha",
                "3.2.0-beta.2",
                "3.2.0-beta.11",
                "3.2.0",
                "3.2.0+build.7",
                "3.10.0",
                "10.0.0",
                // Not semantic versions: after them, as text.
                "01.2.3",
                "2.14",
                "build 12",
            ]
        );
        assert_eq!(precedence(Some("1.0.0"), Some("1.0.0")), Ordering::Equal);
    }
}
