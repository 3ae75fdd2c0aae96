//! What `--version` says about this build: the commit it was built from and that commit's date
//! (`FEEDBACK_BUILD_COMMIT` and `SOURCE_DATE_EPOCH` override them, for a build from a source
//! tarball), the target and the profile. A build outside a git checkout names no commit.
//!
//! Only an optimised build follows the checkout (it reruns when HEAD moves): a debug build,
//! which every test links, says it is one rather than rebuilding on every commit.

use std::process::Command;

fn main() {
    let profile = std::env::var("PROFILE").unwrap_or_default();
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=FEEDBACK_BUILD_COMMIT");
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");
    let target = std::env::var("TARGET").unwrap_or_default();
    println!("cargo:rustc-env=FEEDBACK_BUILD_TARGET={target}");
    println!("cargo:rustc-env=FEEDBACK_BUILD_PROFILE={profile}");
    let mut features: Vec<String> = std::env::vars()
        .filter_map(|(name, _)| name.strip_prefix("CARGO_FEATURE_").map(str::to_lowercase))
        .collect();
    features.sort();
    println!(
        "cargo:rustc-env=FEEDBACK_BUILD_FEATURES={}",
        features.join(",")
    );
    if profile != "release" {
        return;
    }
    if let Some(git_dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={git_dir}/HEAD");
        if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={git_dir}/{reference}");
        }
        println!("cargo:rerun-if-changed={git_dir}/packed-refs");
    }
    let commit = std::env::var("FEEDBACK_BUILD_COMMIT")
        .ok()
        .filter(|c| !c.is_empty())
        .or_else(|| git(&["rev-parse", "--short=9", "HEAD"]));
    if let Some(commit) = commit {
        println!("cargo:rustc-env=FEEDBACK_BUILD_COMMIT={commit}");
    }
    let date = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse::<i64>().ok())
        .and_then(|s| jiff::Timestamp::from_second(s).ok())
        .map(|t| t.strftime("%Y-%m-%d").to_string())
        .or_else(|| git(&["log", "-1", "--format=%cs"]));
    if let Some(date) = date {
        println!("cargo:rustc-env=FEEDBACK_BUILD_DATE={date}");
    }
}

/// What `git ARGS` prints (trimmed), when it runs and succeeds.
fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    (output.status.success() && !text.trim().is_empty()).then(|| text.trim().to_owned())
}
