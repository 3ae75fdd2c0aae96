//! The rows the list draws: the stored items of the visible window (plus a margin), each
//! sanitized once on the way in. The view's order is a slice of store keys held apart
//! (`ListView::keys`); only the rows near the screen are ever read from the store, so memory
//! stays flat whatever the size of the view.

use std::collections::HashMap;

use jiff::Timestamp;

use feedback_core::text::Clean;
use feedback_store::{StoredItem, Triage};

/// One stored item, ready to display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The store's key (the view's order is made of these).
    pub key: i64,
    /// The id exactly as the server sent it (used in requests and the detail).
    pub id: Box<str>,
    /// The multi-line message.
    pub message: Clean,
    pub email: Option<Clean>,
    pub received_at: Timestamp,
    /// The raw status (an unknown value is shown as is).
    pub status: Clean,
    /// The tags as shown in the list (`#bug #crash`).
    pub tags_label: Clean,
    /// The app as shown in the list (`Name · platform`).
    pub app: Option<Clean>,
    pub project: Clean,
    /// When the item was last seen by a sync: its status and tags are "as of" then.
    pub seen: Timestamp,
}

impl Row {
    #[must_use]
    pub fn new(item: &StoredItem) -> Self {
        let f = &item.feedback;
        // Each tag sanitized on its own: an escape sequence cut off at a tag's end never takes
        // the next tag into it.
        let tags: Vec<Clean> = f
            .tags
            .iter()
            .map(|t| Clean::line(&format!("#{t}")))
            .collect();
        Self {
            key: item.key,
            id: f.id.0.clone().into_boxed_str(),
            message: Clean::text(&f.message),
            email: f.reporter_email.as_deref().map(Clean::line),
            received_at: f.received_at,
            status: Clean::line(f.status.as_str()),
            tags_label: Clean::join(&tags, " "),
            app: f.app.as_ref().map(|a| {
                let parts = [Clean::line(&a.name), Clean::line(a.platform.as_str())];
                Clean::join(&parts, " · ")
            }),
            project: Clean::line(&f.project.name),
            seen: item.seen,
        }
    }
}

/// Rows of the view from position `start` on, in the view's order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Window {
    pub start: usize,
    pub rows: Vec<Row>,
    /// The rows' triage states as read with them, by id (raw: the note is sanitized where
    /// shown); the update moves them into the triage overlay (`tui::overlay`).
    pub triage: HashMap<String, Triage>,
    /// The rows' team states as read with them (only those the team touched or this member
    /// changed), moved into the overlay with the triage states.
    pub team: HashMap<String, crate::team::TeamShown>,
}

impl Window {
    /// The row at view position `n`, when it is in the window.
    #[must_use]
    pub fn get(&self, n: usize) -> Option<&Row> {
        n.checked_sub(self.start).and_then(|i| self.rows.get(i))
    }

    /// True when positions `from..to` are all in the window (or past the view's end `len`).
    #[must_use]
    pub fn covers(&self, from: usize, to: usize, len: usize) -> bool {
        let to = to.min(len);
        from >= to || (from >= self.start && to <= self.start + self.rows.len())
    }

    /// Position of the row with this key, when it is in the window.
    #[must_use]
    pub fn position(&self, key: i64) -> Option<usize> {
        self.rows
            .iter()
            .position(|r| r.key == key)
            .map(|i| i + self.start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::stored;

    #[test]
    fn rows_are_sanitized_once_on_the_way_in() {
        let mut item = stored(0);
        item.feedback.message = "\u{1b}[2Jhi\nsecond".into();
        item.feedback.tags = vec!["bug".into(), "a\u{7}b".into()];
        let row = Row::new(&item);
        assert_eq!(&*row.message, "␛hi\nsecond");
        assert_eq!(&*row.tags_label, "#bug #a\u{fffd}b");
        assert_eq!(row.app.as_deref(), Some("Nimbus Notes for iOS · ios"));
    }

    #[test]
    fn a_window_answers_for_its_positions_only() {
        let window = Window {
            start: 10,
            rows: (10..15).map(|n| Row::new(&stored(n))).collect(),
            triage: HashMap::new(),
            team: HashMap::new(),
        };
        assert_eq!(window.get(12).map(|r| r.key), Some(13));
        assert!(window.get(9).is_none() && window.get(15).is_none());
        assert!(window.covers(10, 15, 100));
        assert!(!window.covers(9, 12, 100));
        assert!(
            window.covers(12, 20, 15),
            "past the end of the view counts as covered"
        );
        assert!(window.covers(30, 30, 100));
        assert_eq!(window.position(14), Some(13));
        assert_eq!(window.position(99), None);
    }
}
