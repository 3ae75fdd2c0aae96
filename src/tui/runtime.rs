//! The run loop and the effect executor: owns the terminal, the event stream, the message
//! channel, the tick, and the cancellation tokens of in-flight requests. The loop never awaits
//! the network: requests run in spawned tasks and report back as messages.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::Duration;

use futures_util::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    DisableMouseCapture, EnableMouseCapture, Event, EventStream, KeyCode, KeyEvent, KeyEventKind,
    KeyModifiers, MouseEventKind,
};
use ratatui::crossterm::execute;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio_util::sync::CancellationToken;

use super::action::{Action, CopyOutcome, Msg, PageKind, PaneData, PaneKind};
use super::effect::Effect;
use super::keymap::Keymap;
use super::state::AppState;
use super::update::{start, update};
use super::view;
use crate::api::{ApiError, Client, ScopeQuery};
use crate::clipboard::Clipboard;

/// How often the clock ticks (spinner, countdowns, ages).
pub const TICK_INTERVAL: Duration = Duration::from_millis(250);

/// Everything the inbox needs.
pub struct Options {
    pub client: Client,
    pub keymap: Keymap,
    pub refresh_seconds: u64,
    pub clipboard: Box<dyn Clipboard>,
    /// New items from outside (webhook receiver), if any.
    pub arrivals: Option<UnboundedReceiver<crate::api::Feedback>>,
    /// The client's retry and rate-limit waits, for the countdown.
    pub waits: Option<UnboundedReceiver<crate::api::Wait>>,
}

/// Runs the inbox until the user quits; the terminal is restored on every exit path.
pub async fn run(options: Options) -> io::Result<()> {
    release_mouse_on_panic();
    let mut terminal = ratatui::try_init()?;
    let _ = execute!(io::stdout(), EnableMouseCapture);
    let result = drive(&mut terminal, EventStream::new(), options, |_| {}).await;
    let _ = execute!(io::stdout(), DisableMouseCapture);
    ratatui::restore();
    result
}

/// The loop itself, over any backend and event source (tests use `TestBackend` and a channel).
/// `on_frame` sees every drawn frame.
pub async fn drive<B, E>(
    terminal: &mut Terminal<B>,
    mut events: E,
    options: Options,
    mut on_frame: impl FnMut(&Buffer),
) -> io::Result<()>
where
    B: Backend,
    E: Stream<Item = io::Result<Event>> + Unpin,
{
    let (tx, mut rx) = unbounded_channel::<Msg>();
    let size = terminal.size().map_err(backend_error)?;
    let mut state = AppState::new(jiff::Timestamp::now(), size.width, size.height);
    state.tz = jiff::tz::TimeZone::try_system().unwrap_or(jiff::tz::TimeZone::UTC);
    state.color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    state.can_open_browser = crate::clipboard::has_display() && !crate::clipboard::over_ssh();
    state.refresh_seconds = options.refresh_seconds;
    state.live = options.arrivals.is_some();
    let keymap = options.keymap;
    let mut executor = Executor::new(options.client, tx.clone(), options.clipboard);
    forward(options.arrivals, tx.clone(), |item| {
        Msg::Arrived(Box::new(item))
    });
    forward(options.waits, tx.clone(), Msg::Waiting);
    let mut effects = update(
        &mut state,
        Msg::Resize {
            width: size.width,
            height: size.height,
        },
    );
    effects.extend(start(&mut state));
    executor.run_all(effects);
    let mut ticker = tokio::time::interval(TICK_INTERVAL);
    let mut terminate = termination();
    while !state.quit {
        if state.dirty {
            let frame = terminal
                .draw(|frame| view::render(frame, &state, &keymap))
                .map_err(backend_error)?;
            on_frame(frame.buffer);
            state.dirty = false;
        }
        let msg = tokio::select! {
            event = events.next() => match event {
                Some(Ok(event)) => translate(&event, &state, &keymap),
                Some(Err(error)) => return Err(error),
                None => break,
            },
            Some(msg) = rx.recv() => Some(msg),
            _ = ticker.tick() => Some(Msg::Tick(jiff::Timestamp::now())),
            () = &mut terminate => break,
        };
        if let Some(msg) = msg {
            executor.run_all(update(&mut state, msg));
        }
        // Apply everything already queued before drawing, so bursts coalesce into one frame.
        while let Ok(msg) = rx.try_recv() {
            executor.run_all(update(&mut state, msg));
        }
    }
    executor.shutdown();
    Ok(())
}

fn backend_error(error: impl std::error::Error) -> io::Error {
    io::Error::other(error.to_string())
}

/// Resolves on SIGTERM (Ctrl-C arrives as a key in raw mode).
fn termination() -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> {
    #[cfg(unix)]
    {
        if let Ok(mut term) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            return Box::pin(async move {
                term.recv().await;
            });
        }
    }
    Box::pin(std::future::pending())
}

/// Turns each value from an outside channel into a message.
fn forward<T: Send + 'static>(
    source: Option<UnboundedReceiver<T>>,
    tx: UnboundedSender<Msg>,
    into: impl Fn(T) -> Msg + Send + 'static,
) {
    if let Some(mut source) = source {
        tokio::spawn(async move {
            while let Some(value) = source.recv().await {
                if tx.send(into(value)).is_err() {
                    break;
                }
            }
        });
    }
}

/// ratatui's panic hook restores the screen; this one, chained under it, also turns mouse
/// reporting off so the shell is usable after a panic.
fn release_mouse_on_panic() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(io::stdout(), DisableMouseCapture);
        previous(info);
    }));
}

/// Turns a terminal event into a message (key presses only; releases and repeats of other
/// kinds are ignored).
#[must_use]
pub fn translate(event: &Event, state: &AppState, keymap: &Keymap) -> Option<Msg> {
    match event {
        Event::Key(key) if key.kind == KeyEventKind::Press => translate_key(key, state, keymap),
        Event::Resize(width, height) => Some(Msg::Resize {
            width: *width,
            height: *height,
        }),
        Event::Mouse(mouse) => match mouse.kind {
            MouseEventKind::ScrollDown => Some(Msg::Scroll(3)),
            MouseEventKind::ScrollUp => Some(Msg::Scroll(-3)),
            MouseEventKind::Down(_) if mouse.column >= view::list_left(state.width) => {
                Some(Msg::ClickRow(mouse.row))
            }
            _ => None,
        },
        _ => None,
    }
}

fn translate_key(key: &KeyEvent, state: &AppState, keymap: &Keymap) -> Option<Msg> {
    let editing = state.text_filter.as_ref().is_some_and(|f| f.editing) && !state.help;
    if editing {
        return Some(match key.code {
            KeyCode::Esc => Msg::Action(Action::Back),
            KeyCode::Enter => Msg::Action(Action::Open),
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                Msg::Action(Action::Quit)
            }
            _ => Msg::FilterInput(*key),
        });
    }
    keymap.action(key).map(Msg::Action)
}

/// Runs effects: network work in tasks, clipboard and browser calls in place.
struct Executor {
    client: Client,
    tx: UnboundedSender<Msg>,
    root: CancellationToken,
    list: CancellationToken,
    clipboard: Box<dyn Clipboard>,
}

impl Executor {
    fn new(client: Client, tx: UnboundedSender<Msg>, clipboard: Box<dyn Clipboard>) -> Self {
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

    fn run_all(&mut self, effects: Vec<Effect>) {
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
                    Ok(how) => CopyOutcome::Copied { what, how },
                    Err(error) => CopyOutcome::Failed {
                        what,
                        reason: error.to_string(),
                    },
                };
                let _ = self.tx.send(Msg::Copied(outcome));
            }
            Effect::OpenUrl { url } => {
                let result = open::that_detached(&url)
                    .map(|()| url)
                    .map_err(|e| e.to_string());
                let _ = self.tx.send(Msg::Opened(result));
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

    fn shutdown(&self) {
        self.root.cancel();
    }
}
