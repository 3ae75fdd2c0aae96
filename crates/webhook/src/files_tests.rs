//! The receiver's files on disk: the JSONL journal and the seen-id record are private, and a
//! seen-id record replaced by a symlink or a FIFO is refused rather than followed or waited on.
#![allow(clippy::unwrap_used)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use super::journal::AppendLog;
use super::seen::{Seen, rewrite};

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn loosen(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn the_journal_and_the_seen_file_are_0600_and_a_loosened_one_is_tightened() {
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("events.jsonl");
    AppendLog::open(&jsonl).unwrap();
    assert_eq!(mode(&jsonl), 0o600);
    loosen(&jsonl, 0o666);
    AppendLog::open(&jsonl).unwrap();
    assert_eq!(mode(&jsonl), 0o600);

    let folder = dir.path().join("new-folder");
    let seen = folder.join("webhook-seen.txt");
    Seen::open(&seen).unwrap().insert("fb_1").unwrap();
    assert_eq!(mode(&seen), 0o600);
    assert_eq!(mode(&folder), 0o700);
    loosen(&seen, 0o644);
    assert!(Seen::open(&seen).unwrap().contains("fb_1"));
    assert_eq!(mode(&seen), 0o600);

    rewrite(&seen, &["fb_2".to_owned()], &mut |_: &Path| Ok(())).unwrap();
    assert_eq!(mode(&seen), 0o600);
}

/// Opens the seen file at `path` on a thread of its own: `None` when it has not answered
/// within the patience (it waits on a FIFO's writer).
fn open_seen(path: &Path) -> Option<Result<Seen, String>> {
    let (tx, rx) = mpsc::channel();
    let path = path.to_owned();
    std::thread::spawn(move || {
        let _ = tx.send(Seen::open(&path).map_err(|e| e.to_string()));
    });
    rx.recv_timeout(Duration::from_secs(10)).ok()
}

#[test]
fn a_seen_file_that_is_a_symlink_or_a_fifo_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.txt");
    std::fs::write(&target, "unrelated\n").unwrap();
    let link = dir.path().join("webhook-seen.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let error = open_seen(&link).unwrap().unwrap_err();
    assert!(error.contains("is a symlink"), "{error}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "unrelated\n");

    let fifo = dir.path().join("fifo-seen.txt");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    let answer = open_seen(&fifo).expect("opening a FIFO as the seen file must not wait");
    let error = answer.unwrap_err();
    assert!(error.contains("not a regular file"), "{error}");
}
