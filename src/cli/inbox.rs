//! The interactive inbox: `feedback-inbox` (the configured account) and `feedback-inbox demo`
//! (the embedded simulator with its seeded data, no key needed).

use std::sync::Arc;

use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

use super::{Args, CliError};
use crate::api::{ApiKey, Client, Wait};
use crate::clipboard::SystemClipboard;
use crate::config;
use crate::sim::{self, DEMO_KEY};
use crate::tui::{self, keymap::Keymap};

/// `demo` takes the simulator's data flags.
pub type DemoArgs = super::sim_cmd::DataArgs;

/// The inbox for the configured account.
pub async fn inbox(args: &Args) -> Result<(), CliError> {
    let settings = settings(args)?;
    let resolved = super::resolve_account(args)?;
    for warning in &resolved.warnings {
        eprintln!("warning: {warning}");
    }
    let builder = Client::builder(resolved.base_url.as_str(), resolved.key)?;
    run(builder, settings).await
}

/// The inbox on the embedded simulator.
pub async fn demo(args: &Args, demo: &DemoArgs) -> Result<(), CliError> {
    let settings = settings(args)?;
    let handle = sim::start(demo.config())
        .await
        .map_err(|e| CliError::Other(format!("cannot start the demo simulator: {e}")))?;
    let key = ApiKey::parse(DEMO_KEY).map_err(|e| CliError::Other(e.to_string()))?;
    let builder = Client::builder(&handle.base_url(), key)?;
    let result = run(builder, settings).await;
    handle.shutdown().await;
    result
}

/// Key map and refresh interval from the config file.
struct Settings {
    keymap: Keymap,
    refresh_seconds: u64,
}

fn settings(args: &Args) -> Result<Settings, CliError> {
    let (path, required) = super::config_path(args);
    let loaded = match &path {
        Some(path) => config::load(path, required)?,
        None => None,
    };
    let Some(loaded) = loaded else {
        return Ok(Settings {
            keymap: Keymap::default(),
            refresh_seconds: 0,
        });
    };
    let keymap = Keymap::from_config(&loaded.text, &loaded.path.display().to_string())
        .map_err(|e| CliError::Other(format!("config: {e}")))?;
    Ok(Settings {
        keymap,
        refresh_seconds: loaded.file.refresh_seconds.unwrap_or(0),
    })
}

async fn run(builder: crate::api::ClientBuilder, settings: Settings) -> Result<(), CliError> {
    let (wait_tx, waits): (_, UnboundedReceiver<Wait>) = unbounded_channel();
    let client = builder
        .on_wait(Arc::new(move |wait: &Wait| {
            let _ = wait_tx.send(wait.clone());
        }))
        .build()?;
    let options = tui::Options {
        client,
        keymap: settings.keymap,
        refresh_seconds: settings.refresh_seconds,
        clipboard: Box::new(SystemClipboard::new()),
        arrivals: None,
        waits: Some(waits),
    };
    tui::run(options).await?;
    Ok(())
}
