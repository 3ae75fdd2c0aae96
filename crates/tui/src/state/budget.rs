//! The rate-limit budget as the inbox reads it: low while few requests are left in a window
//! that has not yet reset. Paging holds back while it is low, and the status bar says so.

use super::AppState;

/// Prefetching pauses while fewer requests than this are left in the rate-limit window.
pub const LOW_BUDGET: u32 = 5;

/// True while fewer requests than [`LOW_BUDGET`] are left in a window that has not yet reset.
#[must_use]
pub fn budget_low(state: &AppState) -> bool {
    state.rate.remaining.is_some_and(|r| r < LOW_BUDGET)
        && state.rate.reset.is_some_and(|reset| reset > state.now)
}
