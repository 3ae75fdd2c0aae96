//! The local store's checks: where it is and how big, its permissions (file 0600, folder 0700:
//! it holds the account's feedback, emails included), its schema version, and the last sync.
//! Permissions are read before anything opens the file (opening tightens them, which would
//! hide the problem); the size and sync state come from `store info`'s own report.

use std::path::Path;

use jiff::{SignedDuration, Timestamp};

use super::Check;
use crate::context::Context;
use crate::context::store::{check_store_file, retention, store_path};
use crate::store_cmd::info;

/// The store lines of this command line's store (`--store`, `FEEDBACK_STORE` or the default).
#[must_use]
pub(super) fn checks(args: &Context, now: Timestamp) -> Vec<Check> {
    let path = match store_path(args) {
        Ok(Some(path)) => path,
        Ok(None) => return vec![Check::ok("store", "--no-store: nothing is kept on disk")],
        Err(error) => return vec![Check::fail("store", error.to_string(), "pass --store PATH")],
    };
    match retention(args) {
        Ok(retention) => at(&path, retention, now),
        // The config line has already said what is wrong with the file.
        Err(error) => vec![Check::skip("store", format!("not read: {error}"))],
    }
}

/// The store lines of the store file at `path`.
#[must_use]
pub(super) fn at(path: &Path, retention: Option<SignedDuration>, now: Timestamp) -> Vec<Check> {
    let shown = path.display();
    if !path.exists() {
        return vec![Check::ok(
            "store",
            format!("none yet at {shown}: the inbox or `feedback-inbox sync` creates it"),
        )];
    }
    if let Err(error) = check_store_file(path, "it is not the local store") {
        return vec![Check::fail(
            "store",
            error.to_string(),
            "pass --store with the store's path, or move that file away",
        )];
    }
    let access = permissions(path);
    let schema = schema(path);
    let mut lines = vec![access.clone(), schema.clone()];
    let readable = access.verdict != super::Verdict::Fail && schema.verdict == super::Verdict::Ok;
    let sound = if readable {
        let line = integrity(path);
        let sound = line.verdict == super::Verdict::Ok;
        lines.push(line);
        sound
    } else {
        false
    };
    let readable = readable && sound;
    let report = readable.then(|| info::read(path, retention));
    let (head, sync) = match report {
        None => (
            Check::ok("store", shown.to_string()),
            Check::skip(
                "last sync",
                "fix the lines above first (reading the store would change them)",
            ),
        ),
        Some(Err(error)) => (
            Check::fail(
                "store",
                error.to_string(),
                "run `feedback-inbox store info` for details",
            ),
            Check::skip("last sync", "the store could not be read"),
        ),
        Some(Ok(report)) => (size_line(&report), last_sync(&report, now)),
    };
    lines.insert(0, head);
    lines.push(sync);
    lines
}

/// SQLite's `quick_check` and every stored text readable (see `store::check_integrity`): a
/// damaged store fails here rather than in the middle of a sync.
#[must_use]
pub(super) fn integrity(path: &Path) -> Check {
    const NAME: &str = "store integrity";
    const FIX: &str = crate::context::store::REBUILD_DAMAGED;
    match feedback_store::check_integrity(path) {
        Ok(problems) if problems.is_empty() => {
            Check::ok(NAME, "quick_check ok, every stored text readable")
        }
        Ok(problems) => Check::fail(
            NAME,
            format!("the store is damaged: {}", problems.join("; ")),
            FIX,
        ),
        Err(error) => Check::fail(NAME, error.to_string(), FIX),
    }
}

/// "PATH, 1.5 MiB (and 32.0 KiB of write-ahead log), 1,234 items".
fn size_line(report: &info::Report) -> Check {
    let Some(contents) = &report.contents else {
        return Check::ok("store", format!("{}: empty", report.path));
    };
    let wal = if contents.wal_bytes > 0 {
        format!(
            " (and {} of write-ahead log)",
            info::human_bytes(contents.wal_bytes)
        )
    } else {
        String::new()
    };
    Check::ok(
        "store",
        format!(
            "{}, {}{wal}, {}",
            report.path,
            info::human_bytes(contents.bytes),
            feedback_core::text::output::counted(contents.items, "item")
        ),
    )
}

/// File 0600 and folder 0700; a file others can read fails, a folder others can list warns.
#[cfg(unix)]
#[must_use]
pub(super) fn permissions(path: &Path) -> Check {
    use std::os::unix::fs::PermissionsExt;
    const NAME: &str = "store access";
    let mode = |p: &Path| std::fs::metadata(p).map(|m| m.permissions().mode() & 0o7777);
    let file = match mode(path) {
        Ok(mode) => mode,
        Err(error) => {
            return Check::fail(
                NAME,
                format!("cannot read its permissions: {error}"),
                "check the path",
            );
        }
    };
    if file & 0o077 != 0 {
        return Check::fail(
            NAME,
            format!("the file is mode {file:04o}: other users can read the account's feedback"),
            format!("chmod 600 {}", path.display()),
        );
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    match mode(dir) {
        Ok(dir_mode) if dir_mode & 0o077 != 0 => Check::warn(
            NAME,
            format!("file {file:04o}, but its folder is mode {dir_mode:04o}: others can list it"),
            Some(format!("chmod 700 {}", dir.display())),
        ),
        Ok(dir_mode) => Check::ok(NAME, format!("file {file:04o}, folder {dir_mode:04o}")),
        Err(error) => Check::warn(
            NAME,
            format!("file {file:04o}; folder unreadable: {error}"),
            None,
        ),
    }
}

#[cfg(not(unix))]
#[must_use]
pub(super) fn permissions(_path: &Path) -> Check {
    Check::ok(
        "store access",
        "permissions are the user profile's (not a unix system)",
    )
}

/// The schema version against this build's, read without opening the store (which would
/// migrate it).
#[must_use]
pub(super) fn schema(path: &Path) -> Check {
    const NAME: &str = "store schema";
    let version = crate::context::store::schema_version(path);
    let latest = i64::try_from(feedback_store::schema::latest()).unwrap_or(i64::MAX);
    match version {
        Err(error) => Check::fail(
            NAME,
            format!("cannot read it: {error}"),
            "check the file's permissions and owner",
        ),
        Ok(0) => Check::ok(NAME, "empty file: set up on first use"),
        Ok(v) if v == latest => Check::ok(NAME, format!("version {v}, this build's")),
        Ok(v) if v < latest => Check::warn(
            NAME,
            format!("version {v}, older than this build's {latest}"),
            Some("run `feedback-inbox sync` or the inbox once: it upgrades the store".to_owned()),
        ),
        Ok(v) => Check::fail(
            NAME,
            format!("version {v}, written by a newer feedback-inbox (this build knows {latest})"),
            "update feedback-inbox, or pass --store with another file",
        ),
    }
}

/// When each status was last synced; never synced is a warning.
fn last_sync(report: &info::Report, now: Timestamp) -> Check {
    const NAME: &str = "last sync";
    let statuses = report.contents.iter().flat_map(|c| &c.statuses);
    let mut parts = Vec::new();
    let mut never = false;
    for status in statuses {
        let Some(sync) = &status.sync else { continue };
        let when = match sync.synced_at {
            Some(at) => format!("{} ago", feedback_core::timefmt::age(now, at)),
            None => {
                never = true;
                "never".to_owned()
            }
        };
        let reach = if sync.complete {
            ", complete"
        } else {
            ", partial"
        };
        let reach = if sync.synced_at.is_some() { reach } else { "" };
        parts.push(format!("{} {when}{reach}", status.status));
    }
    let detail = parts.join("; ");
    if never {
        Check::warn(
            NAME,
            detail,
            Some("run `feedback-inbox sync` (or open the inbox)".to_owned()),
        )
    } else {
        Check::ok(NAME, detail)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Verdict;
    use super::*;
    use feedback_store::Store;

    fn verdicts(lines: &[Check]) -> Vec<(&'static str, Verdict)> {
        lines.iter().map(|c| (c.name, c.verdict)).collect()
    }

    fn made() -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stores").join("default.sqlite3");
        drop(Store::open(&path).unwrap());
        (dir, path)
    }

    #[test]
    fn a_missing_store_is_fine() {
        let dir = tempfile::tempdir().unwrap();
        let lines = at(
            &dir.path().join("none.sqlite3"),
            None,
            Timestamp::UNIX_EPOCH,
        );
        assert_eq!(verdicts(&lines), [("store", Verdict::Ok)]);
        assert!(lines[0].detail.starts_with("none yet at "));
    }

    #[test]
    fn a_fresh_store_passes_but_was_never_synced() {
        let (_dir, path) = made();
        let lines = at(&path, None, Timestamp::UNIX_EPOCH);
        assert_eq!(
            verdicts(&lines),
            [
                ("store", Verdict::Ok),
                ("store access", Verdict::Ok),
                ("store schema", Verdict::Ok),
                ("store integrity", Verdict::Ok),
                ("last sync", Verdict::Warn)
            ]
        );
        assert!(lines[0].detail.contains("0 items"), "{}", lines[0].detail);
        assert_eq!(lines[1].detail, "file 0600, folder 0700");
        assert_eq!(lines[4].detail, "new never; archived never");
    }

    /// Text that is not UTF-8 passes `quick_check` but stops a sync: the integrity line fails,
    /// says the store is damaged and what to do, and nothing else reads the store.
    #[test]
    fn a_store_with_text_that_is_not_utf8_fails_the_integrity_line() {
        let (_dir, path) = made();
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('account_project_ids', CAST(x'80ff' AS TEXT))",
        )
        .unwrap();
        let lines = at(&path, None, Timestamp::UNIX_EPOCH);
        let line = &lines[3];
        assert_eq!(
            (line.name, line.verdict),
            ("store integrity", Verdict::Fail)
        );
        assert!(
            line.detail.contains("the store is damaged") && line.detail.contains("table meta"),
            "{}",
            line.detail
        );
        assert!(line.fix.as_deref().unwrap().contains("store forget"));
        assert_eq!(lines[4].verdict, Verdict::Skip);
    }

    /// A damaged page is found by `quick_check`.
    #[test]
    fn a_store_with_a_damaged_page_fails_the_integrity_line() {
        let (_dir, path) = made();
        {
            let mut store = Store::open(&path).unwrap();
            let anchor: Timestamp = "2026-11-01T12:00:00Z".parse().unwrap();
            let items: Vec<_> = feedback_sim::data::generate(1, 300, anchor)
                .items()
                .map(|detail| detail.feedback)
                .collect();
            store.put_items(&items, anchor).unwrap();
            rusqlite::Connection::open(&path)
                .unwrap()
                .execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
                .unwrap();
        }
        let mut bytes = std::fs::read(&path).unwrap();
        let page = 4096;
        assert!(bytes.len() > 12 * page, "{}", bytes.len());
        // Pages in the middle of the file overwritten: an index's or a table's b-tree.
        for byte in &mut bytes[6 * page..10 * page] {
            *byte = 0x5a;
        }
        std::fs::write(&path, bytes).unwrap();
        let line = integrity(&path);
        assert_eq!(line.verdict, Verdict::Fail, "{}", line.detail);
        assert!(line.fix.as_deref().unwrap().contains("store forget"));
    }

    #[cfg(unix)]
    #[test]
    fn a_store_others_can_read_fails_and_is_left_as_it_was() {
        use std::os::unix::fs::PermissionsExt;
        let (_dir, path) = made();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let lines = at(&path, None, Timestamp::UNIX_EPOCH);
        assert_eq!(lines[1].verdict, Verdict::Fail);
        assert!(lines[1].fix.as_deref().unwrap().starts_with("chmod 600 "));
        assert_eq!(lines[3].verdict, Verdict::Skip);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644, "doctor does not change what it reports");

        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        let folder = path.parent().unwrap();
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o755)).unwrap();
        let lines = at(&path, None, Timestamp::UNIX_EPOCH);
        assert_eq!(lines[1].verdict, Verdict::Warn);
        assert!(lines[1].fix.as_deref().unwrap().starts_with("chmod 700 "));
    }

    #[test]
    fn a_newer_schema_fails_and_an_older_one_warns() {
        let (_dir, path) = made();
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", 999).unwrap();
        let lines = at(&path, None, Timestamp::UNIX_EPOCH);
        assert_eq!(lines[2].verdict, Verdict::Fail);
        assert!(lines[2].detail.contains("newer feedback-inbox"));
        conn.pragma_update(None, "user_version", 1).unwrap();
        assert_eq!(schema(&path).verdict, Verdict::Warn);
    }

    #[test]
    fn another_programs_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, "not a database").unwrap();
        let lines = at(&path, None, Timestamp::UNIX_EPOCH);
        assert_eq!(verdicts(&lines), [("store", Verdict::Fail)]);
    }
}
