//! `rust-version` in Cargo.toml is the real minimum: no dependency in the lockfile asks for a
//! newer compiler, and it is not below what our own code needs (let-chains in edition 2024 are
//! stable from 1.88).
#![allow(clippy::unwrap_used)]

use std::process::Command;

/// What our own code needs: let-chains (`if let … && …`).
const OWN_CODE_NEEDS: (u32, u32) = (1, 88);

fn parse(version: &str) -> (u32, u32) {
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap());
    (parts.next().unwrap(), parts.next().unwrap_or(0))
}

/// The compiler's host triple, as `rustc -vV` states it.
fn host_triple() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let output = Command::new(rustc).arg("-vV").output().unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .unwrap()
        .to_owned()
}

#[test]
fn rust_version_is_the_real_minimum() {
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let declared: toml::Table = toml::from_str(&manifest).unwrap();
    // Every crate of the workspace takes it from `[workspace.package]`.
    assert_eq!(
        declared["package"]["rust-version"]["workspace"].as_bool(),
        Some(true)
    );
    let declared = parse(
        declared["workspace"]["package"]["rust-version"]
            .as_str()
            .unwrap(),
    );

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    // Offline, cargo holds only the crates of the platforms it has built for; the host's are
    // there after any build, so the check is limited to them rather than to what a cache holds.
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .args(["--filter-platform", &host_triple()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let (needed, by) = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        // The dependencies, not the workspace's own crates (which have no source).
        .filter(|p| !p["source"].is_null())
        .filter_map(|p| Some((parse(p["rust_version"].as_str()?), p["name"].to_string())))
        .max()
        .unwrap();
    let minimum = needed.max(OWN_CODE_NEEDS);
    assert_eq!(
        declared, minimum,
        "rust-version says {declared:?}; the real minimum is {minimum:?} ({by} needs {needed:?})"
    );
}
