//! The effect executor: store reads on blocking threads and sync jobs in tokio tasks, both
//! reporting back over the channel; clipboard, browser and mouse-capture calls in place (they
//! are quick and must stay in order with the frames written to the terminal). The UI thread
//! never runs a query nor awaits the network.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use super::reads::{self, FreshnessOf};
use crate::clipboard::Clipboard;
use crate::store::Shared;
use crate::tui::action::{CopyOutcome, Msg, ViewError};
use crate::tui::effect::Effect;

/// Runs effects: store reads on blocking threads, network work in tasks, clipboard and browser
/// calls in place.
pub(super) struct Executor {
    pub(super) store: Shared,
    pub(super) tx: UnboundedSender<Msg>,
    pub(super) root: CancellationToken,
    clipboard: Box<dyn Clipboard>,
    tz: jiff::tz::TimeZone,
    freshness: FreshnessOf,
    /// The latest view query asked for: an older one still waiting to run is skipped.
    latest_query: Arc<AtomicU64>,
    pub(super) sync: super::sync_jobs::SyncJobs,
}

impl Executor {
    pub(super) fn new(
        store: Shared,
        sync: super::sync_jobs::SyncJobs,
        tx: UnboundedSender<Msg>,
        clipboard: Box<dyn Clipboard>,
        tz: jiff::tz::TimeZone,
    ) -> Self {
        Self {
            store,
            tx,
            root: CancellationToken::new(),
            clipboard,
            tz,
            freshness: {
                let port = std::sync::Arc::clone(&sync.port);
                Arc::new(move |store: &crate::store::Store, status: &str| {
                    port.freshness(store, status)
                })
            },
            latest_query: Arc::new(AtomicU64::new(0)),
            sync,
        }
    }

    pub(super) fn run_all(&mut self, effects: Vec<Effect>) {
        for effect in effects {
            self.run(effect);
        }
    }

    /// Runs a store read here and now and returns its answer: for the first frame only, which
    /// is start-up (everything after runs off the UI thread).
    pub(super) fn run_now(&self, effect: Effect) -> Option<Msg> {
        if let Effect::Query { request_id, .. } = &effect {
            self.latest_query.store(*request_id, Ordering::SeqCst);
        }
        self.read_task(effect).map(|task| task())
    }

    fn run(&mut self, effect: Effect) {
        if let Effect::Query { request_id, .. } = &effect {
            self.latest_query.store(*request_id, Ordering::SeqCst);
        }
        if let Some(task) = self.read_task(effect.clone()) {
            let tx = self.tx.clone();
            tokio::task::spawn_blocking(move || {
                let _ = tx.send(task());
            });
            return;
        }
        match effect {
            Effect::SaveView(spec) => {
                let store = self.store.clone();
                tokio::task::spawn_blocking(move || {
                    if let Err(error) = store.write(|s| reads::save_view(s, &spec)) {
                        tracing::warn!(%error, "cannot remember the view");
                    }
                });
            }
            Effect::Sync(job) => self.sync.run(job, &self.tx, &self.root),
            Effect::FetchDetail { id } => self.sync.detail(id, &self.tx, &self.root),
            Effect::Copy { what, text } => {
                let outcome = match self.clipboard.copy(&text) {
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
            Effect::OpenUrl { url } => {
                let result = open::that_detached(&url).map_err(|e| e.to_string());
                let _ = self.tx.send(Msg::Opened { url, result });
            }
            Effect::SetMouseCapture(on) => {
                let mut out = io::stdout();
                let _ = if on {
                    execute!(out, EnableMouseCapture)
                } else {
                    execute!(out, DisableMouseCapture)
                };
                let _ = out.flush();
            }
            Effect::Query { .. }
            | Effect::LoadRows { .. }
            | Effect::LoadPanes { .. }
            | Effect::LoadDetail { .. } => {}
        }
    }

    /// The blocking read an effect asks for, as a closure that returns its answer (`None` for
    /// the effects that are not reads). A query still waiting to run when a newer one is asked
    /// for is skipped: its answer would be dropped anyway.
    fn read_task(&self, effect: Effect) -> Option<reads::Task> {
        let request = match &effect {
            Effect::Query { request_id, .. } => Some(*request_id),
            _ => None,
        };
        let task = reads::task(&self.store, effect, &self.tz, &self.freshness)?;
        let Some(request_id) = request else {
            return Some(task);
        };
        let latest = Arc::clone(&self.latest_query);
        Some(Box::new(move || {
            if latest.load(Ordering::SeqCst) == request_id {
                task()
            } else {
                Msg::ViewLoaded {
                    request_id,
                    result: Err(ViewError::Store("superseded".to_owned())),
                }
            }
        }))
    }

    pub(super) fn shutdown(&self) {
        self.root.cancel();
    }
}
