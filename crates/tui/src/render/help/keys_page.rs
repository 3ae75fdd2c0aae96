//! `docs/keys.md`: the default keys of every screen as Markdown, made from the rows the help
//! overlay lists (`super::sections`, the key map's actions as each screen's table in
//! `crate::mode_keys` takes them), so the page cannot drift from the bindings. The test below
//! holds the file to it; `UPDATE_DOCS=1` writes the file instead.

use std::fmt::Write as _;

use super::{FOOTER, sections};
use crate::keymap::Keymap;
use crate::mode_keys::{Hints, Takes};
use crate::state::Mode;

/// The file, from the crate's folder.
const PAGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/keys.md");

/// The command that writes the file again.
const REFRESH: &str = "UPDATE_DOCS=1 cargo test -p feedback-tui --features testing --lib keys_page";

/// The screen after `mode` on the page (the first after `None`; `None` after the last). The
/// match has no catch-all, so a new screen does not compile until it has its place here.
fn after(mode: Option<Mode>) -> Option<Mode> {
    match mode {
        None => Some(Mode::Normal),
        Some(Mode::Normal) => Some(Mode::Detail),
        Some(Mode::Detail) => Some(Mode::Grouped),
        Some(Mode::Grouped) => Some(Mode::TopIssues),
        Some(Mode::TopIssues) => Some(Mode::Messages),
        Some(Mode::Messages) => Some(Mode::Help),
        Some(Mode::Help) => Some(Mode::Fatal),
        Some(Mode::Fatal) => Some(Mode::FilterPrompt),
        Some(Mode::FilterPrompt) => Some(Mode::Palette),
        Some(Mode::Palette) => Some(Mode::NoteEditor),
        Some(Mode::NoteEditor) => Some(Mode::ActingPicker),
        Some(Mode::ActingPicker) => Some(Mode::GroupPicker),
        Some(Mode::GroupPicker) => Some(Mode::TriagePicker),
        Some(Mode::TriagePicker) => Some(Mode::TeamPrompt),
        Some(Mode::TeamPrompt) => Some(Mode::LinkPrompt),
        Some(Mode::LinkPrompt) => Some(Mode::ReplyComposer),
        Some(Mode::ReplyComposer) => None,
    }
}

/// A table cell's text: a `|` would end the cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// Each key of a help row's keys (labels joined by spaces; a space key is `space`) as code.
fn keys_cell(keys: &str) -> String {
    if keys.is_empty() {
        return "—".to_owned();
    }
    keys.split(' ')
        .map(|key| format!("`{}`", cell(key)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// "the detail" as a heading: "The detail".
fn heading(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The page for `keymap`.
pub(crate) fn markdown(keymap: &Keymap) -> String {
    let mut out = String::from(
        "# Keys\n\n\
         The inbox's keys as bound by default, screen by screen: the tables the help (`?`) \
         shows, where the screen you are on comes first. A key a screen does not take says so \
         (`d does nothing in the help`). Ctrl-C quits from every screen and prompt and cannot \
         be rebound.\n\n",
    );
    let _ = writeln!(out, "{FOOTER} See [config.md](config.md#keys).\n");
    let _ = writeln!(
        out,
        "This page is generated from the key map (`crates/tui/src/keymap.rs`, \
         `crates/tui/src/mode_keys.rs`); a test fails when it differs. Refresh it with \
         `{REFRESH}`.\n"
    );
    let mut named: Vec<&str> = Vec::new();
    for mode in std::iter::successors(after(None), |m| after(Some(*m))) {
        // The pickers share one name and one set of keys.
        if named.contains(&mode.name()) {
            continue;
        }
        named.push(mode.name());
        let _ = writeln!(out, "## {}\n", heading(mode.name()));
        match mode.takes() {
            Takes::Typing => {
                out.push_str("Every key types or chooses here; the status bar names these.\n\n");
                out.push_str("| Keys | What it does |\n|---|---|\n");
                if let Hints::Typing(hints) = mode.hints() {
                    for hint in hints.split("  ") {
                        let (key, what) = hint.split_once(' ').unwrap_or((hint, ""));
                        let _ = writeln!(out, "| {} | {} |", keys_cell(key), cell(what));
                    }
                }
            }
            takes @ (Takes::All | Takes::Only { .. }) => {
                if takes == Takes::All {
                    out.push_str("Every action of the key map.\n\n");
                }
                out.push_str("| Keys | What it does | Action (`[keys]`) |\n|---|---|---|\n");
                for (keys, name, text) in sections(keymap, mode).0 {
                    let _ = writeln!(
                        out,
                        "| {} | {} | `{}` |",
                        keys_cell(&keys),
                        cell(text),
                        cell(name)
                    );
                }
            }
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "The search language of `/` is in [search.md](search.md)."
    );
    out
}

/// The first line where `a` and `b` differ (1-based), and each one's text of it.
fn first_difference<'a>(a: &'a str, b: &'a str) -> Option<(usize, &'a str, &'a str)> {
    let (mut left, mut right) = (a.lines(), b.lines());
    let mut line = 0;
    loop {
        line += 1;
        match (left.next(), right.next()) {
            (None, None) => return None,
            (l, r) if l == r => {}
            (l, r) => return Some((line, l.unwrap_or("(the end)"), r.unwrap_or("(the end)"))),
        }
    }
}

#[test]
fn keys_page_is_the_key_maps() {
    let page = markdown(&Keymap::default());
    if std::env::var_os("UPDATE_DOCS").is_some_and(|v| v == "1") {
        std::fs::write(PAGE, &page).unwrap();
        return;
    }
    let stored = std::fs::read_to_string(PAGE).unwrap_or_default();
    if let Some((line, file, made)) = first_difference(&stored, &page) {
        panic!(
            "docs/keys.md is not the key map's (line {line}: the file has {file:?}, the key map \
             makes {made:?}); refresh it with `{REFRESH}`"
        );
    }
}

#[test]
fn keys_page_lists_every_screen_once_and_escapes_pipes() {
    let page = markdown(&Keymap::default());
    let screens = std::iter::successors(after(None), |m| after(Some(*m))).count();
    assert_eq!(screens, 16, "every mode is on the page");
    for name in ["The list", "The detail", "The picker", "The reply"] {
        assert_eq!(page.matches(&format!("\n## {name}\n")).count(), 1, "{name}");
    }
    assert!(page.contains("| `\\|` | pipe item(s) as JSON lines to a command | `pipe` |"));
}
