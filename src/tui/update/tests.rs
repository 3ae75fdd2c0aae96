//! Unit tests of `update`: every key and every network message, without a terminal or runtime.

use std::sync::Arc;
use std::time::Duration;

use super::*;
use crate::api::{ApiError, Cursor, Status, Wait, WaitReason};
use crate::tui::action::{Action, CopyOutcome, Msg, PageKind, PaneKind};
use crate::tui::effect::Effect;
use crate::tui::state::{Focus, ListLoad};
use crate::tui::testkit::{self, budget, detail, item, now, page, started};

fn act(state: &mut AppState, action: Action) -> Vec<Effect> {
    update(state, Msg::Action(action))
}

fn page_effect(effects: &[Effect]) -> Option<(u64, PageKind, Option<Cursor>)> {
    effects.iter().find_map(|e| match e {
        Effect::FetchPage {
            request_id,
            kind,
            query,
        } => Some((*request_id, *kind, query.cursor.clone())),
        _ => None,
    })
}

/// The answer to page request `request_id`.
fn answer(
    state: &mut AppState,
    request_id: u64,
    kind: PageKind,
    result: Result<crate::api::Page<crate::api::Feedback>, Arc<ApiError>>,
) -> Vec<Effect> {
    update(
        state,
        Msg::PageLoaded {
            request_id,
            kind,
            result,
        },
    )
}

fn selected_id(state: &AppState) -> String {
    state.selected_row().unwrap().id.to_string()
}

#[test]
fn start_requests_panes_and_first_page_at_once() {
    let mut state = AppState::new(now(), 120, 35);
    let effects = start(&mut state);
    let panes: Vec<PaneKind> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::FetchPane { pane, .. } => Some(*pane),
            _ => None,
        })
        .collect();
    assert_eq!(panes, [PaneKind::Projects, PaneKind::Apps, PaneKind::Tags]);
    let (_, kind, cursor) = page_effect(&effects).unwrap();
    assert_eq!((kind, cursor), (PageKind::First, None));
    assert_eq!(state.in_flight, 4);
}

#[test]
fn first_page_fills_the_list_newest_first() {
    let state = started(120, 35, 100, false);
    assert_eq!(state.list.store.len(), 100);
    assert_eq!(selected_id(&state), "id00000");
    assert!(!state.list.end);
    assert_eq!(state.projects.entries.len(), 2);
    assert_eq!(state.tags.entries[0].detail, "25");
}

#[test]
fn moving_keeps_the_selection_on_screen() {
    let mut state = started(120, 35, 100, false);
    let rows = state.list.viewport_rows;
    for _ in 0..rows + 3 {
        act(&mut state, Action::MoveDown);
    }
    assert_eq!(state.list.selected, rows + 3);
    assert_eq!(state.list.offset, 4);
    act(&mut state, Action::Top);
    assert_eq!((state.list.selected, state.list.offset), (0, 0));
    act(&mut state, Action::PageDown);
    assert_eq!(state.list.selected, rows);
    act(&mut state, Action::PageUp);
    assert_eq!(state.list.selected, 0);
    act(&mut state, Action::MoveUp);
    assert_eq!(state.list.selected, 0);
}

#[test]
fn selection_near_the_end_requests_the_next_page_once() {
    let mut state = started(120, 35, 100, false);
    let effects = act(&mut state, Action::Bottom);
    let (id, kind, cursor) = page_effect(&effects).unwrap();
    assert_eq!(
        (kind, cursor),
        (PageKind::Next, Some(Cursor("after-100".into())))
    );
    assert!(
        page_effect(&act(&mut state, Action::MoveUp)).is_none(),
        "one page request at a time"
    );
    answer(&mut state, id, kind, Ok(page(100, 200, false)));
    assert_eq!(state.list.store.len(), 200);
    assert_eq!(state.list.load, ListLoad::Idle);
}

#[test]
fn end_of_list_stops_paging() {
    let mut state = started(120, 35, 100, false);
    let (id, kind, _) = page_effect(&act(&mut state, Action::Bottom)).unwrap();
    answer(&mut state, id, kind, Ok(page(100, 130, true)));
    assert!(state.list.end);
    assert!(page_effect(&act(&mut state, Action::Bottom)).is_none());
    assert_eq!(state.list.store.len(), 130);
}

#[test]
fn duplicate_rows_from_overlapping_pages_appear_once() {
    let mut state = started(120, 35, 100, false);
    let (id, kind, _) = page_effect(&act(&mut state, Action::Bottom)).unwrap();
    answer(&mut state, id, kind, Ok(page(90, 150, true)));
    assert_eq!(state.list.store.len(), 150);
}

#[test]
fn changing_a_filter_restarts_and_a_late_answer_for_the_old_filter_is_dropped() {
    let mut state = started(120, 35, 100, false);
    let (old, kind, _) = page_effect(&act(&mut state, Action::Bottom)).unwrap();
    let (new, first, _) = page_effect(&act(&mut state, Action::ToggleStatus)).unwrap();
    assert_eq!(first, PageKind::First);
    assert_eq!(state.filters.status, Status::Archived);
    assert!(state.list.store.is_empty());
    answer(&mut state, old, kind, Ok(page(100, 200, false)));
    assert!(state.list.store.is_empty(), "stale page must not paint");
    answer(&mut state, new, first, Ok(page(500, 510, true)));
    assert_eq!(selected_id(&state), "id00500");
}

#[test]
fn refresh_prepends_new_items_and_keeps_the_selected_item() {
    let mut state = started(120, 35, 100, false);
    for _ in 0..5 {
        act(&mut state, Action::MoveDown);
    }
    let before = selected_id(&state);
    let (id, kind, cursor) = page_effect(&act(&mut state, Action::Reload)).unwrap();
    assert_eq!((kind, cursor), (PageKind::Refresh, None));
    assert_eq!(
        state.list.store.len(),
        100,
        "nothing is cleared while refreshing"
    );
    let mut fresh = page(0, 97, false);
    let mut newer: Vec<_> = (0..3)
        .map(|n| {
            let mut f = item(1000 + n);
            f.received_at = now() + jiff::SignedDuration::from_mins(i64::try_from(n).unwrap() + 1);
            f
        })
        .collect();
    newer.reverse();
    newer.append(&mut fresh.data);
    fresh.data = newer;
    answer(&mut state, id, kind, Ok(fresh));
    assert_eq!(state.list.new_count, 3);
    assert_eq!(selected_id(&state), before);
    assert_eq!(state.list.store.len(), 103);
    assert_eq!(state.note.as_ref().unwrap().text, "3 new");
}

#[test]
fn errors_keep_loaded_items_and_r_retries() {
    let mut state = started(120, 35, 100, false);
    let (id, kind, _) = page_effect(&act(&mut state, Action::Bottom)).unwrap();
    let err = Arc::new(ApiError::Server {
        status: 503,
        code: None,
        message: None,
    });
    answer(&mut state, id, kind, Err(err));
    assert_eq!(state.list.store.len(), 100);
    let note = state.note.clone().unwrap();
    assert!(
        note.error && note.text.contains("HTTP 503") && note.text.contains("r to retry"),
        "{note:?}"
    );
    assert!(
        page_effect(&act(&mut state, Action::MoveUp)).is_none(),
        "no retry storm"
    );
    let (rid, rkind, _) = page_effect(&act(&mut state, Action::Reload)).unwrap();
    assert_eq!(rkind, PageKind::Refresh);
    answer(&mut state, rid, rkind, Ok(page(0, 100, false)));
    assert!(state.list.error.is_none());
}

#[test]
fn failed_first_load_with_nothing_loaded_is_retried_from_the_top() {
    let mut state = AppState::new(now(), 120, 35);
    let (id, kind, _) = page_effect(&start(&mut state)).unwrap();
    let err = Arc::new(ApiError::Network {
        reason: "connection refused".into(),
    });
    answer(&mut state, id, kind, Err(err));
    assert!(state.list.error.is_some());
    let (_, kind, _) = page_effect(&act(&mut state, Action::Reload)).unwrap();
    assert_eq!(kind, PageKind::First);
}

#[test]
fn unauthorized_at_startup_shows_the_full_screen_explanation() {
    for (err, title) in [
        (ApiError::Unauthorized, "refused"),
        (ApiError::IndiePlanRequired, "no API access"),
    ] {
        let mut state = AppState::new(now(), 120, 35);
        let (id, kind, _) = page_effect(&start(&mut state)).unwrap();
        answer(&mut state, id, kind, Err(Arc::new(err)));
        let fatal = state.fatal.clone().unwrap();
        assert!(fatal.title.contains(title), "{fatal:?}");
        assert!(act(&mut state, Action::MoveDown).is_empty());
        assert!(page_effect(&act(&mut state, Action::Reload)).is_some());
        assert!(state.fatal.is_none());
    }
}

#[test]
fn rate_limit_wait_shows_a_countdown_that_ends() {
    let mut state = started(120, 35, 100, false);
    let wait = Wait {
        reason: WaitReason::RateLimited,
        duration: Duration::from_secs(5),
        until: now() + jiff::SignedDuration::from_secs(5),
        capped_from: None,
    };
    update(&mut state, Msg::Waiting(wait));
    assert!(state.wait.is_some());
    update(
        &mut state,
        Msg::Tick(now() + jiff::SignedDuration::from_secs(2)),
    );
    assert!(state.wait.is_some() && state.dirty, "countdown redraws");
    update(
        &mut state,
        Msg::Tick(now() + jiff::SignedDuration::from_secs(6)),
    );
    assert!(state.wait.is_none());
}

#[test]
fn low_budget_pauses_prefetch_until_the_budget_returns() {
    let mut state = started(120, 35, 100, false);
    let reset = now() + jiff::SignedDuration::from_secs(30);
    update(&mut state, budget(60, 2, reset));
    assert!(page_effect(&act(&mut state, Action::Bottom)).is_none());
    assert!(state.list.prefetch_paused);
    let effects = update(&mut state, budget(60, 60, reset));
    assert!(page_effect(&effects).is_some());
    assert!(!state.list.prefetch_paused);
}

#[test]
fn paused_prefetch_resumes_when_the_window_resets() {
    let mut state = started(120, 35, 100, false);
    let reset = now() + jiff::SignedDuration::from_secs(30);
    update(&mut state, budget(60, 0, reset));
    act(&mut state, Action::Bottom);
    assert!(
        page_effect(&update(
            &mut state,
            Msg::Tick(now() + jiff::SignedDuration::from_secs(10))
        ))
        .is_none()
    );
    assert!(page_effect(&update(&mut state, Msg::Tick(reset))).is_some());
}

#[test]
fn enter_opens_the_detail_fetching_it_once() {
    let mut state = started(120, 35, 100, false);
    let effects = act(&mut state, Action::Open);
    assert_eq!(
        effects,
        vec![Effect::FetchDetail {
            id: "id00000".into()
        }]
    );
    update(
        &mut state,
        Msg::DetailLoaded {
            id: "id00000".into(),
            result: Ok(Box::new(detail(0))),
        },
    );
    assert_eq!(
        state.detail.as_ref().unwrap().load,
        crate::tui::state::Load::Loaded
    );
    act(&mut state, Action::MoveDown);
    assert_eq!(state.detail.as_ref().unwrap().scroll, 1);
    act(&mut state, Action::Back);
    assert!(state.detail.is_none());
    assert!(
        act(&mut state, Action::Open).is_empty(),
        "cached while the list is loaded"
    );
    act(&mut state, Action::Quit);
    assert!(
        state.detail.is_none() && !state.quit,
        "q goes back from the detail"
    );
}

#[test]
fn y_copies_the_issue_link_fetching_the_detail_first_when_needed() {
    let mut state = started(120, 35, 100, false);
    let effects = act(&mut state, Action::CopyLink);
    assert_eq!(
        effects,
        vec![Effect::FetchDetail {
            id: "id00000".into()
        }]
    );
    let effects = update(
        &mut state,
        Msg::DetailLoaded {
            id: "id00000".into(),
            result: Ok(Box::new(detail(0))),
        },
    );
    assert_eq!(
        effects,
        vec![Effect::Copy {
            what: "the issue-tracker link",
            text: "https://issues.example.com/nimbus/issues/1000".into()
        }]
    );
    update(
        &mut state,
        Msg::Copied(CopyOutcome::Copied {
            what: "the issue-tracker link",
            how: "via OSC 52",
        }),
    );
    assert_eq!(
        state.note.as_ref().unwrap().text,
        "Copied the issue-tracker link via OSC 52"
    );
}

#[test]
fn an_item_without_issue_link_says_so() {
    let mut state = started(120, 35, 100, false);
    let mut bare = detail(0);
    bare.delivery
        .retain(|d| d.channel != crate::api::Channel::IssueTracker);
    act(&mut state, Action::CopyLink);
    let effects = update(
        &mut state,
        Msg::DetailLoaded {
            id: "id00000".into(),
            result: Ok(Box::new(bare)),
        },
    );
    assert!(effects.is_empty());
    assert_eq!(
        state.note.as_ref().unwrap().text,
        "This item has no issue-tracker link"
    );
}

#[test]
fn shift_y_and_i_copy_message_and_id() {
    let mut state = started(120, 35, 100, false);
    let effects = act(&mut state, Action::CopyMessage);
    assert!(
        matches!(&effects[..], [Effect::Copy { what: "the message", text }] if text.starts_with("Message number 0"))
    );
    assert_eq!(
        act(&mut state, Action::CopyId),
        vec![Effect::Copy {
            what: "the id",
            text: "id00000".into()
        }]
    );
    update(
        &mut state,
        Msg::Copied(CopyOutcome::Failed {
            what: "the message",
            reason: "too large".into(),
        }),
    );
    assert!(state.note.as_ref().unwrap().error);
}

#[test]
fn o_opens_web_links_only_and_copies_instead_without_a_browser() {
    let mut state = started(120, 35, 100, false);
    update(
        &mut state,
        Msg::DetailLoaded {
            id: "id00000".into(),
            result: Ok(Box::new(detail(0))),
        },
    );
    let url = "https://issues.example.com/nimbus/issues/1000";
    assert_eq!(
        act(&mut state, Action::OpenLink),
        vec![Effect::OpenUrl { url: url.into() }]
    );
    state.can_open_browser = false;
    assert_eq!(
        act(&mut state, Action::OpenLink),
        vec![Effect::Copy {
            what: "the issue-tracker link",
            text: url.into()
        }]
    );
    assert!(state.note.as_ref().unwrap().text.contains(url));
    let mut evil = detail(1);
    evil.delivery[1].external_url = Some("file:///etc/passwd".into());
    state.can_open_browser = true;
    act(&mut state, Action::MoveDown);
    update(
        &mut state,
        Msg::DetailLoaded {
            id: "id00001".into(),
            result: Ok(Box::new(evil)),
        },
    );
    assert!(act(&mut state, Action::OpenLink).is_empty());
    assert!(state.note.as_ref().unwrap().error);
}

#[test]
fn enter_in_a_pane_applies_its_filter_and_x_clears_it() {
    let mut state = started(120, 35, 100, false);
    act(&mut state, Action::FocusNext);
    assert_eq!(state.focus, Focus::Projects);
    act(&mut state, Action::MoveDown);
    let effects = act(&mut state, Action::Open);
    assert_eq!(state.filters.project.as_ref().unwrap().label, "Trailhead");
    assert!(effects.iter().any(|e| matches!(e, Effect::FetchPane { pane: PaneKind::Apps, scope, .. } if scope.project.is_some())));
    assert!(effects.iter().any(|e| matches!(
        e,
        Effect::FetchPane {
            pane: PaneKind::Tags,
            ..
        }
    )));
    assert_eq!(page_effect(&effects).unwrap().1, PageKind::First);
    assert_eq!(state.focus, Focus::List);
    act(&mut state, Action::FocusNext);
    let effects = act(&mut state, Action::ClearFilter);
    assert!(state.filters.project.is_none());
    assert!(page_effect(&effects).is_some());
    assert!(
        act(&mut state, Action::ClearFilter).is_empty(),
        "nothing to clear"
    );
}

#[test]
fn tag_and_app_filters_go_into_the_query() {
    let mut state = started(120, 35, 100, false);
    state.focus = Focus::Tags;
    let effects = act(&mut state, Action::Open);
    let query = effects
        .iter()
        .find_map(|e| match e {
            Effect::FetchPage { query, .. } => Some(query.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(query.tag.as_deref(), Some("bug"));
    assert_eq!(query.limit, Some(100));
    state.focus = Focus::Apps;
    let effects = act(&mut state, Action::Open);
    let query = effects
        .iter()
        .find_map(|e| match e {
            Effect::FetchPage { query, .. } => Some(query.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        query.app.as_deref(),
        Some("00000000-0000-4000-8000-000000000001")
    );
    assert_eq!(query.tag, None, "choosing an app resets the tag");
}

#[test]
fn tab_cycles_focus_and_q_from_a_pane_goes_back_to_the_list() {
    let mut state = started(120, 35, 100, false);
    let mut seen = Vec::new();
    for _ in 0..4 {
        act(&mut state, Action::FocusNext);
        seen.push(state.focus);
    }
    assert_eq!(
        seen,
        [Focus::Projects, Focus::Apps, Focus::Tags, Focus::List]
    );
    act(&mut state, Action::FocusPrev);
    assert_eq!(state.focus, Focus::Tags);
    act(&mut state, Action::Quit);
    assert_eq!(state.focus, Focus::List);
    assert!(!state.quit);
    act(&mut state, Action::Quit);
    assert!(state.quit);
}

#[test]
fn help_opens_and_closes_and_swallows_other_keys() {
    let mut state = started(120, 35, 100, false);
    act(&mut state, Action::Help);
    assert!(state.help);
    act(&mut state, Action::MoveDown);
    assert_eq!(state.list.selected, 0);
    act(&mut state, Action::Back);
    assert!(!state.help);
}

#[test]
fn slash_filters_loaded_items_and_esc_clears_it_keeping_the_item() {
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut state = started(120, 35, 100, false);
    act(&mut state, Action::Filter);
    for c in "USER1".chars() {
        update(
            &mut state,
            Msg::FilterInput(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
        );
    }
    let matches = state.list.matches.clone().unwrap();
    assert!(!matches.is_empty() && matches.len() < 100);
    assert!(matches.iter().all(|&i| {
        state
            .list
            .store
            .get(i)
            .unwrap()
            .email
            .as_deref()
            .unwrap_or("")
            .contains("user1")
    }));
    update(
        &mut state,
        Msg::FilterInput(KeyEvent::new(KeyCode::Char('9'), KeyModifiers::NONE)),
    );
    assert_eq!(state.list.matches.as_ref().unwrap().len(), 1, "user19 only");
    act(&mut state, Action::Open);
    assert!(!state.text_filter.as_ref().unwrap().editing);
    let kept = selected_id(&state);
    assert_eq!(kept, "id00019");
    act(&mut state, Action::Back);
    assert!(state.text_filter.is_none() && state.list.matches.is_none());
    assert_eq!(selected_id(&state), kept);
}

#[test]
fn text_filter_matches_tags_and_ids_case_insensitively() {
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut state = started(120, 35, 100, false);
    act(&mut state, Action::Filter);
    for c in "FEATURE".chars() {
        update(
            &mut state,
            Msg::FilterInput(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
        );
    }
    assert_eq!(state.list.matches.as_ref().unwrap().len(), 25);
    for _ in 0..7 {
        update(
            &mut state,
            Msg::FilterInput(KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE)),
        );
    }
    for c in "ID0004".chars() {
        update(
            &mut state,
            Msg::FilterInput(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
        );
    }
    assert_eq!(state.list.matches.as_ref().unwrap().len(), 10);
}

#[test]
fn m_toggles_mouse_capture_and_wheel_and_click_move_the_selection() {
    let mut state = started(120, 35, 100, false);
    assert_eq!(
        act(&mut state, Action::ToggleMouse),
        vec![Effect::SetMouseCapture(false)]
    );
    assert_eq!(
        act(&mut state, Action::ToggleMouse),
        vec![Effect::SetMouseCapture(true)]
    );
    update(&mut state, Msg::Scroll(3));
    assert_eq!(state.list.selected, 3);
    update(&mut state, Msg::ClickRow(7));
    assert_eq!(state.list.selected, 5, "screen row 7 is body row 5");
}

#[test]
fn resize_recomputes_the_viewport() {
    let mut state = started(120, 35, 100, false);
    assert_eq!(state.list.viewport_rows, 31);
    update(
        &mut state,
        Msg::Resize {
            width: 60,
            height: 15,
        },
    );
    assert_eq!(state.list.viewport_rows, 11);
}

#[test]
fn notes_expire_but_errors_stay_until_dismissed() {
    let mut state = started(120, 35, 100, false);
    info(&mut state, "hello".into());
    update(
        &mut state,
        Msg::Tick(now() + jiff::SignedDuration::from_secs(6)),
    );
    assert!(state.note.is_none());
    error(&mut state, "bad".into());
    update(
        &mut state,
        Msg::Tick(now() + jiff::SignedDuration::from_secs(600)),
    );
    assert!(state.note.is_some());
    act(&mut state, Action::Back);
    assert!(state.note.is_none());
}

#[test]
fn idle_ticks_do_not_redraw() {
    let mut state = started(120, 35, 100, false);
    update(
        &mut state,
        Msg::Tick(now() + jiff::SignedDuration::from_millis(250)),
    );
    assert!(!state.dirty);
}

#[test]
fn arrivals_go_on_top_without_moving_the_selection() {
    let mut state = started(120, 35, 100, false);
    act(&mut state, Action::MoveDown);
    let before = selected_id(&state);
    let mut fresh = item(5000);
    fresh.received_at = now();
    update(&mut state, Msg::Arrived(Box::new(fresh)));
    assert_eq!(state.list.store.get(0).unwrap().id.as_ref(), "id05000");
    assert_eq!(selected_id(&state), before);
    assert_eq!(state.list.new_count, 1);
}

#[test]
fn an_arrival_at_the_top_shows_on_screen_keeps_the_selection_and_gets_its_platform() {
    let mut state = started(120, 35, 100, false);
    assert_eq!(state.list.selected, 0);
    let mut fresh = item(5001);
    fresh.received_at = now();
    fresh.app.as_mut().unwrap().platform = crate::api::Platform::Other("?".into());
    update(&mut state, Msg::Arrived(Box::new(fresh)));
    assert_eq!(
        selected_id(&state),
        "id00000",
        "the cursor stays on its item"
    );
    assert_eq!(
        (state.list.offset, state.list.selected),
        (0, 1),
        "a list at its top shows the new row; the selected item moves down one row"
    );
    let top = state.list.store.get(0).unwrap();
    let label = state.list.store.names.get(top.app.unwrap().0);
    assert!(label.ends_with("ios"), "{label}");
    assert_eq!(state.arrivals, 1);
    // The same delivery again (a duplicate) adds no row.
    let mut again = item(5001);
    again.received_at = now();
    update(&mut state, Msg::Arrived(Box::new(again)));
    assert_eq!(state.list.store.len(), 101);
    assert_eq!(state.list.new_count, 1);
}

#[test]
fn arrivals_outside_the_filters_are_counted_but_not_listed() {
    let mut state = started(120, 35, 100, false);
    state.filters.project = Some(crate::tui::state::Chosen {
        value: "00000000-0000-4000-8000-0000000000a2".into(),
        label: "Trailhead".into(),
    });
    update(&mut state, Msg::Arrived(Box::new(item(6000))));
    state.filters.project = None;
    state.filters.tag = Some(crate::tui::state::Chosen {
        value: "ui".into(),
        label: "ui".into(),
    });
    update(&mut state, Msg::Arrived(Box::new(item(6002))));
    state.filters.tag = None;
    let mut archived = item(6004);
    archived.status = Status::Archived;
    update(&mut state, Msg::Arrived(Box::new(archived)));
    assert_eq!(state.list.store.len(), 100);
    assert_eq!(state.list.new_count, 0);
    assert_eq!(state.arrivals, 3);
    update(&mut state, Msg::Arrived(Box::new(item(6001))));
    assert_eq!(
        state.list.store.len(),
        101,
        "with no filter left, it is listed"
    );
}

#[test]
fn auto_refresh_fires_when_due() {
    let mut state = AppState::new(now(), 120, 35);
    state.refresh_seconds = 60;
    let (id, kind, _) = page_effect(&start(&mut state)).unwrap();
    answer(&mut state, id, kind, Ok(page(0, 10, true)));
    assert!(
        page_effect(&update(
            &mut state,
            Msg::Tick(now() + jiff::SignedDuration::from_secs(30))
        ))
        .is_none()
    );
    let effects = update(
        &mut state,
        Msg::Tick(now() + jiff::SignedDuration::from_secs(61)),
    );
    assert_eq!(page_effect(&effects).unwrap().1, PageKind::Refresh);
}

#[test]
fn detail_text_is_sanitized_on_arrival() {
    let mut state = started(120, 35, 100, false);
    let mut hostile = detail(0);
    hostile.feedback.message = "\u{1b}]52;c;eA==\u{7}hi".into();
    hostile
        .metadata
        .custom
        .insert("k\u{1b}[2J".into(), "v\u{202e}".into());
    act(&mut state, Action::Open);
    update(
        &mut state,
        Msg::DetailLoaded {
            id: "id00000".into(),
            result: Ok(Box::new(hostile)),
        },
    );
    let d = &state.details["id00000"];
    assert_eq!(d.feedback.message, "␛hi");
    assert!(
        d.metadata
            .custom
            .iter()
            .all(|(k, v)| crate::text::is_clean(k) && crate::text::is_clean(v))
    );
    let _ = testkit::panes();
}

mod paging;
mod paste;
mod refresh;
