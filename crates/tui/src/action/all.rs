//! `Action::ALL`: every action with its config name (for `[keys]` in `config.toml`) and its
//! help text, in help order. New actions go at the end of the table.

use super::Action;

impl Action {
    /// Every action with its config name and help text, in help order.
    pub const ALL: &'static [(Action, &'static str, &'static str)] = &[
        (Action::MoveDown, "move_down", "next row / scroll down"),
        (Action::MoveUp, "move_up", "previous row / scroll up"),
        (Action::Top, "top", "first row"),
        (Action::Bottom, "bottom", "last stored row (fetches more)"),
        (Action::PageDown, "page_down", "one screen down"),
        (Action::PageUp, "page_up", "one screen up"),
        (Action::Open, "open", "open detail / apply pane selection"),
        (
            Action::Back,
            "back",
            "go back, close overlay, clear text filter",
        ),
        (Action::FocusNext, "focus_next", "focus next pane"),
        (Action::FocusPrev, "focus_prev", "focus previous pane"),
        (
            Action::ClearFilter,
            "clear_filter",
            "clear the focused pane's filter",
        ),
        (
            Action::ToggleStatus,
            "toggle_status",
            "switch status new / archived",
        ),
        (Action::Filter, "filter", "search the stored items"),
        (Action::Reload, "reload", "sync what is new / retry"),
        (Action::CopyLink, "copy_link", "copy issue-tracker link"),
        (Action::CopyMessage, "copy_message", "copy message"),
        (Action::CopyId, "copy_id", "copy id"),
        (
            Action::OpenLink,
            "open_link",
            "open issue-tracker link in browser",
        ),
        (Action::Help, "help", "show / hide this help"),
        (Action::Quit, "quit", "quit (from the list) or go back"),
        (
            Action::ToggleMouse,
            "toggle_mouse",
            "release / capture the mouse",
        ),
        (Action::ToggleSeen, "toggle_seen", "mark seen / unseen"),
        (Action::ToggleStar, "toggle_star", "star / unstar"),
        (Action::ToggleDone, "toggle_done", "mark done / not done"),
        (Action::Snooze, "snooze", "snooze until a time (picker)"),
        (Action::EditNote, "edit_note", "edit the item's note"),
        (Action::UndoTriage, "undo", "undo the last triage action"),
        // Saved views and the command palette.
        (Action::View(1), "view_1", "switch to view 1 (Inbox)"),
        (Action::View(2), "view_2", "switch to view 2 (Starred)"),
        (Action::View(3), "view_3", "switch to view 3 (Snoozed)"),
        (Action::View(4), "view_4", "switch to view 4 (Done)"),
        (Action::View(5), "view_5", "switch to view 5 (Archived)"),
        (Action::View(6), "view_6", "switch to view 6 (your first)"),
        (Action::View(7), "view_7", "switch to view 7"),
        (Action::View(8), "view_8", "switch to view 8"),
        (Action::View(9), "view_9", "switch to view 9"),
        (Action::NextView, "next_view", "switch to the next view"),
        (
            Action::ClearAll,
            "clear_all",
            "clear every filter and the search (Inbox)",
        ),
        (
            Action::Palette,
            "palette",
            "command palette: actions, views, save-view",
        ),
        // Acting on items.
        (
            Action::ToggleMark,
            "toggle_mark",
            "mark / unmark the item, move down",
        ),
        (
            Action::MarkRange,
            "mark_range",
            "mark from the last mark to here",
        ),
        (
            Action::CopyMarkdown,
            "copy_markdown",
            "copy a Markdown block for an issue",
        ),
        (Action::CopyJson, "copy_json", "copy the item's JSON"),
        (
            Action::Pipe,
            "pipe",
            "pipe item(s) as JSON lines to a command",
        ),
        (
            Action::TogglePrivacy,
            "toggle_privacy",
            "privacy: mask emails and custom values",
        ),
        // Preview, next/previous item, sidebar.
        (
            Action::TogglePreview,
            "toggle_preview",
            "show / hide the preview pane",
        ),
        (
            Action::NextItem,
            "next_item",
            "next item (in the detail too)",
        ),
        (
            Action::PrevItem,
            "prev_item",
            "previous item (in the detail too)",
        ),
        (
            Action::ToggleSidebar,
            "toggle_sidebar",
            "hide / show the side panes",
        ),
        // Grouped view and trends.
        (
            Action::GroupBy,
            "group_by",
            "group by app, tag, version, day…",
        ),
        (Action::Trends, "trends", "show / hide the trends panel"),
        (
            Action::Enrich,
            "enrich",
            "fetch the view's missing details (again: cancel)",
        ),
        // Top issues.
        (
            Action::TopIssues,
            "top_issues",
            "Top issues: this view's near-duplicates, largest first",
        ),
        // Similar items.
        (
            Action::Similar,
            "similar",
            "list the items similar to this one (Esc: back)",
        ),
        (
            Action::Claim,
            "claim",
            "team: claim / unclaim (take over, confirmed)",
        ),
        (Action::Assign, "assign", "team: assign to a member"),
        (Action::EditLabels, "labels", "team: add / remove labels"),
        (
            Action::Reply,
            "reply",
            "reply to the reporter by mail (marked: one each)",
        ),
        (
            Action::EditLinks,
            "link",
            "link to a ticket: URL [title], -URL unlinks",
        ),
        (
            Action::Messages,
            "messages",
            "the message log: every message, whole",
        ),
        (
            Action::MarkAllSeen,
            "mark_all_seen",
            "mark all in this view seen (U undoes)",
        ),
        (
            Action::Leave,
            "leave",
            "back from the detail, a pane or an overlay",
        ),
    ];
}
