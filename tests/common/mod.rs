//! Shared set-up of the integration tests: a simulator on 127.0.0.1:0 and a client pointed at
//! it, sharing one manual clock so rate-limit waits take no real time.
#![allow(dead_code, clippy::unwrap_used, clippy::missing_panics_doc)] // each test file uses a different subset

use std::sync::{Arc, Mutex};
use std::time::Duration;

use feedback_api::{ApiKey, Client, RetryPolicy, Timeouts, Wait};
use feedback_core::clock::ManualClock;
use feedback_sim::{self as sim, DEMO_KEY, SimConfig, SimHandle};
use jiff::Timestamp;

pub mod inbox;

pub const ANCHOR: &str = "2026-11-01T12:00:00Z";

pub struct Rig {
    pub sim: SimHandle,
    pub client: Client,
    pub clock: Arc<ManualClock>,
    pub waits: Arc<Mutex<Vec<Wait>>>,
}

pub async fn rig(items: usize, rate_per_minute: u32) -> Rig {
    rig_with(items, rate_per_minute, DEMO_KEY, Timeouts::default()).await
}

pub async fn rig_with(items: usize, rate_per_minute: u32, key: &str, timeouts: Timeouts) -> Rig {
    let anchor: Timestamp = ANCHOR.parse().unwrap();
    let clock = ManualClock::new(anchor);
    let sim = sim::start(SimConfig {
        items,
        rate_per_minute,
        clock: clock.clone(),
        anchor: Some(anchor),
        seed: 11,
        ..SimConfig::default()
    })
    .await
    .unwrap();
    let waits = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&waits);
    let client = Client::builder(&sim.base_url(), ApiKey::parse(key).unwrap())
        .unwrap()
        .clock(clock.clone())
        .timeouts(timeouts)
        .retry_policy(RetryPolicy {
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_millis(4),
            ..RetryPolicy::default()
        })
        .on_wait(Arc::new(move |w: &Wait| {
            seen.lock().unwrap().push(w.clone());
        }))
        .build()
        .unwrap();
    Rig {
        sim,
        client,
        clock,
        waits,
    }
}

/// Ids the simulator holds that match `keep`, in its (newest-first) order.
pub fn expected_ids(
    sim: &SimHandle,
    keep: impl Fn(&feedback_api::FeedbackDetail) -> bool,
) -> Vec<String> {
    sim.state()
        .read()
        .items()
        .filter(|it| keep(it))
        .map(|it| it.feedback.id.0.clone())
        .collect()
}

/// A plain reqwest client that does not decompress, for raw protocol checks.
pub fn raw_http() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder().no_gzip().build().unwrap()
}

/// The binary in a clean environment under `home` (no user config, state or data outside it),
/// on `base_url`'s service with the demo key, and on the store at `store`.
pub fn command_on(
    home: &std::path::Path,
    base_url: &str,
    store: &std::path::Path,
    args: &[&str],
) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_feedback-inbox"));
    cmd.args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("FEEDBACK_BASE_URL", base_url)
        .env("FEEDBACK_API_KEY", feedback_sim::DEMO_KEY)
        .env("FEEDBACK_STORE", store);
    cmd
}

/// `cmd`, made with a cleared environment (as [`command_on`]'s), with its arguments and
/// environment, running `program` instead.
pub fn with_program(
    cmd: &std::process::Command,
    program: &std::path::Path,
) -> std::process::Command {
    let mut moved = std::process::Command::new(program);
    moved.args(cmd.get_args()).env_clear();
    for (key, value) in cmd.get_envs() {
        if let Some(value) = value {
            moved.env(key, value);
        }
    }
    if let Some(dir) = cmd.get_current_dir() {
        moved.current_dir(dir);
    }
    moved
}
