#![allow(clippy::unwrap_used)]

#[test]
fn forget_asks_and_takes_only_y_or_yes() {
    let path = std::path::Path::new("/s/default.sqlite3");
    for (answer, confirmed) in [
        ("y\n", true),
        ("YES\n", true),
        (" y \n", true),
        ("\n", false),
        ("n\n", false),
        ("yeah\n", false),
        ("", false),
    ] {
        let mut prompt = Vec::new();
        let got =
            super::forget::confirm(path, Some(1234), &mut answer.as_bytes(), &mut prompt).unwrap();
        assert_eq!(got, confirmed, "{answer:?}");
        let prompt = String::from_utf8(prompt).unwrap();
        assert!(
            prompt.starts_with("Delete the local store /s/default.sqlite3 (1,234 items)?")
                && prompt.ends_with("[y/N] "),
            "{prompt}"
        );
    }
}

#[test]
fn sizes_and_counts_read_like_a_person_writes_them() {
    use super::info::human_bytes;
    let sizes = [
        (0, "0 B"),
        (1023, "1023 B"),
        (1536, "1.5 KiB"),
        (1_572_864, "1.5 MiB"),
        (600 * 1_000_000, "572.2 MiB"),
        (3 << 30, "3.0 GiB"),
    ];
    for (bytes, shown) in sizes {
        assert_eq!(human_bytes(bytes), shown);
    }
    for (n, shown) in [
        (0, "0"),
        (999, "999"),
        (1000, "1,000"),
        (1_234_567, "1,234,567"),
    ] {
        assert_eq!(feedback_core::text::output::thousands(n), shown);
    }
}

#[test]
fn store_files_are_the_database_and_its_sidecars_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.sqlite3");
    for name in [
        "p.sqlite3",
        "p.sqlite3-wal",
        "p.sqlite3.lock",
        "p.sqlite3.bak",
        "p.sqlite",
    ] {
        std::fs::write(dir.path().join(name), b"").unwrap();
    }
    let files = super::forget::existing_files(&path);
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["p.sqlite3", "p.sqlite3-wal", "p.sqlite3.lock"]);
    super::forget::check_is_store(&path).unwrap();
    super::forget::delete(&files).unwrap();
    assert!(dir.path().join("p.sqlite3.bak").exists() && dir.path().join("p.sqlite").exists());
}

#[cfg(unix)]
#[test]
fn forget_takes_the_sync_lock_even_when_no_lock_file_exists_yet() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.sqlite3");
    std::fs::write(&path, b"").unwrap();
    let held = super::forget::hold_sync_lock(&path).unwrap();
    assert!(held.is_some());
    // A sync starting meanwhile (another open of the lock file) is refused.
    let second = super::forget::hold_sync_lock(&path);
    assert!(
        second.is_err_and(|e| e.to_string().contains("a sync is running")),
        "the lock is held"
    );
    drop(held);
    assert!(super::forget::hold_sync_lock(&path).unwrap().is_some());
}
