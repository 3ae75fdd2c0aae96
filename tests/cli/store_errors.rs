//! Honest errors about the store file: an unreadable one is not "not a SQLite database" (and
//! `store forget` does not suggest deleting it), a damaged one says "the store is damaged" with
//! what to do, and `doctor` finds the damage (`PRAGMA quick_check`) and the config problems the
//! inbox refuses at its start.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

/// The binary in a clean environment under `home`, with `base_url` and `store`.
fn command(home: &Path, base_url: &str, store: &Path, args: &[&str]) -> Command {
    common::command_on(home, base_url, store, args)
}

fn run(home: &Path, base_url: &str, store: &Path, args: &[&str]) -> Output {
    command(home, base_url, store, args).output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A store synced from the simulator, then damaged by `damage` (SQL run on it directly).
fn damaged(home: &Path, base_url: &str, damage: &str) -> std::path::PathBuf {
    let path = home.join("store.sqlite3");
    let out = run(home, base_url, &path, &["sync"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(damage).unwrap();
    drop(conn);
    path
}

/// Damage `quick_check` cannot see (text that is not UTF-8 where the sync reads first): `sync`
/// says the store is damaged and what to do, and `doctor` finds it before a sync does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_store_is_called_damaged_with_what_to_do_by_sync_and_doctor() {
    let r = common::rig(150, 100_000).await;
    let url = r.sim.base_url();
    for damage in [
        "UPDATE meta SET value = CAST(x'80ff' AS TEXT) WHERE key = 'account_project_ids'",
        "UPDATE sync_status SET head_id = CAST(x'80ff' AS TEXT)",
    ] {
        let home = tempfile::tempdir().unwrap();
        let path = damaged(home.path(), &url, damage);
        let out = run(home.path(), &url, &path, &["sync"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{damage}: {err}");
        assert!(
            err.starts_with("error: the store is damaged: ")
                && err.contains("`feedback-inbox store forget`"),
            "{damage}: {err}"
        );
        let out = run(home.path(), &url, &path, &["doctor"]);
        let report = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{damage}: {report}");
        let line = report
            .lines()
            .find(|l| l.contains("store integrity"))
            .unwrap_or_else(|| panic!("{damage}: {report}"));
        assert!(
            line.starts_with("FAIL") && line.contains("the store is damaged"),
            "{damage}: {line}"
        );
    }
}

/// A store the user cannot read (its mode or owner changed) is not "not a SQLite database":
/// `sync` and `store forget` say it cannot be read and what to check, and neither suggests
/// deleting it. As root (who reads any file) the binary runs as `nobody`.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_store_is_called_unreadable_and_forget_does_not_offer_to_delete_it() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    use std::os::unix::process::CommandExt;
    const NOBODY: u32 = 65_534;

    let r = common::rig(30, 100_000).await;
    let url = r.sim.base_url();
    let home = tempfile::tempdir().unwrap();
    let path = home.path().join("store.sqlite3");
    let out = run(home.path(), &url, &path, &["sync"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let before = std::fs::read(&path).unwrap();
    let root = std::fs::metadata(&path).unwrap().uid() == 0;
    if root {
        // The folder is nobody's, the store stays root's (mode 0600): nobody cannot read it.
        std::os::unix::fs::chown(home.path(), Some(NOBODY), Some(NOBODY)).unwrap();
    } else {
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    }
    // nobody may not reach the binary where it was built (a clone under /root, or in a folder
    // only its owner enters): as root, a copy of it runs from a folder anyone may enter.
    let bin = tempfile::tempdir().unwrap();
    let binary = bin.path().join("feedback-inbox");
    if root {
        std::fs::set_permissions(bin.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::copy(env!("CARGO_BIN_EXE_feedback-inbox"), &binary).unwrap();
        std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    for args in [&["sync"][..], &["store", "forget", "--yes"][..]] {
        let mut cmd = command(home.path(), &url, &path, args);
        if root {
            cmd = common::with_program(&cmd, &binary);
            cmd.uid(NOBODY).gid(NOBODY);
        }
        let out = cmd.output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("cannot be read: permission denied") && err.contains("chmod 600"),
            "{args:?}: {err}"
        );
        assert!(
            !err.contains("not a SQLite database") && !err.contains("delete it"),
            "{args:?}: {err}"
        );
        assert!(path.exists(), "{args:?}");
    }
    if !root {
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    assert!(std::fs::read(&path).unwrap() == before, "left as it was");
}

/// `doctor` checks the settings with the function the inbox's start uses: each config here
/// makes the inbox refuse to start, and fails doctor's "settings" line with the same reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn doctor_fails_the_configs_the_inbox_refuses_at_its_start() {
    let r = common::rig(10, 100_000).await;
    let url = r.sim.base_url();
    for (config, reason) in [
        ("[keys]\nnot_an_action = \"x\"\n", "not_an_action"),
        ("[keys]\nquit = \"no-such-key\"\n", "no-such-key"),
        ("[sync]\nfloor_percent = 200\n", "200"),
        ("retention_days = 0\n", "retention_days"),
    ] {
        let home = tempfile::tempdir().unwrap();
        let file = home.path().join("config.toml");
        std::fs::write(&file, config).unwrap();
        let store = home.path().join("store.sqlite3");
        let args = ["--config", file.to_str().unwrap(), "doctor"];
        let out = run(home.path(), &url, &store, &args);
        let report = stdout(&out);
        let line = report
            .lines()
            .find(|l| l.contains("settings"))
            .unwrap_or_else(|| panic!("{config}: {report}"));
        assert!(
            line.starts_with("FAIL") && line.contains(reason),
            "{config}: {line}"
        );
        assert_eq!(out.status.code(), Some(1), "{config}: {report}");
    }
    // A config the inbox accepts passes.
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("config.toml");
    std::fs::write(&file, "[keys]\nquit = \"Q\"\n[sync]\nfloor_percent = 30\n").unwrap();
    let store = home.path().join("store.sqlite3");
    let out = run(
        home.path(),
        &url,
        &store,
        &["--config", file.to_str().unwrap(), "doctor"],
    );
    let report = stdout(&out);
    let line = report.lines().find(|l| l.contains("settings")).unwrap();
    assert!(line.starts_with("ok"), "{line}");
}
