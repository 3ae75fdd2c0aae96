//! Replies to reporters, and how they leave. This crate owns mail: a reply composed with
//! lettre's typed headers (`compose`: no text of the feedback ever becomes a header line), its
//! text from a template (`template`), the way it leaves (`transport`: SMTP with rustls, or a
//! sendmail program), and the sending of the store's replies outbox once and never twice
//! (`sender`: one sender per store at a time, paced). It is the only crate with lettre; it
//! never imports the inbox, the team backend or the CLI.

pub mod compose;
pub mod sender;
pub mod template;
#[cfg(feature = "testing")]
pub mod testing;
pub mod transport;
