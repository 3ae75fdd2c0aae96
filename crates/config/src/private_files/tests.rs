//! Private files and folders: made `0600`/`0700` whatever the umask, tightened when loosened,
//! and records refused when a symlink or a FIFO stands in their place.
#![allow(clippy::unwrap_used)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::*;

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn loosen(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn new_folders_are_0700_and_loosened_own_ones_are_tightened_others_kept() {
    let root = tempfile::tempdir().unwrap();
    let own = root.path().join("data");
    let made = own.join("deeper").join("stores");
    create_dir_with(&made, |d| d == own || d == made).unwrap();
    assert_eq!(mode(&own), 0o700);
    assert_eq!(mode(&own.join("deeper")), 0o700);
    assert_eq!(mode(&made), 0o700);

    loosen(&own, 0o777);
    loosen(&made, 0o755);
    loosen(&own.join("deeper"), 0o755);
    create_dir_with(&made, |d| d == own || d == made).unwrap();
    assert_eq!(mode(&own), 0o700);
    assert_eq!(mode(&made), 0o700);
    // Not this program's folder: its mode is the user's choice.
    assert_eq!(mode(&own.join("deeper")), 0o755);
}

#[test]
fn an_appended_file_is_made_0600_and_a_loosened_one_tightened() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("events.jsonl");
    let (_, created) = open_append(&path, Follow::Yes).unwrap();
    assert!(created);
    assert_eq!(mode(&path), 0o600);
    loosen(&path, 0o666);
    let (_, created) = open_append(&path, Follow::No).unwrap();
    assert!(!created);
    assert_eq!(mode(&path), 0o600);

    let fresh = dir.path().join("store");
    create_file(&fresh).unwrap();
    assert_eq!(mode(&fresh), 0o600);
    loosen(&fresh, 0o644);
    create_file(&fresh).unwrap();
    assert_eq!(mode(&fresh), 0o600);

    let rewritten = dir.path().join("seen.compacting");
    fs::write(&rewritten, "old").unwrap();
    loosen(&rewritten, 0o644);
    drop(create_truncated(&rewritten).unwrap());
    assert_eq!(mode(&rewritten), 0o600);
    assert_eq!(fs::read(&rewritten).unwrap(), b"");
}

#[test]
fn a_record_behind_a_symlink_or_a_fifo_is_refused_without_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("elsewhere");
    fs::write(&target, "theirs\n").unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let dangling = dir.path().join("dangling");
    std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
    let fifo = dir.path().join("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();

    for path in [&link, &dangling] {
        let error = read_record(path).unwrap_err().to_string();
        assert!(error.contains("is a symlink"), "{error}");
        let error = open_append(path, Follow::No).unwrap_err().to_string();
        assert!(error.contains("is a symlink"), "{error}");
    }
    let error = read_record(&fifo).unwrap_err().to_string();
    assert!(error.contains("not a regular file"), "{error}");
    let error = open_append(&fifo, Follow::No).unwrap_err().to_string();
    assert!(error.contains("not a regular file"), "{error}");
    assert_eq!(fs::read_to_string(&target).unwrap(), "theirs\n");
    assert!(!dir.path().join("nowhere").exists());

    // The user's own path (`--jsonl`) may be a link.
    assert!(open_append(&link, Follow::Yes).is_ok());
    assert_eq!(read_record(&dir.path().join("missing")).unwrap(), None);
}
