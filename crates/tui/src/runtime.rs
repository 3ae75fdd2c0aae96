//! The run loop: owns the terminal, the event stream, the message channel, the tick and the
//! signal handlers; effects go to the executor (`executor.rs`). The loop never awaits the
//! network nor runs a query: sync jobs run in spawned tasks and store reads on blocking threads,
//! and both report back as messages. Only the first frame's query runs before the loop starts
//! (start-up), so that the stored rows of the last view are on the first frame. The terminal modes it
//! turns on (raw mode, alternate screen, mouse reporting, bracketed paste) are turned off on
//! every way out: `q`, Ctrl-C, a terminating signal at any moment, an error, a panic.

pub mod acting;
mod arrivals;
mod editor;
mod executor;
mod foreground;
pub mod insight;
pub mod lanes;
pub mod reads;
mod replies;
pub mod saved_views;
pub mod similar;
mod store_thread;
mod sync_jobs;
mod syncer;
pub mod team;
mod team_syncer;
pub mod top_issues;
mod translate;
pub mod triage_writes;

pub use sync_jobs::{Job, SyncPort};
pub use team_syncer::TeamSyncer;
pub use translate::translate;
#[cfg(test)]
mod tests;

use std::io;
use std::time::Duration;

use futures_util::Stream;
use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture, Event,
    EventStream,
};
use ratatui::crossterm::execute;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use super::action::Msg;
use super::keymap::Keymap;
use super::render;
use super::state::AppState;
use super::update::{start, update};
use executor::Executor;
use feedback_clipboard::Clipboard;
use feedback_core::signals::Signals;
use feedback_store::Shared;

/// How often the clock ticks (spinner, countdowns, ages).
pub(crate) const TICK_INTERVAL: Duration = Duration::from_millis(250);

/// Everything the inbox needs.
pub struct Options {
    /// The store the list shows (in memory with `--no-store`).
    pub store: Shared,
    /// Keeps the store fresh from the service (`feedback_sync::Syncer`).
    pub syncer: std::sync::Arc<dyn SyncPort>,
    pub keymap: Keymap,
    pub refresh_seconds: u64,
    /// `[triage]`: the seen delay and whether the selection advances after an action.
    pub triage: feedback_config::triage::TriageSettings,
    /// The user's `[[views]]` and where `:save-view` writes.
    pub views: feedback_config::views::ViewsSettings,
    /// `preview` in config.toml.
    pub preview: feedback_config::preview::PreviewSetting,
    pub clipboard: Box<dyn Clipboard>,
    /// New items from outside (webhook receiver), if any: stored, then shown.
    pub arrivals: Option<UnboundedReceiver<Arrival>>,
    /// The client's retry and rate-limit waits, for the countdown.
    pub waits: Option<UnboundedReceiver<feedback_api::Wait>>,
    /// Privacy mode at start, the theme, the `|` commands.
    pub looks: feedback_config::looks::LooksSettings,
    /// The team that shares triage state (`[team]`), when one is configured.
    pub team: Option<feedback_team_sync::live::LiveSettings>,
    /// `[mail]`: how `R` sends replies (none: `R` says how to set it up).
    pub mail: Option<feedback_config::mail::MailSettings>,
    /// `[[templates]]`: replies `R` starts from.
    pub templates: Vec<feedback_config::mail::Template>,
}

/// An item delivered from outside: a webhook's submission, and whether the receiver stored it.
pub use feedback_webhook::receiver::Arrival;

/// How the inbox ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The user quit (`q`, Ctrl-C), or the terminal's input ended.
    Quit,
    /// A terminating signal, by number: once the caller has cleaned up, the process should end
    /// with status 128 + it, as a shell reports a process the signal killed.
    Signal(i32),
}

/// Runs the inbox until the user quits or a terminating signal arrives; the terminal is
/// restored on every exit path. The signal handlers go in before the terminal changes, so a
/// signal during start-up, the loop or the restore itself never leaves it half set up.
pub async fn run(options: Options) -> io::Result<Ended> {
    let mut signals = Signals::install();
    release_terminal_on_panic();
    let result = match ratatui::try_init() {
        Ok(mut terminal) => {
            let _ = execute!(io::stdout(), EnableMouseCapture, EnableBracketedPaste);
            let stop = async {
                let number = signals.next().await;
                tracing::info!(number, "signal: quitting");
                number
            };
            let events = editor::Events {
                stream: EventStream::new(),
                reopen: Some(EventStream::new),
            };
            drive_until(&mut terminal, events, options, |_| {}, stop).await
        }
        Err(error) => Err(error),
    };
    restore();
    signals.exit_on_next();
    result
}

/// Turns off everything `run` turned on. Errors are ignored: after SIGHUP the terminal may be
/// gone, and there is nobody left to tell.
fn restore() {
    let _ = execute!(io::stdout(), DisableBracketedPaste, DisableMouseCapture);
    let _ = ratatui::try_restore();
}

/// The loop itself, over any backend and event source (tests use `TestBackend` and a channel).
/// `on_frame` sees every drawn frame.
pub async fn drive<B, E>(
    terminal: &mut Terminal<B>,
    events: E,
    options: Options,
    on_frame: impl FnMut(&Buffer),
) -> io::Result<()>
where
    B: Backend,
    E: Stream<Item = io::Result<Event>> + Unpin,
{
    let events = editor::Events {
        stream: events,
        reopen: None,
    };
    drive_until(terminal, events, options, on_frame, std::future::pending())
        .await
        .map(|_| ())
}

/// [`drive`], also ending when `stop` resolves with the number of a terminating signal.
async fn drive_until<B, E>(
    terminal: &mut Terminal<B>,
    events: editor::Events<E>,
    options: Options,
    mut on_frame: impl FnMut(&Buffer),
    stop: impl std::future::Future<Output = i32>,
) -> io::Result<Ended>
where
    B: Backend,
    E: Stream<Item = io::Result<Event>> + Unpin,
{
    let (tx, mut rx) = unbounded_channel::<Msg>();
    let size = terminal.size().map_err(backend_error)?;
    let mut state = configured(size, &options);
    let keymap = options.keymap;
    let jobs = sync_jobs::SyncJobs::new(options.syncer, &mut state.insight);
    let store = options.store;
    let mut executor = Executor::new(
        store.clone(),
        jobs,
        tx.clone(),
        options.clipboard,
        feedback_store::search::Reading {
            tz: state.tz.clone(),
            views: state.views.shared(),
        },
    );
    arrivals::store_arrivals(options.arrivals, store.clone(), tx.clone());
    executor.team = options
        .team
        .map(|settings| team::start(settings, store.clone(), tx.clone()));
    forward(options.waits, tx.clone(), Msg::Waiting);
    let mut effects = update(
        &mut state,
        Msg::Resize {
            width: size.width,
            height: size.height,
        },
    );
    effects.extend(first_frame(&mut state, &executor, &store));
    effects.extend(start(&mut state));
    executor.run_all(effects);
    let editor::Events { stream, reopen } = events;
    let mut events = Some(stream);
    let foreground = foreground::Foreground::watching(reopen.is_some());
    let mut ticker = tokio::time::interval(TICK_INTERVAL);
    // After the loop was held up ($EDITOR), one tick, not a burst of catch-up ones.
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut stop = std::pin::pin!(stop);
    // An error ends the loop like `q` does, so that what is in flight is cancelled either way.
    let mut outcome = Ok(());
    let mut ended = Ended::Quit;
    while !state.quit {
        if state.dirty {
            match terminal.draw(|frame| render::render(frame, &state, &keymap)) {
                Ok(frame) => on_frame(frame.buffer),
                Err(error) => {
                    outcome = Err(backend_error(error));
                    break;
                }
            }
            state.dirty = false;
        }
        let msg = tokio::select! {
            event = editor::next_event(&mut events) => match event {
                Some(Ok(event)) => translate(&event, &state, &keymap),
                Some(Err(error)) => {
                    outcome = Err(error);
                    break;
                }
                None => break,
            },
            Some(msg) = rx.recv() => Some(msg),
            _ = ticker.tick() => Some(Msg::Tick(jiff::Timestamp::now())),
            number = &mut stop => {
                ended = Ended::Signal(number);
                break;
            }
        };
        let mut outside = editor::Outside {
            events: &mut events,
            reopen,
            tx: &tx,
            foreground: &foreground,
        };
        // Then everything already queued before drawing, so bursts coalesce into one frame.
        for msg in msg
            .into_iter()
            .chain(std::iter::from_fn(|| rx.try_recv().ok()))
        {
            let effects = update(&mut state, msg);
            // What needs the terminal handed over runs here; the rest goes to the executor.
            let effects = outside.pipes(terminal, effects, state.mouse_captured);
            executor.run_all(outside.edit_notes(terminal, effects, state.mouse_captured));
        }
    }
    executor.shutdown();
    outcome.map(|()| ended)
}

/// The state of a `size` screen before anything ran: the settings and the environment.
fn configured(size: ratatui::layout::Size, options: &Options) -> AppState {
    let mut state = AppState::new(jiff::Timestamp::now(), size.width, size.height);
    state.tz = jiff::tz::TimeZone::try_system().unwrap_or(jiff::tz::TimeZone::UTC);
    state.color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    if let Some(reason) = no_browser() {
        state.can_open_browser = false;
        state.no_browser_reason = reason;
    }
    state.refresh_seconds = options.refresh_seconds;
    state.triage.advance = options.triage.advance_after_action;
    // The user's views after the built-in ones.
    state.views =
        super::saved_views::ViewsState::new(&options.views.views, options.views.path.clone());
    state.triage.seen_delay = jiff::SignedDuration::from_millis(
        i64::try_from(options.triage.seen_delay_ms).unwrap_or(i64::MAX),
    );
    state.triage.memory_only = options.store.read(|s| s.path().is_none());
    state.triage.external_editor = editor::chosen().is_some();
    state.live = options.arrivals.is_some();
    state.acting.privacy = options.looks.privacy;
    state.hints = options.looks.hints;
    state.acting.theme = options.looks.theme;
    state.acting.commands.clone_from(&options.looks.commands);
    state.mail.settings.clone_from(&options.mail);
    state.mail.templates.clone_from(&options.templates);
    state.reading.preview.setting = options.preview;
    state.team = options
        .team
        .as_ref()
        .map(|settings| super::team::TeamState::new(settings.url.role().unwrap_or_default()));
    if state.team.is_some() {
        state.views.add_team_views();
        // The team's templates as last read, until the link reads them again.
        match options.store.read(feedback_store::Store::team_templates) {
            Ok(shared) => state.mail.team_templates = super::replying::team_templates(&shared),
            Err(error) => tracing::warn!(%error, "the team's templates could not be read"),
        }
    }
    state
}

fn backend_error(error: impl std::error::Error) -> io::Error {
    io::Error::other(error.to_string())
}

/// Why a browser cannot be opened here, if it cannot (short: it leads a status-bar note). Over
/// SSH a browser would open on the remote machine, out of the user's sight.
fn no_browser() -> Option<&'static str> {
    if feedback_clipboard::over_ssh() {
        Some("over SSH")
    } else if !feedback_clipboard::has_display() {
        Some("no display")
    } else {
        None
    }
}

/// The stored rows of the last view, before any request: the view is restored and its query
/// run here (start-up); the effects its answer asks for are returned.
fn first_frame(
    state: &mut AppState,
    executor: &Executor,
    store: &Shared,
) -> Vec<super::effect::Effect> {
    if let Some(spec) = store.read(feedback_store::Store::last_view) {
        super::update::restore_view(state, &spec);
    }
    let query = super::update::first_query(state);
    let msg = executor.run_now(query);
    update(state, msg)
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
/// reporting and bracketed paste off so the shell is usable after a panic.
fn release_terminal_on_panic() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(io::stdout(), DisableBracketedPaste, DisableMouseCapture);
        previous(info);
    }));
}
