//! The hostile corpus against the sinks of acting on items: the Markdown block, the JSON copy, the
//! pipe's input, the preview pane, the view bar, the palette and the list's title (filters
//! named there when the sidebar is hidden). Same checker as `hostile_sinks.rs`.
#![allow(clippy::unwrap_used)]

use crate::hostile;

use feedback_api::{Feedback, Status};
use feedback_config::looks::PipeCommand;
use feedback_core::text::Clean;
use feedback_tui::action::{Action, Msg};
use feedback_tui::effect::{Effect, Handover, Local};
use feedback_tui::saved_views::View;
use feedback_tui::state::ViewSpec;
use feedback_tui::testkit::now;
use hostile::{
    assert_inert, assert_screen_inert, corpus, hostile_detail, hostile_inbox, hostile_items,
};
use jiff::SignedDuration;

/// The corpus listed under `new`, every item's hostile detail stored.
fn listed() -> (Vec<Feedback>, Vec<feedback_api::FeedbackDetail>) {
    let details: Vec<_> = hostile_items().into_iter().map(hostile_detail).collect();
    let items = details
        .iter()
        .map(|d| {
            let mut item = d.feedback.clone();
            item.status = Status::New;
            item
        })
        .collect();
    (items, details)
}

#[test]
fn markdown_json_and_pipe_input_keep_hostile_text_inert() {
    let (items, details) = listed();
    let mut h = hostile_inbox(120, 40, &items);
    h.store.write(|s| {
        for d in &details {
            s.put_detail(d, now()).unwrap();
        }
    });
    h.state.acting.commands = vec![PipeCommand {
        name: Clean::line(&corpus()[0]),
        argv: vec!["true".into()],
        wait: true,
        capture: None,
    }];
    let mut checked = 0;
    for _ in 0..items.len() {
        for action in [Action::CopyMarkdown, Action::CopyJson, Action::Pipe] {
            for effect in h.send(Msg::Action(action)) {
                match effect {
                    Effect::Local(Local::Copy { text, what }) => {
                        assert_inert(what, &text, true);
                        checked += 1;
                    }
                    // (Its name is config text, sanitized where the note shows it.)
                    Effect::Terminal(Handover::Pipe { input, .. }) => {
                        assert_inert("pipe input", &input, true);
                        checked += 1;
                    }
                    _ => {}
                }
            }
            assert_screen_inert("after a copy or pipe", &h.state);
        }
        h.send(Msg::Action(Action::ToggleMark));
    }
    assert!(
        checked >= 3 * items.len(),
        "every action gave its text: {checked}"
    );
    // All marked: one block per item, one JSON line each.
    for action in [Action::CopyMarkdown, Action::CopyJson, Action::Pipe] {
        for effect in h.send(Msg::Action(action)) {
            if let Effect::Local(Local::Copy { text, .. })
            | Effect::Terminal(Handover::Pipe { input: text, .. }) = effect
            {
                assert_inert("many items", &text, true);
            }
        }
    }
}

#[test]
fn the_preview_pane_keeps_hostile_text_inert() {
    let (items, details) = listed();
    let mut h = hostile_inbox(170, 40, &items);
    h.store.write(|s| {
        for d in &details {
            s.put_detail(d, now()).unwrap();
        }
    });
    let mut at = now();
    for _ in 0..items.len() {
        at += SignedDuration::from_millis(400);
        h.send(Msg::Tick(at));
        at += SignedDuration::from_millis(400);
        h.send(Msg::Tick(at));
        assert_screen_inert("preview", &h.state);
        h.send(Msg::Action(Action::MoveDown));
    }
}

#[test]
fn the_view_bar_the_palette_and_the_list_title_keep_hostile_text_inert() {
    let (items, _) = listed();
    for width in [170, 90] {
        let mut h = hostile_inbox(width, 30, &items);
        for name in corpus() {
            h.state.views.views.push(View {
                name: Clean::line(&name),
                spec: ViewSpec {
                    status: "new".into(),
                    search: name.into(),
                    ..ViewSpec::default()
                },
            });
        }
        assert_screen_inert("view bar", &h.state);
        h.send(Msg::Action(Action::View(6)));
        assert_screen_inert("a hostile view shown", &h.state);
        h.send(Msg::Action(Action::Palette));
        for _ in 0..40 {
            assert_screen_inert("palette", &h.state);
            let down = ratatui::crossterm::event::KeyEvent::new(
                ratatui::crossterm::event::KeyCode::Down,
                ratatui::crossterm::event::KeyModifiers::NONE,
            );
            h.send(Msg::PaletteInput(down));
        }
        h.state.palette = None;
        // Pane filters chosen (named in the list's title when the sidebar is hidden).
        for _ in 0..3 {
            h.send(Msg::Action(Action::FocusNext));
            h.send(Msg::Action(Action::Open));
        }
        h.send(Msg::Action(Action::FocusNext));
        h.send(Msg::Action(Action::ToggleSidebar));
        assert_screen_inert("list title with filters", &h.state);
    }
}
