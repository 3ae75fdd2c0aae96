//! `feedback-inbox sync [--status new|archived|all] [--full] [--app A] [--project P] [--no-wait]`:
//! brings the local store up to date from the command line, as the inbox does in the
//! background: discovery (account check, projects, apps, tags), then per status a head walk
//! and backfill until the status is mirrored to its end, then (when `new` is synced) the
//! reconcile walk of `new` when it is due: one is under way, or the last started
//! `reconcile_every` ago (so a cron `sync` also finds the items that left `new`). The walks'
//! pages of `new` serve the reconcile walk where they are its next pages, so a first mirror is
//! a complete reconcile walk and a `sync` right after it reads only what is new. `--full`
//! forgets how far each status was mirrored and reads every page again, refreshing every
//! stored item's status and tags; for `new` that walk is the reconcile walk.
//!
//! On a terminal, a progress line on stderr (items, requests, the budget and when it resets,
//! what the budget allows per minute, waits); otherwise plain lines on stdout. Every page is
//! committed as it comes, so a failure (exit non-zero, with the error's own code: a store of
//! another account exits 2) or a kill keeps what was stored and the next run continues.
//! Another process's sync (an inbox window, another `sync`) is waited for, with a line that
//! says so; `--no-wait` refuses at once instead ("another sync is running", exit 1).
//!
//! With `--app`/`--project`, only the head of that part of each status is walked
//! (`feedback_sync::Scope`): what is new there, at the cost of its own pages.
//!
//! On a team that shares one mirror (`team set shared-mirror on`), the run follows the team's
//! mirror and either walks for the team (every page published as it is stored) or asks the
//! walk under way for the lists' tops and follows it (`shared`).
//!
//! The store: `--store`, `FEEDBACK_STORE`, or the profile's (see `context::store::store_path`).

pub(crate) mod progress;
mod shared;

use std::io::Write;
use std::sync::Arc;

use clap::{Args, ValueEnum};
use jiff::Timestamp;

use super::CliError;
use super::names::Resolver;
use super::scope::{ScopeArgs, helps};
use crate::context::Context;
use feedback_api::{Client, Status};
use feedback_core::clock::{self, SharedClock};
use feedback_store::{Shared, Store};
use feedback_sync::{Priority, Report, Scope, Session, SyncError, Syncer};
use progress::Progress;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SyncStatus {
    New,
    Archived,
    All,
}

#[derive(Debug, Clone, Args)]
#[command(mut_args(helps(&[
    (
        "app",
        "Only what is new in this app (its name, slug or id): a head walk of the app's part of \
         each status, costing that part's pages alone. The rest of the store is left as it is \
         (no backfill, no reconcile walk); a later `sync` without it still finds everything",
    ),
    (
        "project",
        "Only what is new in this project (its name, slug or id), as `--app` does",
    ),
])))]
pub struct SyncArgs {
    /// Which status to sync.
    #[arg(long, value_enum, default_value_t = SyncStatus::All)]
    pub status: SyncStatus,
    /// Read every page again, even where the store is up to date (refreshes statuses and tags).
    #[arg(long)]
    pub full: bool,
    #[command(flatten)]
    pub scope: ScopeArgs,
    /// When another sync is running on the store (an inbox window, another `sync`), exit 1 at
    /// once instead of waiting for it to end; on a team that shares one mirror while another
    /// member's process walks for it, read the team's mirror as it is and end, instead of
    /// asking that walk for the lists' tops and following it.
    #[arg(long)]
    pub no_wait: bool,
}

pub async fn run(args: &Context, sync: &SyncArgs, out: &mut impl Write) -> Result<(), CliError> {
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let progress = Progress::new(terminal);
    let client = client(args, &progress)?;
    crate::context::store::refuse_damaged(args)?;
    // --store / FEEDBACK_STORE / the profile's store, with retention_days applied.
    let store = crate::context::store::open_store(args)?
        .ok_or_else(|| CliError::Usage("sync fills the local store; --no-store has none".into()))?;
    let shared = Shared::new(store)?;
    let clock = clock::system();
    let syncer = Syncer::new(
        client,
        shared.clone(),
        clock.clone(),
        crate::context::store::sync_settings(args)?,
    );
    // The store's turn first: whether its writes are noted for the team's mirror is settled
    // under it, so no other sync on this store changes that while this one walks.
    let _session = match syncer.session() {
        Err(SyncError::Busy) if !sync.no_wait => wait_turn(&syncer, &progress, &clock, out).await?,
        session => session?,
    };
    let mode = shared::begin(args, &shared, sync.no_wait, &progress, out).await?;
    let followed = matches!(mode, shared::Mode::Followed);
    let (syncer, turn) = match mode {
        shared::Mode::Walking(turn) => {
            let settings = syncer.settings().walking_for_team();
            (syncer.with_settings(settings), Some(turn))
        }
        shared::Mode::Alone | shared::Mode::Followed => (syncer, None),
    };
    if followed {
        // The items came from the team's mirror; the catalog (names of projects, apps, tags)
        // is this store's own, read when due.
        progress.count(&syncer.discovery_if_due().await?);
        progress.finish();
        return Ok(());
    }
    let walked = run_walks(
        args,
        sync,
        &shared,
        &syncer,
        &progress,
        turn.as_deref(),
        out,
    )
    .await;
    if let Some(turn) = turn {
        // Ended also after a failure: what was stored is published, the lease given up.
        let ended = shared::end(&turn, &syncer.rate_limit()).await;
        walked?;
        return ended;
    }
    walked
}

/// The catalog when due, then the walks (the store's turn is held).
async fn run_walks(
    args: &Context,
    sync: &SyncArgs,
    shared: &Shared,
    syncer: &Syncer,
    progress: &Progress,
    turn: Option<&shared::Turn>,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let clock = clock::system();
    // The catalog is read again when it is due (or with --full); a page naming a project or
    // app the store does not know brings discovery on the way.
    let found = if sync.full {
        syncer.discovery().await?
    } else {
        syncer.discovery_if_due().await?
    };
    if found.requests > 0 {
        progress.say(out, "discovery: projects, apps, tags")?;
    }
    progress.count(&found);
    // The oldest project's creation: no item is older (the progress bar's far end).
    let origin = shared
        .read(Store::projects)?
        .iter()
        .filter_map(|p| p.created_at)
        .min();
    let walk = Walk {
        syncer,
        progress,
        origin,
        clock: &clock,
        turn,
    };
    let Some(turn) = turn else {
        return walks(args, sync, shared, &walk, out).await;
    };
    // Walking for the team: a member that asked for the tops after this walk started gets
    // one more walk (a few at most: members asking all the time do not keep it forever).
    for again in 0..3 {
        let started = turn.server_now().await?;
        walks(args, sync, shared, &walk, out).await?;
        if !turn.served(started).await? || again == 2 {
            break;
        }
        progress.say(
            out,
            "a member asked for the lists' tops meanwhile: reading them again",
        )?;
    }
    Ok(())
}

/// The walks of one run, as `sync` asks: scoped, or each status's then the reconcile walk.
async fn walks(
    args: &Context,
    sync: &SyncArgs,
    shared: &Shared,
    walk: &Walk<'_>,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let syncer = walk.syncer;
    let statuses: &[Status] = match sync.status {
        SyncStatus::New => &[Status::New],
        SyncStatus::Archived => &[Status::Archived],
        SyncStatus::All => &[Status::New, Status::Archived],
    };
    if sync.scope.is_set() {
        let scope = scope(args, sync, shared, walk.progress).await?;
        for status in statuses {
            walk.scoped(status, &scope, sync.full, out).await?;
        }
        return walk.finish(out);
    }
    // `--full` makes the reconcile walk due (it starts again with the walk of every page).
    let due = sync.full || syncer.reconcile_due().await?;
    let mut statuses = statuses.to_vec();
    if walk.turn.is_some() {
        // A walk taken over goes on first; the statuses mirrored to their end are read at
        // their tops after it.
        let mut complete = Vec::new();
        for status in &statuses {
            complete.push(syncer.read_state(status, false).await?.complete);
        }
        let mut order: Vec<(bool, Status)> = complete.into_iter().zip(statuses).collect();
        order.sort_by_key(|(complete, _)| *complete);
        statuses = order.into_iter().map(|(_, s)| s).collect();
    }
    for status in &statuses {
        walk.status(status, sync.full, out).await?;
    }
    if sync.status != SyncStatus::Archived {
        // The walks' pages of `new` served the reconcile walk where they were its next pages
        // (a first mirror, `--full`: all of them); what is left of it runs now.
        walk.recheck().await?;
        if syncer.reconcile_due().await? {
            walk.reconcile(out).await?;
        } else if due {
            walk.progress.say(out, "new: reconciled")?;
        }
    }
    walk.finish(out)
}

/// Waits for another process's sync on the store to end (an inbox window lets go between its
/// steps; another `sync` when it ends), saying so, and counting the wait on a terminal.
async fn wait_turn(
    syncer: &Syncer,
    progress: &Progress,
    clock: &SharedClock,
    out: &mut impl Write,
) -> Result<Session, CliError> {
    progress.say(
        out,
        "another sync is running on this store (an inbox window or `sync`): waiting for it to \
         end (--no-wait: exit at once)",
    )?;
    let started = clock.now();
    let mut turn = std::pin::pin!(syncer.session_waiting());
    loop {
        tokio::select! {
            session = &mut turn => {
                let waited = clock::until(started, clock.now()).as_secs();
                progress.say(out, &format!("the other sync ended after {waited} s: syncing"))?;
                return Ok(session?);
            }
            () = clock.sleep(std::time::Duration::from_secs(1)) => {
                let waited = clock::until(started, clock.now()).as_secs();
                progress.waiting(&format!("waiting for another sync on this store: {waited} s"));
            }
        }
    }
}

/// `--project`/`--app` made ids (the store's catalog when fresh, else the service's lists) and
/// named for the progress lines.
async fn scope(
    args: &Context,
    sync: &SyncArgs,
    shared: &Shared,
    progress: &Progress,
) -> Result<(Scope, String), CliError> {
    // A wait of the name lookup (429, retries) shows as the walks' waits do.
    let client = client(args, progress)?;
    let mut names = shared.read(|store| Resolver::new(Some(store), Some(&client)));
    let (project, app) = sync.scope.resolve(&mut names).await?;
    let label = [project.as_ref(), app.as_ref()]
        .into_iter()
        .flatten()
        .map(|r| feedback_core::text::Clean::line(&r.name).into_string())
        .collect::<Vec<_>>()
        .join(" / ");
    Ok((
        Scope {
            app: app.map(|a| a.id),
            project: project.map(|p| p.id),
        },
        label,
    ))
}

/// Backfill pages walked in one run: the pipeline of fetching and writing restarts at each
/// run's end, and the progress bar moves at each.
const PAGES_PER_STEP: u32 = 50;

/// A progress line ("backfill: … added so far") every this many runs (5,000 items).
const STEPS_PER_LINE: u32 = 2;

/// One run's walks.
struct Walk<'a> {
    syncer: &'a Syncer,
    progress: &'a Progress,
    origin: Option<Timestamp>,
    clock: &'a SharedClock,
    /// This process walks for its team: every step is published to the team's mirror.
    turn: Option<&'a shared::Turn>,
}

impl Walk<'_> {
    /// Head walk then backfill to the end of one status.
    async fn status(
        &self,
        status: &Status,
        full: bool,
        out: &mut impl Write,
    ) -> Result<(), CliError> {
        let name = status.as_str();
        self.progress.start(name);
        if full {
            self.syncer.restart(status).await?;
        }
        let mut deep = Report::default();
        let mut steps = 0_u32;
        // Walking for the team, each page is published as it is stored (a syncer killed loses
        // at most the page in hand), and a walk taken over mid-way goes on first: the top of
        // the list is read once, at the end, not again after every takeover.
        let (per_step, resume) = match self.turn {
            Some(_) => {
                let state = self.syncer.read_state(status, false).await?;
                (1, !full && state.synced_at.is_some() && !state.complete)
            }
            None => (PAGES_PER_STEP, false),
        };
        if resume {
            self.backfill(status, per_step, (&mut deep, &mut steps), out)
                .await?;
        }
        let head = self.syncer.head(status, Priority::User).await?;
        self.record(status, &head).await?;
        self.progress.say(
            out,
            &format!(
                "{name}: head: {} added, {} changed, {} requests",
                head.added, head.changed, head.requests
            ),
        )?;
        self.backfill(status, per_step, (&mut deep, &mut steps), out)
            .await?;
        // Counted once per status, at its end (a count of a large status is not cheap).
        let state = self.syncer.read_state(status, true).await?;
        let reach = if state.complete {
            "mirrored to the end".to_owned()
        } else {
            format!("{} walks pending", state.pending_walks)
        };
        self.progress.say(
            out,
            &format!(
                "{name}: {} stored, {reach}",
                feedback_core::text::output::thousands(state.stored)
            ),
        )
    }

    /// Backfill of one status to its end, `per_step` pages a run (the next asked for while one
    /// is written), the bar moved and a line said between runs.
    async fn backfill(
        &self,
        status: &Status,
        per_step: u32,
        (deep, steps): (&mut Report, &mut u32),
        out: &mut impl Write,
    ) -> Result<(), CliError> {
        let name = status.as_str();
        while let Some(run) = self
            .syncer
            .backfill_pages(status, Priority::User, per_step)
            .await?
        {
            self.record(status, &run).await?;
            deep.added += run.added;
            deep.requests += run.requests;
            *steps += 1;
            if steps.is_multiple_of(STEPS_PER_LINE * (PAGES_PER_STEP / per_step.max(1))) {
                self.progress.say(
                    out,
                    &format!(
                        "{name}: backfill: {} added so far, {} requests",
                        deep.added, deep.requests
                    ),
                )?;
            }
        }
        Ok(())
    }

    /// The scoped head walk of one status (`--app`/`--project`).
    async fn scoped(
        &self,
        status: &Status,
        (scope, label): &(Scope, String),
        full: bool,
        out: &mut impl Write,
    ) -> Result<(), CliError> {
        let name = status.as_str();
        self.progress.start(name);
        let head = self.syncer.head_scoped(status, scope, full).await?;
        self.record(status, &head).await?;
        self.progress.say(
            out,
            &format!(
                "{name}: {label}: {} added, {} changed, {} requests",
                head.added, head.changed, head.requests
            ),
        )
    }

    /// The closing line: what the run did and the budget left.
    fn finish(&self, out: &mut impl Write) -> Result<(), CliError> {
        self.progress.finish();
        let totals = self.progress.totals();
        let budget = super::output::budget_text(self.syncer.rate_limit(), self.clock.now())
            .map(|b| format!("; {b}"))
            .unwrap_or_default();
        writeln!(
            out,
            "synced: {} added, {} changed, {} requests{budget}",
            totals.added, totals.changed, totals.requests,
        )?;
        Ok(())
    }

    /// The re-reads the walks' pages of `new` queued (items they should have held and did not).
    async fn recheck(&self) -> Result<(), CliError> {
        if let Some(step) = self.syncer.recheck(Priority::User).await? {
            self.record(&Status::New, &step).await?;
        }
        Ok(())
    }

    /// The reconcile walk of `new` to its end.
    async fn reconcile(&self, out: &mut impl Write) -> Result<(), CliError> {
        loop {
            let page = self.syncer.reconcile_page(Priority::User).await?;
            self.record(&Status::New, &page).await?;
            if page.reached_end {
                return self.progress.say(out, "new: reconciled");
            }
        }
    }

    /// Counts a step and moves the bar; the state is read without its item count, off the
    /// async threads, so a page costs no scan of the store.
    async fn record(&self, status: &Status, step: &Report) -> Result<(), CliError> {
        if let Some(turn) = self.turn {
            shared::publish(turn, &self.syncer.rate_limit()).await?;
        }
        let state = self.syncer.read_state(status, false).await?;
        self.progress.record(
            step,
            &state,
            self.origin,
            self.syncer.rate_limit(),
            self.clock.now(),
        );
        Ok(())
    }
}

fn client(args: &Context, progress: &Progress) -> Result<Client, CliError> {
    let shown = progress.clone();
    super::client_with(
        args,
        Arc::new(move |wait: &feedback_api::Wait| {
            shown.wait(&super::describe_wait(wait));
        }),
    )
}
