//! `/` searches the store: each edit a query (latest wins), errors shown where they are while
//! the list keeps its rows, the selected item kept while it matches, highlights and the count.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::act;
use crate::action::{Action, Msg};
use crate::effect::{Effect, Local, Remember};
use crate::testkit::{Harness, started_harness};

fn type_text(h: &mut Harness, text: &str) -> Vec<Effect> {
    let mut effects = Vec::new();
    for c in text.chars() {
        effects.extend(h.send(Msg::FilterInput(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        ))));
    }
    effects
}

#[test]
fn typing_searches_the_store_and_keeps_a_matching_selection() {
    let mut h = started_harness(120, 35, 100, true);
    for _ in 0..8 {
        act(&mut h, Action::MoveDown);
    }
    act(&mut h, Action::Filter);
    assert_eq!(h.state.list.viewport_rows, 29, "the prompt takes a row");
    type_text(&mut h, "tag:bug");
    assert_eq!(h.state.visible_len(), 25);
    assert_eq!(h.selected_id(), "id00008", "it matches: still selected");
    type_text(&mut h, " 13");
    assert_eq!(h.state.visible_len(), 0, "13 is not a multiple of four");
    h.send(Msg::FilterInput(KeyEvent::new(
        KeyCode::Backspace,
        KeyModifiers::NONE,
    )));
    h.send(Msg::FilterInput(KeyEvent::new(
        KeyCode::Backspace,
        KeyModifiers::NONE,
    )));
    type_text(&mut h, "12");
    assert_eq!(h.state.visible_len(), 1);
    assert_eq!(
        h.selected_id(),
        "id00012",
        "the first match when the old one left"
    );
    let filter = h.state.text_filter.as_ref().unwrap();
    assert_eq!(h.state.view.search, "tag:bug 12");
    assert_eq!(
        filter.highlights.ranges("Message number 12: x"),
        vec![15..17]
    );
}

#[test]
fn a_query_error_is_shown_where_it_is_and_the_list_keeps_its_rows() {
    let mut h = started_harness(120, 35, 100, true);
    act(&mut h, Action::Filter);
    type_text(&mut h, "number");
    assert_eq!(h.state.visible_len(), 100);
    // A parse error: found at once, on the UI thread, no query sent.
    let effects = type_text(&mut h, " (");
    assert!(effects.is_empty());
    let error = h.state.text_filter.as_ref().unwrap().error.clone().unwrap();
    assert!(error.span.start >= "number ".len(), "{error:?}");
    assert_eq!(h.state.visible_len(), 100);
    // An unknown app: found when the query compiles against the store, off the UI thread.
    h.send(Msg::FilterInput(KeyEvent::new(
        KeyCode::Backspace,
        KeyModifiers::NONE,
    )));
    h.send(Msg::Paste("app:nosuchapp".into()));
    let filter = h.state.text_filter.as_ref().unwrap();
    let error = filter.error.clone().expect("an unknown app is an error");
    assert_eq!(
        &h.state.view.search[error.span.clone()],
        "nosuchapp",
        "{error:?}"
    );
    assert_eq!(
        h.state.visible_len(),
        100,
        "not an empty list without a reason"
    );
}

#[test]
fn esc_clears_the_search_keeping_the_item_and_enter_keeps_it() {
    let mut h = started_harness(120, 35, 100, true);
    act(&mut h, Action::Filter);
    type_text(&mut h, "50");
    assert_eq!(h.selected_id(), "id00050");
    let effects = act(&mut h, Action::Open);
    assert!(effects.contains(&Effect::Remember(Remember::View(h.state.view_spec()))));
    assert!(!h.state.text_filter.as_ref().unwrap().editing);
    act(&mut h, Action::Back);
    assert!(h.state.text_filter.is_none());
    assert_eq!(h.state.visible_len(), 100);
    assert_eq!(h.selected_id(), "id00050");
    assert_eq!(h.state.list.viewport_rows, 30);
}

#[test]
fn ctrl_u_clears_the_prompt() {
    let mut h = started_harness(120, 35, 100, true);
    act(&mut h, Action::Filter);
    type_text(&mut h, "50");
    h.send(Msg::FilterInput(KeyEvent::new(
        KeyCode::Char('u'),
        KeyModifiers::CONTROL,
    )));
    assert_eq!(h.state.view.search, "");
    assert_eq!(h.state.visible_len(), 100);
}

#[test]
fn a_parse_error_stands_when_the_last_query_is_answered() {
    let mut h = started_harness(120, 35, 100, true);
    act(&mut h, Action::Filter);
    // "number" is queried; the answer is held while " (" is typed.
    let mut queries = Vec::new();
    for c in "number".chars() {
        let effects = h.apply(Msg::FilterInput(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
        queries.extend(h.hold(effects));
    }
    let effects = type_text(&mut h, " (");
    assert!(effects.is_empty(), "a parse error sends no query");
    assert!(h.state.text_filter.as_ref().unwrap().error.is_some());
    for msg in queries {
        h.send(msg);
    }
    let filter = h.state.text_filter.as_ref().unwrap();
    assert_eq!(h.state.view.search, "number");
    let error = filter
        .error
        .clone()
        .expect("the prompt's text still does not parse");
    assert_eq!(filter.error_span(), Some(error.span), "no blank before it");
}

#[test]
fn an_error_is_marked_in_the_text_it_was_found_in() {
    let mut h = started_harness(120, 35, 100, true);
    act(&mut h, Action::Filter);
    // Blanks before the text: a parse error's span and a compile error's both count them.
    h.send(Msg::Paste("   crash (".into()));
    let filter = h.state.text_filter.as_ref().unwrap();
    let span = filter.error_span().expect("a parse error");
    assert_eq!(&filter.text()[span.start..], "(", "{span:?}");
    h.send(Msg::FilterInput(KeyEvent::new(
        KeyCode::Backspace,
        KeyModifiers::NONE,
    )));
    h.send(Msg::Paste("app:gone".into()));
    let filter = h.state.text_filter.as_ref().unwrap();
    let span = filter.error_span().expect("an unknown app");
    assert_eq!(&filter.text()[span], "gone");
}

/// An inbox started over 40 items with `search` remembered from the last run.
fn restored(search: &str) -> Harness {
    use crate::state::{AppState, ViewSpec};
    use crate::update::{first_query, restore_view, start};
    let mut h = Harness::start(crate::testkit::fill(40), 120, 35);
    h.state = AppState::new(crate::testkit::now(), 120, 35);
    let spec = ViewSpec {
        status: "new".into(),
        search: search.into(),
        ..ViewSpec::default()
    };
    restore_view(&mut h.state, &spec);
    let first = first_query(&mut h.state);
    h.settle(vec![Effect::Read(first)]);
    let effects = start(&mut h.state);
    h.settle(effects);
    h
}

#[test]
fn a_remembered_search_that_no_longer_compiles_shows_the_view_and_the_error() {
    let mut h = restored("app:gone tag:crash");
    assert!(h.state.list.loaded(), "not loading for ever");
    assert_eq!(h.state.visible_len(), 40, "the view without the search");
    let filter = h.state.text_filter.as_ref().unwrap();
    assert_eq!(
        filter.text(),
        "app:gone tag:crash",
        "the prompt keeps the text"
    );
    let span = filter.error_span().expect("and says why");
    assert_eq!(&filter.text()[span], "gone");
    // Fixing the text searches again.
    h.send(Msg::Action(Action::Filter));
    for _ in 0.."app:gone ".len() {
        h.send(Msg::FilterInput(KeyEvent::new(
            KeyCode::Home,
            KeyModifiers::NONE,
        )));
        h.send(Msg::FilterInput(KeyEvent::new(
            KeyCode::Delete,
            KeyModifiers::NONE,
        )));
    }
    assert_eq!(h.state.text_filter.as_ref().unwrap().text(), "tag:crash");
    assert_eq!(h.state.visible_len(), 10, "items 0, 4, 8… are tagged crash");
}

#[test]
fn esc_forgets_a_remembered_search_that_no_longer_compiles() {
    let mut h = restored("app:gone");
    let effects = act(&mut h, Action::Back);
    assert!(h.state.text_filter.is_none());
    let saved: Vec<_> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Remember(Remember::View(spec)) => Some(spec.search.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(saved, [""], "the next start does not restore it");
    assert_eq!(h.state.visible_len(), 40);
}

fn tab(h: &mut Harness, back: bool) {
    let code = if back { KeyCode::BackTab } else { KeyCode::Tab };
    h.send(Msg::FilterInput(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn prompt(h: &Harness) -> String {
    h.state
        .text_filter
        .as_ref()
        .map(crate::state::TextFilter::text)
        .unwrap_or_default()
}

#[test]
fn tab_completes_a_qualifier_then_its_stored_values_and_cycles() {
    let mut h = started_harness(120, 35, 100, true);
    act(&mut h, Action::Filter);
    type_text(&mut h, "sync ta");
    tab(&mut h, false);
    assert_eq!(prompt(&h), "sync tag:", "the qualifier's name");
    // Its values, from the tags the pane holds: those that begin with what was typed first.
    type_text(&mut h, "f");
    tab(&mut h, false);
    assert_eq!(prompt(&h), "sync tag:feature-request");
    assert!(h.state.visible_len() > 0, "the completed query runs");
    type_text(&mut h, " tag:");
    tab(&mut h, false);
    let first = prompt(&h);
    tab(&mut h, false);
    let second = prompt(&h);
    assert_ne!(first, second, "a second Tab cycles");
    tab(&mut h, true);
    assert_eq!(prompt(&h), first, "Shift-Tab goes back");
    assert!(!prompt(&h).contains('\t'), "never a tab character");
    // Typing ends the cycle: Tab then completes the word as it is now.
    type_text(&mut h, " zz");
    tab(&mut h, false);
    assert!(prompt(&h).ends_with(" zz"), "nothing completes it");
    let note = h.state.note.as_ref().map(|n| n.text.to_string());
    assert_eq!(note.as_deref(), Some("Nothing completes this word"));
}

fn key(h: &mut Harness, code: KeyCode, modifiers: KeyModifiers) {
    h.send(Msg::FilterInput(KeyEvent::new(code, modifiers)));
}

/// `/`, the prompt emptied, `text` typed, Enter.
fn keep(h: &mut Harness, text: &str) {
    act(h, Action::Filter);
    key(h, KeyCode::Char('u'), KeyModifiers::CONTROL);
    type_text(h, text);
    act(h, Action::Open);
}

#[test]
fn enter_keeps_a_search_that_runs_and_up_down_and_ctrl_r_go_through_them() {
    let mut h = started_harness(120, 35, 40, true);
    keep(&mut h, "tag:crash");
    keep(&mut h, "sync");
    keep(&mut h, "tag:");
    assert!(h.state.text_filter.as_ref().unwrap().error.is_some());
    let kept: Vec<String> = h
        .sent
        .iter()
        .filter_map(|e| match e {
            Effect::Remember(Remember::Search { text, .. }) => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        kept,
        ["tag:crash", "sync"],
        "a search that does not parse is not kept"
    );

    act(&mut h, Action::Filter);
    key(&mut h, KeyCode::Char('u'), KeyModifiers::CONTROL);
    key(&mut h, KeyCode::Up, KeyModifiers::NONE);
    assert_eq!(prompt(&h), "sync", "the newest first");
    key(&mut h, KeyCode::Up, KeyModifiers::NONE);
    assert_eq!(prompt(&h), "tag:crash");
    assert_eq!(h.state.visible_len(), 10, "the search shown runs");
    key(&mut h, KeyCode::Up, KeyModifiers::NONE);
    assert_eq!(prompt(&h), "tag:crash");
    let note = |h: &Harness| h.state.note.as_ref().map(|n| n.text.to_string());
    assert_eq!(note(&h).as_deref(), Some("The oldest search kept"));
    key(&mut h, KeyCode::Down, KeyModifiers::NONE);
    assert_eq!(prompt(&h), "sync");
    key(&mut h, KeyCode::Down, KeyModifiers::NONE);
    assert_eq!(prompt(&h), "", "past the newest, what was typed");
    assert_eq!(h.state.visible_len(), 40);

    // Up in a prompt that holds text is the text area's; Ctrl-R finds what it holds.
    type_text(&mut h, "CRA");
    key(&mut h, KeyCode::Up, KeyModifiers::NONE);
    assert_eq!(prompt(&h), "CRA");
    key(&mut h, KeyCode::Char('r'), KeyModifiers::CONTROL);
    assert_eq!(prompt(&h), "tag:crash");
    key(&mut h, KeyCode::Char('r'), KeyModifiers::CONTROL);
    assert_eq!(prompt(&h), "tag:crash");
    assert_eq!(note(&h).as_deref(), Some("No older search holds \"CRA\""));
    // Typing on from a shown search edits it.
    type_text(&mut h, " ios");
    assert_eq!(prompt(&h), "tag:crash ios");
    assert!(h.state.text_filter.as_ref().unwrap().browsing.is_none());

    // Kept in the store: the next start has them, newest first.
    let effects: Vec<Effect> = std::mem::take(&mut h.sent);
    for effect in effects {
        if let Effect::Remember(Remember::Search { text, at }) = effect {
            h.store.write(|s| s.remember_search(&text, at)).unwrap();
        }
    }
    let next = Harness::start(h.store.clone(), 120, 35);
    assert_eq!(next.state.searches.get(0), Some("sync"));
    assert_eq!(next.state.searches.get(1), Some("tag:crash"));
}

#[test]
fn tab_completes_a_metadata_qualifier_with_its_stored_values_once_read() {
    use crate::testkit::{detail, now};
    let mut h = started_harness(120, 35, 40, true);
    h.store.write(|s| {
        for (n, version, plan) in [
            (0, "2.14.1", "pro"),
            (1, "2.14.1", "pro"),
            (2, "3.0.0", "team plan"),
        ] {
            let mut d = detail(n);
            d.metadata
                .built_in
                .insert("appVersion".into(), version.into());
            d.metadata.custom.insert("plan".into(), plan.into());
            s.put_detail(&d, now()).unwrap();
        }
    });
    act(&mut h, Action::Filter);
    type_text(&mut h, "ver");
    tab(&mut h, false);
    assert_eq!(prompt(&h), "version:");
    // The values are read first; the completion follows their arrival.
    tab(&mut h, false);
    assert_eq!(prompt(&h), "version:2.14.1", "the most items' first");
    tab(&mut h, false);
    assert_eq!(prompt(&h), "version:3.0.0");
    key(&mut h, KeyCode::Char('u'), KeyModifiers::CONTROL);
    type_text(&mut h, "meta.PLAN:te");
    tab(&mut h, false);
    assert_eq!(prompt(&h), "meta.PLAN:\"team plan\"", "any case, quoted");
    key(&mut h, KeyCode::Char('u'), KeyModifiers::CONTROL);
    type_text(&mut h, "locale:zz");
    tab(&mut h, false);
    assert_eq!(prompt(&h), "locale:zz");
    let note = h.state.note.as_ref().map(|n| n.text.to_string());
    assert_eq!(note.as_deref(), Some("Nothing completes this word"));
}

#[test]
fn view_names_a_view_tab_completes_its_name_and_a_saved_view_is_named_at_once() {
    let mut h = started_harness(120, 35, 100, true);
    let first = h.selected_id().clone();
    for _ in 0..3 {
        act(&mut h, Action::ToggleStar);
        act(&mut h, Action::MoveDown);
    }
    act(&mut h, Action::Filter);
    type_text(&mut h, "view:sta");
    tab(&mut h, false);
    assert_eq!(prompt(&h), "view:Starred", "the view's name");
    assert_eq!(h.state.visible_len(), 3, "the starred items");
    type_text(&mut h, &format!(" -id:{first}"));
    assert_eq!(h.state.visible_len(), 2);
    // An unknown view is the prompt's error; the list keeps its rows.
    key(&mut h, KeyCode::Char('u'), KeyModifiers::CONTROL);
    type_text(&mut h, "-view");
    let shown = h.state.visible_len();
    assert!(shown > 90, "items without the word: {shown}");
    type_text(&mut h, ":nothing");
    let error = h.state.text_filter.as_ref().unwrap().error.clone();
    let error = error.map(|e| e.message.to_string()).unwrap_or_default();
    assert!(error.starts_with("no view named \"nothing\""), "{error}");
    assert_eq!(
        h.state.visible_len(),
        shown,
        "the rows stay while the query is wrong"
    );

    // A view saved now is named at once: the searches read the views as they are.
    let effects = h.send(Msg::ViewWritten {
        view: feedback_config::views::SavedView {
            name: "Twelves".into(),
            query: "12".into(),
            status: "new".into(),
            project: None,
            app: None,
            tag: None,
        },
        result: Ok(()),
    });
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Local(Local::ViewsChanged(views)) if views.iter().any(|v| v.name.as_str() == "Twelves"))),
        "the executor is told: {effects:?}"
    );
    act(&mut h, Action::Filter);
    key(&mut h, KeyCode::Char('u'), KeyModifiers::CONTROL);
    type_text(&mut h, "view:twe");
    assert_eq!(h.state.visible_len(), 1, "item 12 alone");
    assert_eq!(h.selected_id(), "id00012");
}

#[test]
fn a_half_typed_qualifier_keeps_the_results_of_the_rest_with_the_error_shown() {
    let mut h = started_harness(120, 35, 100, true);
    act(&mut h, Action::Filter);
    type_text(&mut h, "tag:bug");
    assert_eq!(h.state.visible_len(), 25);
    // On the way, "tag:bug age" is a word search that matches nothing; once the text is a
    // qualifier that does not parse, the results are those of the rest, "tag:bug".
    for (typed, error) in [
        (" age:", "`age:` needs a value"),
        ("<7", "bad age `<7`"),
        ("x", "bad age `<7x`"),
    ] {
        type_text(&mut h, typed);
        let filter = h.state.text_filter.as_ref().unwrap();
        let shown = filter.error.as_ref().map(|e| e.message.to_string());
        assert!(
            shown.as_deref().is_some_and(|m| m.contains(error)),
            "{shown:?}"
        );
        assert_eq!(h.state.view.search, "tag:bug", "after {typed:?}");
        assert_eq!(h.state.visible_len(), 25, "after {typed:?}");
    }
    // Set right, the whole query runs and the error goes.
    h.send(Msg::FilterInput(KeyEvent::new(
        KeyCode::Backspace,
        KeyModifiers::NONE,
    )));
    type_text(&mut h, "d");
    assert_eq!(h.state.view.search, "tag:bug age:<7d");
    assert!(h.state.text_filter.as_ref().unwrap().error.is_none());
}
