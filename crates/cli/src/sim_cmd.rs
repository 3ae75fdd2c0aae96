//! `feedback-inbox sim`: serves the simulator until Ctrl-C or SIGTERM. The first two lines of
//! stdout are the base URL and the demo key, so scripts can read them.

use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use tokio::sync::mpsc::unbounded_channel;

use super::CliError;
use feedback_api::webhook::{Secret, Submission};
use feedback_core::clock;
use feedback_sim::submit::{SubmitHandle, Submitter};
use feedback_sim::webhooks::{AttemptResult, Outcome, Plan, Sender, WebhookTarget};
use feedback_sim::{self as sim, DEMO_KEY, SimConfig};

/// `--webhook-plan`: the simulator's `Plan` as a command-line value (the simulator itself
/// does not depend on clap).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PlanArg {
    /// Up to 5 attempts on the retry schedule.
    Indie,
    /// One attempt, no retry.
    Starter,
}

impl From<PlanArg> for Plan {
    fn from(plan: PlanArg) -> Self {
        match plan {
            PlanArg::Indie => Self::Indie,
            PlanArg::Starter => Self::Starter,
        }
    }
}

#[derive(Debug, Clone, Args)]
pub struct SimArgs {
    /// Address to listen on (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:8787")]
    pub addr: SocketAddr,
    #[command(flatten)]
    pub data: DataArgs,
    #[command(flatten)]
    pub live: LiveArgs,
}

/// New submissions over time and their webhook deliveries.
#[derive(Debug, Clone, Args)]
pub struct LiveArgs {
    /// Receive a new submission every SECONDS (fractions allowed), visible in the list API.
    #[arg(long, value_name = "SECONDS")]
    pub submit_every: Option<f64>,
    /// Deliver each new submission as a signed feedback.created webhook to this URL.
    #[arg(long, value_name = "URL", requires_all = ["webhook_secret_env", "submit_every"])]
    pub webhook_url: Option<String>,
    /// Name of the environment variable holding the webhook signing secret.
    #[arg(long, value_name = "VAR")]
    pub webhook_secret_env: Option<String>,
    /// The account's plan: indie retries up to 5 attempts, starter delivers once.
    #[arg(long, value_enum, default_value_t = PlanArg::Indie)]
    pub webhook_plan: PlanArg,
    /// Multiply the retry schedule's waits (1 min ... 2 h) by this factor.
    #[arg(long, value_name = "FACTOR", default_value_t = 1.0)]
    pub webhook_time_scale: f64,
    /// Deliver every acknowledged event a second time, as the service sometimes does.
    #[arg(long)]
    pub webhook_duplicates: bool,
}

/// The simulator's data and behaviour, shared by `sim` and `demo`.
#[derive(Debug, Clone, Args)]
pub struct DataArgs {
    /// Seed of the generated dataset.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of feedback items (at most 1000000).
    #[arg(long, default_value_t = 5000, value_parser = parse_items)]
    pub items: usize,
    /// Requests allowed per key and minute (raise it, e.g. to 1000000, for a fast first sync).
    #[arg(long, default_value_t = 120)]
    pub rate_per_minute: u32,
    /// Latency added to every answer, in milliseconds.
    #[arg(long, default_value_t = 0)]
    pub latency_ms: u64,
}

/// The most items the simulator generates: a generated item is kept in about 100 bytes with its
/// index entries (its seed, key and filter values; the text is built again when served), so a
/// million items start in a second or two in about 120 MB, and an absurd count is refused instead
/// of aborting on allocation.
pub const MAX_ITEMS: usize = 1_000_000;

/// `--items`: a whole number from 0 to [`MAX_ITEMS`].
fn parse_items(text: &str) -> Result<usize, String> {
    let items: u128 = text
        .trim()
        .parse()
        .map_err(|_| format!("\"{text}\" is not a whole number"))?;
    usize::try_from(items)
        .ok()
        .filter(|n| *n <= MAX_ITEMS)
        .ok_or_else(|| format!("at most {MAX_ITEMS} items are supported"))
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
    let live = start_live(&args.live, &handle, args.data.seed)?;
    shutdown_signal().await;
    if let Some((submitter, reporter)) = live {
        submitter.stop().await;
        reporter.abort();
    }
    handle.shutdown().await;
    Ok(())
}

/// Starts new submissions (and their deliveries) when asked for; outcomes go to stderr.
fn start_live(
    live: &LiveArgs,
    handle: &sim::SimHandle,
    seed: u64,
) -> Result<Option<(SubmitHandle, tokio::task::JoinHandle<()>)>, CliError> {
    let Some(every) = live.submit_every else {
        return Ok(None);
    };
    let every = positive_seconds(every, "--submit-every")?;
    let sender = live.sender()?;
    if let Some(url) = &live.webhook_url {
        eprintln!(
            "delivering new submissions to {url} ({:?} plan)",
            live.webhook_plan
        );
    }
    let submitter = Submitter::new(Arc::clone(handle.state()), seed, sender);
    let (tx, mut outcomes) = unbounded_channel();
    let reporter = tokio::spawn(async move {
        while let Some((submission, outcome)) = outcomes.recv().await {
            eprintln!("{}", describe(&submission, &outcome));
        }
    });
    Ok(Some((submitter.start(every, Some(tx)), reporter)))
}

impl LiveArgs {
    fn sender(&self) -> Result<Option<Sender>, CliError> {
        let (Some(url), Some(var)) = (&self.webhook_url, &self.webhook_secret_env) else {
            return Ok(None);
        };
        url::Url::parse(url)
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https"))
            .ok_or_else(|| {
                CliError::Usage(format!("--webhook-url {url:?} is not an http(s) URL"))
            })?;
        if !(self.webhook_time_scale.is_finite() && self.webhook_time_scale >= 0.0) {
            return Err(CliError::Usage(
                "--webhook-time-scale needs a number of zero or more".into(),
            ));
        }
        let target = WebhookTarget {
            url: url.clone(),
            secret: Secret::from_env(var)?,
            plan: self.webhook_plan.into(),
            time_scale: self.webhook_time_scale,
            duplicates: self.webhook_duplicates,
            timeout: Duration::from_secs(10),
        };
        Sender::new(target, clock::system())
            .map(Some)
            .map_err(|e| CliError::Other(format!("cannot set up webhook delivery: {e}")))
    }
}

/// One line about a finished delivery.
fn describe(submission: &Submission, outcome: &Outcome) -> String {
    let tries = outcome.attempts.len();
    let last = outcome
        .attempts
        .last()
        .map_or_else(String::new, |a| match &a.result {
            AttemptResult::Status(status) => status.to_string(),
            AttemptResult::Network(why) => why.clone(),
        });
    let verb = if outcome.acknowledged {
        "delivered"
    } else {
        "gave up on"
    };
    format!(
        "{verb} {} after {tries} attempt(s), last: {last}",
        submission.id
    )
}

/// A flag's positive number of seconds (fractions allowed) as a duration.
pub(crate) fn positive_seconds(value: f64, flag: &str) -> Result<Duration, CliError> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| CliError::Usage(format!("{flag} needs a positive number of seconds")))
}

/// Resolves on Ctrl-C or (on Unix) SIGTERM.
pub(crate) async fn shutdown_signal() {
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
