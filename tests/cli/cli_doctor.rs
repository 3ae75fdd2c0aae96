//! `feedback-inbox doctor`, `completions` and `man`, the built binary against the simulator:
//! the passing setup, a rejected key (401 and 403), an unreachable service, a server whose
//! `Date` is ten minutes off, a missing key, and a store others can read; the key never shows.
#![allow(clippy::unwrap_used)]

use crate::common;
use crate::shell_completion;

use std::path::Path;
use std::process::{Command, Output};

use clap::CommandFactory;
use common::rig;
use feedback_sim::{DEMO_KEY, FaultKind, Route, STARTER_KEY};

/// What every key used here ends with: must never be printed.
const SECRETS: [&str; 3] = [
    "demo_0123456789abcdef",
    "starter_0123456789abcdef",
    "hunter2",
];

/// Runs the binary with a clean environment: no user config, the store in `home`.
fn run(home: &Path, base_url: &str, key: Option<&str>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_feedback-inbox"));
    command
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("FEEDBACK_STORE", home.join("store.sqlite3"))
        .env("FEEDBACK_BASE_URL", base_url);
    if let Some(key) = key {
        command.env("FEEDBACK_API_KEY", key);
    }
    command.output().unwrap()
}

fn doctor(home: &Path, base_url: &str, key: Option<&str>) -> (Output, String, String) {
    let out = run(home, base_url, key, &["doctor"]);
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    for secret in SECRETS {
        assert!(!stdout.contains(secret), "the key leaked:\n{stdout}");
        assert!(!stderr.contains(secret), "the key leaked:\n{stderr}");
    }
    (out, stdout, stderr)
}

/// The line of check `name`.
fn line<'a>(stdout: &'a str, name: &str) -> &'a str {
    stdout
        .lines()
        .find(|l| {
            l.get(6..)
                .is_some_and(|rest| rest.starts_with(&format!("{name} ")))
        })
        .unwrap_or_else(|| panic!("no {name} line in\n{stdout}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_working_setup_passes_with_warnings_only_and_exits_0() {
    let r = rig(10, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let (out, stdout, stderr) = doctor(home.path(), &r.sim.base_url(), Some(DEMO_KEY));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
    assert!(line(&stdout, "API key").contains("region eu, from FEEDBACK_API_KEY"));
    assert!(line(&stdout, "service").starts_with("ok "), "{stdout}");
    assert!(line(&stdout, "key accepted").contains("projects readable"));
    assert!(
        line(&stdout, "rate budget").contains("/10000 requests left"),
        "{stdout}"
    );
    assert!(line(&stdout, "clock").starts_with("ok "), "{stdout}");
    assert!(line(&stdout, "store").contains("none yet at"), "{stdout}");
    assert!(line(&stdout, "terminal").starts_with("warn  terminal       not a terminal"));
    for name in ["colours", "clipboard", "browser"] {
        line(&stdout, name);
    }
    assert!(
        stdout.lines().last().unwrap().contains(" 0 failed"),
        "{stdout}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_key_fails_with_the_specs_reason_and_exit_1() {
    let r = rig(10, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let bad = "service_eu_sk_hunter2hunter2";
    let (out, stdout, stderr) = doctor(home.path(), &r.sim.base_url(), Some(bad));
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        line(&stdout, "service").starts_with("ok "),
        "a 401 is an answer"
    );
    let rejected = line(&stdout, "key accepted");
    assert!(
        rejected.starts_with("FAIL  key accepted   401 unauthorized"),
        "{rejected}"
    );
    assert!(rejected.contains("fix: make a new key"), "{rejected}");
    assert_eq!(
        stderr.trim(),
        "error: doctor: 1 check failed (key accepted)"
    );

    let (out, stdout, _) = doctor(home.path(), &r.sim.base_url(), Some(STARTER_KEY));
    assert_eq!(out.status.code(), Some(1));
    assert!(line(&stdout, "key accepted").contains("403 api_access_requires_indie"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_service_is_named_and_the_later_network_checks_skipped() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let home = tempfile::tempdir().unwrap();
    let (out, stdout, stderr) = doctor(home.path(), &url, Some(DEMO_KEY));
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        line(&stdout, "service").starts_with("FAIL  service        connection refused"),
        "{stdout}"
    );
    for name in ["key accepted", "rate budget", "clock"] {
        assert!(line(&stdout, name).starts_with("skip "), "{stdout}");
    }
    assert!(stderr.contains("(service)"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_config_file_that_does_not_parse_fails_its_check() {
    let r = rig(10, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("config.toml");
    std::fs::write(&config, "base_url = [unclosed\n").unwrap();
    let args = ["--config", config.to_str().unwrap(), "doctor"];
    let out = run(home.path(), &r.sim.base_url(), Some(DEMO_KEY), &args);
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let config_line = line(&stdout, "config file");
    assert!(config_line.starts_with("FAIL  config file"), "{stdout}");
    assert!(config_line.contains("fix: "), "{config_line}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_base_url_fails_its_check_and_no_request_is_sent() {
    let r = rig(10, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let before = r.sim.stats().requests;
    let (out, stdout, _) = doctor(home.path(), "http://feedback.example.com", Some(DEMO_KEY));
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let url_line = line(&stdout, "base URL");
    assert!(url_line.starts_with("FAIL  base URL"), "{stdout}");
    assert!(url_line.contains("https://"), "{url_line}");
    assert_eq!(r.sim.stats().requests, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spent_rate_budget_is_a_warning_that_says_so() {
    let r = rig(10, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let spent = vec![
        ("X-RateLimit-Limit".to_owned(), "60".to_owned()),
        ("X-RateLimit-Remaining".to_owned(), "0".to_owned()),
    ];
    r.sim
        .faults()
        .add_after(Route::Any, FaultKind::Headers(spent), 0, None);
    let (_, stdout, _) = doctor(home.path(), &r.sim.base_url(), Some(DEMO_KEY));
    let budget = line(&stdout, "rate budget");
    assert!(budget.starts_with("warn  rate budget"), "{stdout}");
    assert!(budget.contains("0/60 requests left"), "{budget}");
    assert!(line(&stdout, "key accepted").starts_with("ok "), "{stdout}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_clock_ten_minutes_away_fails_the_clock_check() {
    let r = rig(10, 10_000).await;
    let past = jiff::Timestamp::now() - jiff::SignedDuration::from_mins(10);
    let date = jiff::fmt::rfc2822::DateTimePrinter::new()
        .timestamp_to_rfc9110_string(&past)
        .unwrap();
    r.sim.faults().add(
        Route::Projects,
        FaultKind::Headers(vec![("date".into(), date)]),
        None,
    );
    let home = tempfile::tempdir().unwrap();
    let (out, stdout, _) = doctor(home.path(), &r.sim.base_url(), Some(DEMO_KEY));
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let clock = line(&stdout, "clock");
    assert!(clock.starts_with("FAIL"), "{clock}");
    assert!(clock.contains("ahead of the server's"), "{clock}");
    assert!(clock.contains("5m window"), "{clock}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_key_fails_and_no_request_is_sent() {
    let r = rig(10, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let (out, stdout, _) = doctor(home.path(), &r.sim.base_url(), None);
    assert_eq!(out.status.code(), Some(1));
    assert!(line(&stdout, "API key").starts_with("FAIL  API key        no API key set"));
    assert!(line(&stdout, "service").starts_with("skip "), "{stdout}");
    assert_eq!(r.sim.stats().route(Route::Projects), 0);
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_other_users_can_read_fails_with_the_chmod() {
    use std::os::unix::fs::PermissionsExt;
    let r = rig(10, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("store.sqlite3");
    drop(feedback_store::Store::open(&store).unwrap());
    std::fs::set_permissions(&store, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (out, stdout, stderr) = doctor(home.path(), &r.sim.base_url(), Some(DEMO_KEY));
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let access = line(&stdout, "store access");
    assert!(access.contains("mode 0644"), "{access}");
    assert!(
        access.contains(&format!("fix: chmod 600 {}", store.display())),
        "{access}"
    );
    assert_eq!(
        stderr.trim(),
        "error: doctor: 1 check failed (store access)"
    );
}

#[test]
fn doctor_help_documents_the_exit_status() {
    let home = tempfile::tempdir().unwrap();
    let out = run(
        home.path(),
        "http://127.0.0.1:1",
        None,
        &["doctor", "--help"],
    );
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(
        help.contains("Exit status: 0 when every check passes"),
        "{help}"
    );
}

/// Whether `program` runs here.
fn installed(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok()
}

#[test]
fn the_bash_completion_loads_in_bash() {
    let script = format!(
        "source <('{}' completions bash) && complete -p feedback-inbox",
        env!("CARGO_BIN_EXE_feedback-inbox")
    );
    let out = Command::new("bash").args(["-c", &script]).output().unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(shown.contains("feedback-inbox"), "{shown}");
}

#[test]
fn the_zsh_and_fish_completions_load_where_those_shells_are_installed() {
    let bin = env!("CARGO_BIN_EXE_feedback-inbox");
    let cases = [
        (
            "zsh",
            format!("autoload -U compinit && compinit -u && source <('{bin}' completions zsh)"),
        ),
        (
            "fish",
            format!("'{bin}' completions fish | source && complete -C 'feedback-inbox do'"),
        ),
    ];
    for (shell, script) in cases {
        if !installed(shell) {
            println!("skipped {shell}: not installed");
            continue;
        }
        let out = Command::new(shell).args(["-c", &script]).output().unwrap();
        assert!(
            out.status.success(),
            "{shell}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn the_man_page_names_every_command_and_renders() {
    let home = tempfile::tempdir().unwrap();
    let out = run(home.path(), "http://127.0.0.1:1", None, &["man"]);
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    // The SUBCOMMANDS section names each page as `.TP` then `feedback\-inbox\-NAME(1)`.
    let lines: Vec<&str> = page.lines().collect();
    let section = lines.iter().position(|l| *l == ".SH SUBCOMMANDS").unwrap();
    let listed: std::collections::BTreeSet<String> = lines[section..]
        .windows(2)
        .filter(|w| w[0] == ".TP")
        .filter_map(|w| {
            let name = w[1].replace("\\-", "-");
            name.strip_prefix("feedback-inbox-")?
                .strip_suffix("(1)")
                .map(str::to_owned)
        })
        .collect();
    let command = feedback_cli::Args::command();
    let expected: std::collections::BTreeSet<String> = command
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .map(|s| s.get_name().to_owned())
        .collect();
    assert!(expected.len() > 5, "{expected:?}");
    assert!(
        expected.is_subset(&listed),
        "{expected:?} not all in {listed:?}"
    );
    if !installed("man") {
        println!("skipped rendering: man is not installed");
        return;
    }
    let path = home.path().join("feedback-inbox.1");
    std::fs::write(&path, &page).unwrap();
    let rendered = Command::new("man")
        .arg("-l")
        .arg(&path)
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "100")
        .output()
        .unwrap();
    assert!(
        rendered.status.success(),
        "{}",
        String::from_utf8_lossy(&rendered.stderr)
    );
    let text = String::from_utf8_lossy(&rendered.stdout);
    assert!(text.contains("feedback-inbox-doctor"), "{text}");
}

/// What the program answers a bash completion request for the word at `index` of `words`.
fn bash_completes(store: &Path, words: &[&str], index: usize) -> Vec<String> {
    let env = [
        ("HOME", store.parent().unwrap().as_os_str()),
        ("FEEDBACK_STORE", store.as_os_str()),
    ];
    shell_completion::complete(&env, words, index)
}

#[test]
fn the_shell_completes_app_project_and_tag_names_from_the_store() {
    use feedback_api::{App, Platform, Project, Tag};
    let home = tempfile::tempdir().unwrap();
    let path = home.path().join("s.sqlite3");
    let mut store = feedback_store::Store::open(&path).unwrap();
    let project = |id: &str, name: &str| Project {
        id: id.into(),
        name: name.into(),
        slug: None,
        created_at: None,
    };
    store
        .put_projects(&[project("p1", "Trailhead"), project("p2", "Nimbus")])
        .unwrap();
    let app = |id: &str, name: &str| App {
        id: id.into(),
        project_id: Some("p1".into()),
        name: name.into(),
        slug: None,
        platform: Some(Platform::Ios),
        app_identifier: None,
        region: None,
    };
    let slugged = App {
        slug: Some("nimbus-notes-ios".into()),
        ..app("a4", "Nimbus Notes for iOS")
    };
    store
        .put_apps(
            &[
                app("a1", "Trailhead iOS"),
                app("a2", "Evil\u{1b}[2J"),
                app("a3", "Nimbus"),
                slugged,
            ],
            None,
        )
        .unwrap();
    let tag = |name: &str| Tag {
        tag: name.into(),
        count: 3,
    };
    store
        .put_server_tags(&[tag("billing"), tag("bug"), tag("crash")])
        .unwrap();
    drop(store);
    // One word each, which the shell inserts whole: the slug, else a one-word name, else the
    // id (of a name with a space and no slug); matched against the name too, as typed with the
    // shell's escapes.
    let apps = bash_completes(&path, &["feedback-inbox", "list", "--app", "nimbus n"], 3);
    assert_eq!(apps, ["nimbus-notes-ios"]);
    let apps = bash_completes(
        &path,
        &["feedback-inbox", "list", "--app", "Nimbus\\ Notes"],
        3,
    );
    assert_eq!(apps, ["nimbus-notes-ios"]);
    let apps = bash_completes(
        &path,
        &["feedback-inbox", "list", "--app", "Trailhead\\ i"],
        3,
    );
    assert_eq!(apps, ["a1"]);
    let mut all = bash_completes(&path, &["feedback-inbox", "search", "--app", ""], 3);
    all.sort();
    // The app whose name the shell would show raw completes to its id.
    assert_eq!(all, ["Nimbus", "a1", "a2", "nimbus-notes-ios"]);
    let query = bash_completes(&path, &["feedback-inbox", "search", "app:nimbus-n"], 2);
    assert_eq!(query, ["app:nimbus-notes-ios"]);
    let projects = bash_completes(&path, &["feedback-inbox", "sync", "--project", "N"], 3);
    assert_eq!(projects, ["Nimbus"]);
    let tags = bash_completes(&path, &["feedback-inbox", "list", "--tag", "b"], 3);
    assert_eq!(tags, ["billing", "bug"]);
    // Subcommands complete as before.
    let commands = bash_completes(&path, &["feedback-inbox", "do"], 1);
    assert!(commands.contains(&"doctor".to_owned()), "{commands:?}");
}
