//! Styles, from one of three palettes chosen in config (`theme`): the default (for dark
//! terminals), a light one (darker colours that read on white), and a colour-blind-safe one
//! (the Okabe–Ito palette: good and bad are blue and vermillion, never green and red, and
//! every state also has a glyph or a word). With `NO_COLOR` set every style falls back to
//! modifiers only (bold, reversed, underlined), so focus and selection stay visible without
//! colour.

use ratatui::style::{Color, Modifier, Style};

pub use feedback_config::looks::ThemeName;

/// The colours of each role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    pub border: Color,
    pub dim: Color,
    pub active: Color,
    pub error: Color,
    pub warn: Color,
    pub good: Color,
    pub link: Color,
    pub accent: Color,
    pub highlight: Color,
    /// The background of marked rows.
    pub marked: Color,
}

impl Palette {
    /// The palette of a theme.
    #[must_use]
    pub const fn of(name: ThemeName) -> Self {
        match name {
            ThemeName::Default => Self::DEFAULT,
            ThemeName::Light => Self::LIGHT,
            ThemeName::Colorblind => Self::COLORBLIND,
        }
    }

    pub const DEFAULT: Self = Self {
        border: Color::Cyan,
        dim: Color::DarkGray,
        active: Color::Yellow,
        error: Color::Red,
        warn: Color::Yellow,
        good: Color::Green,
        link: Color::Blue,
        accent: Color::Magenta,
        highlight: Color::Yellow,
        marked: Color::Indexed(237),
    };

    /// For light backgrounds: no yellow or cyan (unreadable on white), a pale mark.
    pub(crate) const LIGHT: Self = Self {
        border: Color::Blue,
        dim: Color::Indexed(244),
        active: Color::Indexed(130),
        error: Color::Indexed(160),
        warn: Color::Indexed(130),
        good: Color::Indexed(28),
        link: Color::Indexed(25),
        accent: Color::Indexed(90),
        highlight: Color::Indexed(127),
        marked: Color::Indexed(253),
    };

    /// Okabe–Ito: sky blue, orange, yellow, vermillion, blue, reddish purple.
    pub(crate) const COLORBLIND: Self = Self {
        border: Color::Rgb(0x56, 0xB4, 0xE9),
        dim: Color::Indexed(245),
        active: Color::Rgb(0xF0, 0xE4, 0x42),
        error: Color::Rgb(0xD5, 0x5E, 0x00),
        warn: Color::Rgb(0xE6, 0x9F, 0x00),
        good: Color::Rgb(0x56, 0xB4, 0xE9),
        link: Color::Rgb(0x00, 0x72, 0xB2),
        accent: Color::Rgb(0xCC, 0x79, 0xA7),
        highlight: Color::Rgb(0xF0, 0xE4, 0x42),
        marked: Color::Rgb(0x1F, 0x3A, 0x52),
    };
}

#[derive(Debug, Clone, Copy)]
pub struct Theme {
    pub color: bool,
    pub palette: Palette,
}

impl Theme {
    /// The default palette, with or without colour.
    #[must_use]
    pub const fn new(color: bool) -> Self {
        Self {
            color,
            palette: Palette::DEFAULT,
        }
    }

    /// The theme `name`, with or without colour.
    #[must_use]
    pub const fn named(name: ThemeName, color: bool) -> Self {
        Self {
            color,
            palette: Palette::of(name),
        }
    }

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
            self.fg(self.palette.border).add_modifier(Modifier::BOLD)
        } else {
            self.fg(self.palette.dim)
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

    /// A marked row: a background tint; without colour, underlined (the row's glyph says it
    /// too).
    #[must_use]
    pub fn marked(self) -> Style {
        if self.color {
            Style::new().bg(self.palette.marked)
        } else {
            Style::new().add_modifier(Modifier::UNDERLINED)
        }
    }

    #[must_use]
    pub fn dim(self) -> Style {
        if self.color {
            Style::new().fg(self.palette.dim)
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
        self.fg(self.palette.active).add_modifier(Modifier::BOLD)
    }

    #[must_use]
    pub fn error(self) -> Style {
        self.fg(self.palette.error).add_modifier(Modifier::BOLD)
    }

    #[must_use]
    pub fn warn(self) -> Style {
        self.fg(self.palette.warn).add_modifier(Modifier::BOLD)
    }

    #[must_use]
    pub fn good(self) -> Style {
        self.fg(self.palette.good)
    }

    #[must_use]
    pub fn link(self) -> Style {
        self.fg(self.palette.link)
            .add_modifier(Modifier::UNDERLINED)
    }

    #[must_use]
    pub fn accent(self) -> Style {
        self.fg(self.palette.accent)
    }

    /// Words a search matched: colour and bold; underlined too, so they show without colour.
    #[must_use]
    pub fn highlight(self) -> Style {
        self.fg(self.palette.highlight)
            .add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    }

    /// The part of a search query that is wrong.
    #[must_use]
    pub(crate) fn mark_error(self) -> Style {
        self.fg(self.palette.error)
            .add_modifier(Modifier::UNDERLINED | Modifier::BOLD)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_colorblind_palette_has_no_red_green_pair_carrying_meaning() {
        let p = Palette::COLORBLIND;
        // Good and error differ in blue content, which red-green colour blindness keeps.
        let (Color::Rgb(_, _, good_blue), Color::Rgb(_, _, error_blue)) = (p.good, p.error) else {
            panic!("Okabe–Ito colours are given exactly");
        };
        assert!(good_blue > 0xC0 && error_blue < 0x20);
        for c in [p.good, p.error, p.warn, p.active, p.accent, p.link] {
            assert!(!matches!(
                c,
                Color::Red | Color::Green | Color::LightRed | Color::LightGreen
            ));
        }
    }

    #[test]
    fn without_colour_no_palette_colours_anything() {
        for name in [ThemeName::Default, ThemeName::Light, ThemeName::Colorblind] {
            let theme = Theme::named(name, false);
            for style in [
                theme.border(true),
                theme.dim(),
                theme.active(),
                theme.error(),
                theme.good(),
                theme.link(),
                theme.accent(),
                theme.highlight(),
                theme.marked(),
            ] {
                assert_eq!((style.fg, style.bg), (None, None), "{name:?}");
            }
        }
    }
}
