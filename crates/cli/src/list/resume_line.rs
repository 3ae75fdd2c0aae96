//! The command line that resumes an interrupted `list --all`: the same account, filters and
//! output, from the cursor after the last page written.

use super::{ListArgs, StatusArg};
use crate::context::Context;
use crate::since::Window;
use feedback_api::Cursor;

/// The command line that goes on from `cursor` (from the top of the list without one) with the
/// same account, filters and output. `--since`/`--until` are the instants this run computed
/// (RFC 3339, UTC), not the words typed: an age like `7d` read again an hour later would move
/// the window.
#[must_use]
pub fn command_line(
    global: &Context,
    args: &ListArgs,
    window: &Window,
    cursor: Option<&Cursor>,
) -> String {
    let mut words: Vec<String> = ["feedback-inbox", "list", "--all"]
        .map(String::from)
        .to_vec();
    let mut flag = |name: &str, value: Option<String>| {
        if let Some(value) = value {
            words.push(format!("--{name}"));
            words.push(quote(&value));
        }
    };
    flag("base-url", global.base_url.clone());
    flag("profile", global.profile.clone());
    flag(
        "config",
        global.config.as_ref().map(|p| p.display().to_string()),
    );
    flag(
        "store",
        global.store.as_ref().map(|p| p.display().to_string()),
    );
    let status = args.status.map(|s| match s {
        StatusArg::New => "new".to_owned(),
        StatusArg::Archived => "archived".to_owned(),
        StatusArg::All => "all".to_owned(),
    });
    flag("status", status);
    flag("app", args.filters.scope.app.clone());
    flag("project", args.filters.scope.project.clone());
    flag("tag", args.tag.clone());
    flag("since", window.since.map(|at| at.to_string()));
    flag("until", window.until.map(|at| at.to_string()));
    flag("limit", args.limit.map(|l| l.to_string()));
    flag("fields", args.fields.clone());
    let format = clap::ValueEnum::to_possible_value(&args.format).map(|v| v.get_name().to_owned());
    flag("format", format);
    flag("cursor", cursor.map(|c| c.0.clone()));
    let switches = [
        (global.no_store, "--no-store"),
        (args.raw_csv, "--raw-csv"),
        (args.with_detail, "--with-detail"),
    ];
    for (on, name) in switches {
        if on {
            words.push(name.to_owned());
        }
    }
    feedback_core::text::sanitize_line(&words.join(" ")).into_owned()
}

/// A word as a POSIX shell reads it back: as is when it holds only safe characters, else in
/// single quotes.
fn quote(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./:=,@%+".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_for_the_shell() {
        assert_eq!(quote("abc-1_2.x"), "abc-1_2.x");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }
}
