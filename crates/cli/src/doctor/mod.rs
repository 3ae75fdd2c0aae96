//! `feedback-inbox doctor`: checks the setup and explains, one line a check, with a fix when it
//! fails. Each check is a function over injected inputs (an environment lookup, a runner for
//! tmux's commands, the outcome of the one request) so tests can make each fail in turn; `run`
//! gathers the real inputs. Network checks are skipped, with a line saying why, when an earlier
//! check makes them meaningless. Every line is sanitized and has key-shaped text redacted; the
//! key itself is never an input of any line.

mod account;
mod browser;
mod clipboard;
mod mail;
mod network;
mod store;
mod team;
mod terminal;

use std::io::Write;

use super::CliError;
use crate::context::Context;
use crate::output::TeamFormat;
use feedback_api::key::redact_keys;

/// How a check came out. Only `Fail` makes `doctor` exit non-zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Ok,
    /// Works, with a caveat worth knowing.
    Warn,
    Fail,
    /// Not checked: an earlier failure makes it meaningless.
    Skip,
}

impl Verdict {
    fn tag(self) -> &'static str {
        match self {
            Self::Ok => "ok  ",
            Self::Warn => "warn",
            Self::Fail => "FAIL",
            Self::Skip => "skip",
        }
    }
}

/// One line of the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    pub verdict: Verdict,
    /// What was checked ("config file", "API key", ...).
    pub name: &'static str,
    /// What was found.
    pub detail: String,
    /// What to do about it (for a warning or failure).
    pub fix: Option<String>,
}

impl Check {
    #[must_use]
    pub fn ok(name: &'static str, detail: impl Into<String>) -> Self {
        Self::new(Verdict::Ok, name, detail, None)
    }

    #[must_use]
    pub fn warn(name: &'static str, detail: impl Into<String>, fix: Option<String>) -> Self {
        Self::new(Verdict::Warn, name, detail, fix)
    }

    #[must_use]
    pub fn fail(name: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Self {
        Self::new(Verdict::Fail, name, detail, Some(fix.into()))
    }

    #[must_use]
    pub fn skip(name: &'static str, why: impl Into<String>) -> Self {
        Self::new(Verdict::Skip, name, why, None)
    }

    fn new(
        verdict: Verdict,
        name: &'static str,
        detail: impl Into<String>,
        fix: Option<String>,
    ) -> Self {
        Self {
            verdict,
            name,
            detail: detail.into(),
            fix,
        }
    }
}

/// Width of the name column.
const NAME_WIDTH: usize = 14;

/// One line: `FAIL  API key        what was found; fix: what to do`, sanitized (paths, server
/// messages and environment values are untrusted) and with anything key-shaped redacted.
#[must_use]
pub fn render(check: &Check) -> String {
    let fix = check
        .fix
        .as_ref()
        .map(|fix| format!("; fix: {fix}"))
        .unwrap_or_default();
    let line = format!(
        "{}  {:<NAME_WIDTH$} {}{fix}",
        check.verdict.tag(),
        check.name,
        check.detail
    );
    let clean = feedback_core::text::sanitize_line(&line);
    redact_keys(&clean).trim_end().to_owned()
}

/// "14 checks: 11 ok, 1 warning, 1 failed, 1 skipped".
#[must_use]
pub fn summary(checks: &[Check]) -> String {
    let count = |v: Verdict| checks.iter().filter(|c| c.verdict == v).count();
    let warnings = count(Verdict::Warn);
    format!(
        "{} checks: {} ok, {warnings} warning{}, {} failed, {} skipped",
        checks.len(),
        count(Verdict::Ok),
        if warnings == 1 { "" } else { "s" },
        count(Verdict::Fail),
        count(Verdict::Skip)
    )
}

/// Writes every check and the summary (or, as JSON, every check with its verdict); an error
/// (exit 1) naming the failed checks when any failed.
pub fn report(checks: &[Check], format: TeamFormat, out: &mut dyn Write) -> Result<(), CliError> {
    match format {
        TeamFormat::Text => {
            for check in checks {
                writeln!(out, "{}", render(check))?;
            }
            writeln!(out, "{}", summary(checks))?;
        }
        TeamFormat::Json => {
            let shown =
                |text: &str| redact_keys(&feedback_core::text::sanitize_line(text)).into_owned();
            let json: Vec<serde_json::Value> = checks
                .iter()
                .map(|c| {
                    serde_json::json!({
                        "check": c.name,
                        "verdict": match c.verdict {
                            Verdict::Ok => "ok",
                            Verdict::Warn => "warn",
                            Verdict::Fail => "fail",
                            Verdict::Skip => "skip",
                        },
                        "detail": shown(&c.detail),
                        "fix": c.fix.as_deref().map(shown),
                    })
                })
                .collect();
            let json =
                serde_json::to_string_pretty(&json).map_err(|e| CliError::Other(e.to_string()))?;
            writeln!(out, "{json}")?;
        }
    }
    out.flush()?;
    let failed: Vec<&str> = checks
        .iter()
        .filter(|c| c.verdict == Verdict::Fail)
        .map(|c| c.name)
        .collect();
    if failed.is_empty() {
        return Ok(());
    }
    Err(CliError::Other(format!(
        "doctor: {} check{} failed ({})",
        failed.len(),
        if failed.len() == 1 { "" } else { "s" },
        failed.join(", ")
    )))
}

/// Runs every check on this machine's real inputs and reports them. `settings` checks the
/// config file's settings as the inbox's start checks them.
pub async fn run(
    args: &Context,
    doctor: &DoctorArgs,
    settings: &dyn Fn(&Context) -> Result<(), CliError>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let env = |name: &str| std::env::var(name).ok();
    let mut checks = Vec::new();
    let account = account::checks(args, &env, &mut checks);
    if checks.first().is_some_and(|c| c.verdict != Verdict::Fail) {
        checks.push(account::settings(settings(args)));
    } else {
        checks.push(Check::skip(
            "settings",
            "the config file must be fixed first",
        ));
    }
    match account {
        Some(resolved) => {
            let probe = network::probe(&resolved).await;
            checks.extend(network::checks(&probe, jiff::Timestamp::now()));
        }
        None => checks.extend(network::skipped(
            "no usable account (see above), so no request was sent",
        )),
    }
    checks.extend(store::checks(args, jiff::Timestamp::now()));
    checks.extend(team::lines(&team::probe(args).await));
    checks.push(mail::check(args).await);
    checks.extend(terminal::checks(&env, terminal::Tty::detect()));
    checks.extend(clipboard::checks(
        &env,
        &feedback_clipboard::system_probe,
        &clipboard::run_tmux,
    ));
    checks.push(browser::check(&env, &browser::launchers(), &browser::which));
    checks.push(log_check(&env));
    report(&checks, doctor.format, out)
}

/// Where the log is, and how much it records.
fn log_check(env: &dyn Fn(&str) -> Option<String>) -> Check {
    let level = env("FEEDBACK_LOG").unwrap_or_else(|| "info".to_owned());
    match feedback_config::log_dir() {
        Some(dir) => Check::ok(
            "log",
            format!(
                "{} (FEEDBACK_LOG={level}; a file a day, {} days kept)",
                feedback_config::log_file(&dir, jiff::Timestamp::now()).display(),
                feedback_config::LOG_FILES_KEPT
            ),
        ),
        None => Check::warn(
            "log",
            "no home folder: nothing is logged",
            Some("set HOME".to_owned()),
        ),
    }
}

#[derive(Debug, Clone, clap::Args)]
#[command(
    after_help = "Exit status: 0 when every check passes (warnings allowed), 1 when any check fails."
)]
pub struct DoctorArgs {
    /// `json`: every check as {check, verdict, detail, fix}, for scripts.
    #[arg(long, value_enum, default_value_t = TeamFormat::Text)]
    pub format: TeamFormat,
}

#[cfg(test)]
mod tests {
    /// An environment of these variables only (the checks read it through a function).
    pub(super) fn env(
        vars: &'static [(&'static str, &'static str)],
    ) -> impl Fn(&str) -> Option<String> {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    use super::*;

    #[test]
    fn a_line_is_sanitized_redacted_and_carries_its_fix() {
        let check = Check::fail(
            "API key",
            "bad \x1b]52;c;aGk=\x07 service_eu_sk_topsecret",
            "set FEEDBACK_API_KEY",
        );
        let line = render(&check);
        assert!(line.starts_with("FAIL  API key "), "{line}");
        assert!(!line.contains('\x1b') && !line.contains('\x07'), "{line:?}");
        assert!(!line.contains("topsecret"), "{line}");
        assert!(line.ends_with("; fix: set FEEDBACK_API_KEY"), "{line}");
        assert_eq!(
            render(&Check::ok("store", "fine")),
            "ok    store          fine"
        );
    }

    #[test]
    fn any_failure_is_an_error_naming_the_failed_checks_and_warnings_are_not() {
        let mut out = Vec::new();
        let passing = [
            Check::ok("config file", "parsed"),
            Check::warn("terminal", "not a terminal", None),
            Check::skip("clock", "no answer"),
        ];
        report(&passing, TeamFormat::Text, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.ends_with("3 checks: 1 ok, 1 warning, 0 failed, 1 skipped\n"),
            "{text}"
        );

        let failing = [
            Check::fail("API key", "missing", "set it"),
            Check::fail("clock", "skewed", "sync it"),
        ];
        let err = report(&failing, TeamFormat::Text, &mut Vec::new()).unwrap_err();
        assert_eq!(err.to_string(), "doctor: 2 checks failed (API key, clock)");
        assert_eq!(err.exit_code(), std::process::ExitCode::from(1));
        // As JSON: every check with its verdict, its text inert and any key redacted; the
        // same exit status.
        let hostile = [
            Check::ok("config file", "parsed \u{1b}[2J"),
            Check::fail(
                "API key",
                "service_eu_sk_0123456789abcdef0123456789 is wrong",
                "set it",
            ),
        ];
        let mut out = Vec::new();
        assert!(report(&hostile, TeamFormat::Json, &mut out).is_err());
        let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(json[0]["check"], "config file");
        assert_eq!(json[0]["verdict"], "ok");
        assert!(!json[0]["detail"].as_str().unwrap().contains('\u{1b}'));
        assert_eq!(json[1]["verdict"], "fail");
        assert_eq!(json[1]["fix"], "set it");
        assert!(
            !json[1]["detail"]
                .as_str()
                .unwrap()
                .contains("0123456789abcdef"),
            "{json}"
        );
    }
}
