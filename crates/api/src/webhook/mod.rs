//! The webhook protocol, as both ends speak it: a delivery signed with HMAC-SHA256 over its
//! timestamp and raw body ([`verify`]), and the events it carries ([`event`]). The receiver
//! (`webhook`) and the simulator's sender both build on it; it reads no store, configuration
//! or network.

pub mod event;
pub mod verify;

pub use event::{Event, FEEDBACK_CREATED, Submission};
pub use verify::{DEFAULT_TOLERANCE, Delivery, MAX_BODY, Secret, VerifyError, sign, verify};
