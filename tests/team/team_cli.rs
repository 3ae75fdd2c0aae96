//! The team's commands, run as the release user runs them (the binary, its environment, a
//! store file each), against a real PostgreSQL: `team init`, `team add-member`, `claim`,
//! `unclaim`, `assign`, `label`, `team status`, `team log`, and a claim made while the database
//! cannot be reached, kept in the outbox and sent at the next connection.

#![allow(clippy::unwrap_used)]

use crate::team_pg;

use std::path::Path;
use std::process::{Command, Output};

use team_pg as pg;

/// Runs the binary as a member (`FEEDBACK_TEAM_URL = url`) on the store at `store`, with no user
/// config, logging everything (`FEEDBACK_LOG=trace`) to `log_of(store)`.
fn run(url: &str, store: &Path, args: &[&str]) -> Output {
    let home = store.parent().unwrap().join("home");
    Command::new(env!("CARGO_BIN_EXE_feedback-inbox"))
        .arg("--store")
        .arg(store)
        .args(args)
        .env_clear()
        .env("FEEDBACK_LOG", "trace")
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("FEEDBACK_TEAM_URL", url)
        .output()
        .unwrap()
}

/// Everything the runs with stores beside `store` logged (in the day's files, oldest first).
fn log_of(store: &Path) -> String {
    let dir = store.parent().unwrap().join("home/state/feedback-inbox");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "log"));
    files.sort();
    files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap_or_default())
        .collect()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(output), stderr(output)))
}

/// The password `add-member` printed once.
fn password_of(output: &Output) -> String {
    let text = stdout(output);
    let line = text
        .lines()
        .find(|l| l.starts_with("its password"))
        .unwrap_or_else(|| panic!("no password in {text}{}", stderr(output)));
    line.rsplit(' ').next().unwrap().to_owned()
}

/// A team `support` of two members, Ana and Bo, made with the commands; each member with a
/// store of their own.
struct Setup {
    db: pg::Db,
    dir: tempfile::TempDir,
    ana: String,
    ana_url: String,
    bo: String,
    bo_url: String,
}

impl Setup {
    async fn new(test: &str) -> Option<Self> {
        let db = pg::Db::new(test).await?;
        let dir = tempfile::tempdir().unwrap();
        let admin_store = dir.path().join("admin.db");
        let admin = db.url_text(None, None);
        let init = run(&admin, &admin_store, &["team", "init", "support"]);
        assert!(init.status.success(), "{}", stderr(&init));
        assert!(
            stdout(&init).contains("team support is ready"),
            "{}",
            stdout(&init)
        );
        // Again: the team is kept.
        assert!(
            run(&admin, &admin_store, &["team", "init", "support"])
                .status
                .success()
        );
        let (ana, bo) = (db.role("ana"), db.role("bo"));
        let added = run(
            &admin,
            &admin_store,
            &["team", "add-member", &ana, "--team", "support"],
        );
        assert!(added.status.success(), "{}", stderr(&added));
        let ana_url = db.url_text(Some(&ana), Some(&password_of(&added)));
        let added = run(
            &admin,
            &admin_store,
            &["team", "add-member", &bo, "--team", "support"],
        );
        let bo_url = db.url_text(Some(&bo), Some(&password_of(&added)));
        store_with_items(&dir.path().join("ana.db"));
        store_with_items(&dir.path().join("bo.db"));
        Some(Self {
            db,
            dir,
            ana,
            ana_url,
            bo,
            bo_url,
        })
    }

    fn ana(&self, args: &[&str]) -> Output {
        run(&self.ana_url, &self.dir.path().join("ana.db"), args)
    }

    fn bo(&self, args: &[&str]) -> Output {
        run(&self.bo_url, &self.dir.path().join("bo.db"), args)
    }
}

#[tokio::test]
async fn members_claim_label_assign_and_read_the_log_through_the_commands() {
    let Some(team) = Setup::new("team_cli").await else {
        return;
    };
    let (ana, bo) = (team.ana.as_str(), team.bo.as_str());
    let claimed = team.ana(&["claim", "id00001", "id00002", "--format", "json"]);
    assert!(claimed.status.success(), "{}", stderr(&claimed));
    let claimed = json(&claimed);
    for (i, id) in ["id00001", "id00002"].iter().enumerate() {
        assert_eq!(claimed[i]["id"], *id);
        assert_eq!(claimed[i]["outcome"], "done");
        assert_eq!(claimed[i]["owner"], ana);
    }

    // Bo's claim of Ana's item is lost, and said so; his other change goes through.
    let lost = team.bo(&["claim", "id00001", "id00003", "--format", "json"]);
    assert_eq!(lost.status.code(), Some(1), "{}", stderr(&lost));
    let report = json(&lost);
    assert_eq!(report[0]["outcome"], "lost");
    assert_eq!(report[0]["owner"], ana);
    let why = report[0]["why"].as_str().unwrap();
    assert!(why.starts_with(&format!("{ana} claimed this")), "{why}");
    assert_eq!(report[1]["outcome"], "done");
    assert!(
        stderr(&lost).contains("1 of 2 change(s) lost"),
        "{}",
        stderr(&lost)
    );

    let labelled = team.bo(&["label", "id00002", "+crash", "+ios", "-none"]);
    assert!(labelled.status.success(), "{}", stderr(&labelled));
    assert!(
        stdout(&labelled).contains("labels: crash, ios"),
        "{}",
        stdout(&labelled)
    );
    let assigned = team.bo(&["assign", "id00003", "--to", ana]);
    assert!(assigned.status.success(), "{}", stderr(&assigned));

    // Ana's log of id00002 holds her claim and Bo's labels, read from the team.
    let log = team.ana(&["team", "log", "id00002", "--format", "json"]);
    assert!(log.status.success(), "{}", stderr(&log));
    let log = json(&log);
    let kinds: Vec<(&str, &str)> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["member"].as_str().unwrap(), e["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(kinds, [(ana, "claim"), (bo, "labels")]);
    let text = stdout(&team.ana(&["team", "log"]));
    assert!(text.contains(&format!("assigned to {ana}")), "{text}");
    team.db.drop().await;
}

#[tokio::test]
async fn a_change_made_while_the_database_is_away_waits_in_the_outbox_and_is_sent_later() {
    let Some(team) = Setup::new("team_cli_offline").await else {
        return;
    };
    let ana = team.ana.as_str();
    assert!(team.ana(&["claim", "id00002"]).status.success());
    // The database cannot be reached: the change waits in the outbox, said on stderr, and the
    // password shows nowhere.
    let away = format!(
        "host=127.0.0.1 port=1 dbname={} user={ana} password=hunter2-secret",
        team.db.name
    );
    let ana_store = team.dir.path().join("ana.db");
    let offline = run(
        &away,
        &ana_store,
        &["unclaim", "id00002", "--format", "json"],
    );
    assert!(offline.status.success(), "{}", stderr(&offline));
    assert_eq!(json(&offline)[0]["outcome"], "pending");
    assert_eq!(json(&offline)[0]["owner"], serde_json::Value::Null);
    assert!(
        stderr(&offline).contains("wait in the outbox"),
        "{}",
        stderr(&offline)
    );
    assert!(
        !stderr(&offline).contains("hunter2"),
        "{}",
        stderr(&offline)
    );
    let status = json(&run(
        &away,
        &ana_store,
        &["team", "status", "--format", "json"],
    ));
    assert_eq!(status["pending"], 1);
    assert_eq!(status["reachable"], false);

    // Back online: sent, and Bo sees it.
    let status = team.ana(&["team", "status", "--format", "json"]);
    assert!(status.status.success(), "{}", stderr(&status));
    let status = json(&status);
    assert_eq!(status["pending"], 0);
    assert_eq!(status["team"], "support");
    assert_eq!(status["members"].as_array().unwrap().len(), 2);
    let log = json(&team.bo(&["team", "log", "id00002", "--format", "json"]));
    assert_eq!(log.as_array().unwrap().last().unwrap()["kind"], "unclaim");
    team.db.drop().await;
}

#[tokio::test]
async fn without_a_team_the_commands_say_how_to_set_one_up() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.db");
    let output = Command::new(env!("CARGO_BIN_EXE_feedback-inbox"))
        .arg("--store")
        .arg(&store)
        .args(["claim", "id00001"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("no team configured: set FEEDBACK_TEAM_URL"),
        "{}",
        stderr(&output)
    );
}

#[tokio::test]
async fn a_team_made_with_a_shared_mirror_says_so_to_its_members() {
    let Some(db) = pg::Db::new("team_cli_shared_mirror").await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let admin = db.url_text(None, None);
    let admin_store = dir.path().join("admin.db");
    let init = run(
        &admin,
        &admin_store,
        &["team", "init", "billing", "--shared-mirror"],
    );
    assert!(init.status.success(), "{}", stderr(&init));
    assert!(
        stdout(&init).contains("one mirror of the account for the team"),
        "{}",
        stdout(&init)
    );
    let zed = db.role("zed");
    let added = run(
        &admin,
        &admin_store,
        &["team", "add-member", &zed, "--team", "billing"],
    );
    let zed_url = db.url_text(Some(&zed), Some(&password_of(&added)));
    let store = dir.path().join("zed.db");
    let status = run(&zed_url, &store, &["team", "status"]);
    assert!(status.status.success(), "{}", stderr(&status));
    assert!(
        stdout(&status).contains("shared mirror: on"),
        "{}",
        stdout(&status)
    );
    assert!(
        stdout(&status).contains("syncer: none yet"),
        "{}",
        stdout(&status)
    );
    // Turned off by a member: each member syncs alone.
    let off = run(&zed_url, &store, &["team", "set", "shared-mirror", "off"]);
    assert!(
        stdout(&off).contains("each member syncs on their own"),
        "{}",
        stdout(&off)
    );
    let status = run(&zed_url, &store, &["team", "status"]);
    assert!(
        !stdout(&status).contains("shared mirror"),
        "{}",
        stdout(&status)
    );
    db.drop().await;
}

#[tokio::test]
async fn doctor_checks_the_team_and_never_shows_the_password() {
    let Some(team) = Setup::new("team_doctor").await else {
        return;
    };
    let doctor = team.ana(&["doctor"]);
    let out = stdout(&doctor);
    for line in [
        "ok    team database",
        "ok    team schema",
        "ok    team member",
        "ok    team security",
        "ok    team notify",
        "ok    team clock",
    ] {
        assert!(
            out.contains(line),
            "{line} missing in:\n{out}{}",
            stderr(&doctor)
        );
    }
    let password = team.ana_url.rsplit("password=").next().unwrap();
    assert!(!out.contains(password), "{out}");
    assert!(!stderr(&doctor).contains(password));
    // Nor in the log at trace level, where add-member's statement made it.
    let log = log_of(&team.dir.path().join("ana.db"));
    assert!(!log.is_empty(), "nothing was logged");
    assert!(!log.contains(password), "the password in the log");
    // No server there (this machine's server trusts every password, so a wrong one would
    // pass): the database line fails, without the password.
    let wrong = pg::Db::away(&team.ana_url.replace(password, "wrong-secret-pw"));
    let doctor = run(&wrong, &team.dir.path().join("ana.db"), &["doctor"]);
    let out = stdout(&doctor);
    assert!(out.contains("FAIL  team database"), "{out}");
    assert!(!out.contains("wrong-secret-pw") && !stderr(&doctor).contains("wrong-secret-pw"));
    team.db.drop().await;
}

/// A store file at `path` holding items `id00000`..`id00005`.
fn store_with_items(path: &Path) {
    pg::store_with_items(path, 6);
}

fn ids(output: &Output) -> Vec<String> {
    let found = json(output);
    found["data"]
        .as_array()
        .unwrap_or_else(|| panic!("{found}"))
        .iter()
        .map(|item| item["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn search_catches_up_with_the_team_first_and_says_so_when_it_cannot() {
    let Some(team) = Setup::new("team_search").await else {
        return;
    };
    assert!(team.bo(&["claim", "id00001", "id00004"]).status.success());
    assert!(team.bo(&["label", "id00002", "+billing"]).status.success());
    // Ana's store never heard of these: `search` catches up before it answers.
    let mine = team.ana(&["search", "assignee:", "--format", "json"]);
    assert_eq!(mine.status.code(), Some(2), "a qualifier needs a value");
    let bo = team.bo.clone();
    let owned = team.ana(&["search", &format!("assignee:{bo}"), "--format", "json"]);
    assert!(owned.status.success(), "{}", stderr(&owned));
    assert_eq!(ids(&owned), ["id00001", "id00004"]);
    let labelled = team.ana(&["search", "label:BILLING", "--format", "json"]);
    assert_eq!(ids(&labelled), ["id00002"]);
    let unclaimed = team.ana(&["search", "is:unclaimed", "--format", "json"]);
    assert_eq!(
        ids(&unclaimed),
        ["id00000", "id00002", "id00003", "id00005"]
    );
    // Bo's own view of his items.
    assert_eq!(
        ids(&team.bo(&["search", "is:mine", "--format", "json"])),
        ["id00001", "id00004"]
    );
    // The database away: said on stderr, answered from the store.
    let away = pg::Db::away(&team.ana_url);
    let offline = run(
        &away,
        &team.dir.path().join("ana.db"),
        &["search", "label:billing", "--format", "json"],
    );
    assert!(offline.status.success(), "{}", stderr(&offline));
    assert_eq!(ids(&offline), ["id00002"]);
    assert!(
        stderr(&offline).contains("cannot reach the team database"),
        "{}",
        stderr(&offline)
    );
    // With why: the cause, not only "db error".
    assert!(
        stderr(&offline).contains("Connection refused"),
        "{}",
        stderr(&offline)
    );
    team.db.drop().await;
}

#[tokio::test]
async fn mark_shares_done_snooze_and_the_note_and_keeps_seen_and_the_star_its_own() {
    let Some(team) = Setup::new("team_mark").await else {
        return;
    };
    let marked = team.bo(&[
        "mark",
        "id00003",
        "--done",
        "--star",
        "--seen",
        "--note",
        "refund sent",
    ]);
    assert!(marked.status.success(), "{}", stderr(&marked));
    assert!(
        !stderr(&marked).contains("outbox"),
        "sent at once: {}",
        stderr(&marked)
    );
    // Ana's search catches up first: the done and the note are the team's.
    let found = team.ana(&["search", "is:done note:REFUND", "--format", "json"]);
    assert!(found.status.success(), "{}", stderr(&found));
    assert_eq!(ids(&found), ["id00003"]);
    let starred = team.ana(&["search", "is:starred OR is:seen", "--format", "json"]);
    assert_eq!(
        ids(&starred),
        Vec::<String>::new(),
        "Bo's star and seen are his"
    );
    let log = json(&team.ana(&["team", "log", "id00003", "--format", "json"]));
    let kinds: Vec<(&str, &str)> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["member"].as_str().unwrap(), e["kind"].as_str().unwrap()))
        .collect();
    let bo = team.bo.as_str();
    assert_eq!(kinds, [(bo, "done"), (bo, "note")]);
    team.db.drop().await;
}

#[tokio::test]
async fn every_team_command_takes_its_flags_anywhere_and_refuses_ids_the_store_lacks() {
    let Some(team) = Setup::new("team_cli_flags").await else {
        return;
    };
    let (ana, bo) = (team.ana.as_str(), team.bo.as_str());
    let ok = |output: Output| {
        assert!(output.status.success(), "{}", stderr(&output));
        let report = json(&output);
        assert_eq!(report.as_array().unwrap().len(), 1, "{report}");
        assert_eq!(report[0]["outcome"], "done", "{report}");
        report[0].clone()
    };
    let claimed = ok(team.ana(&["claim", "id00000", "--format", "json"]));
    assert_eq!(
        (&claimed["id"], &claimed["owner"]),
        (&"id00000".into(), &ana.into())
    );
    let unclaimed = ok(team.ana(&["unclaim", "--format", "json", "id00000"]));
    assert_eq!(unclaimed["owner"], serde_json::Value::Null);
    let assigned = ok(team.ana(&["assign", "id00001", "--format", "json", "--to", bo]));
    assert_eq!(assigned["owner"], bo);
    let labelled = ok(team.ana(&["label", "id00002", "+wontfix", "--format", "json"]));
    assert_eq!(labelled["labels"], serde_json::json!(["wontfix"]));
    let labelled = ok(team.ana(&["label", "--format", "json", "id00002", "--", "+x"]));
    assert_eq!(labelled["labels"], serde_json::json!(["wontfix", "x"]));
    let labelled = ok(team.ana(&["label", "id00002", "-wontfix", "--format=json"]));
    assert_eq!(labelled["labels"], serde_json::json!(["x"]));
    links_through_the_commands(&team, ana, &ok);
    let ticket = "https://tracker.example/TICKET-26944";

    // Ids the store does not hold, a word that is neither an id nor a label, and an unknown
    // flag: refused with exit 2 before anything is recorded or sent.
    for refused in [
        &["claim", "doesnotexist", "--format", "json"][..],
        &["unclaim", "id00000", "doesnotexist"],
        &["assign", "nothere", "--to", bo],
        &["label", "id00002", "+y", "json", "--format", "json"],
        &["label", "id00002", "+y", "--formt", "json"],
        &["label", "id00002", "wontfix"],
        &["link", "id00003", "doesnotexist", ticket],
        &["link", "id00003", "javascript:alert(1)", "--format", "json"],
        &["unlink", "id00003"],
    ] {
        let output = team.ana(refused);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{refused:?}: {}",
            stderr(&output)
        );
        assert!(
            stdout(&output).is_empty(),
            "{refused:?}: {}",
            stdout(&output)
        );
    }
    let missing = team.ana(&["claim", "id00003", "doesnotexist"]);
    assert!(
        stderr(&missing).contains("not in the local store: doesnotexist"),
        "{}",
        stderr(&missing)
    );

    // An assignment to someone not in the team is lost for that one reason, said once.
    let nobody = team.ana(&["assign", "id00004", "--to", "nobody"]);
    assert_eq!(nobody.status.code(), Some(1), "{}", stderr(&nobody));
    assert!(
        stdout(&nobody)
            .contains("id00004  lost  owner: unclaimed  (nobody is not a member of the team)"),
        "{}",
        stdout(&nobody)
    );
    assert_eq!(
        stderr(&nobody).trim_end(),
        "error: 1 of 1 change(s) lost: nobody is not a member of the team"
    );

    // The team's history holds exactly the nine changes, oldest first, each on the item it
    // names, and no flag or `--` in a label.
    let events = log_events(&team.bo(&["team", "log", "--format", "json"]));
    let kinds: Vec<(&str, &str)> = events
        .iter()
        .map(|(id, kind, _)| (id.as_str(), kind.as_str()))
        .collect();
    let expected = [
        ("id00000", "claim"),
        ("id00000", "unclaim"),
        ("id00001", "assign"),
        ("id00002", "labels"),
        ("id00002", "labels"),
        ("id00002", "labels"),
        ("id00003", "link"),
        ("id00003", "unlink"),
        ("id00005", "link"),
    ];
    assert_eq!(kinds, expected, "{events:?}");
    let labels: Vec<&str> = events
        .iter()
        .filter(|(_, kind, _)| kind == "labels")
        .map(|(_, _, change)| change.as_str())
        .collect();
    for change in &labels {
        assert!(
            !change.contains("format") && !change.contains("--") && !change.contains("json"),
            "{change}"
        );
    }
    team.db.drop().await;
}

/// Ana links id00003 and unlinks it, and links id00005: each reported with its links, Bo's
/// search finds the team's link, and the log says who linked what.
fn links_through_the_commands(team: &Setup, ana: &str, ok: &dyn Fn(Output) -> serde_json::Value) {
    let ticket = "https://tracker.example/TICKET-26944";
    let linked = ok(team.ana(&[
        "link", "id00003", ticket, "--format", "json", "--title", "Crash",
    ]));
    assert_eq!(linked["links"][0]["url"], ticket, "{linked}");
    assert_eq!(linked["links"][0]["title"], "Crash", "{linked}");
    assert_eq!(linked["links"][0]["by"], ana, "{linked}");
    assert_eq!(linked["links"][0]["pending"], false, "{linked}");
    let unlinked = ok(team.ana(&["unlink", "--format", "json", "id00003", ticket]));
    assert_eq!(unlinked["links"], serde_json::json!([]), "{unlinked}");
    ok(team.ana(&["link", "--format=json", "id00005", ticket]));
    // A teammate's search finds the team's link, and the log says who linked what.
    let found = team.bo(&[
        "search",
        "has:ticket",
        "--fields",
        "id,links",
        "--format",
        "jsonl",
    ]);
    let found = stdout(&found);
    assert!(
        found.contains("\"id00005\"") && !found.contains("id00003"),
        "{found}"
    );
    let log = stdout(&team.bo(&["team", "log", "id00003"]));
    assert!(
        log.contains("linked TICKET-26944 (Crash)") && log.contains("unlinked TICKET-26944"),
        "{log}"
    );
}

/// `team log --format json`'s events: each one's item id, kind and change (as JSON text);
/// each one's time is checked to be RFC 3339 to the second.
fn log_events(output: &Output) -> Vec<(String, String, String)> {
    json(output)
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let at = e["at"].as_str().unwrap();
            assert!(
                at.len() == "2026-12-01T23:20:01Z".len() && at.ends_with('Z'),
                "{at}"
            );
            assert!(at.parse::<jiff::Timestamp>().is_ok(), "{at}");
            (
                e["id"].as_str().unwrap().to_owned(),
                e["kind"].as_str().unwrap().to_owned(),
                e["change"].to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_members_password_reaches_the_server_only_as_a_scram_verifier() {
    let Some(team) = Setup::new("team_cli_scram").await else {
        return;
    };
    let admin = feedback_team::connect(&team.db.admin()).await.unwrap();
    let stored: String = admin
        .raw()
        .query_one(
            "SELECT rolpassword FROM pg_authid WHERE rolname = $1",
            &[&team.ana],
        )
        .await
        .unwrap()
        .get(0);
    let password = team.ana_url.rsplit("password=").next().unwrap();
    assert!(stored.starts_with("SCRAM-SHA-256$4096:"), "{stored}");
    assert!(!stored.contains(password));
    // And the password printed is the one the verifier was made from: Ana works with it.
    let status = team.ana(&["team", "status", "--format", "json"]);
    assert!(status.status.success(), "{}", stderr(&status));
    team.db.drop().await;
}

#[tokio::test]
async fn add_member_prints_the_line_to_hand_over_and_remove_member_ends_access_keeping_history() {
    let Some(team) = Setup::new("team_cli_remove").await else {
        return;
    };
    let admin = team.db.url_text(None, None);
    let admin_store = team.dir.path().join("admin.db");
    let cy = team.db.role("cy");
    let added = run(
        &admin,
        &admin_store,
        &["team", "add-member", &cy, "--team", "support"],
    );
    assert!(added.status.success(), "{}", stderr(&added));
    let text = stdout(&added);
    let export = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("export FEEDBACK_TEAM_URL="))
        .unwrap_or_else(|| panic!("no line to hand over in {text}"));
    let cy_url = shell_words::split(export).unwrap().remove(0);
    assert!(cy_url.contains(&format!("user={cy}")), "{cy_url}");
    assert!(cy_url.contains(&format!("password={}", password_of(&added))));
    assert!(text.contains("[team]\n  url = \""), "{text}");
    // The line works as it is.
    let cy_store = team.dir.path().join("cy.db");
    store_with_items(&cy_store);
    let claimed = run(&cy_url, &cy_store, &["claim", "id00000"]);
    assert!(claimed.status.success(), "{}", stderr(&claimed));

    let removed = run(
        &admin,
        &admin_store,
        &["team", "remove-member", &cy, "--team", "support"],
    );
    assert!(removed.status.success(), "{}", stderr(&removed));
    assert!(
        stdout(&removed).contains("their history stays"),
        "{}",
        stdout(&removed)
    );
    // Cy reaches the team no more; the claim stays in everyone's history.
    let refused = run(&cy_url, &cy_store, &["team", "status"]);
    assert!(!refused.status.success(), "{}", stdout(&refused));
    assert!(
        stderr(&refused).contains("this role is in no team"),
        "{}",
        stderr(&refused)
    );
    let log = log_events(&team.ana(&["team", "log", "id00000", "--format", "json"]));
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].1, "claim");
    let again = run(
        &admin,
        &admin_store,
        &["team", "remove-member", &cy, "--team", "support"],
    );
    assert_eq!(again.status.code(), Some(2), "{}", stderr(&again));
    assert!(stderr(&again).contains("is not a member of team support"));
    team.db.drop().await;
}

/// Rows written by hand (a DBA's, or a version that wrote them so) that a timestamp cannot say
/// or that are no walk state: every member's `team log`, `team status`, `claim` and `search`
/// still work, and the bad time reads as the nearest one a timestamp can say.
#[tokio::test]
async fn rows_written_by_hand_that_do_not_read_stop_no_command() {
    let Some(team) = Setup::new("team_bad_rows").await else {
        return;
    };
    let claimed = team.ana(&["claim", "id00001"]);
    assert!(claimed.status.success(), "{}", stderr(&claimed));
    let admin = feedback_team::connect(&team.db.admin()).await.unwrap();
    admin
        .raw()
        .batch_execute(
            "UPDATE feedback_team.events SET at = 'infinity';
             UPDATE feedback_team.items SET snoozed_until = 'infinity';
             INSERT INTO feedback_team.syncer (team_id, member, generation, since, expires_at)
                 SELECT team_id, 'nobody', 1, '-infinity', 'infinity' FROM feedback_team.teams;
             INSERT INTO feedback_team.mirror_walk (team_id, walk, generation)
                 SELECT team_id, '{\"not\":\"a walk\"}'::bytea, 1 FROM feedback_team.teams;
             INSERT INTO feedback_team.mirror_positions (team_id, member, seq, at)
                 SELECT team_id, 'nobody', 0, 'infinity' FROM feedback_team.teams;",
        )
        .await
        .unwrap();
    for args in [
        &["team", "log"][..],
        &["team", "status"],
        &["claim", "id00002"],
        &["search", "is:mine"],
        &["sync"],
    ] {
        let out = team.bo(args);
        let said = format!("{}{}", stdout(&out), stderr(&out));
        assert!(!said.contains("panicked"), "{args:?}: {said}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {said}");
        if args[0] != "sync" {
            assert!(out.status.success(), "{args:?}: {said}");
        }
    }
    let log = team.bo(&["team", "log"]);
    assert!(stdout(&log).contains("9999-12-30"), "{}", stdout(&log));
    drop(admin);
    team.db.drop().await;
}

/// Whether this machine lets a test mount a file system of its own (`unshare --mount`, as root):
/// under CI it must; elsewhere the test is skipped with a note.
fn can_mount() -> bool {
    let ok = Command::new("unshare")
        .args([
            "--mount",
            "sh",
            "-c",
            "mount -t tmpfs -o size=64k tmpfs /mnt",
        ])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok || std::env::var("CI").as_deref() != Ok("true"),
        "CI runs the full-disk test: `unshare --mount` with a tmpfs must work here"
    );
    if !ok {
        eprintln!("skipped: cannot mount a tmpfs here (`unshare --mount` as root)");
    }
    ok
}

/// What one command run on a full disk did.
struct OnFullDisk {
    claim: Output,
    /// `team status` run once space was freed again, on the same store.
    after: Output,
}

/// Runs `claim ID --format json` as Ana on her store moved onto a tmpfs that is full but for
/// `margin` bytes, then frees the space and runs `team status` (which sends what waits), and
/// moves the store back.
fn claim_on_full_disk(team: &Setup, id: &str, margin: usize) -> OnFullDisk {
    let work = tempfile::tempdir().unwrap();
    let script = r#"
set -u
mnt=$1 store=$2 out=$3 id=$4 margin=$5
mount -t tmpfs -o size=4m tmpfs "$mnt" || exit 90
cp "$store" "$mnt/ana.db" || exit 91
[ -f "$store-wal" ] && { cp "$store-wal" "$mnt/ana.db-wal" || exit 91; }
dd if=/dev/zero of="$mnt/fill" bs=4096 2>/dev/null
truncate -s "-$margin" "$mnt/fill" || exit 92
"$BIN" --store "$mnt/ana.db" claim "$id" --format json >"$out/claim.out" 2>"$out/claim.err"
echo $? >"$out/claim.code"
rm "$mnt/fill"
"$BIN" --store "$mnt/ana.db" team status >"$out/after.out" 2>"$out/after.err"
echo $? >"$out/after.code"
rm -f "$store-wal" "$store-shm"
cp "$mnt/ana.db" "$store" || exit 93
[ -f "$mnt/ana.db-wal" ] && { cp "$mnt/ana.db-wal" "$store-wal" || exit 93; }
exit 0
"#;
    let store = team.dir.path().join("ana.db");
    let home = store.parent().unwrap().join("home");
    std::fs::create_dir_all(work.path().join("mnt")).unwrap();
    let ran = Command::new("unshare")
        .args(["--mount", "sh", "-c", script, "sh"])
        .arg(work.path().join("mnt"))
        .arg(&store)
        .arg(work.path())
        .arg(id)
        .arg(margin.to_string())
        .env_clear()
        .env("BIN", env!("CARGO_BIN_EXE_feedback-inbox"))
        .env("FEEDBACK_LOG", "trace")
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("FEEDBACK_TEAM_URL", &team.ana_url)
        .current_dir(work.path())
        .output()
        .unwrap();
    assert!(
        ran.status.success(),
        "the full-disk script: {}",
        stderr(&ran)
    );
    let read = |name: &str| {
        let path = work.path().join(name);
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let output = |name: &str| {
        let code = String::from_utf8(read(&format!("{name}.code"))).unwrap();
        Output {
            status: <std::process::ExitStatus as std::os::unix::process::ExitStatusExt>::from_raw(
                code.trim().parse::<i32>().unwrap() << 8,
            ),
            stdout: read(&format!("{name}.out")),
            stderr: read(&format!("{name}.err")),
        }
    };
    OnFullDisk {
        claim: output("claim"),
        after: output("after"),
    }
}

/// On a disk that fills while a claim runs, what the command says matches what was kept: a
/// claim that failed before it was kept is not sent later, and one kept (in the outbox, or sent
/// while the team's answer could not be stored) is said to be kept, exits 1 for the full disk,
/// and reaches the team exactly once once there is room again.
#[tokio::test]
async fn a_claim_on_a_full_disk_says_what_was_kept_and_is_applied_once() {
    let Some(team) = Setup::new("team_cli_full_disk").await else {
        return;
    };
    if !can_mount() {
        team.db.drop().await;
        return;
    }
    let ana_store = team.dir.path().join("ana.db");
    pg::store_with_items(&ana_store, 60);
    pg::store_with_items(&team.dir.path().join("bo.db"), 60);
    let all: Vec<String> = (0..60).map(|i| format!("id{i:05}")).collect();
    let mut kept_cases = 0;
    for (round, margin) in (0..96 * 1024).step_by(4096).enumerate() {
        // A backlog of Bo's changes that Ana's claim must store as it catches up.
        // (Added, removed and added again: an item keeps at most 64 labels.)
        for sign in ["+", "-", "+"] {
            let mut words: Vec<&str> = all.iter().map(String::as_str).collect();
            let label = format!("{sign}r{round}");
            words.push(&label);
            let mut args = vec!["label"];
            args.extend(words);
            let labelled = team.bo(&args);
            assert!(labelled.status.success(), "{}", stderr(&labelled));
        }
        let id = &all[round];
        let ran = claim_on_full_disk(&team, id, margin);
        let (code, err) = (ran.claim.status.code(), stderr(&ran.claim));
        assert!(ran.after.status.success(), "{}", stderr(&ran.after));
        let log = team.bo(&["team", "log", id, "--format", "json"]);
        let claims = json(&log)
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "claim" && e["member"] == team.ana.as_str())
            .count();
        let case = format!("margin {margin}: exit {code:?}, {err}");
        match code {
            Some(0) => {
                assert_eq!(json(&ran.claim)[0]["outcome"], "done", "{case}");
                assert_eq!(claims, 1, "{case}");
            }
            Some(1) if err.contains("the changes were kept in the local store") => {
                kept_cases += 1;
                assert!(
                    err.contains("full") || err.contains("disk"),
                    "the error names the full disk: {case}"
                );
                assert_eq!(claims, 1, "a kept claim reaches the team once: {case}");
            }
            _ => assert_eq!(claims, 0, "a claim said not kept reached the team: {case}"),
        }
    }
    assert!(
        kept_cases > 0,
        "no margin left room for the claim but not for the team's answer"
    );
    team.db.drop().await;
}

/// Items `id00000`..`id00005`.
fn six() -> Vec<String> {
    (0..6).map(|i| format!("id{i:05}")).collect()
}

/// The six items' shared state as the team's database holds it.
async fn in_database(db: &pg::Db) -> Vec<pg::shared_state::ItemState> {
    pg::shared_state::in_database(db, &six()).await
}

/// The six items' shared state as the store at `path` shows it.
fn in_store(path: &Path) -> Vec<pg::shared_state::ItemState> {
    pg::shared_state::in_store_file(path, &six())
}

/// `pg_dump`, `psql` or `pg_restore` on the test's database, as the admin.
fn pg_tool(db: &pg::Db, tool: &str, args: &[&str]) {
    let ran = Command::new(tool)
        .args(args)
        .arg("-d")
        .arg(db.url_text(None, None))
        .output()
        .unwrap_or_else(|e| panic!("{tool}: {e}"));
    assert!(ran.status.success(), "{tool}: {}", stderr(&ran));
}

/// A team database restored from an earlier dump, with new events since at the positions the
/// store had read: the store notices, says so, and reads the team's state again, keeping its
/// own change that waited; afterwards it shows what the database holds, item by item.
#[tokio::test]
async fn a_team_database_restored_from_an_earlier_dump_is_noticed_and_read_again() {
    let Some(team) = Setup::new("team_cli_restored").await else {
        return;
    };
    let ana_store = team.dir.path().join("ana.db");
    assert!(team.ana(&["claim", "id00001"]).status.success());
    assert!(team.bo(&["label", "id00002", "+crash"]).status.success());
    let dump = team.dir.path().join("team.dump");
    pg_tool(
        &team.db,
        "pg_dump",
        &["--format=custom", "--file", dump.to_str().unwrap()],
    );
    // After the dump: Bo claims one item and marks another done; Ana reads both.
    assert!(team.bo(&["claim", "id00003"]).status.success());
    assert!(team.bo(&["mark", "id00004", "--done"]).status.success());
    let status = team.ana(&["team", "status"]);
    assert!(status.status.success(), "{}", stderr(&status));
    assert_eq!(in_store(&ana_store), in_database(&team.db).await);
    assert!(in_store(&ana_store)[4].2, "Ana's store shows id00004 done");
    // Ana's change made while the database is away waits in her outbox.
    let away = pg::Db::away(&team.ana_url);
    let offline = run(&away, &ana_store, &["label", "id00005", "+mine"]);
    assert!(offline.status.success(), "{}", stderr(&offline));

    // The database is restored from the dump, and two new events take the positions Ana's
    // store had read (3 and 4) with other changes.
    pg_tool(
        &team.db,
        "psql",
        &["-c", "DROP SCHEMA feedback_team CASCADE"],
    );
    pg_tool(&team.db, "pg_restore", &[dump.to_str().unwrap()]);
    assert!(team.bo(&["label", "id00000", "+after"]).status.success());
    assert!(team.bo(&["label", "id00001", "+after"]).status.success());

    let status = team.ana(&["team", "status", "--format", "json"]);
    assert!(status.status.success(), "{}", stderr(&status));
    let said = stderr(&status);
    assert!(said.contains("the team's database went back"), "{said}");
    assert!(said.contains("read again"), "{said}");
    assert_eq!(json(&status)["pending"], 0, "Ana's waiting change was sent");
    let truth = in_database(&team.db).await;
    assert_eq!(in_store(&ana_store), truth);
    assert_eq!(truth[3].1, None, "Bo's claim after the dump is gone");
    assert!(!truth[4].2, "so is his done");
    assert_eq!(
        truth[5].3,
        ["mine"],
        "Ana's waiting label was kept and sent"
    );
    // Said once: the next connection finds the store at one with the database.
    let again = team.ana(&["team", "status"]);
    assert!(!stderr(&again).contains("went back"), "{}", stderr(&again));
    team.db.drop().await;
}

/// A team dropped and made again under its name: the store sees another team, says so, and
/// forgets what the old one said.
#[tokio::test]
async fn a_team_made_again_under_its_name_is_noticed_and_its_old_state_forgotten() {
    let Some(team) = Setup::new("team_cli_made_again").await else {
        return;
    };
    let ana_store = team.dir.path().join("ana.db");
    assert!(team.bo(&["claim", "id00001"]).status.success());
    assert!(team.bo(&["mark", "id00002", "--done"]).status.success());
    assert!(team.ana(&["team", "status"]).status.success());
    assert_eq!(in_store(&ana_store)[1].1.as_deref(), Some(team.bo.as_str()));

    pg_tool(
        &team.db,
        "psql",
        &["-c", "DROP SCHEMA feedback_team CASCADE"],
    );
    let admin = team.db.url_text(None, None);
    let admin_store = team.dir.path().join("admin.db");
    let init = run(&admin, &admin_store, &["team", "init", "support"]);
    assert!(init.status.success(), "{}", stderr(&init));
    // Ana's login role is the server's: she is added again with the password she has.
    let added = run(
        &admin,
        &admin_store,
        &["team", "add-member", &team.ana, "--team", "support"],
    );
    assert!(added.status.success(), "{}", stderr(&added));

    let status = team.ana(&["team", "status"]);
    assert!(status.status.success(), "{}", stderr(&status));
    let said = stderr(&status);
    assert!(said.contains("another team of this name"), "{said}");
    assert_eq!(in_store(&ana_store), in_database(&team.db).await);
    assert_eq!(
        in_store(&ana_store)[1].1,
        None,
        "the old team's claim is forgotten"
    );
    assert!(!in_store(&ana_store)[2].2, "and its done");
    team.db.drop().await;
}

#[tokio::test]
async fn a_reply_a_member_sent_is_in_the_teams_history_and_found_by_a_teammates_search() {
    let Some(server) = feedback_mail::testing::SmtpServer::start(&[]) else {
        return;
    };
    let Some(team) = Setup::new("team_cli_reply").await else {
        return;
    };
    let config = team.dir.path().join("home/config/feedback-inbox");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(
        config.join("config.toml"),
        format!(
            "[mail]\nfrom = \"Support <support@acme.example>\"\n\
             smtp_url = \"smtp://127.0.0.1:{}\"\nper_minute = 600\n\n\
             [[templates]]\nname = \"fixed\"\nsubject = \"Fixed in 3.10.1\"\nbody = \"Hi, {{agent}} here.\"\n",
            server.port
        ),
    )
    .unwrap();
    let sent = team.ana(&[
        "reply",
        "id00001",
        "id00002",
        "id00003",
        "--template",
        "fixed",
        "--yes",
    ]);
    assert!(sent.status.success(), "{}", stderr(&sent));
    assert_eq!(server.messages().len(), 2, "{}", stdout(&sent));
    assert!(server.messages()[0].contains(&format!("Hi, {} here.", team.ana)));
    let mut found = ids(&team.bo(&[
        "search",
        "is:replied replied:<1h",
        "--fields",
        "id",
        "--format",
        "json",
    ]));
    found.sort();
    assert_eq!(found, ["id00001", "id00002"]);
    let by_ana = ids(&team.bo(&[
        "search",
        &format!("replied-by:{}", team.ana),
        "--fields",
        "id",
        "--format",
        "json",
    ]));
    assert_eq!(by_ana.len(), 2);
    let by_bo = ids(&team.bo(&[
        "search",
        "replied-by:me",
        "--fields",
        "id",
        "--format",
        "json",
    ]));
    assert!(by_bo.is_empty(), "{by_bo:?}");
    let log = stdout(&team.bo(&["team", "log", "id00002"]));
    assert!(log.contains("replied: Fixed in 3.10.1"), "{log}");
    // Bo about to answer the same reporter is told, before anything is sent.
    let again = team.bo(&["reply", "id00001", "--template", "fixed", "--dry-run"]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stderr(&again).contains(&format!(
            "warning: {} replied to user1@example.com",
            team.ana
        )),
        "{}",
        stderr(&again)
    );
    assert_eq!(server.messages().len(), 2, "a dry run sends nothing");
    team.db.drop().await;
}

#[tokio::test]
async fn a_template_one_member_shares_is_offered_to_the_others_and_checked_before_it_is_kept() {
    let Some(team) = Setup::new("team_cli_templates").await else {
        return;
    };
    let home = team.dir.path().join("home");
    let config = home.join("config/feedback-inbox");
    std::fs::create_dir_all(&config).unwrap();
    // Mail that would go nowhere: only dry runs are made.
    std::fs::write(
        config.join("config.toml"),
        "[mail]\nfrom = \"Support <support@acme.example>\"\nsmtp_url = \"smtp://127.0.0.1:9\"\n\n\
         [[templates]]\nname = \"thanks\"\nbody = \"Thanks, {agent}.\"\n",
    )
    .unwrap();
    let body = team.dir.path().join("logs.txt");
    std::fs::write(&body, "Could you send the logs of {app} {version}?\n").unwrap();
    let body = body.to_str().unwrap();
    let share = |args: &[&str]| {
        let mut all = vec!["team", "template", "share"];
        all.extend_from_slice(args);
        team.ana(&all)
    };
    let shared = share(&["logs", "--body-file", body, "--subject", "Logs for {id}"]);
    assert!(shared.status.success(), "{}", stderr(&shared));
    assert!(stdout(&shared).contains("shared the template logs with team support"));
    // Bo's list reads it from the team, and so does Bo's reply by name.
    let listed = json(&team.bo(&["team", "template", "list", "--format", "json"]));
    assert_eq!(listed[0]["name"], "logs", "{listed}");
    assert_eq!(listed[0]["subject"], "Logs for {id}");
    assert_eq!(listed[0]["shared_by"], team.ana.as_str());
    let dry = team.bo(&["reply", "id00001", "--template", "logs", "--dry-run"]);
    assert!(dry.status.success(), "{}", stderr(&dry));
    assert!(
        stdout(&dry).contains("Logs for id00001")
            && stdout(&dry).contains("Could you send the logs of"),
        "{}",
        stdout(&dry)
    );
    // A config's own entry is shared as it is, and sharing under a name again replaces it.
    let from_config = share(&["Thanks", "--from-config"]);
    assert!(from_config.status.success(), "{}", stderr(&from_config));
    std::fs::write(team.dir.path().join("logs2.txt"), "Logs, please.").unwrap();
    let again = share(&[
        "LOGS",
        "--body-file",
        team.dir.path().join("logs2.txt").to_str().unwrap(),
    ]);
    assert!(again.status.success(), "{}", stderr(&again));
    let listed = json(&team.bo(&["team", "template", "list", "--format", "json"]));
    let names: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["LOGS", "Thanks"], "{listed}");
    assert_eq!(listed[0]["body"], "Logs, please.");
    assert_eq!(listed[0]["subject"], serde_json::Value::Null);
    assert_eq!(listed[1]["body"], "Thanks, {agent}.");
    templates_refused(&team, &share, body).await;
    // Removed, it is no longer offered; removing it again says there is none.
    let removed = team.bo(&["team", "template", "remove", "logs"]);
    assert!(removed.status.success(), "{}", stderr(&removed));
    let gone = team.ana(&["reply", "id00001", "--template", "logs", "--dry-run"]);
    assert_eq!(gone.status.code(), Some(2), "{}", stdout(&gone));
    assert!(
        stderr(&gone).contains("no template named \"logs\""),
        "{}",
        stderr(&gone)
    );
    let twice = team.bo(&["team", "template", "remove", "logs"]);
    assert_eq!(twice.status.code(), Some(2));
    assert!(
        stderr(&twice).contains("shares no template named"),
        "{}",
        stderr(&twice)
    );
    team.db.drop().await;
}

/// What would fail a reply later is refused when shared, by the command and by the database
/// itself (a hand-written call), and members cannot write the table but through its functions.
async fn templates_refused(team: &Setup, share: &dyn Fn(&[&str]) -> Output, body: &str) {
    // What would fail a reply later is refused now, and nothing is kept.
    for (args, says) in [
        (
            vec!["bad\u{1b}name", "--from-config"],
            "no [[templates]] entry",
        ),
        (
            vec!["bad\u{7}name", "--body-file", body],
            "one line of 1 to 64",
        ),
        (
            vec!["x", "--body-file", body, "--subject", "a\nb"],
            "the subject",
        ),
    ] {
        let refused = share(&args);
        assert_eq!(
            refused.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&refused)
        );
        assert!(
            stderr(&refused).contains(says),
            "{args:?}: {}",
            stderr(&refused)
        );
    }
    std::fs::write(team.dir.path().join("bad.txt"), "Hi {reporter}").unwrap();
    let unknown = share(&[
        "bad",
        "--body-file",
        team.dir.path().join("bad.txt").to_str().unwrap(),
    ]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).contains("unknown variable {reporter}"),
        "{}",
        stderr(&unknown)
    );
    // The database itself refuses what a hand-written call would store.
    let url: feedback_team::TeamUrl = team.ana_url.parse().unwrap();
    let member = feedback_team::connect(&url).await.unwrap();
    let client = member.raw();
    let team_id: i64 = client
        .query_one("SELECT team_id FROM feedback_team.teams", &[])
        .await
        .unwrap()
        .get(0);
    for (name, subject) in [("a\nb", None), ("ok", Some("a\rb")), (" padded", None)] {
        let refused = client
            .execute(
                "SELECT feedback_team.put_template($1, $2, $3, 'body')",
                &[&team_id, &name, &subject],
            )
            .await;
        assert!(refused.is_err(), "{name:?} {subject:?}");
    }
    let written = client
        .execute("DELETE FROM feedback_team.templates", &[])
        .await;
    assert!(
        written.is_err(),
        "members change templates only through the functions"
    );
}
