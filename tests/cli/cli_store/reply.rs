//! `reply` from scripts, to a real SMTP server on loopback: one reply per distinct reporter
//! from a template, the reporter's message quoted; items without an address skipped and
//! counted; `--dry-run` keeps and sends nothing; a refused recipient fails alone and names
//! itself in a non-zero exit; nothing is sent without `--yes` off a terminal; a sender killed
//! at any moment sends every reply at most once, and what it did not send is sent later.

use std::path::{Path, PathBuf};
use std::process::Output;

use super::item;
use super::webhook_support::{bin, text};
use feedback_api::Status;
use feedback_mail::testing::SmtpServer;
use feedback_store::{ReplyState, Store};
use jiff::Timestamp;

/// A store of `reporters.len()` items, item `fb_N` from `reporters[N]` (none: no address).
fn filled(dir: &Path, reporters: &[Option<&str>]) -> PathBuf {
    let path = dir.join("s.sqlite3");
    let mut store = Store::open(&path).unwrap();
    let items: Vec<_> = reporters
        .iter()
        .enumerate()
        .map(|(n, email)| {
            let mut item = item(&format!("fb_{n}"), "2026-11-01T09:00:00Z", Status::New);
            item.reporter_email = email.map(str::to_owned);
            item.message =
                format!("the sync button does nothing ({n})\n\u{1b}]0;pwned\u{7}second line");
            item
        })
        .collect();
    store.put_items(&items, Timestamp::now()).unwrap();
    path
}

fn config(home: &Path, port: u16, per_minute: u32) {
    let dir = home.join("config/feedback-inbox");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("config.toml"),
        format!(
            "[mail]\nfrom = \"Ana at Support <support@acme.example>\"\n\
             smtp_url = \"smtp://127.0.0.1:{port}\"\nper_minute = {per_minute}\n\n\
             [[templates]]\nname = \"fixed\"\nsubject = \"Fixed: your report {{id}}\"\n\
             body = \"Hi, this is {{agent}}: it is fixed in the next release of {{project}}.\"\n"
        ),
    )
    .unwrap();
}

fn run(home: &Path, store: &Path, args: &[&str]) -> Output {
    bin(home)
        .env("TZ", "UTC")
        .arg("--store")
        .arg(store)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn each_distinct_reporter_gets_one_reply_from_the_template_and_no_address_is_skipped() {
    let Some(server) = SmtpServer::start(&[]) else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let store = filled(
        home.path(),
        &[
            Some("ana@example.org"),
            Some("ANA@example.org"),
            None,
            Some("bo@example.org"),
        ],
    );
    config(home.path(), server.port, 600);
    let dry = run(
        home.path(),
        &store,
        &[
            "reply",
            "fb_0",
            "fb_1",
            "fb_2",
            "fb_3",
            "--template",
            "fixed",
            "--dry-run",
        ],
    );
    assert_eq!(dry.status.code(), Some(0), "{}", text(&dry.stderr));
    let said = text(&dry.stdout);
    assert!(
        said.starts_with("Would send 2 replies from Ana at Support <support@acme.example>:"),
        "{said}"
    );
    assert!(said.contains("skip fb_2: no reporter's address"), "{said}");
    assert!(server.messages().is_empty(), "a dry run sends nothing");
    // Off a terminal, nothing is sent without --yes.
    let asked = run(
        home.path(),
        &store,
        &["reply", "fb_0", "--template", "fixed"],
    );
    assert_eq!(asked.status.code(), Some(2), "{}", text(&asked.stderr));
    assert!(server.messages().is_empty());

    let sent = run(
        home.path(),
        &store,
        &[
            "reply",
            "fb_0",
            "fb_1",
            "fb_2",
            "fb_3",
            "--template",
            "fixed",
            "--yes",
        ],
    );
    assert_eq!(sent.status.code(), Some(0), "{}", text(&sent.stderr));
    let said = text(&sent.stdout);
    assert!(
        said.contains("sent  ana@example.org  (fb_0, fb_1)"),
        "{said}"
    );
    assert!(said.contains("sent  bo@example.org  (fb_3)"), "{said}");
    assert!(
        said.ends_with("2 replies sent, 1 item skipped (no reporter's address)\n"),
        "{said}"
    );
    let messages = server.messages();
    assert_eq!(messages.len(), 2);
    let ana = &quoted_printable(&messages[0]);
    assert!(
        ana.contains("Subject: Fixed: your report fb_0\r\n"),
        "{ana}"
    );
    assert!(
        ana.contains("Hi, this is Ana at Support: it is fixed in the next release of Acme."),
        "{ana}"
    );
    assert!(ana.contains("> the sync button does nothing (0)"), "{ana}");
    assert!(!ana.contains('\u{1b}') && !ana.contains('\u{7}'), "{ana}");
    // Sent again, the same items get new replies (a new send); what was sent stays sent.
    let replies = Store::open(&store).unwrap().replies_about("fb_1").unwrap();
    assert_eq!(replies.len(), 1);
    assert_eq!(replies[0].state, ReplyState::Sent);
}

/// `message` with its quoted-printable body decoded (soft line breaks joined, `=XX` bytes).
fn quoted_printable(message: &str) -> String {
    let joined = message.replace("=\r\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'='
            && at + 2 < bytes.len()
            && let Ok(byte) = u8::from_str_radix(&joined[at + 1..at + 3], 16)
        {
            out.push(byte);
            at += 3;
            continue;
        }
        out.push(bytes[at]);
        at += 1;
    }
    String::from_utf8(out).unwrap()
}

#[test]
fn a_refused_recipient_fails_alone_and_is_named_in_the_exit() {
    let Some(server) = SmtpServer::start(&[]) else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let store = filled(
        home.path(),
        &[Some("refuse@example.org"), Some("bo@example.org")],
    );
    config(home.path(), server.port, 600);
    let out = run(
        home.path(),
        &store,
        &[
            "reply",
            "fb_0",
            "fb_1",
            "--template",
            "fixed",
            "--yes",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let outcomes: Vec<(&str, &str)> = report["replies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["to"].as_str().unwrap(), r["outcome"].as_str().unwrap()))
        .collect();
    assert_eq!(
        outcomes,
        [("refuse@example.org", "failed"), ("bo@example.org", "sent")]
    );
    assert!(
        text(&out.stderr).contains("1 of 2 replies not sent: refuse@example.org"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(server.messages().len(), 1);
}

#[test]
fn without_mail_set_up_or_with_a_hostile_subject_nothing_is_kept() {
    let home = tempfile::tempdir().unwrap();
    let store = filled(home.path(), &[Some("ana@example.org")]);
    let out = run(
        home.path(),
        &store,
        &["reply", "fb_0", "--template", "fixed", "--yes"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no [mail]"),
        "{}",
        text(&out.stderr)
    );
    config(home.path(), 9, 600);
    let body = home.path().join("body.txt");
    std::fs::write(&body, "Thanks!").unwrap();
    let out = run(
        home.path(),
        &store,
        &[
            "reply",
            "fb_0",
            "--body-file",
            body.to_str().unwrap(),
            "--subject",
            "Hi\r\nBcc: all@example.org",
            "--yes",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        Store::open(&store)
            .unwrap()
            .replies_about("fb_0")
            .unwrap()
            .is_empty()
    );
    let out = run(
        home.path(),
        &store,
        &["reply", "fb_9", "--template", "fixed", "--yes"],
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_sender_killed_at_any_moment_sends_each_reply_at_most_once_and_the_rest_later() {
    let Some(server) = SmtpServer::start(&[]) else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let reporters: Vec<String> = (0..12).map(|n| format!("user{n}@example.org")).collect();
    let store = filled(
        home.path(),
        &reporters
            .iter()
            .map(|r| Some(r.as_str()))
            .collect::<Vec<_>>(),
    );
    // 10 a second: a kill lands among the sends.
    config(home.path(), server.port, 600);
    let ids: Vec<String> = (0..12).map(|n| format!("fb_{n}")).collect();
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..3 {
        let mut args = vec![
            "--store".to_owned(),
            store.display().to_string(),
            "reply".to_owned(),
        ];
        args.extend(ids.iter().cloned());
        args.extend(["--template", "fixed", "--yes"].map(str::to_owned));
        let mut child = bin(home.path()).args(&args).spawn().unwrap();
        // The fault: a kill -9 after a random moment (not a wait for anything to happen).
        std::thread::sleep(std::time::Duration::from_millis(rng.u64(0..1500)));
        let _ = child.kill();
        let _ = child.wait();
    }
    // What was left waiting is sent now; what a killed sender left sending is never sent again.
    let later = run(home.path(), &store, &["reply", "--send-waiting", "--yes"]);
    assert_eq!(later.status.code(), Some(0), "{}", text(&later.stderr));
    let kept = Store::open(&store).unwrap();
    let mut arrived: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for message in server.messages() {
        let id = message
            .lines()
            .find_map(|l| l.strip_prefix("Message-ID: <"))
            .and_then(|l| l.split('@').next())
            .unwrap()
            .to_owned();
        *arrived.entry(id).or_default() += 1;
    }
    let mut all = Vec::new();
    for id in &ids {
        all.extend(kept.replies_about(id).unwrap());
    }
    assert!(!all.is_empty());
    for reply in &all {
        let times = arrived
            .get(
                &reply
                    .reply_id
                    .replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', ""),
            )
            .copied()
            .unwrap_or(0);
        match reply.state {
            ReplyState::Sent => assert_eq!(times, 1, "{reply:?}"),
            ReplyState::Unknown => assert!(times <= 1, "{reply:?}"),
            other => panic!("{other:?} after --send-waiting: {reply:?}"),
        }
    }
    assert_eq!(
        arrived.values().filter(|n| **n > 1).count(),
        0,
        "a message arrived twice"
    );
}

#[test]
fn doctor_checks_the_mail_server_answers_and_sends_nothing() {
    let Some(server) = SmtpServer::start(&[]) else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let store = filled(home.path(), &[Some("ana@example.org")]);
    config(home.path(), server.port, 600);
    let said = text(&run(home.path(), &store, &["doctor"]).stdout);
    let line = said
        .lines()
        .find(|l| l.contains("mail"))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(
        line.contains(&format!(
            "127.0.0.1:{} answers; nothing was sent",
            server.port
        )),
        "{line}"
    );
    assert!(server.messages().is_empty());
    drop(server);
    let said = text(&run(home.path(), &store, &["doctor"]).stdout);
    let line = said
        .lines()
        .find(|l| l.contains(" mail"))
        .unwrap_or_default();
    assert!(line.contains("FAIL") || line.contains("fail"), "{said}");
}
