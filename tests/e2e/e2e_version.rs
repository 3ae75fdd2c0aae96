//! `--version` and `version --format json` of the binary the end-to-end tests drive: the
//! version, and for an optimised build from a checkout the commit (one this repository holds)
//! and its date.

use std::process::Command;

use crate::tmux::binary;

fn run(args: &[&str]) -> String {
    let output = Command::new(binary()).args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_version_names_the_commit_and_its_date_and_json_adds_the_target() {
    let json: serde_json::Value =
        serde_json::from_str(&run(&["version", "--format", "json"])).unwrap();
    let version = json["version"].as_str().unwrap();
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    assert_eq!(json["name"], "feedback-inbox");
    assert!(!json["target"].as_str().unwrap().is_empty(), "{json}");
    assert!(json["store_schema"].as_u64().unwrap() > 0, "{json}");
    let line = run(&["--version"]);
    assert_eq!(line, run(&["version"]));
    let in_checkout = Command::new("git")
        .args(["rev-parse", "--git-dir"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .is_ok_and(|o| o.status.success());
    if json["profile"] == "release" && in_checkout {
        let commit = json["commit"].as_str().unwrap();
        let date = json["date"].as_str().unwrap();
        assert_eq!(
            line,
            format!("feedback-inbox {version} ({commit} {date})\n")
        );
        assert!(
            commit.len() >= 7 && commit.chars().all(|c| c.is_ascii_hexdigit()),
            "{commit}"
        );
        assert!(
            jiff::civil::Date::strptime("%Y-%m-%d", date).is_ok(),
            "{date}"
        );
        let known = Command::new("git")
            .args(["cat-file", "-e", &format!("{commit}^{{commit}}")])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .unwrap();
        assert!(known.success(), "{commit} is no commit of this repository");
    } else if json["profile"] == "debug" {
        assert_eq!(line, format!("feedback-inbox {version} (debug build)\n"));
    }
}
