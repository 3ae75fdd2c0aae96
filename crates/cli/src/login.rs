//! `login` and `logout`: the API key kept for a profile, as gh keeps its token. `login` reads
//! the key without echo (or its first line from stdin with `--with-key`, for scripts), checks
//! it with one request as `account` does (a wrong key, the wrong plan and an unreachable
//! service each say so, and nothing is kept), and keeps it in the OS keyring or, where none
//! answers, in the credentials file beside the config (`0600`), saying which and why.
//! `logout` removes it from both. The key is never printed.

use std::io::{BufRead, IsTerminal, Write};

use crate::CliError;
use crate::context::Context;
use feedback_api::key::ApiKey;
use feedback_config::{self as config, credentials};

#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "Examples:\n  \
    feedback-inbox login\n  \
    pass show feedback | feedback-inbox login --with-key\n  \
    feedback-inbox --profile staging login --insecure-storage\n\n\
    The key is looked for after FEEDBACK_API_KEY, api_key_command and api_key, which win.")]
pub struct LoginArgs {
    /// Read the key from stdin (its first line) instead of asking for it.
    #[arg(long)]
    pub with_key: bool,
    /// Keep the key in the credentials file beside the config (0600) rather than the OS keyring.
    #[arg(long)]
    pub insecure_storage: bool,
}

/// `login`.
pub async fn login(args: &Context, login: &LoginArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let file = credentials_file(args)?;
    let raw = if login.with_key {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line)?;
        line
    } else if std::io::stdin().is_terminal() {
        rpassword::prompt_password("Paste your API key (it is not shown): ")?
    } else {
        return Err(CliError::Usage(
            "stdin is not a terminal: pass the key on stdin with --with-key".to_owned(),
        ));
    };
    let raw = raw.trim();
    let key = ApiKey::parse(raw).map_err(|e| CliError::Usage(format!("the key: {e}")))?;
    let loaded = args.config()?;
    let env = |name: &str| std::env::var(name).ok();
    let base_url = config::base_url(&config::Sources {
        base_url_flag: args.base_url.as_deref(),
        profile: args.profile.as_deref(),
        file: loaded,
        env: &env,
        file_hint: file.with_file_name("config.toml").display().to_string(),
        credentials: None,
    })?;
    let region = key.region().to_string();
    let client = feedback_api::Client::builder(base_url.as_str(), key)?.build()?;
    // One request: a key the service refuses (or the wrong plan, or no answer) is not kept.
    let projects = client.list_projects().await?;
    let (place, why) =
        credentials::save(args.profile.as_deref(), raw, &file, login.insecure_storage)
            .map_err(|e| CliError::Other(e.to_string()))?;
    writeln!(
        out,
        "Signed in to {} (region {region}, {} project{} readable).",
        feedback_api::key::redact_keys(base_url.as_str()),
        projects.len(),
        if projects.len() == 1 { "" } else { "s" }
    )?;
    match why {
        None => writeln!(out, "The key is kept in {place}.")?,
        Some(why) => writeln!(
            out,
            "The key is kept in {place} (mode 0600): {}.",
            feedback_core::text::Clean::line(&why)
        )?,
    }
    if let Some(other) = other_source(args) {
        writeln!(
            out,
            "Note: {other} is set and wins over the key kept here; unset it to use this one."
        )?;
    }
    Ok(())
}

/// `logout`.
pub fn logout(args: &Context, out: &mut dyn Write) -> Result<(), CliError> {
    let file = credentials_file(args)?;
    let removed = credentials::remove(args.profile.as_deref(), &file)
        .map_err(|e| CliError::Other(e.to_string()))?;
    let profile = args.profile.as_deref().map_or_else(
        || "the top-level account".to_owned(),
        |p| format!("profile {}", feedback_core::text::Clean::line(p)),
    );
    if removed.is_empty() {
        writeln!(out, "No key was kept for {profile}.")?;
    }
    for place in removed {
        writeln!(out, "Removed the key of {profile} from {place}.")?;
    }
    if let Some(other) = other_source(args) {
        writeln!(out, "Note: {other} still gives a key.")?;
    }
    Ok(())
}

/// The credentials file beside the config.
fn credentials_file(args: &Context) -> Result<std::path::PathBuf, CliError> {
    let (path, _) = crate::config_path(args);
    path.map(|p| credentials::file_beside(&p)).ok_or_else(|| {
        CliError::Usage("no config folder (no home folder?): pass --config PATH".to_owned())
    })
}

/// A key source that comes before the kept key, when one is set.
fn other_source(args: &Context) -> Option<String> {
    if std::env::var(config::ENV_API_KEY).is_ok_and(|v| !v.trim().is_empty()) {
        return Some(config::ENV_API_KEY.to_owned());
    }
    let loaded = args.config().ok().flatten()?;
    let account = loaded.file.account();
    let profile = args
        .profile
        .as_deref()
        .and_then(|p| loaded.file.profiles.get(p));
    let command = profile
        .and_then(|p| p.api_key_command.as_ref())
        .or(account.api_key_command.as_ref());
    let key = profile
        .and_then(|p| p.api_key.as_ref())
        .or(account.api_key.as_ref());
    if command.is_some() {
        Some(format!("api_key_command in {}", loaded.path.display()))
    } else {
        key.map(|_| format!("api_key in {}", loaded.path.display()))
    }
}
