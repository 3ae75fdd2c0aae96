//! The effect executor: store reads on blocking threads and sync jobs in tokio tasks, both
//! reporting back over the channel; clipboard, browser and mouse-capture calls in place (they
//! are quick and must stay in order with the frames written to the terminal). The UI thread
//! never runs a query nor awaits the network.

use std::io::{self, Write};
use std::sync::Arc;

use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use super::lanes;
use super::reads::FreshnessOf;
use super::store_thread::StoreThread;
use crate::action::{CopyOutcome, Msg};
use crate::effect::{Effect, Local, Network, Read, Remember};
use feedback_clipboard::Clipboard;
use feedback_store::Shared;
use feedback_team_sync::live::Ask;

/// Runs effects: store reads on blocking threads, network work in tasks, clipboard and browser
/// calls in place.
pub(super) struct Executor {
    pub(super) store: Shared,
    pub(super) tx: UnboundedSender<Msg>,
    pub(super) root: CancellationToken,
    clipboard: Box<dyn Clipboard>,
    reading: feedback_store::search::Reading,
    freshness: FreshnessOf,
    pub(super) sync: super::sync_jobs::SyncJobs,
    /// The reading thread.
    reads: StoreThread,
    /// Another connection to a file store, and its thread, for the pane counts.
    panes: Option<Shared>,
    panes_reads: StoreThread,
    /// The triage writes' thread: in order, one at a time.
    writes: StoreThread,
    /// The team's live link, when a team is configured.
    pub(super) team: Option<UnboundedSender<Ask>>,
}

/// How long quitting waits for the triage writes queued (they take milliseconds; the store's
/// busy wait for another process's lock is the long case).
const WRITES_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Page cache of the inbox's connections, in KiB: the index pages a million-item view walks
/// stay cached for the list's reads; the sync's writes and the pane counts need less. The
/// operating system caches the file too. Together they keep the inbox's memory under 80 MB.
const LIST_CACHE_KIB: i64 = 16_000;
const OTHER_CACHE_KIB: i64 = 4_000;

/// Sets a connection's page cache.
fn cache(store: &feedback_store::Store, kib: i64) {
    if let Err(error) = store.set_cache_kib(kib) {
        tracing::warn!(%error, "cannot size the store's page cache");
    }
}

/// Sizes the page caches of the list's connections (reading, writing).
fn size_caches(store: &Shared) {
    store.write(|s| cache(s, OTHER_CACHE_KIB));
    store.read(|s| cache(s, LIST_CACHE_KIB));
}

/// A connection of its own for the pane counts (a file store; in memory there is only one).
fn panes_store(store: &Shared) -> Option<Shared> {
    let opened = store.read(feedback_store::Store::open_again)?;
    match opened.and_then(Shared::new) {
        Ok(shared) => {
            shared.write(|s| cache(s, OTHER_CACHE_KIB));
            shared.read(|s| cache(s, OTHER_CACHE_KIB));
            Some(shared)
        }
        Err(error) => {
            tracing::warn!(%error, "pane counts share the list's connection");
            None
        }
    }
}

impl Executor {
    pub(super) fn new(
        store: Shared,
        sync: super::sync_jobs::SyncJobs,
        tx: UnboundedSender<Msg>,
        clipboard: Box<dyn Clipboard>,
        reading: feedback_store::search::Reading,
    ) -> Self {
        size_caches(&store);
        Self {
            panes: panes_store(&store),
            store,
            reads: StoreThread::start("store-reads", tx.clone()),
            panes_reads: StoreThread::start("store-counts", tx.clone()),
            writes: StoreThread::start("triage-writes", tx.clone()),
            team: None,
            tx,
            root: CancellationToken::new(),
            clipboard,
            reading,
            freshness: {
                let port = std::sync::Arc::clone(&sync.port);
                Arc::new(move |store: &feedback_store::Store, status: &str| {
                    port.freshness(store, status)
                })
            },
            sync,
        }
    }

    pub(super) fn run_all(&mut self, effects: Vec<Effect>) {
        for effect in effects {
            self.run(effect);
        }
    }

    /// Runs a read here and now and returns its answer: for the first frame only, which is
    /// start-up (everything after runs off the UI thread).
    pub(super) fn run_now(&self, read: Read) -> Msg {
        lanes::read(&self.store, read, &self.reading, &self.freshness)()
    }

    /// Copies `text` and says how it went.
    fn copy(&mut self, what: &'static str, text: &str) {
        let outcome = match self.clipboard.copy(text) {
            Ok(method) if method.certain() => CopyOutcome::Copied {
                what,
                how: method.how(),
            },
            Ok(method) => CopyOutcome::Sent {
                what,
                how: method.how(),
            },
            Err(error) => CopyOutcome::Failed {
                what,
                reason: error.to_string(),
            },
        };
        let _ = self.tx.send(Msg::Copied(outcome));
    }

    /// Runs `effect` in its lane.
    fn run(&mut self, effect: Effect) {
        match effect {
            Effect::Read(read) => {
                // A view query goes before the other reads waiting.
                let first = matches!(read, Read::Query { .. });
                let task = lanes::read(&self.store, read, &self.reading, &self.freshness);
                self.reads.push(task, first);
            }
            // On the counts' connection and thread when there is one (a file store).
            Effect::Count(count) => match &self.panes {
                Some(panes) => {
                    let task = lanes::count(panes, count, &self.reading);
                    self.panes_reads.push(task, false);
                }
                None => {
                    let task = lanes::count(&self.store, count, &self.reading);
                    self.reads.push(task, false);
                }
            },
            Effect::Write(write) => self.writes.push(lanes::write(&self.store, write), false),
            Effect::WriteView { path, view } => {
                let (task, tx) = (super::saved_views::write(path, view), self.tx.clone());
                tokio::task::spawn_blocking(move || {
                    let _ = tx.send(task());
                });
            }
            Effect::Remember(remember) => {
                let store = self.store.clone();
                tokio::task::spawn_blocking(move || {
                    let (what, written) = match remember {
                        Remember::View(spec) => ("view", store.write(|s| s.save_view(&spec))),
                        Remember::Search { text, at } => {
                            ("search", store.write(|s| s.remember_search(&text, at)))
                        }
                    };
                    if let Err(error) = written {
                        tracing::warn!(%error, what, "cannot remember it for the next start");
                    }
                });
            }
            Effect::Network(Network::Sync(job)) => self.sync.run(job, &self.tx, &self.root),
            Effect::Network(Network::SendReplies { settings, member }) => {
                super::replies::send(&self.store, settings, member, &self.tx);
            }
            Effect::Network(Network::FetchDetail { id }) => {
                self.sync.detail(id, &self.tx, &self.root);
            }
            Effect::TopIssues {
                request_id,
                spec,
                now,
            } => {
                super::top_issues::run(&self.store, &self.tx, request_id, spec, now, &self.reading);
            }
            Effect::Local(local) => self.local(local),
            // The loop hands the terminal over for these before the rest reach here.
            Effect::Terminal(_) => {}
        }
    }

    /// Clipboard, browser, mouse capture and the team's live link, in place.
    fn local(&mut self, local: Local) {
        match local {
            Local::Copy { what, text } => self.copy(what, &text),
            Local::OpenUrl { url } => {
                let result = open::that_detached(&url).map_err(|e| e.to_string());
                let _ = self.tx.send(Msg::Opened { url, result });
            }
            Local::SetMouseCapture(on) => {
                let mut out = io::stdout();
                let _ = if on {
                    execute!(out, EnableMouseCapture)
                } else {
                    execute!(out, DisableMouseCapture)
                };
                let _ = out.flush();
            }
            Local::TeamSend => self.ask_team(Ask::Send),
            Local::TeamLooking(item) => self.ask_team(Ask::Looking(item)),
            Local::TeamReplying(replying) => self.ask_team(Ask::Replying(replying)),
            Local::ViewsChanged(views) => self.reading.views = views,
        }
    }

    /// Tells the team's live link (when there is one; it may have ended: nothing to tell).
    fn ask_team(&self, ask: Ask) {
        if let Some(team) = &self.team {
            let _ = team.send(ask);
        }
    }

    /// Ends the work in flight: reads and syncs are dropped, but every triage write queued
    /// is committed first (`d` then `q` at once must not lose the `d`), waiting at most
    /// [`WRITES_WAIT`] for them.
    pub(super) fn shutdown(&self) {
        self.reads.stop();
        self.panes_reads.stop();
        self.root.cancel();
        if !self.writes.finish(WRITES_WAIT) {
            tracing::warn!("triage writes still running at exit: they may be lost");
        }
    }
}
