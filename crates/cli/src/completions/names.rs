//! The values the shell completes from the local store: app, project and tag names for
//! `--app`, `--project` and `--tag`, `stats --by`'s pivots with the stored custom keys, and in
//! a search's query the word being typed as the inbox's `Tab` completes it (a qualifier's name,
//! then its value: app, project and tag names, and the views' names of the config file the line
//! names, `--config` or the default). The shell runs the program to complete
//! (`COMPLETE=bash feedback-inbox -- …`, see `clap_complete::env`), which reads the store the
//! command line names (`--store`, `--profile`, `--no-store`, else `FEEDBACK_STORE` or the
//! default), read-only and only when it is already this version's: completing never creates,
//! migrates or locks a store. Apps and projects complete to their slugs (one word, which the
//! shell inserts whole), their names shown beside where the shell shows help, and match what is
//! typed of either. Names are the server's text: one that would not be one clean word of the
//! shell's line is left out.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use clap_complete::engine::{ArgValueCompleter, CompletionCandidate};

use feedback_store::Store;

/// Which names a flag takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    App,
    Project,
    Tag,
    /// `--by`: the pivots, then `meta.KEY` for each stored custom key.
    Pivot,
}

/// Most custom keys `--by` offers.
const CUSTOM_KEYS: usize = 100;

/// `--app`'s completer.
#[must_use]
pub fn apps() -> ArgValueCompleter {
    ArgValueCompleter::new(|current: &OsStr| candidates(Kind::App, current))
}

/// `--project`'s completer.
#[must_use]
pub fn projects() -> ArgValueCompleter {
    ArgValueCompleter::new(|current: &OsStr| candidates(Kind::Project, current))
}

/// `--tag`'s completer.
#[must_use]
pub fn tags() -> ArgValueCompleter {
    ArgValueCompleter::new(|current: &OsStr| candidates(Kind::Tag, current))
}

/// `stats --by`'s completer.
#[must_use]
pub fn pivots() -> ArgValueCompleter {
    ArgValueCompleter::new(|current: &OsStr| candidates(Kind::Pivot, current))
}

/// The completer of a search's query words (`search`, `stats`).
#[must_use]
pub(crate) fn query_words() -> ArgValueCompleter {
    ArgValueCompleter::new(|current: &OsStr| {
        query_candidates(
            &current.to_string_lossy(),
            &std::env::args_os().collect::<Vec<_>>(),
        )
    })
}

/// The completions of the query word `current` on the command line `line` (the program's
/// arguments: the line being completed follows `--`). A completion must be one word of the
/// shell's line: a value with a space, which the query would need quoted, is left out.
fn query_candidates(current: &str, line: &[OsString]) -> Vec<CompletionCandidate> {
    let store = std::cell::OnceCell::new();
    let values = |name: &str| -> Vec<String> {
        let kind = match name {
            "app" => Kind::App,
            "project" => Kind::Project,
            "tag" => Kind::Tag,
            "view" => return view_names(line),
            _ => return Vec::new(),
        };
        store
            .get_or_init(|| store_of(line.iter().cloned()))
            .as_ref()
            .map(|s| names(s, kind))
            .unwrap_or_default()
    };
    let Some(found) = feedback_core::query::complete::complete(current, values) else {
        return Vec::new();
    };
    // The word completed is the shell's whole word: what comes before it stays as typed.
    let head = &current[..found.start];
    found
        .candidates
        .into_iter()
        .filter(|c| is_word(c) && !c.contains('"'))
        .map(|c| CompletionCandidate::new(format!("{head}{c}")))
        .collect()
}

/// The names of the views of the config file `line` names (`--config`, else the default), as
/// the inbox lists them: built in, the file's, the team's when a team is configured. A file that
/// does not read gives the built-in ones.
fn view_names(line: &[OsString]) -> Vec<String> {
    let words = words_of(line.iter().cloned());
    let path = flag_value(&words, "--config").or_else(feedback_config::default_path);
    let loaded = path.and_then(|p| feedback_config::load(&p, false).ok().flatten());
    let defs = loaded
        .as_ref()
        .and_then(|l| feedback_config::views::parse(&l.text, "").ok())
        .unwrap_or_default();
    let team = std::env::var_os(feedback_config::team::ENV_TEAM_URL).is_some_and(|v| !v.is_empty())
        || loaded.as_ref().is_some_and(|l| l.file.team.is_some());
    feedback_store::saved_views::every(&defs, team)
        .into_iter()
        .map(|v| v.name.to_string())
        .collect()
}

fn candidates(kind: Kind, current: &OsStr) -> Vec<CompletionCandidate> {
    let store = store_of(std::env::args_os());
    let typed = typed_word(&current.to_string_lossy());
    let named = match (kind, &store) {
        (Kind::Pivot, store) => {
            let mut names: Vec<String> = feedback_store::pivot::KINDS
                .iter()
                .map(|k| (*k).to_owned())
                .collect();
            let keys = store
                .as_ref()
                .and_then(|s| s.custom_meta_keys(CUSTOM_KEYS).ok());
            names.extend(
                keys.unwrap_or_default()
                    .into_iter()
                    .map(|k| format!("meta.{k}")),
            );
            names.into_iter().map(Named::plain).collect()
        }
        (_, Some(store)) => named(store, kind),
        (_, None) => return Vec::new(),
    };
    let matches = |n: &Named| {
        n.value.to_lowercase().contains(&typed)
            || n.name
                .as_ref()
                .is_some_and(|name| name.to_lowercase().contains(&typed))
    };
    let begins = |n: &Named| {
        n.value.to_lowercase().starts_with(&typed)
            || n.name
                .as_ref()
                .is_some_and(|name| name.to_lowercase().starts_with(&typed))
    };
    let (first, then): (Vec<Named>, Vec<Named>) = named
        .into_iter()
        .filter(|n| matches(n))
        .partition(|n| begins(n));
    first
        .into_iter()
        .chain(then)
        .map(|n| {
            let help = n.name.filter(|name| *name != n.value && is_word(name));
            CompletionCandidate::new(n.value).help(help.map(Into::into))
        })
        .collect()
}

/// What the shell passed for the word being typed, as a name is matched against it: lower
/// case, without the backslashes and quotes the shell's own escaping left (`Trailhead\ A`).
fn typed_word(current: &str) -> String {
    current
        .chars()
        .filter(|c| !matches!(c, '\\' | '\'' | '"'))
        .collect::<String>()
        .to_lowercase()
}

/// A value the shell completes, and the name it stands for when that differs (an app's slug
/// and its name).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Named {
    value: String,
    name: Option<String>,
}

impl Named {
    fn plain(value: String) -> Self {
        Self { value, name: None }
    }
}

/// The values of `kind` the store holds, each once, in its order: one word each, so that the
/// shell inserts them whole. An app or a project completes to what `--app`, `--project` and the
/// query's `app:` take for it alone and in one word: its slug, else its name, else its id, the
/// name shown beside where the shell shows help.
fn named(store: &Store, kind: Kind) -> Vec<Named> {
    let catalog: Vec<(String, Option<String>, String)> = match kind {
        Kind::App => store
            .apps(None)
            .map(|a| a.into_iter().map(|a| (a.id, a.slug, a.name)).collect())
            .unwrap_or_default(),
        Kind::Project => store
            .projects()
            .map(|p| p.into_iter().map(|p| (p.id, p.slug, p.name)).collect())
            .unwrap_or_default(),
        Kind::Tag => {
            let tags = store.server_tags().unwrap_or_default();
            return one_word_each(tags.into_iter().map(|t| Named::plain(t.tag)).collect());
        }
        Kind::Pivot => Vec::new(),
    };
    let slugs = counts(catalog.iter().filter_map(|(_, slug, _)| slug.as_deref()));
    let names = counts(catalog.iter().map(|(_, _, name)| name.as_str()));
    let alone = |value: &str, counts: &std::collections::HashMap<String, usize>| {
        is_word(value)
            && !value.contains(char::is_whitespace)
            && counts.get(&value.to_lowercase()) == Some(&1)
    };
    let values = catalog
        .into_iter()
        .map(|(id, slug, name)| {
            let value = match slug {
                Some(slug) if alone(&slug, &slugs) => slug,
                _ if alone(&name, &names) => name.clone(),
                _ => id,
            };
            Named {
                value,
                name: Some(name),
            }
        })
        .collect();
    one_word_each(values)
}

/// How many times each value occurs, case aside (as the names are matched).
fn counts<'a>(values: impl Iterator<Item = &'a str>) -> std::collections::HashMap<String, usize> {
    let mut counts = std::collections::HashMap::new();
    for value in values {
        *counts.entry(value.to_lowercase()).or_default() += 1;
    }
    counts
}

/// `named` less what the shell could not take as one clean word, each value once.
fn one_word_each(mut named: Vec<Named>) -> Vec<Named> {
    named.retain(|n| is_word(&n.value) && !n.value.contains(char::is_whitespace));
    let mut seen = std::collections::HashSet::new();
    named.retain(|n| seen.insert(n.value.clone()));
    named
}

/// The values of `kind` the store holds, as [`named`] gives them.
fn names(store: &Store, kind: Kind) -> Vec<String> {
    named(store, kind).into_iter().map(|n| n.value).collect()
}

/// A name the shell can take as it is: printable, with no control or bidirectional
/// characters (the shell shows candidates raw).
fn is_word(name: &str) -> bool {
    !name.is_empty() && feedback_core::text::sanitize_line(name) == name
}

/// The store the command line being completed names (its words follow `--`), if it exists and
/// is this version's.
fn store_of(args: impl Iterator<Item = OsString>) -> Option<Store> {
    let words = words_of(args);
    let value = |flag: &str| flag_value(&words, flag);
    if words.iter().any(|w| w == "--no-store") {
        return None;
    }
    let path = value("--store")
        .or_else(|| {
            std::env::var_os(crate::context::store::ENV_STORE)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        })
        .or_else(|| {
            let profile = value("--profile").map(|p| p.to_string_lossy().into_owned());
            feedback_store::default_path(profile.as_deref())
        })?;
    crate::names::open_existing(&path)
}

/// The words of the line being completed: those after `--` in the program's arguments.
fn words_of(args: impl Iterator<Item = OsString>) -> Vec<OsString> {
    args.skip_while(|a| a != "--").skip(1).collect()
}

/// The value of `flag` among `words` (`--flag VALUE` or `--flag=VALUE`).
fn flag_value(words: &[OsString], flag: &str) -> Option<PathBuf> {
    let eq = format!("{flag}=");
    words.iter().enumerate().find_map(|(i, w)| {
        let w = w.to_str()?;
        if w == flag {
            words.get(i + 1).map(PathBuf::from)
        } else {
            w.strip_prefix(&eq).map(PathBuf::from)
        }
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_store_is_the_one_the_line_names() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sqlite3");
        drop(Store::open(&path).unwrap());
        let line = |words: &[&str]| {
            let mut all: Vec<OsString> = vec!["feedback-inbox".into(), "--".into()];
            all.extend(words.iter().map(OsString::from));
            all.into_iter()
        };
        let given = path.to_str().unwrap();
        assert!(store_of(line(&["feedback-inbox", "--store", given, "list"])).is_some());
        let eq = format!("--store={given}");
        assert!(store_of(line(&["feedback-inbox", &eq, "list"])).is_some());
        assert!(store_of(line(&["feedback-inbox", "--no-store", "list"])).is_none());
        let missing = dir.path().join("none.sqlite3");
        let missing = missing.to_str().unwrap();
        assert!(store_of(line(&["feedback-inbox", "--store", missing])).is_none());
        assert!(!dir.path().join("none.sqlite3").exists(), "nothing created");
    }

    #[test]
    fn a_name_the_shell_would_show_raw_is_left_out() {
        assert!(is_word("Trailhead iOS"));
        assert!(!is_word("evil\u{1b}[2J"));
        assert!(!is_word("a\u{202e}b"));
        assert!(!is_word(""));
    }
}
