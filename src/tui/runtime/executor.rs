//! The effect executor: network work in spawned tasks that report back over the channel,
//! clipboard, browser and mouse-capture calls in place (they are quick and must stay in order
//! with the frames written to the terminal).

use std::io::{self, Write};
use std::sync::Arc;

use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use crate::api::{ApiError, Client, ScopeQuery};
use crate::clipboard::Clipboard;
use crate::tui::action::{CopyOutcome, Msg, PageKind, PaneData, PaneKind};
use crate::tui::effect::Effect;

/// Runs effects: network work in tasks, clipboard and browser calls in place.
pub(super) struct Executor {
    client: Client,
    tx: UnboundedSender<Msg>,
    root: CancellationToken,
    list: CancellationToken,
    clipboard: Box<dyn Clipboard>,
}

impl Executor {
    pub(super) fn new(
        client: Client,
        tx: UnboundedSender<Msg>,
        clipboard: Box<dyn Clipboard>,
    ) -> Self {
        let root = CancellationToken::new();
        let list = root.child_token();
        Self {
            client,
            tx,
            root,
            list,
            clipboard,
        }
    }

    pub(super) fn run_all(&mut self, effects: Vec<Effect>) {
        for effect in effects {
            self.run(effect);
        }
    }

    fn run(&mut self, effect: Effect) {
        match effect {
            Effect::FetchPane {
                pane,
                request_id,
                scope,
            } => self.fetch_pane(pane, request_id, scope),
            Effect::FetchPage {
                request_id,
                kind,
                query,
            } => {
                if kind != PageKind::Next {
                    // Latest wins: the old filter's request is cancelled; its answer is dropped.
                    self.list.cancel();
                    self.list = self.root.child_token();
                }
                let client = self.client.with_cancel(self.list.clone());
                self.spawn(async move {
                    let result = client.list_feedback(&query).await.map_err(Arc::new);
                    (
                        Msg::PageLoaded {
                            request_id,
                            kind,
                            result,
                        },
                        client,
                    )
                });
            }
            Effect::FetchDetail { id } => {
                let client = self.client.with_cancel(self.root.child_token());
                self.spawn(async move {
                    let result = client
                        .get_feedback(&id)
                        .await
                        .map(Box::new)
                        .map_err(Arc::new);
                    (Msg::DetailLoaded { id, result }, client)
                });
            }
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
        }
    }

    fn fetch_pane(&self, pane: PaneKind, request_id: u64, scope: ScopeQuery) {
        let client = self.client.with_cancel(self.root.child_token());
        self.spawn(async move {
            let result: Result<PaneData, ApiError> = match pane {
                PaneKind::Projects => client.list_projects().await.map(PaneData::Projects),
                PaneKind::Apps => client
                    .list_apps(scope.project.as_deref())
                    .await
                    .map(PaneData::Apps),
                PaneKind::Tags => client.list_tags(&scope).await.map(PaneData::Tags),
            };
            (
                Msg::PaneLoaded {
                    request_id,
                    result: result.map_err(Arc::new),
                },
                client,
            )
        });
    }

    /// Spawns a request; its message and then the client's rate-limit snapshot come back.
    fn spawn(&self, task: impl std::future::Future<Output = (Msg, Client)> + Send + 'static) {
        let tx = self.tx.clone();
        tokio::spawn(async move {
            let (msg, client) = task.await;
            let _ = tx.send(msg);
            let _ = tx.send(Msg::RateLimited(client.rate_limit()));
        });
    }

    pub(super) fn shutdown(&self) {
        self.root.cancel();
    }
}
