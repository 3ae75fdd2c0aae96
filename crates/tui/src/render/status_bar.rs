//! The status bar: active filters and search, how fresh the store is ("as of 14:03", "never
//! synced", "offline"), a spinner while syncs run, the rate-limit budget (highlighted when
//! low), the retry countdown, the last message, key hints.
//!
//! The bar is a list of parts, each with a priority, joined by ` · ` so no two messages run
//! into each other. When the row is too narrow, whole parts are dropped,
//! least important first; only the filter chips and the message are cut (with `…`), and they
//! share the room that is left fairly, so a chip uses the width a wide screen has. Every piece
//! of text is sanitized here, at the sink.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::theme::Theme;
use crate::action::Action;
use crate::keymap::Keymap;
use crate::mode_keys::Hints;
use crate::state::{AppState, Paging, budget_low};
use feedback_api::WaitReason;
use feedback_core::clock::until;
use feedback_core::text::sanitize_line;
use feedback_core::width::{truncate, width};

const SPINNER: [&str; 8] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧"];
const SEPARATOR: &str = " · ";
/// Cells a cut part keeps at least (a chip's name and a few characters of its value).
const MIN_CUT_CELLS: usize = 12;
/// Cells a filter chip should keep before lower-priority parts make room for it.
const CHIP_COMFORT: usize = 16;
/// Cells an error should keep before lower-priority parts make room for it (it stays until
/// dismissed, so the parts it would push out stay too).
const ERROR_COMFORT: usize = 48;
/// Cells an informational message should keep: all of them. It lasts seconds and says what a
/// key just did; the key hints and the live counter step aside for it (and return with it
/// gone) rather than cut its end off.
const INFO_COMFORT: usize = usize::MAX;

/// Which end of the bar a part sits at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Left,
    Right,
}

/// One message of the bar.
struct Part {
    text: String,
    style: Style,
    side: Side,
    /// Higher is kept longer when the bar is narrow.
    priority: u8,
    /// Cells a part that may be cut (chips and the message) should keep before parts of lower
    /// priority are dropped to make room; `None`: shown whole or not at all.
    comfort: Option<usize>,
    /// What a cut part ends with after its `…`: the message's says `M` shows it whole.
    cut_hint: &'static str,
}

/// The end of a message cut to fit: `M` lists the messages whole.
const MESSAGE_CUT_HINT: &str = "(M)";

impl Part {
    fn new(text: String, style: Style, side: Side, priority: u8) -> Self {
        Self {
            text,
            style,
            side,
            priority,
            comfort: None,
            cut_hint: "",
        }
    }

    fn cuttable(mut self, comfort: usize) -> Self {
        self.comfort = Some(comfort);
        self
    }

    fn with_cut_hint(mut self, hint: &'static str) -> Self {
        self.cut_hint = hint;
        self
    }

    fn full(&self) -> usize {
        width(&self.text)
    }

    fn least(&self) -> usize {
        if self.comfort.is_some() {
            self.full().min(MIN_CUT_CELLS)
        } else {
            self.full()
        }
    }

    /// True when the part is cut below its comfortable width.
    fn cramped(&self, cells: usize) -> bool {
        self.comfort
            .is_some_and(|comfort| cells > 0 && cells < comfort.min(self.full()))
    }
}

/// The bar, with as many of the screen's key hints as fit in the room the rest leaves: they
/// never cost another part a cell (the last hint, the help or the way out, is the last to go).
pub(super) fn render(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    keymap: &Keymap,
    theme: Theme,
) {
    let cells = usize::from(area.width).saturating_sub(2);
    let laid = |hints: Option<&str>| {
        let mut parts = left_parts(state, theme);
        parts.extend(right_parts(state, theme));
        if let Some(hints) = hints {
            parts.push(Part::new(hints.to_owned(), theme.dim(), Side::Right, 40));
        }
        let widths = fit_parts(&mut parts, cells);
        (parts, widths)
    };
    let (bare, bare_widths) = laid(None);
    let with_hints = hint_variants(state, keymap).iter().find_map(|hints| {
        let (parts, widths) = laid(Some(hints));
        let (hint, others) = widths.split_last()?;
        (*hint > 0 && others == bare_widths.as_slice()).then_some((parts, widths))
    });
    let (parts, widths) = with_hints.unwrap_or((bare, bare_widths));
    frame.render_widget(compose(&parts, &widths, cells, theme), area);
}

fn left_parts(state: &AppState, theme: Theme) -> Vec<Part> {
    let status = if state.view.any_status() {
        "new+archived".to_owned()
    } else {
        sanitize_line(state.view.listed()).into_owned()
    };
    let mut parts = vec![Part::new(status, theme.active(), Side::Left, 100)];
    for (name, chosen, priority) in [
        ("project", &state.view.project, 80),
        ("app", &state.view.app, 79),
        ("tag", &state.view.tag, 78),
    ] {
        if let Some(c) = chosen {
            let text = format!("{name}:{}", c.label);
            parts
                .push(Part::new(text, theme.active(), Side::Left, priority).cuttable(CHIP_COMFORT));
        }
    }
    if !state.view.search.is_empty() {
        // Privacy masks custom values and emails in the search too.
        let shown = crate::insight::mask_search(&state.view.search, state.acting.privacy);
        let text = format!("/{}", sanitize_line(&shown));
        parts.push(Part::new(text, theme.active(), Side::Left, 77).cuttable(CHIP_COMFORT));
    }
    let unseen = state.triage.overlay.unseen();
    if state.list.loaded() && unseen > 0 {
        let text = format!("● {} unseen", super::list::thousands(unseen));
        parts.push(Part::new(text, theme.accent(), Side::Left, 72));
    }
    // Acting on items: "3 marked", PRIVATE.
    for (text, style, priority) in super::acting::status_parts(state, theme) {
        parts.push(Part::new(text, style, Side::Left, priority));
    }
    // The enrichment's progress, "details 120/812 · ~4 min".
    if let Some(text) = super::insight::enrich_status(state) {
        parts.push(Part::new(text, theme.accent(), Side::Left, 74));
    }
    parts.push(freshness(state, theme));
    if let Some(part) = team_part(state, theme) {
        parts.push(part);
    }
    if state.live {
        let live = format!("live: {} arrived", super::list::thousands(state.arrivals));
        parts.push(Part::new(live, theme.good(), Side::Left, 45));
    }
    if state.in_flight > 0 || state.list.querying() {
        let spinner = SPINNER[usize::from(state.spinner) % SPINNER.len()].to_owned();
        parts.push(Part::new(spinner, theme.accent(), Side::Left, 75));
    }
    if let Some(note) = &state.note {
        let (style, priority, comfort) = if note.error {
            (theme.error(), 85, ERROR_COMFORT)
        } else {
            (theme.good(), 60, INFO_COMFORT)
        };
        let text = note.text.to_string();
        parts.push(
            Part::new(text, style, Side::Left, priority)
                .cuttable(comfort)
                .with_cut_hint(MESSAGE_CUT_HINT),
        );
    }
    parts
}

/// The team's link: `team: 3 online`, `team offline · 4 pending`, with what waits to be sent.
fn team_part(state: &AppState, theme: Theme) -> Option<Part> {
    use crate::team::Link;
    let team = state.team.as_ref()?;
    let pending = match team.pending {
        0 => String::new(),
        n => format!(" · {} pending", feedback_core::text::output::thousands(n)),
    };
    let (text, style) = match &team.link {
        Link::Connecting => (format!("team: connecting…{pending}"), theme.dim()),
        Link::Online => (
            format!("team: {} online{pending}", team.online()),
            theme.good(),
        ),
        Link::Offline(_) => (format!("team offline{pending}"), theme.warn()),
        Link::Refused(_) => (format!("team refused{pending}"), theme.error()),
    };
    Some(Part::new(text, style, Side::Left, 73))
}

/// How fresh the listed status is: offline (with the last sync), as of when, or never synced.
fn freshness(state: &AppState, theme: Theme) -> Part {
    let when = state.sync.as_of.map(|t| as_of(state.now, t, &state.tz));
    match (&state.sync.offline, when) {
        (Some(_), Some(when)) => Part::new(
            format!("offline · as of {when}"),
            theme.warn(),
            Side::Left,
            86,
        ),
        (Some(_), None) => Part::new("offline".to_owned(), theme.warn(), Side::Left, 86),
        (None, Some(when)) => Part::new(format!("as of {when}"), theme.dim(), Side::Left, 70),
        (None, None) if state.sync.running > 0 => {
            Part::new("syncing…".to_owned(), theme.dim(), Side::Left, 70)
        }
        (None, None) => Part::new("never synced".to_owned(), theme.dim(), Side::Left, 70),
    }
}

/// `14:03` today, `2026-10-30 14:03` before (local time).
#[must_use]
pub(super) fn as_of(
    now: jiff::Timestamp,
    then: jiff::Timestamp,
    tz: &jiff::tz::TimeZone,
) -> String {
    let (now, then) = (now.to_zoned(tz.clone()), then.to_zoned(tz.clone()));
    if now.date() == then.date() {
        then.strftime("%H:%M").to_string()
    } else {
        then.strftime("%Y-%m-%d %H:%M").to_string()
    }
}

/// The keys of the screen on top, as bound (`crate::mode_keys`; only the help's key with
/// `hints = false`), whole, then shorter and shorter: the next to last dropped each time, so
/// the last (the help, or the way out of a typing screen) stays to the end.
fn hint_variants(state: &AppState, keymap: &Keymap) -> Vec<String> {
    let (pieces, joint): (Vec<String>, &str) = if state.hints {
        match state.mode().hints() {
            Hints::Keys(keys) => (
                keys.iter()
                    .map(|(action, word)| format!("{} {word}", keymap.key_for(*action)))
                    .collect(),
                " ",
            ),
            Hints::Typing(text) => (text.split("  ").map(str::to_owned).collect(), "  "),
        }
    } else {
        (vec![format!("{} help", keymap.key_for(Action::Help))], " ")
    };
    let Some((last, rest)) = pieces.split_last() else {
        return Vec::new();
    };
    (0..=rest.len())
        .rev()
        .map(|kept| {
            let mut shown: Vec<&str> = rest[..kept].iter().map(String::as_str).collect();
            shown.push(last);
            shown.join(joint)
        })
        .collect()
}

fn right_parts(state: &AppState, theme: Theme) -> Vec<Part> {
    let mut parts = Vec::new();
    if state.list.paging == Paging::Paused {
        let paused = "paging paused: budget low".to_owned();
        parts.push(Part::new(paused, theme.warn(), Side::Right, 50));
    }
    if let Some(wait) = &state.wait {
        let secs = until(state.now, wait.until).as_secs();
        let why = match wait.reason {
            WaitReason::RateLimited => "rate limited; retrying in",
            WaitReason::Pacing => "budget spent; next request in",
            WaitReason::Retry { .. } => "request failed; retrying in",
        };
        parts.push(Part::new(
            format!("{why} {secs}s"),
            theme.warn(),
            Side::Right,
            90,
        ));
    }
    if let (Some(remaining), Some(limit)) = (state.rate.remaining, state.rate.limit) {
        // A reset that has passed is not counted down: the figure is from the window before.
        let reset = state
            .rate
            .reset
            .filter(|&reset| reset > state.now)
            .map(|reset| format!(" ↻{}s", until(state.now, reset).as_secs()))
            .unwrap_or_default();
        // Low only until the window resets, as for paging.
        let (style, priority) = if budget_low(state) {
            (theme.warn(), 88)
        } else {
            (theme.dim(), 65)
        };
        let budget = format!("{remaining}/{limit}{reset}");
        parts.push(Part::new(budget, style, Side::Right, priority));
    }
    parts
}

/// Cells used by `widths` with separators between the parts of each side, and one between the
/// sides when both have parts.
fn used(parts: &[Part], widths: &[usize]) -> usize {
    let mut total = 0;
    let mut shown = [0usize; 2];
    for (part, &cells) in parts.iter().zip(widths).filter(|(_, w)| **w > 0) {
        total += cells;
        shown[usize::from(part.side == Side::Right)] += 1;
    }
    let joins = shown.iter().map(|n| n.saturating_sub(1)).sum::<usize>()
        + usize::from(shown.iter().all(|&n| n > 0));
    total + joins * width(SEPARATOR)
}

/// The cells each part gets (0: dropped), and each cut part's text cut to them.
///
/// Least important parts go first until the rest fits at their least width; the room left is
/// shared out fairly among the parts that may be cut. While one of those is cut below its
/// comfortable width, the least important part below it goes too, and the room is shared again.
fn fit_parts(parts: &mut [Part], cells: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|&i| parts[i].priority);
    let mut excluded = vec![false; parts.len()];
    let mut widths = share(parts, &excluded, &order, cells);
    loop {
        let cramped = (0..parts.len())
            .filter(|&i| parts[i].cramped(widths[i]))
            .map(|i| parts[i].priority)
            .max();
        let Some(cramped) = cramped else { break };
        let lower = order
            .iter()
            .copied()
            .find(|&i| widths[i] > 0 && parts[i].priority < cramped);
        let Some(lower) = lower else { break };
        excluded[lower] = true;
        widths = share(parts, &excluded, &order, cells);
    }
    for (part, &cells) in parts.iter_mut().zip(&widths) {
        if cells < part.full() {
            let hint = width(part.cut_hint);
            part.text = if hint > 0 && cells > hint + MIN_CUT_CELLS / 2 {
                format!("{}{}", truncate(&part.text, cells - hint), part.cut_hint)
            } else {
                truncate(&part.text, cells)
            };
        }
    }
    widths
}

/// Widths with `excluded` parts at 0 and more dropped, least important first (`order`), until
/// the rest fits at their least; a dropped part that fits after all comes back, most important
/// first. The room left is then shared out fairly among the parts that may be cut.
fn share(parts: &[Part], excluded: &[bool], order: &[usize], cells: usize) -> Vec<usize> {
    let least = |dropped: &[bool]| -> Vec<usize> {
        parts
            .iter()
            .zip(dropped)
            .map(|(p, &d)| if d { 0 } else { p.least() })
            .collect()
    };
    let mut dropped = excluded.to_vec();
    for &i in order {
        if used(parts, &least(&dropped)) <= cells {
            break;
        }
        dropped[i] = true;
    }
    for &i in order.iter().rev().filter(|&&i| !excluded[i]) {
        dropped[i] = false;
        if used(parts, &least(&dropped)) > cells {
            dropped[i] = true;
        }
    }
    let mut widths = least(&dropped);
    let mut room = cells.saturating_sub(used(parts, &widths));
    loop {
        let growing: Vec<usize> = (0..parts.len())
            .filter(|&i| widths[i] > 0 && widths[i] < parts[i].full())
            .collect();
        if room == 0 || growing.is_empty() {
            break;
        }
        let each = (room / growing.len()).max(1);
        for i in growing {
            let more = each.min(parts[i].full() - widths[i]).min(room);
            widths[i] += more;
            room -= more;
        }
    }
    widths
}

/// The bar as one `Line`: left parts, the gap, right parts, separated by dim ` · `.
fn compose(parts: &[Part], widths: &[usize], cells: usize, theme: Theme) -> Line<'static> {
    let mut spans = vec![Span::raw(" ")];
    let side = |side: Side| {
        let mut spans = Vec::new();
        let shown = parts
            .iter()
            .zip(widths)
            .filter(|(p, w)| p.side == side && **w > 0);
        for (n, (part, _)) in shown.enumerate() {
            if n > 0 {
                spans.push(Span::styled(SEPARATOR, theme.dim()));
            }
            spans.push(Span::styled(part.text.clone(), part.style));
        }
        spans
    };
    let (left, right) = (side(Side::Left), side(Side::Right));
    let cells_of = |spans: &[Span]| spans.iter().map(|s| width(&s.content)).sum::<usize>();
    let gap = cells.saturating_sub(cells_of(&left) + cells_of(&right));
    spans.extend(left);
    if !right.is_empty() {
        spans.push(Span::raw(" ".repeat(gap.max(width(SEPARATOR)))));
    }
    spans.extend(right);
    Line::from(spans)
}

#[cfg(test)]
mod tests;
