//! The built binary against a misbehaving simulator or a misconfigured account: lone
//! surrogates, waits without a terminal, spreadsheet formulas, keys in the wrong place, broken
//! key commands, configuration errors and absurd flags.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{expected_ids, rig};
use feedback_api::Status;
use feedback_sim::{DEMO_KEY, FaultKind, Route};

/// A run of the binary with a clean environment (no user config, logs in a temp folder).
struct Run {
    home: tempfile::TempDir,
    command: Command,
}

impl Run {
    fn new(base_url: &str, key: impl Into<OsString>) -> Self {
        let home = tempfile::tempdir().unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_feedback-inbox"));
        command
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .env("XDG_STATE_HOME", home.path().join("state"))
            .env("FEEDBACK_BASE_URL", base_url)
            .env("FEEDBACK_API_KEY", key.into());
        Self { home, command }
    }

    /// Writes `text` as the config file and passes it with `--config`.
    fn config(mut self, text: &str) -> Self {
        let path: PathBuf = self.home.path().join("config.toml");
        std::fs::write(&path, text).unwrap();
        self.command.arg("--config").arg(path);
        self
    }

    fn output(mut self, args: &[&str]) -> Output {
        self.command.args(args).output().unwrap()
    }

    /// The first line the run writes on stderr; the run is then stopped.
    fn first_stderr_line(mut self, args: &[&str]) -> String {
        let mut child = self
            .command
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stderr.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        line
    }
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn rewrite(find: &str, replace: &str) -> FaultKind {
    FaultKind::Rewrite {
        find: find.into(),
        replace: replace.into(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_all_walks_past_a_page_carrying_a_lone_surrogate() {
    let r = rig(450, 10_000).await;
    r.sim.faults().add_after(
        Route::FeedbackList,
        rewrite(r#""message":""#, r#""message":"\ud800"#),
        1,
        Some(1),
    );
    let out = Run::new(&r.sim.base_url(), DEMO_KEY).output(&["list", "--all", "--format", "jsonl"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let ids: Vec<String> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        ids,
        expected_ids(&r.sim, |it| it.feedback.status == Status::New)
    );
    let replaced = text.lines().nth(100).unwrap();
    assert!(replaced.contains("\"message\":\"\u{fffd}"), "{replaced}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn show_reads_a_lone_surrogate_and_dots_are_not_found() {
    let r = rig(20, 10_000).await;
    let id = expected_ids(&r.sim, |_| true)[0].clone();
    r.sim.faults().add(
        Route::FeedbackItem,
        rewrite(r#""message":""#, r#""message":"\udbff!"#),
        Some(1),
    );
    let out = Run::new(&r.sim.base_url(), DEMO_KEY).output(&["show", &id]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("\u{fffd}!"), "{}", stdout(&out));
    let asked = r.sim.stats().requests;
    // Tab, newline and carriage return would be dropped from the URL (".\t." asking for "..").
    for id in [".", "..", ".\t.", "..\n", "\r.\r", "a\tb"] {
        let out = Run::new(&r.sim.base_url(), DEMO_KEY).output(&["show", id]);
        assert_eq!(out.status.code(), Some(4), "{id:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("not_found"), "{}", stderr(&out));
    }
    assert_eq!(r.sim.stats().requests, asked, "nothing was asked");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wait_is_reported_on_stderr_without_a_terminal() {
    let r = rig(20, 10_000).await;
    r.sim
        .faults()
        .add(Route::Projects, FaultKind::RateLimited(Some(1)), Some(1));
    let out = Run::new(&r.sim.base_url(), DEMO_KEY).output(&["projects"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err, "rate limited; waiting 1s\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wait_cut_to_the_cap_is_reported_with_its_reason() {
    let r = rig(450, 10_000).await;
    // The binary reads the system clock: the reset is 10 hours from now by that clock.
    let far = jiff::Timestamp::now().as_second() + 10 * 3600;
    r.sim.faults().add(
        Route::FeedbackList,
        FaultKind::Headers(vec![
            ("x-ratelimit-remaining".into(), "0".into()),
            ("x-ratelimit-reset".into(), far.to_string()),
        ]),
        Some(1),
    );
    let line = Run::new(&r.sim.base_url(), DEMO_KEY)
        .first_stderr_line(&["list", "--all", "--format", "jsonl"]);
    assert!(
        line.starts_with("request budget spent; the server's reset is 9h 59m away")
            || line.starts_with("request budget spent; the server's reset is 10h away"),
        "{line}"
    );
    assert!(
        line.ends_with("(clock skew?); waiting at most 120s\n"),
        "{line}"
    );
    r.sim
        .faults()
        .add(Route::Projects, FaultKind::RateLimited(Some(36_000)), None);
    let line = Run::new(&r.sim.base_url(), DEMO_KEY).first_stderr_line(&["projects"]);
    assert_eq!(
        line,
        "rate limited; the server's retry time is 10h away (clock skew?); waiting at most 120s\n"
    );
}

const FORMULA_PAGE: &str = r#"{"data":[{"id":"f1","message":"=HYPERLINK(\"http://x.example\",\"hi\")",
  "reporter_email":"@evil.example","status":"new","received_at":"2026-10-01T00:00:00Z",
  "tags":["+1"],"app":{"id":"-2","name":"\tTab","platform":"ios"},
  "project":{"id":"p","name":"plain"}}],"next_cursor":null}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn csv_cells_are_neutralised_unless_raw_csv_is_given() {
    let r = rig(20, 10_000).await;
    let csv_rows = |raw: bool| {
        r.sim.faults().add(
            Route::FeedbackList,
            FaultKind::Body {
                status: 200,
                body: FORMULA_PAGE.into(),
            },
            Some(1),
        );
        let mut args = vec!["list", "--format", "csv"];
        if raw {
            args.push("--raw-csv");
        }
        let out = Run::new(&r.sim.base_url(), DEMO_KEY).output(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
        reader.records().map(|r| r.unwrap()).collect::<Vec<_>>()
    };
    let row = &csv_rows(false)[0];
    assert_eq!(&row[0], "f1");
    assert_eq!(&row[3], "'-2");
    assert_eq!(&row[7], "plain");
    assert_eq!(&row[8], "'+1");
    assert_eq!(&row[9], "'@evil.example");
    assert!(row[10].starts_with("'=HYPERLINK"), "{row:?}");
    let raw = &csv_rows(true)[0];
    assert_eq!((&raw[3], &raw[8], &raw[9]), ("-2", "+1", "@evil.example"));
    assert!(raw[10].starts_with("=HYPERLINK"));

    r.sim.faults().add(
        Route::Projects,
        rewrite(r#""name":""#, r#""name":"=1+2"#),
        Some(1),
    );
    let out = Run::new(&r.sim.base_url(), DEMO_KEY).output(&["projects", "--format", "csv"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("id,name,slug,created\n"), "{text}");
    assert!(text.lines().nth(1).unwrap().contains(",'=1+2"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_table_header_is_printed_before_a_failure() {
    let r = rig(20, 10_000).await;
    r.sim.faults().add(Route::Any, FaultKind::Status(503), None);
    for args in [&["list"][..], &["list", "--all"], &["tags"], &["apps"]] {
        let out = Run::new(&r.sim.base_url(), DEMO_KEY).output(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(stdout(&out), "", "{args:?}");
    }
    r.sim.faults().clear();
    let out = Run::new(&r.sim.base_url(), DEMO_KEY).output(&["list", "--tag", "no-such-tag"]);
    assert!(out.status.success());
    assert!(
        stdout(&out).starts_with("id\treceived_at\t"),
        "an empty list still has its header"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_in_swapped_variables_is_never_echoed() {
    let secret = "service_eu_sk_Swapped123";
    let out = Run::new(secret, "https://feedback.example.com").output(&["projects"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("FEEDBACK_BASE_URL") && !err.contains("Swapped123"),
        "{err}"
    );
    let out = Run::new("https://feedback.example.com", DEMO_KEY)
        .config(&format!("refresh_seconds = \"{secret}\"\n"))
        .output(&["projects"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!stderr(&out).contains("Swapped123"), "{}", stderr(&out));
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_non_utf8_api_key_variable_is_an_error_not_skipped() {
    use std::os::unix::ffi::OsStringExt;
    let r = rig(20, 10_000).await;
    let bad = OsString::from_vec(b"service_eu_sk_\xff\xfe".to_vec());
    let out = Run::new(&r.sim.base_url(), bad)
        .config(&format!("api_key = \"{DEMO_KEY}\"\n"))
        .output(&["projects"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("FEEDBACK_API_KEY is set but is not valid UTF-8"));
    assert_eq!(r.sim.stats().requests, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_command_with_a_background_child_is_not_waited_for() {
    let r = rig(20, 10_000).await;
    let started = Instant::now();
    let out = Run::new(&r.sim.base_url(), "")
        .config(&format!(
            "api_key_command = \"sleep 30 & echo {DEMO_KEY}\"\n"
        ))
        .output(&["projects"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn configuration_errors_of_every_kind_exit_2() {
    let r = rig(20, 10_000).await;
    let base = r.sim.base_url();
    // Each case with what makes it wrong, so that none passes for another reason (such as a
    // missing base URL); a base URL that is never reached is set where the config has none.
    let unreached = "https://feedback.example.invalid";
    let cases: [(&str, &str, &[&str], &str); 7] = [
        ("base_url = [", "", &["projects"], "unclosed array"),
        (
            "colour = \"blue\"\n",
            "",
            &["projects"],
            "unknown field `colour`",
        ),
        (
            "api_key = \"service_xx\"\n",
            unreached,
            &["projects"],
            "must start with service_eu_sk_",
        ),
        (
            "api_key_command = \"exit 7\"\n",
            unreached,
            &["projects"],
            "api_key_command failed: it exited with exit status: 7 and said nothing on stderr",
        ),
        (
            "api_key_command = \"sleep 30\"\napi_key_command_timeout_seconds = 1\n",
            unreached,
            &["projects"],
            "did not finish within 1s",
        ),
        (
            "[profiles.a]\n",
            "",
            &["--profile", "b", "projects"],
            "no profile \"b\"",
        ),
        (
            "base_url = \"ftp://x.example\"\n",
            "",
            &["account"],
            "must start with https://",
        ),
    ];
    for (config, base_url, args, why) in cases {
        let out = Run::new(base_url, "").config(config).output(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{config:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{config:?}: {err}");
        assert!(
            err.contains(why),
            "{config:?} should fail for {why:?}: {err}"
        );
    }
    let out = Run::new(&base, DEMO_KEY).output(&["--config", "/nonexistent/c.toml", "projects"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let dir = tempfile::tempdir().unwrap();
    let out =
        Run::new(&base, DEMO_KEY).output(&["--config", dir.path().to_str().unwrap(), "projects"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(r.sim.stats().requests, 0);
}

/// The inbox checks its key bindings before it draws; that needs a terminal, which `script`
/// (util-linux) provides.
#[cfg(unix)]
#[test]
fn a_bad_key_binding_in_the_config_exits_2() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` to provide a terminal");
        return;
    }
    let run = Run::new("https://feedback.example.com", DEMO_KEY)
        .config("[keys]\nquit = \"no-such-key-name-at-all\"\n");
    let program = run.command.get_program().to_owned();
    let args: Vec<String> = run
        .command
        .get_args()
        .map(|a| format!("'{}'", a.to_str().unwrap()))
        .collect();
    let line = format!("'{}' {}", program.to_str().unwrap(), args.join(" "));
    let mut script = Command::new("script");
    script.args(["-qec", &line, "/dev/null"]).env_clear();
    for (name, value) in run.command.get_envs() {
        if let Some(value) = value {
            script.env(name, value);
        }
    }
    let out = script.stdin(std::process::Stdio::null()).output().unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{shown}");
    assert!(
        shown.contains("config:") && shown.contains("no-such-key-name-at-all"),
        "{shown}"
    );
}

#[test]
fn absurd_item_counts_are_refused_with_a_message() {
    for command in ["sim", "demo"] {
        for items in ["1000000000000", "1000001", "-3", "lots"] {
            let flag = format!("--items={items}");
            let out = Run::new("", "").output(&[command, &flag]);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{command} {items}: {}",
                stderr(&out)
            );
            assert!(stderr(&out).contains("--items"), "{}", stderr(&out));
        }
    }
}

#[test]
fn a_key_command_timeout_out_of_range_exits_2_without_a_panic() {
    for seconds in ["0", "3601", "9223372036854775807"] {
        let out = Run::new("", "")
            .config(&format!(
                "base_url = \"https://x.example.com\"\napi_key_command = \"echo {DEMO_KEY}\"\napi_key_command_timeout_seconds = {seconds}\n"
            ))
            .output(&["projects"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{seconds}: {err}");
        assert!(
            err.contains("api_key_command_timeout_seconds") && err.contains("1 to 3600"),
            "{seconds}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// A bad `[[views]]` entry stops the inbox before it draws, naming the file's line.
#[cfg(unix)]
#[test]
fn a_bad_view_in_the_config_exits_2_with_its_line() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` to provide a terminal");
        return;
    }
    let run = Run::new("https://feedback.example.com", DEMO_KEY)
        .config("[[views]]\nname = \"Mine\"\nstatus = \"closed\"\n");
    let program = run.command.get_program().to_owned();
    let args: Vec<String> = run
        .command
        .get_args()
        .map(|a| format!("'{}'", a.to_str().unwrap()))
        .collect();
    let line = format!("'{}' {}", program.to_str().unwrap(), args.join(" "));
    let mut script = Command::new("script");
    script.args(["-qec", &line, "/dev/null"]).env_clear();
    for (name, value) in run.command.get_envs() {
        if let Some(value) = value {
            script.env(name, value);
        }
    }
    let out = script.stdin(std::process::Stdio::null()).output().unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{shown}");
    assert!(
        shown.contains("config:") && shown.contains(":3: view \"Mine\": status"),
        "{shown}"
    );
}
