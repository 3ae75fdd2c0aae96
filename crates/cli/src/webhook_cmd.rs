//! `feedback-inbox webhook verify` (check one delivery read from stdin) and
//! `feedback-inbox webhook listen` (a receiver that records each new delivery once, in
//! `--jsonl` or else on stdout). The signing secret is read from the environment variable named
//! by `--secret-env`, never from an argument.
//!
//! `listen` also writes each accepted `feedback.created` item, with its metadata, into the
//! account's local store (unless `--no-store`), in the transaction that records the delivery's
//! id there, after the journal line and before the 204: a redelivery is recognised after a
//! restart, and a delivery the store could not take is answered 500 (the service delivers it
//! again). Without a store (`--no-store`, or one that cannot be opened, which is reported on
//! stderr) the ids are remembered in the seen file. At start, the items of the journal's tail
//! that the store lacks are stored first. With `--team`, each stored item is also added to the
//! team's shared mirror (`cli::webhook_team`).

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};
use tokio::sync::mpsc::unbounded_channel;

use super::CliError;
use super::webhook_team::TeamSharing;
use crate::context::Context;
use feedback_api::webhook::{Delivery, MAX_BODY, Secret, verify};
use feedback_core::clock;
use feedback_core::signals::Signals;
use feedback_store::{Shared, Store};
use feedback_team_sync::deliveries::Sharing;
use feedback_webhook::receiver::{self, Jsonl, Notice, ReceiverConfig, StartError};
use feedback_webhook::seen::{self, Seen};

#[derive(Debug, Args)]
pub struct WebhookArgs {
    #[command(subcommand)]
    pub command: WebhookCommand,
}

#[derive(Debug, Subcommand)]
pub enum WebhookCommand {
    /// Verify one delivery: the raw body on stdin, the headers' values as flags.
    Verify(VerifyArgs),
    /// Receive deliveries over HTTP, verify them and record each new one once.
    Listen(ListenArgs),
}

/// The signing secret and the timestamp tolerance, shared by both commands.
#[derive(Debug, Clone, Args)]
pub struct SecretArgs {
    /// Name of the environment variable that holds the webhook's signing secret.
    #[arg(long, value_name = "VAR")]
    pub secret_env: String,
    /// Accept timestamps this many seconds old or ahead.
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    pub tolerance: u64,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub secret: SecretArgs,
    /// The X-Service-Timestamp header's value.
    #[arg(long, value_name = "T")]
    pub timestamp: String,
    /// The X-Service-Signature header's value.
    #[arg(long, value_name = "HEX")]
    pub signature: String,
}

#[derive(Debug, Args)]
pub struct ListenArgs {
    #[command(flatten)]
    pub secret: SecretArgs,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8788")]
    pub addr: SocketAddr,
    /// Append each accepted event to this file, one JSON document per line [default: write
    /// them to stdout, each line flushed before the delivery is acknowledged].
    #[arg(long, value_name = "FILE")]
    pub jsonl: Option<PathBuf>,
    /// The record of ids already received when there is no store (with a store, the store
    /// keeps them) [default: webhook-seen.txt in the data folder].
    #[arg(long, value_name = "FILE")]
    pub seen_file: Option<PathBuf>,
    /// Share each delivered item with the team's shared mirror (the team of [team] in
    /// config.toml or FEEDBACK_TEAM_URL, sharing one mirror): one receiver serves every member;
    /// an item several members' receivers delivered is shared once.
    #[arg(long)]
    pub team: bool,
}

impl SecretArgs {
    /// The secret from its variable (a usage error, exit 2, when unset or empty).
    pub fn secret(&self) -> Result<Secret, CliError> {
        Ok(Secret::from_env(&self.secret_env)?)
    }

    #[must_use]
    pub fn tolerance(&self) -> Duration {
        Duration::from_secs(self.tolerance)
    }
}

pub async fn run(
    global: &Context,
    args: &WebhookArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    match &args.command {
        WebhookCommand::Verify(verify) => run_verify(verify, &mut std::io::stdin().lock(), out),
        WebhookCommand::Listen(listen) => {
            let mut store = open_listen_store(global);
            let team = if listen.team {
                // A connection of its own reads what waits to be shared.
                let reader = open_listen_store(global).map(Shared::new).transpose()?;
                if let Some(store) = &mut store {
                    store.share_deliveries(true);
                }
                Some(TeamSharing::start(global, reader).await?)
            } else {
                None
            };
            listen_until_stopped(listen, store, team).await
        }
    }
}

/// The store `listen` writes into: `None` with `--no-store`, or (reported) when it cannot be
/// opened, so receiving goes on with the journal alone.
fn open_listen_store(global: &Context) -> Option<Store> {
    match crate::context::store::open_store(global) {
        Ok(store) => store,
        Err(error) => {
            eprintln!(
                "warning: {error}; deliveries are journaled but not stored (--no-store silences this)"
            );
            None
        }
    }
}

/// Verifies the delivery whose body is read from `body`; prints the event's summary line.
pub(crate) fn run_verify(
    args: &VerifyArgs,
    body: &mut dyn Read,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let secret = args.secret.secret()?;
    let mut bytes = Vec::new();
    // One byte past the limit is enough to know it is too large.
    body.take(u64::try_from(MAX_BODY).unwrap_or(u64::MAX) + 1)
        .read_to_end(&mut bytes)?;
    let delivery = Delivery {
        timestamp: Some(&args.timestamp),
        signature: Some(&args.signature),
        body: &bytes,
    };
    let now = clock::system().now();
    let event = verify(&secret, delivery, now, args.secret.tolerance())
        .map_err(|e| CliError::Other(format!("invalid delivery: {e}")))?;
    writeln!(out, "valid: {event}")?;
    Ok(())
}

/// Receives until a terminating signal arrives: then stops receiving (the deliveries in
/// flight are answered within the record timeout) and ends with [`CliError::Signal`] (exit
/// status 128 + its number). Nothing it writes can hold up the signal: the records are written
/// by the receiver within its timeout, the summaries by a thread of their own.
async fn listen_until_stopped(
    args: &ListenArgs,
    store: Option<Store>,
    mut team: Option<TeamSharing>,
) -> Result<(), CliError> {
    let secret = args.secret.secret()?;
    let mut caught_up = None;
    let mut store = store;
    if let Some(journal) = &args.jsonl {
        (store, caught_up) = catch_up(store, journal.clone()).await;
    }
    let (seen, store, remembered, torn) = match store {
        Some(store) => {
            let (store, name) = prune_seen(store).await?;
            let remembered = format!("ids remembered and items stored in {name}");
            (Seen::memory(), Some(store), remembered, None)
        }
        None => {
            let seen_path = args
                .seen_file
                .clone()
                .or_else(seen::default_path)
                .ok_or_else(|| CliError::Usage("no data folder; pass --seen-file".to_owned()))?;
            let seen = Seen::open(&seen_path).map_err(|e| {
                CliError::Other(format!("cannot open {}: {e}", seen_path.display()))
            })?;
            let skipped = seen.skipped_lines();
            let torn = (skipped > 0).then(|| {
                format!(
                    "skipped {skipped} unreadable line(s) of {} (torn by a crash or a full disk)",
                    seen_path.display()
                )
            });
            let remembered = format!("ids remembered in {}", seen_path.display());
            (seen, None, remembered, torn)
        }
    };
    let config = ReceiverConfig {
        addr: args.addr,
        secret,
        tolerance: args.secret.tolerance(),
        seen,
        store,
        jsonl: Some(args.jsonl.clone().map_or(Jsonl::Stdout, Jsonl::File)),
        clock: clock::system(),
    };
    let (tx, mut notices) = unbounded_channel();
    let handle = receiver::start(config, tx).await.map_err(|e| match e {
        StartError::Bind(e) => CliError::Other(format!("cannot listen on {}: {e}", args.addr)),
        other @ StartError::Jsonl { .. } => CliError::Other(other.to_string()),
    })?;
    let records = args
        .jsonl
        .as_ref()
        .map_or_else(|| "stdout".to_owned(), |path| path.display().to_string());
    // Installed before the banner, so a script that saw the banner may send SIGTERM.
    let mut signals = Signals::install();
    let mut summaries = Summaries::start(Box::new(std::io::stdout()));
    eprintln!(
        "receiving webhooks at {} (POST / or /webhook); events written to {records}; {remembered}; Ctrl-C to stop",
        handle.url(),
    );
    if let Some(line) = caught_up {
        eprintln!("{line}");
    }
    if let Some(line) = torn {
        eprintln!("{line}");
    }
    if let Some(team) = &team {
        eprintln!(
            "sharing each delivered item with the team {}'s mirror",
            team.name
        );
    }
    let number = loop {
        tokio::select! {
            number = signals.next() => break number,
            Some(notice) = notices.recv() => {
                if let (Some(team), Notice::Accepted { stored: true, .. }) = (&team, &notice) {
                    team.wake();
                }
                report(&notice, args.jsonl.is_some(), &mut summaries);
            }
            Some(said) = next_said(&mut team) => eprintln!("{}", TeamSharing::line(&said)),
        }
    };
    // A second signal ends the process at once.
    signals.exit_on_next();
    handle.shutdown().await;
    Err(CliError::Signal(number))
}

/// What the team's sharing task said next; never, without `--team`.
async fn next_said(team: &mut Option<TeamSharing>) -> Option<Sharing> {
    match team {
        Some(team) => team.said.recv().await,
        None => std::future::pending().await,
    }
}

/// Forgets the oldest delivery ids the store keeps (as the seen file does), off the async
/// threads; returns the store and what the banner calls it.
async fn prune_seen(mut store: Store) -> Result<(Store, String), CliError> {
    let pruned = tokio::task::spawn_blocking(move || {
        feedback_webhook::stored::prune_seen(&mut store).map(|_| {
            let name = store.describe();
            (store, name)
        })
    })
    .await
    .map_err(|e| CliError::Other(format!("the store task failed: {e}")))?;
    Ok(pruned?)
}

/// Summary lines bound for stdout, written by a thread of their own: a stdout nobody reads
/// blocks that thread, never the loop that watches for signals. A line that finds the queue
/// full is dropped (the JSONL holds every event), and the first drop is said on stderr.
struct Summaries {
    lines: std::sync::mpsc::SyncSender<String>,
    dropped: u64,
}

/// Summary lines waiting for stdout at most.
const SUMMARY_QUEUE: usize = 1024;

impl Summaries {
    fn start(mut out: Box<dyn Write + Send>) -> Self {
        let (lines, queue) = std::sync::mpsc::sync_channel::<String>(SUMMARY_QUEUE);
        std::thread::spawn(move || {
            for line in queue {
                if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
                    break;
                }
            }
        });
        Self { lines, dropped: 0 }
    }

    /// Queues `line` without waiting; false when it was dropped.
    fn send(&mut self, line: String) -> bool {
        match self.lines.try_send(line) {
            Ok(()) => true,
            Err(_) => {
                self.dropped += 1;
                if self.dropped == 1 {
                    eprintln!(
                        "stdout is not being read: event summaries are dropped (the JSONL has every event)"
                    );
                }
                false
            }
        }
    }
}

/// Stores what the journal at `path` holds and the store lacks (a delivery journaled, then
/// not stored: the process ended between the two), before anything new is received; returns
/// the line that says what was stored or what went wrong, if any. A journal that is not a regular file (a
/// pipe, `/dev/stdout`) cannot be read back and is left alone.
async fn catch_up(store: Option<Store>, path: PathBuf) -> (Option<Store>, Option<String>) {
    let Some(mut store) = store else {
        return (None, None);
    };
    let done = tokio::task::spawn_blocking(move || {
        let caught_up = match std::fs::metadata(&path) {
            Ok(meta) if meta.is_file() => std::fs::read(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))
                .and_then(|journal| {
                    feedback_webhook::stored::store_journaled(&mut store, &journal)
                        .map_err(|e| e.to_string())
                })
                .map(Some),
            _ => Ok(None),
        };
        (store, caught_up)
    })
    .await;
    match done {
        Ok((store, Ok(caught_up))) => {
            let line = caught_up
                .filter(|c| c.stored > 0)
                .map(|c| format!("stored {} journaled item(s) the store lacked", c.stored));
            (Some(store), line)
        }
        Ok((store, Err(error))) => (
            Some(store),
            Some(format!(
                "warning: the journal's items could not be stored: {error}"
            )),
        ),
        Err(error) => (
            None,
            Some(format!(
                "warning: the store task failed ({error}); deliveries are no longer stored"
            )),
        ),
    }
}

/// Each accepted event's summary line goes to stdout when the records are in `--jsonl`
/// (`in_file`), to stderr when stdout is the record (its lines were written before the
/// answer); bodies kept raw, duplicates and refusals go to stderr.
fn report(notice: &Notice, in_file: bool, summaries: &mut Summaries) {
    match notice {
        Notice::Accepted { event, .. } if in_file => {
            summaries.send(event.to_string());
        }
        Notice::Accepted { event, .. } => eprintln!("{event}"),
        Notice::Unparsed { key, reason } => {
            let key = feedback_core::excerpt::excerpt(key, 40);
            let kept = if in_file {
                "kept raw in the JSONL, marked unparsed"
            } else {
                "kept raw on stdout, marked unparsed"
            };
            eprintln!(
                "acknowledged a signed delivery whose body is not a usable event ({}); {kept}; {key}",
                feedback_core::excerpt::excerpt(reason, 120)
            );
        }
        Notice::Duplicate(id) => {
            let id = feedback_core::excerpt::excerpt(id, 40);
            eprintln!("duplicate delivery of {id} acknowledged, not recorded again");
        }
        Notice::OtherAccount(id) => {
            let id = feedback_core::excerpt::excerpt(id, 40);
            eprintln!(
                "{id} is in the journal but not stored: its project is not among those of the store's account (a webhook of another account? pass --profile or --store; a new project is stored by the next sync)"
            );
        }
        Notice::Rejected { status, reason } => {
            eprintln!("rejected a delivery ({status}): {reason}");
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// A stdout nobody reads: every write waits forever.
    struct Unread;

    impl Write for Unread {
        fn write(&mut self, _buf: &[u8]) -> std::io::Result<usize> {
            loop {
                std::thread::park();
            }
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn summaries_to_a_stdout_nobody_reads_are_dropped_never_waited_for() {
        let mut summaries = Summaries::start(Box::new(Unread));
        let sent = (0..SUMMARY_QUEUE * 2)
            .filter(|i| summaries.send(format!("line {i}")))
            .count();
        // The writer holds one line; the queue holds the rest it has room for.
        assert!(sent <= SUMMARY_QUEUE + 1, "{sent}");
        assert_eq!(summaries.dropped, (SUMMARY_QUEUE * 2 - sent) as u64);
    }
}
