//! The account's checks: the config file found and parsed, the base URL, and the key present
//! and well-formed (its region and where it came from, never the key). The base URL and the key
//! are judged apart, so a missing base URL does not hide a bad key: each is resolved with a
//! stand-in for the other.

use std::path::Path;

use super::Check;
use crate::CliError;
use crate::context::Context;
use feedback_config::{self as config, ConfigError, Loaded, Resolved};

/// A well-formed key put in place of the real one to resolve the base URL alone; never sent.
const STAND_IN_KEY: &str = "service_eu_sk_doctor";
/// A base URL put in place of a missing or bad one to resolve the key alone; never asked.
const STAND_IN_URL: &str = "http://127.0.0.1/";
/// Where keys are made, per the spec.
const KEYS_PAGE: &str = "Account settings → API keys (/account/api-keys)";

/// Pushes the config, base URL and key lines; the usable account when all three pass.
pub(super) fn checks(
    args: &Context,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut Vec<Check>,
) -> Option<Resolved> {
    let (path, required) = crate::config_path(args);
    let loaded = match &path {
        Some(p) => config::load(p, required),
        None => Ok(None),
    };
    out.push(config_file(path.as_deref(), &loaded));
    let Ok(loaded) = loaded else {
        out.push(Check::skip(
            "base URL",
            "the config file must be fixed first",
        ));
        out.push(Check::skip(
            "API key",
            "the config file must be fixed first",
        ));
        return None;
    };
    let credentials = path.as_deref().map(config::credentials::file_beside);
    let hint = path.map_or_else(|| "config.toml".to_owned(), |p| p.display().to_string());
    let resolve = |flag: Option<&str>, env: &dyn Fn(&str) -> Option<String>| {
        config::resolve(&config::Sources {
            base_url_flag: flag,
            profile: args.profile.as_deref(),
            file: loaded.as_ref(),
            env,
            file_hint: hint.clone(),
            credentials: credentials.as_deref(),
        })
    };
    let stand_in_env = |name: &str| {
        if name == config::ENV_API_KEY {
            Some(STAND_IN_KEY.to_owned())
        } else {
            env(name)
        }
    };
    let base = resolve(args.base_url.as_deref(), &stand_in_env);
    out.push(base_url(&base));
    let key = match &base {
        Ok(_) => resolve(args.base_url.as_deref(), env),
        Err(ConfigError::MissingBaseUrl(_) | ConfigError::BadBaseUrl { .. }) => {
            resolve(Some(STAND_IN_URL), env)
        }
        Err(_) => {
            out.push(Check::skip("API key", "the line above must be fixed first"));
            return None;
        }
    };
    out.push(api_key(&key));
    base.ok().and(key.ok())
}

/// The settings the inbox checks at its start (`[keys]`, `[triage]`, views, looks, `[sync]`,
/// `retention_days`), as checked by the same function: a config the inbox refuses fails here.
#[must_use]
pub(super) fn settings(checked: Result<(), CliError>) -> Check {
    const NAME: &str = "settings";
    match checked {
        Ok(()) => Check::ok(NAME, "every setting is one the inbox accepts"),
        Err(error) => Check::fail(
            NAME,
            error.to_string(),
            "correct the setting named: the inbox does not start until then",
        ),
    }
}

/// The config file: where, and whether it parsed.
#[must_use]
pub(super) fn config_file(
    path: Option<&Path>,
    loaded: &Result<Option<Loaded>, ConfigError>,
) -> Check {
    const NAME: &str = "config file";
    match (path, loaded) {
        (None, _) => Check::warn(
            NAME,
            "no platform config folder; settings come from flags and the environment",
            Some("pass --config PATH to use a file".to_owned()),
        ),
        (Some(path), Ok(None)) => Check::ok(
            NAME,
            format!(
                "none at {} (optional: settings from flags and the environment)",
                path.display()
            ),
        ),
        (Some(_), Ok(Some(loaded))) => {
            Check::ok(NAME, format!("{} found and parsed", loaded.path.display()))
        }
        (Some(_), Err(error @ ConfigError::Read { .. })) => Check::fail(
            NAME,
            error.to_string(),
            "check the path (--config) and that you may read the file",
        ),
        (Some(_), Err(error)) => Check::fail(
            NAME,
            error.to_string(),
            "correct the place named (docs/config.md shows every setting)",
        ),
    }
}

/// The base URL, resolved with a stand-in key.
#[must_use]
pub(super) fn base_url(resolved: &Result<Resolved, ConfigError>) -> Check {
    const NAME: &str = "base URL";
    match resolved {
        Ok(resolved) => Check::ok(NAME, resolved.base_url.as_str().to_owned()),
        Err(error @ ConfigError::MissingBaseUrl(_)) => Check::fail(
            NAME,
            "no base URL set",
            error
                .to_string()
                .trim_start_matches("no base URL: ")
                .to_owned(),
        ),
        Err(error @ ConfigError::BadBaseUrl { .. }) => Check::fail(
            NAME,
            error.to_string(),
            "give the service's https:// address (plain http only for 127.0.0.1 or localhost)",
        ),
        Err(error @ (ConfigError::UnknownProfile { .. } | ConfigError::ProfileWithoutFile(..))) => {
            Check::fail(
                NAME,
                error.to_string(),
                "pass one of the listed profiles, or add a [profiles.NAME] table",
            )
        }
        Err(error) => Check::fail(NAME, error.to_string(), "correct the setting named"),
    }
}

/// The key: present, well-formed, its region and origin; a warning for a key in a file others
/// may read.
#[must_use]
pub(super) fn api_key(resolved: &Result<Resolved, ConfigError>) -> Check {
    const NAME: &str = "API key";
    match resolved {
        Ok(resolved) => {
            let detail = format!(
                "present and well-formed: region {}, from {}",
                resolved.key.region(),
                resolved.key_origin
            );
            match resolved.warnings.first() {
                Some(warning) => Check::warn(NAME, format!("{detail}; {warning}"), None),
                None => Check::ok(NAME, detail),
            }
        }
        Err(ConfigError::MissingKey(_)) => Check::fail(
            NAME,
            "no API key set",
            format!(
                "set FEEDBACK_API_KEY, or api_key_command (preferred) or api_key in the config file; keys are made under {KEYS_PAGE}"
            ),
        ),
        Err(error @ ConfigError::BadKey { .. }) => Check::fail(
            NAME,
            error.to_string(),
            format!("copy the secret key again from {KEYS_PAGE}"),
        ),
        Err(error @ ConfigError::KeyCommand(_)) => Check::fail(
            NAME,
            error.to_string(),
            "run the command by hand: it must print the key alone on stdout and exit 0",
        ),
        Err(error) => Check::fail(NAME, error.to_string(), "correct the setting named"),
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::super::{Verdict, render};
    use super::*;

    const KEY: &str = "service_us_sk_hunter2hunter2";

    fn args(config: &Path, extra: &[&str]) -> Context {
        let mut argv = vec!["feedback-inbox", "--config", config.to_str().unwrap()];
        argv.extend_from_slice(extra);
        argv.push("doctor");
        Context::new(crate::Args::parse_from(argv))
    }

    fn run(args: &Context, vars: &[(&str, &str)]) -> (Vec<Check>, Option<Resolved>) {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let env = move |name: &str| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        let mut out = Vec::new();
        let resolved = checks(args, &env, &mut out);
        (out, resolved)
    }

    fn verdicts(checks: &[Check]) -> Vec<(&'static str, Verdict)> {
        checks.iter().map(|c| (c.name, c.verdict)).collect()
    }

    fn config(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    #[test]
    fn a_good_account_passes_with_its_region_and_never_the_key() {
        let (_dir, path) = config("base_url = \"https://feedback.example\"\n");
        let (out, resolved) = run(&args(&path, &[]), &[("FEEDBACK_API_KEY", KEY)]);
        assert_eq!(
            verdicts(&out),
            [
                ("config file", Verdict::Ok),
                ("base URL", Verdict::Ok),
                ("API key", Verdict::Ok)
            ]
        );
        assert!(resolved.is_some());
        let text: String = out.iter().map(render).collect();
        assert!(text.contains("region us, from FEEDBACK_API_KEY"), "{text}");
        assert!(!text.contains("hunter2"), "{text}");
    }

    #[test]
    fn a_file_that_does_not_parse_fails_and_skips_the_rest() {
        let (_dir, path) = config("base_url = \n");
        let (out, resolved) = run(&args(&path, &[]), &[("FEEDBACK_API_KEY", KEY)]);
        assert_eq!(
            verdicts(&out),
            [
                ("config file", Verdict::Fail),
                ("base URL", Verdict::Skip),
                ("API key", Verdict::Skip)
            ]
        );
        assert!(out[0].detail.contains("line 1"), "{}", out[0].detail);
        assert!(resolved.is_none());
    }

    #[test]
    fn a_missing_base_url_does_not_hide_a_bad_key() {
        let (_dir, path) = config("");
        let (out, resolved) = run(
            &args(&path, &[]),
            &[("FEEDBACK_API_KEY", "sk_live_hunter2")],
        );
        assert_eq!(
            verdicts(&out),
            [
                ("config file", Verdict::Ok),
                ("base URL", Verdict::Fail),
                ("API key", Verdict::Fail)
            ]
        );
        assert!(out[1].fix.as_deref().unwrap().contains("FEEDBACK_BASE_URL"));
        assert!(out[2].detail.contains("must start with service_eu_sk_"));
        assert!(
            !out.iter()
                .map(render)
                .collect::<String>()
                .contains("hunter2")
        );
        assert!(resolved.is_none());
    }

    #[test]
    fn a_missing_key_fails_and_says_where_keys_are_made() {
        let (_dir, path) = config("base_url = \"https://feedback.example\"\n");
        let (out, _) = run(&args(&path, &[]), &[]);
        assert_eq!(out[2].verdict, Verdict::Fail);
        assert!(out[2].fix.as_deref().unwrap().contains("/account/api-keys"));
    }

    #[test]
    fn an_unknown_profile_fails_once_and_skips_the_key() {
        let (_dir, path) = config("[profiles.work]\nbase_url = \"https://feedback.example\"\n");
        let (out, _) = run(
            &args(&path, &["--profile", "home"]),
            &[("FEEDBACK_API_KEY", KEY)],
        );
        assert_eq!(
            verdicts(&out),
            [
                ("config file", Verdict::Ok),
                ("base URL", Verdict::Fail),
                ("API key", Verdict::Skip)
            ]
        );
        assert!(
            out[1].detail.contains("profiles: work"),
            "{}",
            out[1].detail
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_key_in_a_file_others_can_read_is_a_warning_with_the_chmod() {
        use std::os::unix::fs::PermissionsExt;
        let (_dir, path) = config(&format!(
            "base_url = \"https://feedback.example\"\napi_key = \"{KEY}\"\n"
        ));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let (out, resolved) = run(&args(&path, &[]), &[]);
        assert_eq!(out[2].verdict, Verdict::Warn);
        assert!(render(&out[2]).contains("chmod 600"), "{}", render(&out[2]));
        assert!(!render(&out[2]).contains("hunter2"));
        assert!(resolved.is_some(), "a warning keeps the account usable");
    }

    #[test]
    fn a_missing_optional_file_is_fine_and_a_named_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("none.toml");
        let absent = config_file(Some(&path), &Ok(None));
        assert_eq!(absent.verdict, Verdict::Ok);
        let (out, _) = run(&args(&path, &[]), &[]);
        assert_eq!(
            out[0].verdict,
            Verdict::Fail,
            "--config names a file that must exist"
        );
        assert!(out[0].fix.as_deref().unwrap().contains("--config"));
    }
}
