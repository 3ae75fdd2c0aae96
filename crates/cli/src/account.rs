//! `feedback-inbox account`: where the settings came from, the key's region (never the key),
//! and one request to prove the account works, with the rate-limit budget it reported.

use std::io::Write;

use super::CliError;
use crate::context::Context;
use feedback_api::key::redact_keys;
use feedback_api::{Client, RateLimit};

pub async fn run(args: &Context, out: &mut dyn Write) -> Result<(), CliError> {
    let (path, required) = super::config_path(args);
    let file_state = match &path {
        Some(p) if p.exists() => p.display().to_string(),
        Some(p) if required => format!("{} (missing)", p.display()),
        Some(p) => format!("{} (not present; optional)", p.display()),
        None => "no platform config folder".to_owned(),
    };
    writeln!(out, "Config file  {file_state}")?;
    writeln!(
        out,
        "Profile      {}",
        args.profile.as_deref().unwrap_or("(top level)")
    )?;
    let resolved = super::resolve_account(args)?;
    for warning in &resolved.warnings {
        writeln!(out, "Warning      {}", redact_keys(warning))?;
    }
    writeln!(
        out,
        "Base URL     {}",
        redact_keys(resolved.base_url.as_str())
    )?;
    writeln!(
        out,
        "API key      service_{}_sk_… (region {}, from {})",
        resolved.key.region(),
        resolved.key.region(),
        resolved.key_origin
    )?;
    out.flush()?;
    let client = Client::builder(resolved.base_url.as_str(), resolved.key)?.build()?;
    let projects = client.list_projects().await?;
    writeln!(
        out,
        "Check        ok: {} projects readable; {}",
        projects.len(),
        budget(&client.rate_limit())
    )?;
    Ok(())
}

fn budget(limit: &RateLimit) -> String {
    match (limit.remaining, limit.limit) {
        (Some(remaining), Some(limit_)) => {
            let reset = limit
                .seconds_to_reset(jiff::Timestamp::now())
                .map(|s| format!(", window resets in {s}s"))
                .unwrap_or_default();
            format!("rate limit {remaining}/{limit_} left this minute{reset}")
        }
        _ => "no rate-limit headers reported".to_owned(),
    }
}
