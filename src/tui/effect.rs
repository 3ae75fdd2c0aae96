//! What `update` asks the outside world to do. The executor in `tui::runtime` turns each effect
//! into a tokio task (network) or a quick local call (clipboard, browser, mouse capture); results
//! come back as `Msg`s carrying the request id they answer.

use crate::api::{FeedbackQuery, ScopeQuery};

use super::action::{PageKind, PaneKind};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    FetchPane {
        pane: PaneKind,
        request_id: u64,
        scope: ScopeQuery,
    },
    /// `First` and `Refresh` cancel whatever list request is still in flight.
    FetchPage {
        request_id: u64,
        kind: PageKind,
        query: FeedbackQuery,
    },
    FetchDetail {
        id: String,
    },
    Copy {
        what: &'static str,
        text: String,
    },
    OpenUrl {
        url: String,
    },
    SetMouseCapture(bool),
}
