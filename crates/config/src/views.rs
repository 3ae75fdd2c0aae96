//! `[[views]]` in `config.toml`: the user's saved views (a name, a search and optionally the
//! status and the pane filters), checked with the file's line like `[keys]`, and
//! `:save-view NAME`, which writes one back into the file. The write edits the document with
//! `toml_edit`, so the user's comments, order and formatting stay, and replaces the file
//! atomically (a temporary file in the same folder, then a rename): a crash leaves the old file
//! or the new one, never half of one.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use thiserror::Error;
use toml::Spanned;

/// Names the inbox gives its built-in views; a user's view may not take one.
pub const BUILT_IN: [&str; 5] = ["Inbox", "Starred", "Snoozed", "Done", "Archived"];

/// The longest view name (the view bar has one line for all of them).
pub(crate) const MAX_NAME_CHARS: usize = 40;

/// One `[[views]]` entry as checked: a name and what it selects. `project`, `app` and `tag` are
/// the raw values the panes filter by (project and app ids, tag names); `query` is a search in
/// the `/` language (`app:NAME` there works by name).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ViewDef {
    pub name: String,
    pub query: String,
    /// `new` or `archived`.
    pub status: String,
    pub project: Option<String>,
    pub app: Option<String>,
    pub tag: Option<String>,
}

/// The views of the config file, and where `:save-view` writes (the file read, or the one that
/// would be read: `--config`, else the platform's path).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ViewsSettings {
    pub views: Vec<ViewDef>,
    pub path: Option<PathBuf>,
}

#[derive(Debug, Error, PartialEq, Eq)]
#[error("{file}:{line}: {message}")]
pub struct ViewsError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: Spanned<String>,
    #[serde(default)]
    query: Option<Spanned<String>>,
    #[serde(default)]
    status: Option<Spanned<String>>,
    #[serde(default)]
    project: Option<String>,
    #[serde(default)]
    app: Option<String>,
    #[serde(default)]
    tag: Option<String>,
}

#[derive(Deserialize, Default)]
struct Doc {
    #[serde(default)]
    views: Vec<Spanned<Entry>>,
}

/// The `[[views]]` of a config file's text (`file` names it in errors).
pub fn parse(text: &str, file: &str) -> Result<Vec<ViewDef>, ViewsError> {
    let err = |offset: usize, message: String| ViewsError {
        file: file.to_owned(),
        line: line_of(text, offset),
        message,
    };
    // Only `views` is read here: the rest of the file is the config's to check.
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        err(
            e.span().map_or(0, |s| s.start),
            e.message().trim().to_owned(),
        )
    })?;
    let Some(views) = table.get("views") else {
        return Ok(Vec::new());
    };
    if !views.is_array() {
        let offset = text.find("views").unwrap_or(0);
        return Err(err(
            offset,
            "`views` must be a list of [[views]] tables".to_owned(),
        ));
    }
    let doc: Doc = toml::from_str(text).map_err(|e| {
        err(
            e.span().map_or(0, |s| s.start),
            format!("[[views]]: {}", e.message().trim()),
        )
    })?;
    let mut out: Vec<ViewDef> = Vec::new();
    for entry in doc.views {
        let at = entry.span().start;
        let entry = entry.into_inner();
        let def = check(entry, &|offset, message| err(offset, message))?;
        if out.iter().any(|d| d.name.eq_ignore_ascii_case(&def.name)) {
            return Err(err(at, format!("a second view named \"{}\"", def.name)));
        }
        out.push(def);
    }
    Ok(out)
}

fn check(entry: Entry, err: &dyn Fn(usize, String) -> ViewsError) -> Result<ViewDef, ViewsError> {
    let name_at = entry.name.span().start;
    let name = entry.name.into_inner().trim().to_owned();
    if let Some(problem) = name_problem(&name) {
        return Err(err(name_at, problem));
    }
    let status = match entry.status {
        None => "new".to_owned(),
        Some(s) => {
            let at = s.span().start;
            let value = s.into_inner().trim().to_ascii_lowercase();
            if !["new", "archived", "any"].contains(&value.as_str()) {
                return Err(err(
                    at,
                    format!(
                        "view \"{name}\": status is \"new\", \"archived\" or \"any\" (both), not \"{value}\""
                    ),
                ));
            }
            value
        }
    };
    let query = match entry.query {
        None => String::new(),
        Some(q) => {
            let at = q.span().start;
            let text = q.into_inner().trim().to_owned();
            if let Err(e) = feedback_core::query::parse(&text) {
                return Err(err(at, format!("view \"{name}\": query: {}", e.message)));
            }
            text
        }
    };
    let some = |v: Option<String>| v.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    Ok(ViewDef {
        name,
        query,
        status,
        project: some(entry.project),
        app: some(entry.app),
        tag: some(entry.tag),
    })
}

/// Why `name` cannot name a user's view (`None`: it can).
#[must_use]
pub fn name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("a view needs a name".to_owned());
    }
    if name.chars().any(char::is_control) {
        return Some("a view's name cannot hold control characters".to_owned());
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Some(format!(
            "a view's name is at most {MAX_NAME_CHARS} characters"
        ));
    }
    BUILT_IN
        .iter()
        .find(|b| b.eq_ignore_ascii_case(name))
        .map(|b| format!("\"{b}\" is a built-in view; choose another name"))
}

/// The 1-based line of byte `offset` in `text` (for errors that name a config line).
#[must_use]
pub fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// A pane filter as `:save-view` writes it: the raw value and the label shown for it (written
/// as a comment after the value when it differs, since ids say little).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labelled {
    pub value: String,
    pub label: String,
}

/// What `:save-view` writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedView {
    pub name: String,
    pub query: String,
    pub status: String,
    pub project: Option<Labelled>,
    pub app: Option<Labelled>,
    pub tag: Option<Labelled>,
}

/// Writes `view` into the config file at `path` (created when missing): a view of the same name
/// is replaced in place, else a `[[views]]` table is added at the end. Everything else in the
/// file is kept as it was written.
pub fn save(path: &Path, view: &SavedView) -> Result<(), String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let edited = edit(&text, view).map_err(|e| format!("{}: {e}", path.display()))?;
    write_atomically(path, &edited).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The file's text with `view` saved into it.
pub fn edit(text: &str, view: &SavedView) -> Result<String, String> {
    if let Some(problem) = name_problem(&view.name) {
        return Err(problem);
    }
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e| format!("{e}"))?;
    let views = doc
        .entry("views")
        .or_insert_with(|| toml_edit::Item::ArrayOfTables(toml_edit::ArrayOfTables::new()));
    let Some(tables) = views.as_array_of_tables_mut() else {
        return Err("`views` is not a list of [[views]] tables".to_owned());
    };
    let existing = tables.iter_mut().find(|t| {
        t.get("name")
            .and_then(toml_edit::Item::as_str)
            .is_some_and(|n| n.trim().eq_ignore_ascii_case(&view.name))
    });
    match existing {
        Some(table) => fill(table, view),
        None => {
            let mut table = toml_edit::Table::new();
            fill(&mut table, view);
            tables.push(table);
        }
    }
    Ok(doc.to_string())
}

fn fill(table: &mut toml_edit::Table, view: &SavedView) {
    set(table, "name", view.name.as_str().into(), false);
    set(table, "query", view.query.as_str().into(), false);
    set(table, "status", view.status.as_str().into(), false);
    for (key, chosen) in [
        ("project", &view.project),
        ("app", &view.app),
        ("tag", &view.tag),
    ] {
        match chosen {
            Some(c) => {
                let mut value = toml_edit::Value::from(c.value.as_str());
                let labelled = c.label != c.value;
                if labelled {
                    // A label is one line already; a comment must not end early either way.
                    let label: String = c.label.chars().filter(|ch| !ch.is_control()).collect();
                    value.decor_mut().set_suffix(format!(" # {label}"));
                }
                set(table, key, value, labelled);
            }
            None => {
                table.remove(key);
            }
        }
    }
}

/// Sets `key` to `value`, keeping the comment the user wrote beside the old value unless the
/// new value brings its own (`own_suffix`).
fn set(table: &mut toml_edit::Table, key: &str, mut value: toml_edit::Value, own_suffix: bool) {
    if let Some(old) = table.get(key).and_then(toml_edit::Item::as_value) {
        let decor = old.decor().clone();
        if let Some(prefix) = decor.prefix() {
            value.decor_mut().set_prefix(prefix.clone());
        }
        if let (false, Some(suffix)) = (own_suffix, decor.suffix()) {
            value.decor_mut().set_suffix(suffix.clone());
        }
    }
    table[key] = toml_edit::Item::Value(value);
}

/// Replaces `path` with `text`: written to a temporary file beside it, flushed to disk, then
/// renamed over it (keeping the old file's permissions: it may hold an API key), and the
/// folder synced so the rename itself survives a crash. A symlinked config (dotfiles) stays a
/// symlink: its target is what is replaced.
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let path = resolve_links(path)?;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut temp = tempfile::NamedTempFile::new_in(dir)?;
    temp.write_all(text.as_bytes())?;
    temp.as_file().sync_all()?;
    if let Ok(meta) = std::fs::metadata(&path) {
        temp.as_file().set_permissions(meta.permissions())?;
    }
    temp.persist(&path).map_err(|e| e.error)?;
    sync_dir(dir)
}

/// The file `path` names once symlinks are followed (a dangling link: the file it would
/// create); `path` itself when it is no link.
fn resolve_links(path: &Path) -> std::io::Result<std::path::PathBuf> {
    let mut path = path.to_path_buf();
    // A bounded walk: a link loop is an error, not a hang.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&path)?;
                path = match path.parent() {
                    Some(parent) if target.is_relative() => parent.join(target),
                    _ => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// Flushes a folder's entries (the rename) to disk; where a folder cannot be opened for that
/// (Windows), the rename is as durable as the platform makes it.
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
