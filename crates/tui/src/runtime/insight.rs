//! Insight's work off the UI thread: the store's custom metadata keys (for the `=` picker), the
//! pivot of a view (the grouped view) and its trend (the trends panel), each on a connection of
//! its own. A view is the list's own query (`Store::view_query`): the groups count exactly what
//! the list shows. Both are told what the store holds of the history (`store::sync_state::held`): a
//! first mirror's days not yet reached are unknown, not zero.

use super::reads::Task;
use crate::action::Msg;
use crate::failure::Failure;
use crate::state::ViewSpec;
use feedback_store::search::Context;
use feedback_store::{Shared, Store, StoreError};

/// `compute` over the list's view `spec` (its query as the list runs it), its answer (or why
/// there is none: a search that does not apply) given to `wrap`.
fn view_task<T: Send + 'static>(
    store: Shared,
    spec: &ViewSpec,
    cx: Context,
    compute: impl FnOnce(&Store, &feedback_store::ViewQuery, &Context) -> Result<T, StoreError>
    + Send
    + 'static,
    wrap: impl FnOnce(Result<Box<T>, Failure>) -> Msg + Send + 'static,
) -> Task {
    let spec = spec.clone();
    Box::new(move || {
        let work = |s: &Store| {
            let view = s
                .view_query(&spec, &cx, false)
                .ok()
                .ok_or(Failure::ViewDoesNotApply)?;
            compute(s, &view, &cx).map_err(Failure::from)
        };
        // A connection of its own (as Top issues): a pivot over a big view takes the time of
        // many row loads, and the list's reader must not wait behind it (nor this behind the
        // list: the file's path is asked of the writer). An in-memory store has only the one.
        let result = match store.write(|s| s.open_again()) {
            Some(Ok(own)) => work(&own),
            Some(Err(error)) => Err(Failure::from(error)),
            None => store.read(work),
        };
        wrap(result.map(Box::new))
    })
}

/// At most this many custom keys are offered (a store with thousands would fill the picker).
const MAX_KEYS: usize = 200;

/// `Count::MetaKeys`: the custom metadata keys stored.
pub(super) fn meta_keys(store: &Shared) -> Task {
    let store = store.clone();
    Box::new(move || Msg::MetaKeys(store.read(custom_keys).map_err(Failure::from)))
}

/// `Count::Pivot`: the grouped view of `spec`.
pub(super) fn pivot(
    store: &Shared,
    request_id: u64,
    spec: &ViewSpec,
    by: feedback_store::pivot::By,
    cx: Context,
) -> Task {
    view_task(
        store.clone(),
        spec,
        cx,
        move |s, view, cx| s.pivot_held(view, &by, cx, feedback_store::sync_state::held(s)?),
        move |result| Msg::Pivoted { request_id, result },
    )
}

/// `Count::Trend`: the trends of `spec`.
pub(super) fn trend(
    store: &Shared,
    request_id: u64,
    spec: &ViewSpec,
    by: feedback_store::pivot::By,
    cx: Context,
) -> Task {
    view_task(
        store.clone(),
        spec,
        cx,
        move |s, view, cx| s.trend_held(view, &by, cx, feedback_store::sync_state::held(s)?),
        move |result| Msg::Trended { request_id, result },
    )
}

/// `Count::QueueDetails`: the view's items without a detail, queued for the background.
pub(super) fn queue_details(store: &Shared, spec: ViewSpec, cx: Context) -> Task {
    let store = store.clone();
    Box::new(move || {
        let view = store.read(|s| s.view_detail_scope(&spec, &cx));
        Msg::Enqueued(match view {
            Some((view, needs)) => store
                .write(|s| s.queue_details(&view, needs))
                .map_err(Failure::from),
            None => Err(Failure::ViewDoesNotApply),
        })
    })
}

/// `Count::ClearQueue`: the enrichment queue emptied.
pub(super) fn clear_queue(store: &Shared) -> Task {
    let store = store.clone();
    Box::new(move || Msg::QueueCleared(store.write(Store::clear_queue).map_err(Failure::from)))
}

/// `Count::QueuedCount`: the details queued.
pub(super) fn queued_count(store: &Shared) -> Task {
    let store = store.clone();
    Box::new(move || Msg::QueueCount(store.read(Store::queued_details).map_err(Failure::from)))
}

/// The custom metadata keys stored, by name.
fn custom_keys(store: &Store) -> Result<Vec<String>, StoreError> {
    store.custom_meta_keys(MAX_KEYS)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

    use crate::action::{Action, Msg};
    use crate::keymap::Keymap;
    use crate::state::AppState;

    fn key(c: char) -> Event {
        Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
    }

    #[test]
    fn equals_groups_t_shows_trends_and_the_open_picker_takes_every_key() {
        let mut state = AppState::new(crate::testkit::now(), 120, 30);
        let keymap = Keymap::default();
        let translate = |state: &AppState, c| super::super::translate(&key(c), state, &keymap);
        assert!(matches!(
            translate(&state, '='),
            Some(Msg::Action(Action::GroupBy))
        ));
        assert!(matches!(
            translate(&state, 't'),
            Some(Msg::Action(Action::Trends))
        ));
        assert_eq!(Action::from_name("group_by"), Some(Action::GroupBy));
        assert_eq!(Action::from_name("trends"), Some(Action::Trends));
        state.insight.picker = Some(crate::insight::Picker::default());
        for c in ['q', 'j', 't', '='] {
            assert!(matches!(translate(&state, c), Some(Msg::InsightInput(_))));
        }
    }

    #[test]
    fn a_pivot_runs_on_its_own_connection_while_the_lists_reader_is_busy() {
        use crate::testkit::{item, now};
        let dir = tempfile::tempdir().unwrap();
        let store = feedback_store::Store::open(&dir.path().join("store.db")).unwrap();
        let shared = feedback_store::Shared::new(store).unwrap();
        shared.write(|s| s.put_items(&[item(0), item(1), item(4)], now()).unwrap());
        let task = super::pivot(
            &shared,
            7,
            &AppState::new(now(), 120, 30).view_spec(),
            feedback_store::pivot::By::App,
            feedback_store::search::Reading {
                tz: jiff::tz::TimeZone::UTC,
                views: std::sync::Arc::default(),
            }
            .at(now()),
        );
        let (tx, rx) = std::sync::mpsc::channel();
        // The list's reader is taken for the whole run: the pivot must not need it.
        shared.read(|_| {
            std::thread::spawn(move || {
                let _ = tx.send(task());
            });
            let msg = rx
                .recv_timeout(std::time::Duration::from_secs(30))
                .expect("the pivot waited for the list's reader");
            let Msg::Pivoted {
                request_id: 7,
                result: Ok(pivot),
            } = msg
            else {
                panic!("{msg:?}")
            };
            assert_eq!((pivot.total, pivot.groups.len()), (3, 2));
        });
    }

    #[test]
    fn a_click_selects_the_group_under_it_and_the_wheel_moves_the_selection() {
        use ratatui::crossterm::event::{MouseEvent, MouseEventKind};
        let mut h = crate::testkit::Harness::start(crate::testkit::fill(30), 120, 30);
        h.send(Msg::Action(Action::GroupBy));
        h.send(Msg::InsightInput(KeyEvent::new(
            KeyCode::Enter,
            KeyModifiers::NONE,
        )));
        let groups =
            |h: &crate::testkit::Harness| h.state.insight.grouped.as_ref().map(|g| g.selected);
        assert_eq!(groups(&h), Some(0));
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 30)).unwrap();
        terminal
            .draw(|f| crate::render::render(f, &h.state, &Keymap::default()))
            .unwrap();
        let buffer = terminal.backend().buffer().clone();
        let line = |y: u16| -> String { (0..120).map(|x| buffer[(x, y)].symbol()).collect() };
        let y = (0..30).find(|&y| line(y).contains("(none)")).unwrap();
        let x = u16::try_from(line(y).find("(none)").unwrap()).unwrap_or(0);
        let mouse = |kind, row| {
            Event::Mouse(MouseEvent {
                kind,
                column: x,
                row,
                modifiers: KeyModifiers::NONE,
            })
        };
        let keymap = Keymap::default();
        let down = MouseEventKind::Down(ratatui::crossterm::event::MouseButton::Left);
        let msg = super::super::translate(&mouse(down, y), &h.state, &keymap).unwrap();
        assert!(matches!(msg, Msg::ClickRow(1)), "{msg:?}");
        let list = h.state.list.selected;
        h.send(msg);
        assert_eq!(groups(&h), Some(1));
        assert_eq!(
            h.state.list.selected, list,
            "the list under the groups stays"
        );
        // Below the last group: nothing.
        assert!(super::super::translate(&mouse(down, y + 3), &h.state, &keymap).is_none());
        let up = super::super::translate(&mouse(MouseEventKind::ScrollUp, y), &h.state, &keymap);
        h.send(up.unwrap());
        assert_eq!(groups(&h), Some(0));
        // Under the help, the click is not the groups'.
        h.state.help = true;
        assert!(super::super::translate(&mouse(down, y), &h.state, &keymap).is_none());
    }

    #[test]
    fn the_custom_keys_are_read_from_the_store_by_name() {
        let store = crate::testkit::fill(3);
        store.write(|s| {
            s.put_detail(&crate::testkit::detail(1), crate::testkit::now())
                .unwrap();
        });
        assert_eq!(store.read(super::custom_keys).unwrap(), vec!["plan"]);
    }
}
