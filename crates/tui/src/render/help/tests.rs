//! The help overlay's title names the keys as bound, not the default ones.

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;

fn title_row(keymap: &Keymap, width: u16, height: u16, scroll: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| {
            render(
                frame,
                frame.area(),
                keymap,
                crate::state::Mode::Normal,
                Theme::new(false),
                scroll,
            );
        })
        .unwrap();
    let buffer = terminal.backend().buffer();
    let (_, max) = scroll_range(width, height, keymap, crate::state::Mode::Normal);
    let top = if max == 0 {
        // The overlay is centred: its title is on the first row that has a corner.
        (0..height)
            .find(|&y| (0..width).any(|x| buffer[(x, y)].symbol() == "┌"))
            .unwrap()
    } else {
        0
    };
    (0..width).map(|x| buffer[(x, top)].symbol()).collect()
}

fn rebound() -> Keymap {
    let text = r#"
[keys]
help = "h"
back = "backspace"
move_down = ["n", "down"]
move_up = ["w", "up"]
"#;
    Keymap::from_config(text, "config.toml").unwrap()
}

#[test]
fn the_help_title_names_the_keys_as_bound() {
    // Tall enough for every action's row and the search's help below them.
    let row = title_row(&rebound(), 120, 100, 0);
    assert!(row.contains(" Keys (h or backspace to close) "), "{row}");
    let defaults = title_row(&Keymap::default(), 120, 100, 0);
    assert!(
        defaults.contains(" Keys (? or esc to close) "),
        "{defaults}"
    );
}

#[test]
fn the_scrolling_help_title_names_the_keys_as_bound() {
    let row = title_row(&rebound(), 60, 12, 3);
    assert!(row.contains(" Keys (backspace closes; n/w: 3/"), "{row}");
}
