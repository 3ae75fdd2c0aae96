//! The terminal's checks: is this a terminal, is it big enough for the inbox, and which colours
//! the inbox will use (`NO_COLOR`, `COLORTERM`, `TERM`). Not being a terminal is a warning:
//! doctor's report is fine piped, only the inbox needs one.

use std::io::IsTerminal;

use super::Check;
use feedback_core::min_size::{MIN_HEIGHT, MIN_WIDTH};

/// What the terminal is, as detected (injected in tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tty {
    /// Stdout is a terminal.
    pub stdout: bool,
    /// Columns and rows, when known.
    pub size: Option<(u16, u16)>,
}

impl Tty {
    #[must_use]
    pub(crate) fn detect() -> Self {
        let stdout = std::io::stdout().is_terminal();
        Self {
            stdout,
            size: stdout
                .then(terminal_size::terminal_size)
                .flatten()
                .map(|(w, h)| (w.0, h.0)),
        }
    }
}

/// The terminal line and the colours line.
#[must_use]
pub(super) fn checks(env: &dyn Fn(&str) -> Option<String>, tty: Tty) -> Vec<Check> {
    vec![terminal(tty), colours(env, tty.stdout)]
}

fn terminal(tty: Tty) -> Check {
    const NAME: &str = "terminal";
    if !tty.stdout {
        return Check::warn(
            NAME,
            "not a terminal (output piped or redirected): fine here, but the inbox needs one",
            None,
        );
    }
    match tty.size {
        Some((w, h)) if w < MIN_WIDTH || h < MIN_HEIGHT => Check::warn(
            NAME,
            format!("{w}x{h}: the inbox needs at least {MIN_WIDTH}x{MIN_HEIGHT}"),
            Some("enlarge the window (from 80 columns the side panel shows too)".to_owned()),
        ),
        Some((w, h)) => Check::ok(NAME, format!("{w}x{h}")),
        None => Check::warn(NAME, "a terminal of unknown size", None),
    }
}

/// What the inbox will do with colour, and why.
fn colours(env: &dyn Fn(&str) -> Option<String>, tty: bool) -> Check {
    const NAME: &str = "colours";
    let set = |name: &str| env(name).filter(|v| !v.is_empty());
    if set("NO_COLOR").is_some() {
        return Check::ok(
            NAME,
            "off (NO_COLOR is set): bold, reverse and underline only",
        );
    }
    let term = set("TERM");
    let colorterm = set("COLORTERM");
    match term.as_deref() {
        None if tty => Check::warn(
            NAME,
            "TERM is not set: the terminal's abilities are unknown",
            Some("set TERM (e.g. xterm-256color) in the shell's profile".to_owned()),
        ),
        Some("dumb") => Check::warn(
            NAME,
            "TERM=dumb: this terminal may not move the cursor or show colours",
            Some("run the inbox in a full terminal emulator".to_owned()),
        ),
        _ => match colorterm.as_deref() {
            Some(c @ ("truecolor" | "24bit")) => Check::ok(NAME, format!("24-bit (COLORTERM={c})")),
            _ => match term {
                Some(t) if t.contains("256color") => {
                    Check::ok(NAME, format!("256 colours (TERM={t})"))
                }
                Some(t) => Check::ok(NAME, format!("basic colours (TERM={t})")),
                None => Check::ok(NAME, "no TERM (not a terminal)"),
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::Verdict;
    use super::*;

    use super::super::tests::env;

    const TTY: Tty = Tty {
        stdout: true,
        size: Some((120, 40)),
    };

    #[test]
    fn a_big_colour_terminal_passes() {
        let lines = checks(
            &env(&[("TERM", "xterm-256color"), ("COLORTERM", "truecolor")]),
            TTY,
        );
        assert_eq!(lines[0].detail, "120x40");
        assert_eq!(lines[0].verdict, Verdict::Ok);
        assert_eq!(lines[1].detail, "24-bit (COLORTERM=truecolor)");
        let lines = checks(&env(&[("TERM", "screen-256color")]), TTY);
        assert_eq!(lines[1].detail, "256 colours (TERM=screen-256color)");
    }

    #[test]
    fn piped_output_and_a_small_window_are_warnings() {
        let piped = Tty {
            stdout: false,
            size: None,
        };
        let lines = checks(&env(&[]), piped);
        assert_eq!(lines[0].verdict, Verdict::Warn);
        assert!(lines[0].detail.starts_with("not a terminal"));
        assert_eq!(lines[1].verdict, Verdict::Ok);
        let small = Tty {
            stdout: true,
            size: Some((30, 10)),
        };
        let line = &checks(&env(&[("TERM", "xterm")]), small)[0];
        assert_eq!(line.verdict, Verdict::Warn);
        assert_eq!(
            line.detail,
            format!("30x10: the inbox needs at least {MIN_WIDTH}x{MIN_HEIGHT}")
        );
    }

    #[test]
    fn no_color_wins_and_a_dumb_or_unset_term_warns() {
        let lines = checks(&env(&[("NO_COLOR", "1"), ("TERM", "dumb")]), TTY);
        assert!(lines[1].detail.starts_with("off (NO_COLOR is set)"));
        let empty = checks(&env(&[("NO_COLOR", ""), ("TERM", "xterm")]), TTY);
        assert_eq!(
            empty[1].detail, "basic colours (TERM=xterm)",
            "empty NO_COLOR is unset"
        );
        assert_eq!(
            checks(&env(&[("TERM", "dumb")]), TTY)[1].verdict,
            Verdict::Warn
        );
        assert_eq!(checks(&env(&[]), TTY)[1].verdict, Verdict::Warn);
    }
}
