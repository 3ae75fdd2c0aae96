//! What this build is, for `--version` and `version`: the version, and as the binary's build
//! script found them, the commit and its date, the target and the profile. The binary says
//! them once at start ([`set`]); a caller that did not (a test of the parser) gets the version
//! alone.

use std::io::Write;
use std::sync::OnceLock;

use crate::CliError;
use crate::output::TeamFormat;

/// This build, as the binary's build script found it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Build {
    /// The commit built from (short), when built from a checkout.
    pub commit: Option<&'static str>,
    /// That commit's date (`2026-12-04`).
    pub date: Option<&'static str>,
    /// The target triple (`x86_64-unknown-linux-gnu`).
    pub target: &'static str,
    /// The cargo profile (`release`, `debug`).
    pub profile: &'static str,
    /// The binary's cargo features turned on, separated by commas.
    pub features: &'static str,
}

static BUILD: OnceLock<Build> = OnceLock::new();
static LONG: OnceLock<String> = OnceLock::new();

/// Says what this build is; the first call wins.
pub fn set(build: Build) {
    let _ = BUILD.set(build);
}

fn build() -> Build {
    BUILD.get().copied().unwrap_or_default()
}

/// The version as `--version` says it: `0.2.0 (a1b2c3d 2026-12-04)`, `0.2.0 (debug build)`.
#[must_use]
pub fn long() -> &'static str {
    LONG.get_or_init(|| {
        let b = build();
        let version = env!("CARGO_PKG_VERSION");
        match (b.commit, b.date) {
            (Some(commit), Some(date)) => format!("{version} ({commit} {date})"),
            (Some(commit), None) => format!("{version} ({commit})"),
            (None, _) if b.profile == "debug" => format!("{version} (debug build)"),
            (None, _) => version.to_owned(),
        }
    })
}

#[derive(Debug, Clone, clap::Args)]
pub struct VersionArgs {
    #[arg(long, value_enum, default_value_t = TeamFormat::Text)]
    pub format: TeamFormat,
}

/// `version`: the line `--version` prints, or for a bug report the build as JSON.
pub fn run(args: &VersionArgs, out: &mut dyn Write) -> Result<(), CliError> {
    match args.format {
        TeamFormat::Text => writeln!(out, "feedback-inbox {}", long())?,
        TeamFormat::Json => {
            let b = build();
            let json = serde_json::json!({
                "name": "feedback-inbox",
                "version": env!("CARGO_PKG_VERSION"),
                "commit": b.commit,
                "date": b.date,
                "target": b.target,
                "profile": b.profile,
                "os": std::env::consts::OS,
                "arch": std::env::consts::ARCH,
                "features": b.features.split(',').filter(|f| !f.is_empty()).collect::<Vec<_>>(),
                "store_schema": feedback_store::schema::latest(),
                "team_schema": feedback_team::schema::latest(),
            });
            let json =
                serde_json::to_string_pretty(&json).map_err(|e| CliError::Other(e.to_string()))?;
            writeln!(out, "{json}")?;
        }
    }
    Ok(())
}
