//! The pure core every room shares: untrusted text made inert (`text`, `Clean`) and its
//! display width (`width`), the search language (`query`: lexer, parser, qualifiers,
//! highlights, completion), injectable time (`clock`) and its wording (`timefmt`), JSON reading
//! (`json`), a body's excerpt for errors, a poison-proof lock, background threads, the signals
//! a long-lived process stops on, a team's changes and the events recording them (`team_event`),
//! the smallest terminal the inbox draws in, this build's version and where releases are
//! (`release`), and the environment
//! of the commands run for the user without the secrets' variables (`child_env`). It never
//! imports another crate of the workspace, a database driver or a terminal library.

pub mod background;
pub mod child_env;
pub mod clock;
pub mod excerpt;
pub mod json;
pub mod link;
pub mod min_size;
pub mod mutex;
pub mod query;
pub mod release;
pub mod signals;
pub mod team_event;
pub mod text;
pub mod timefmt;
pub mod width;
