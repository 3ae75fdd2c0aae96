//! `webhook listen` keeps customers' data private on disk, whatever the umask: the JSONL, the
//! seen-id record, the store and the log are `0600` in `0700` folders, a loosened data folder
//! is tightened again, and a seen-id record replaced by a symlink is refused.
#![cfg(unix)]
#![allow(clippy::unwrap_used)]

use crate::webhook_support;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use webhook_support::{BIN, LISTEN, in_clean_env, listening, next, spawn, terminate};

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

/// The binary run by a shell that set `umask 000` first.
fn under_umask_000(home: &Path) -> Command {
    let mut command = Command::new("sh");
    command
        .args(["-c", "umask 000; exec \"$0\" \"$@\""])
        .arg(BIN);
    in_clean_env(command, home)
}

#[test]
fn under_umask_000_every_file_is_0600_in_0700_folders_and_a_loose_data_folder_is_tightened() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data/feedback-inbox");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o777)).unwrap();
    let jsonl = home.path().join("events.jsonl");

    let mut command = under_umask_000(home.path());
    command.args(LISTEN).arg("--jsonl").arg(&jsonl);
    let (mut listen, _url) = listening(command);
    terminate(&mut listen.child);

    assert_eq!(mode(&jsonl), 0o600, "the journal");
    assert_eq!(mode(&data), 0o700, "the data folder");
    assert!(
        !data.join("webhook-seen.txt").exists(),
        "with a store the seen ids are kept in it"
    );
    assert_eq!(mode(&data.join("stores")), 0o700, "the stores folder");
    assert_eq!(
        mode(&data.join("stores/default.sqlite3")),
        0o600,
        "the store"
    );
    let state = home.path().join("state/feedback-inbox");
    assert_eq!(mode(&state), 0o700, "the log's folder");
    // The day's log file, private too.
    let logs: Vec<std::path::PathBuf> = std::fs::read_dir(&state)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("feedback-inbox.") && p.extension().is_some_and(|e| e == "log")
        })
        .collect();
    assert!(!logs.is_empty(), "no log file in {}", state.display());
    for log in &logs {
        assert_eq!(mode(log), 0o600, "the log {}", log.display());
    }

    // Without a store, the seen ids have a file of their own.
    let mut command = under_umask_000(home.path());
    command
        .args(LISTEN)
        .arg("--jsonl")
        .arg(&jsonl)
        .arg("--no-store");
    let (mut listen, _url) = listening(command);
    terminate(&mut listen.child);
    assert_eq!(mode(&data.join("webhook-seen.txt")), 0o600, "the seen ids");
}

#[test]
fn a_symlinked_seen_file_is_refused_and_its_target_left_alone() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data/feedback-inbox");
    std::fs::create_dir_all(&data).unwrap();
    let target = home.path().join("somebody-elses.txt");
    std::fs::write(&target, "theirs\n").unwrap();
    std::os::unix::fs::symlink(&target, data.join("webhook-seen.txt")).unwrap();

    let mut command = in_clean_env(Command::new(BIN), home.path());
    command
        .args(LISTEN)
        .arg("--jsonl")
        .arg(home.path().join("events.jsonl"))
        .arg("--no-store");
    let mut run = spawn(command);
    let first = next(&run.err, "the refusal");
    if !first.contains("is a symlink; refusing to follow it") {
        let _ = run.child.kill();
        let _ = run.child.wait();
        panic!("not refused: {first}");
    }
    assert_eq!(run.child.wait().unwrap().code(), Some(1));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "theirs\n");
}
