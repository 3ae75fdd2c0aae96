//! `feedback-inbox sim`: serves the simulator until Ctrl-C or SIGTERM. The first two lines of
//! stdout are the base URL and the demo key, so scripts can read them.

use std::io::Write;
use std::net::SocketAddr;
use std::time::Duration;

use clap::Args;

use super::CliError;
use crate::sim::{self, DEMO_KEY, SimConfig};

#[derive(Debug, Clone, Args)]
pub struct SimArgs {
    /// Address to listen on (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:8787")]
    pub addr: SocketAddr,
    #[command(flatten)]
    pub data: DataArgs,
}

/// The simulator's data and behaviour, shared by `sim` and `demo`.
#[derive(Debug, Clone, Args)]
pub struct DataArgs {
    /// Seed of the generated dataset.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of feedback items.
    #[arg(long, default_value_t = 5000)]
    pub items: usize,
    /// Requests allowed per key and minute.
    #[arg(long, default_value_t = 120)]
    pub rate_per_minute: u32,
    /// Latency added to every answer, in milliseconds.
    #[arg(long, default_value_t = 0)]
    pub latency_ms: u64,
}

impl DataArgs {
    /// The simulator configuration these flags describe (on 127.0.0.1, any free port).
    #[must_use]
    pub fn config(&self) -> SimConfig {
        SimConfig {
            seed: self.seed,
            items: self.items,
            rate_per_minute: self.rate_per_minute,
            latency: Duration::from_millis(self.latency_ms),
            ..SimConfig::default()
        }
    }
}

pub async fn run(args: &SimArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let config = SimConfig {
        addr: args.addr,
        ..args.data.config()
    };
    let handle = sim::start(config)
        .await
        .map_err(|e| CliError::Other(format!("cannot listen on {}: {e}", args.addr)))?;
    writeln!(out, "FEEDBACK_BASE_URL={}", handle.base_url())?;
    writeln!(out, "FEEDBACK_API_KEY={DEMO_KEY}")?;
    out.flush()?;
    eprintln!(
        "simulator serving {} items, {} requests/minute; Ctrl-C to stop",
        args.data.items, args.data.rate_per_minute
    );
    shutdown_signal().await;
    handle.shutdown().await;
    Ok(())
}

/// Resolves on Ctrl-C or (on Unix) SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let Ok(mut term) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        else {
            let _ = ctrl_c.await;
            return;
        };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}
