//! `login` and `logout` against the simulator: a key checked with one request before it is
//! kept (a refused key, a malformed one or an unreachable service keeps nothing), kept per
//! profile where `account` then finds it and says so, never printed, and removed again. With
//! no keyring on the machine (no session bus here) the key goes to the credentials file, mode
//! 0600, and `login` says why; `--insecure-storage` asks for the file outright.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common::rig;
use feedback_sim::DEMO_KEY;

/// The binary with a clean environment (no session bus: no keyring answers), `stdin` given.
fn run(home: &Path, base_url: &str, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_feedback-inbox"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("FEEDBACK_BASE_URL", base_url)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_is_checked_before_it_is_kept_then_found_by_account_and_removed_by_logout() {
    let r = rig(30, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let base = r.sim.base_url();
    let file = home.path().join("config/feedback-inbox/credentials.toml");
    // Without a key: the error names `login`.
    let none = run(home.path(), &base, &["account"], "");
    assert_eq!(none.status.code(), Some(2));
    assert!(
        text(&none.stderr).contains("run `feedback-inbox login`"),
        "{}",
        text(&none.stderr)
    );

    // A key the service refuses, a malformed one: nothing is kept.
    let refused = run(
        home.path(),
        &base,
        &["login", "--with-key"],
        "service_eu_sk_hunter2hunter2\n",
    );
    assert_eq!(refused.status.code(), Some(3), "{}", text(&refused.stderr));
    let malformed = run(home.path(), &base, &["login", "--with-key"], "hunter2\n");
    assert_eq!(
        malformed.status.code(),
        Some(2),
        "{}",
        text(&malformed.stderr)
    );
    assert!(!file.exists());
    // Off a terminal without --with-key, it says how.
    let no_tty = run(home.path(), &base, &["login"], DEMO_KEY);
    assert_eq!(no_tty.status.code(), Some(2));
    assert!(
        text(&no_tty.stderr).contains("--with-key"),
        "{}",
        text(&no_tty.stderr)
    );

    // The simulator's key is checked and kept; no keyring answers here, so in the file.
    let kept = run(
        home.path(),
        &base,
        &["login", "--with-key"],
        &format!("{DEMO_KEY}\n"),
    );
    assert_eq!(kept.status.code(), Some(0), "{}", text(&kept.stderr));
    let said = text(&kept.stdout);
    assert!(
        said.contains("Signed in to") && said.contains("projects readable"),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "The key is kept in {} (mode 0600): no keyring answers",
            file.display()
        )),
        "{said}"
    );
    assert!(!said.contains(DEMO_KEY) && !text(&kept.stderr).contains(DEMO_KEY));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let account = run(home.path(), &base, &["account"], "");
    assert_eq!(account.status.code(), Some(0), "{}", text(&account.stderr));
    assert!(
        text(&account.stdout)
            .contains(&format!("from `feedback-inbox login` ({})", file.display())),
        "{}",
        text(&account.stdout)
    );
    assert!(!text(&account.stdout).contains(DEMO_KEY));
    // Per profile: another profile has no key.
    std::fs::write(
        home.path().join("config/feedback-inbox/config.toml"),
        "[profiles.staging]\n",
    )
    .unwrap();
    let staging = run(home.path(), &base, &["--profile", "staging", "account"], "");
    assert_eq!(staging.status.code(), Some(2), "{}", text(&staging.stdout));

    let out = run(home.path(), &base, &["logout"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("Removed the key of the top-level account from"),
        "{}",
        text(&out.stdout)
    );
    let again = run(home.path(), &base, &["account"], "");
    assert_eq!(again.status.code(), Some(2));
    let twice = run(home.path(), &base, &["logout"], "");
    assert!(
        text(&twice.stdout).contains("No key was kept"),
        "{}",
        text(&twice.stdout)
    );
}
