//! Styles. With `NO_COLOR` set every style falls back to modifiers only (bold, reversed,
//! underlined), so focus and selection stay visible without colour.

use ratatui::style::{Color, Modifier, Style};

#[derive(Debug, Clone, Copy)]
pub struct Theme {
    pub color: bool,
}

impl Theme {
    fn fg(self, color: Color) -> Style {
        if self.color {
            Style::new().fg(color)
        } else {
            Style::new()
        }
    }

    #[must_use]
    pub fn border(self, focused: bool) -> Style {
        if focused {
            self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
        } else {
            self.fg(Color::DarkGray)
        }
    }

    #[must_use]
    pub fn selected(self, focused: bool) -> Style {
        let base = Style::new().add_modifier(Modifier::REVERSED);
        if focused {
            base.add_modifier(Modifier::BOLD)
        } else {
            base
        }
    }

    #[must_use]
    pub fn dim(self) -> Style {
        if self.color {
            Style::new().fg(Color::DarkGray)
        } else {
            Style::new().add_modifier(Modifier::DIM)
        }
    }

    #[must_use]
    pub fn header(self) -> Style {
        self.dim().add_modifier(Modifier::BOLD)
    }

    #[must_use]
    pub fn active(self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }

    #[must_use]
    pub fn error(self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }

    #[must_use]
    pub fn warn(self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }

    #[must_use]
    pub fn good(self) -> Style {
        self.fg(Color::Green)
    }

    #[must_use]
    pub fn link(self) -> Style {
        self.fg(Color::Blue).add_modifier(Modifier::UNDERLINED)
    }

    #[must_use]
    pub fn accent(self) -> Style {
        self.fg(Color::Magenta)
    }

    /// Words a search matched: colour and bold; underlined too, so they show without colour.
    #[must_use]
    pub fn highlight(self) -> Style {
        self.fg(Color::Yellow)
            .add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    }

    /// The part of a search query that is wrong.
    #[must_use]
    pub fn mark_error(self) -> Style {
        self.fg(Color::Red)
            .add_modifier(Modifier::UNDERLINED | Modifier::BOLD)
    }
}
