//! The `:` palette: typing matches, Enter runs the selected action or switches to the selected
//! view, Esc closes, a paste is one line; `save-view NAME` writes the filters into the config
//! file keeping its comments, refuses bad names and says when the write fails.

use ratatui::crossterm::event::KeyCode;

use super::act;
use super::saved_views::{harness, key, query, switch, type_in};
use crate::action::{Action, Msg};
use crate::palette::Target;
use crate::saved_views::Shown;

#[test]
fn the_palette_matches_as_typed_and_enter_switches_to_a_view() {
    let mut h = harness();
    act(&mut h, Action::Palette);
    let palette = h.state.palette.as_ref().unwrap();
    assert_eq!(palette.matches[0].target, Target::View(0));
    type_in(&mut h, "snoozd");
    let palette = h.state.palette.as_ref().unwrap();
    assert_eq!(
        palette.matches[0].target,
        Target::View(2),
        "{:?}",
        palette.matches
    );
    let effects = h.apply(Msg::PaletteInput(key(KeyCode::Enter)));
    assert!(h.state.palette.is_none());
    assert_eq!(query(&effects).search, "is:snoozed");
}

#[test]
fn the_palette_runs_the_selected_action_and_esc_closes_it() {
    let mut h = harness();
    act(&mut h, Action::Palette);
    type_in(&mut h, "help");
    h.send(Msg::PaletteInput(key(KeyCode::Enter)));
    assert!(h.state.help, "help opened");
    act(&mut h, Action::Help);

    act(&mut h, Action::Palette);
    type_in(&mut h, "move");
    let first = h.state.palette.as_ref().unwrap().matches[0].target;
    h.send(Msg::PaletteInput(key(KeyCode::Down)));
    assert_eq!(h.state.palette.as_ref().unwrap().selected, 1);
    h.send(Msg::PaletteInput(key(KeyCode::Up)));
    assert_eq!(first, Target::Action(Action::MoveDown));
    h.send(Msg::PaletteInput(key(KeyCode::Enter)));
    assert_eq!(h.state.list.selected, 1, "moved down");

    act(&mut h, Action::Palette);
    type_in(&mut h, "quit");
    h.send(Msg::PaletteInput(key(KeyCode::Esc)));
    assert!(h.state.palette.is_none() && !h.state.quit);

    act(&mut h, Action::Palette);
    type_in(&mut h, "qqqqzzzz");
    h.send(Msg::PaletteInput(key(KeyCode::Enter)));
    let palette = h.state.palette.as_ref().unwrap();
    assert_eq!(palette.error.as_deref(), Some("nothing matches"));
    h.send(Msg::Paste("view: inbox\n".into()));
    assert_eq!(
        h.state.palette.as_ref().unwrap().text(),
        "qqqqzzzzview: inbox "
    );
}

const CONFIG: &str = "# my settings\nrefresh_seconds = 60 # a minute\n";

#[test]
fn save_view_writes_the_filters_into_the_config_keeping_its_comments() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, CONFIG).unwrap();
    let mut h = harness();
    h.state.views.config_path = Some(path.clone());
    switch(&mut h, Action::View(6));
    act(&mut h, Action::Palette);
    type_in(&mut h, "save-view Sync bugs");
    h.send(Msg::PaletteInput(key(KeyCode::Enter)));
    assert!(h.state.palette.is_none());
    assert!(!h.state.views.saving);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(CONFIG), "{text}");
    let views = feedback_config::views::parse(&text, "c").unwrap();
    assert_eq!(views[0].name, "Sync bugs");
    assert_eq!(
        (views[0].query.as_str(), views[0].tag.as_deref()),
        ("sync", Some("bug"))
    );
    assert_eq!(h.state.views.views.len(), 7);
    assert_eq!(
        h.state.views.shown(&h.state.view_spec()),
        Shown::View(5),
        "Bugs matches first"
    );
    assert!(
        h.state
            .note
            .as_ref()
            .unwrap()
            .text
            .starts_with("Saved view 7 Sync bugs in ")
    );
}

#[test]
fn save_view_refuses_bad_names_and_says_when_the_write_fails() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness();
    h.state.views.config_path = Some(dir.path().join("config.toml"));
    act(&mut h, Action::Palette);
    type_in(&mut h, "save-view");
    h.send(Msg::PaletteInput(key(KeyCode::Enter)));
    let error = h.state.palette.as_ref().unwrap().error.clone().unwrap();
    assert!(error.contains("needs a name"), "{error}");
    type_in(&mut h, " starred");
    h.send(Msg::PaletteInput(key(KeyCode::Enter)));
    let error = h.state.palette.as_ref().unwrap().error.clone().unwrap();
    assert!(error.contains("built-in"), "{error}");
    h.send(Msg::PaletteInput(key(KeyCode::Esc)));

    // Enter on the save-view entry puts the command in the prompt.
    act(&mut h, Action::Palette);
    type_in(&mut h, "save-v");
    h.send(Msg::PaletteInput(key(KeyCode::Enter)));
    assert_eq!(h.state.palette.as_ref().unwrap().text(), "save-view ");
    h.send(Msg::PaletteInput(key(KeyCode::Esc)));

    // A folder where the file should be: the write fails, said as an error; nothing is added.
    h.state.views.config_path = Some(dir.path().to_owned());
    act(&mut h, Action::Palette);
    type_in(&mut h, "save-view Mine");
    h.send(Msg::PaletteInput(key(KeyCode::Enter)));
    let note = h.state.note.clone().unwrap();
    assert!(
        note.error && note.text.starts_with("Cannot save view Mine: "),
        "{note:?}"
    );
    assert_eq!(h.state.views.views.len(), 6);

    h.state.views.config_path = None;
    act(&mut h, Action::Palette);
    type_in(&mut h, "save-view Mine");
    h.send(Msg::PaletteInput(key(KeyCode::Enter)));
    let error = h.state.palette.as_ref().unwrap().error.clone().unwrap();
    assert!(error.contains("--config"), "{error}");
}

#[test]
fn an_action_the_screen_under_the_palette_does_not_take_says_so() {
    let mut h = harness();
    act(&mut h, Action::Open);
    assert!(h.state.detail.is_some());
    act(&mut h, Action::Palette);
    type_in(&mut h, "group-by");
    h.send(Msg::PaletteInput(key(KeyCode::Enter)));
    assert!(
        h.state.insight.picker.is_none(),
        "no picker over the detail"
    );
    assert!(h.state.detail.is_some());
    assert_eq!(
        h.state.note.as_ref().map(|n| n.text.to_string()).as_deref(),
        Some("group-by does nothing in the detail")
    );
}
