//! Signature verification of a delivery (spec part 6): HMAC-SHA256, keyed with the webhook's
//! signing secret, over `timestamp + "." + raw body`, hex-encoded. The check runs over the raw
//! bytes before any JSON parsing, compares in constant time (`Mac::verify_slice`), and rejects
//! timestamps outside a tolerance in either direction (replay protection).

use std::fmt;
use std::time::Duration;

use hmac::{Hmac, KeyInit, Mac};
use jiff::Timestamp;
use sha2::Sha256;

use super::event::{BodyError, Event};

type HmacSha256 = Hmac<Sha256>;

/// The reference verifier's tolerance: five minutes each way.
pub const DEFAULT_TOLERANCE: Duration = Duration::from_secs(300);
/// The largest body accepted: 1 MiB.
pub const MAX_BODY: usize = 1024 * 1024;

/// A webhook signing secret. Never printed: `Debug` is redacted and there is no `Display`.
#[derive(Clone)]
pub struct Secret(Vec<u8>);

impl Secret {
    /// A secret from its bytes; an empty secret is refused (it would sign nothing).
    pub fn new(bytes: impl Into<Vec<u8>>) -> Result<Self, SecretError> {
        let bytes = bytes.into();
        if bytes.is_empty() {
            return Err(SecretError::Empty);
        }
        Ok(Self(bytes))
    }

    /// The secret from the environment variable `name` (never from an argument, so it stays out
    /// of shell history and `ps`).
    pub fn from_env(name: &str) -> Result<Self, SecretError> {
        // Commands run for the user (`|`, `$EDITOR`) must not inherit the secret.
        feedback_core::child_env::withhold(name);
        match std::env::var_os(name) {
            None => Err(SecretError::Unset(name.to_owned())),
            Some(value) if value.is_empty() => Err(SecretError::EmptyVar(name.to_owned())),
            Some(value) => Self::new(value.into_encoded_bytes()),
        }
    }

    fn mac(&self) -> HmacSha256 {
        HmacSha256::new_from_slice(&self.0).expect("HMAC takes keys of any length")
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

/// Why a secret could not be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SecretError {
    #[error("the signing secret is empty")]
    Empty,
    #[error("environment variable {0} is not set; put the webhook's signing secret in it")]
    Unset(String),
    #[error("environment variable {0} is empty; put the webhook's signing secret in it")]
    EmptyVar(String),
}

/// Why a delivery was rejected. Each cause is distinct so a receiver can answer and log it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("the body is {0} bytes, over the 1 MiB limit")]
    TooLarge(usize),
    #[error("the X-Service-Timestamp header is missing")]
    MissingTimestamp,
    #[error("the X-Service-Signature header is missing")]
    MissingSignature,
    #[error("the timestamp is not a whole number of Unix seconds")]
    BadTimestamp,
    #[error("the signature is not 64 hexadecimal digits")]
    BadSignatureHex,
    #[error("the signature does not match the body and timestamp (wrong secret, or altered)")]
    Mismatch,
    #[error("the timestamp is {0} s old, beyond the {1} s tolerance (a replay?)")]
    TooOld(u64, u64),
    #[error("the timestamp is {0} s in the future, beyond the {1} s tolerance")]
    TooNew(u64, u64),
    #[error("signature valid, but {0}")]
    Body(#[from] BodyError),
}

impl VerifyError {
    /// True when the signature check itself failed (answered 401), as opposed to a size or
    /// body problem.
    #[must_use]
    pub fn is_authentication(&self) -> bool {
        !matches!(self, Self::TooLarge(_) | Self::Body(_))
    }
}

/// What arrived with a delivery.
#[derive(Debug, Clone, Copy)]
pub struct Delivery<'a> {
    /// `X-Service-Timestamp`, if present.
    pub timestamp: Option<&'a str>,
    /// `X-Service-Signature`, if present.
    pub signature: Option<&'a str>,
    /// The exact raw body.
    pub body: &'a [u8],
}

/// Verifies a delivery and returns its event. JSON is parsed only after the signature holds.
pub fn verify(
    secret: &Secret,
    delivery: Delivery<'_>,
    now: Timestamp,
    tolerance: Duration,
) -> Result<Event, VerifyError> {
    if delivery.body.len() > MAX_BODY {
        return Err(VerifyError::TooLarge(delivery.body.len()));
    }
    let timestamp = delivery
        .timestamp
        .ok_or(VerifyError::MissingTimestamp)?
        .trim();
    let signature = delivery.signature.ok_or(VerifyError::MissingSignature)?;
    let seconds = parse_timestamp(timestamp)?;
    let expected = parse_signature(signature)?;
    let mut mac = secret.mac();
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(delivery.body);
    mac.verify_slice(&expected)
        .map_err(|_| VerifyError::Mismatch)?;
    check_age(seconds, now, tolerance)?;
    Ok(Event::parse(delivery.body)?)
}

/// The hex signature the service sends for `body` signed at `timestamp` (Unix seconds).
#[must_use]
pub fn sign(secret: &Secret, timestamp: i64, body: &[u8]) -> String {
    let mut mac = secret.mac();
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    hex::encode(mac.finalize().into_bytes())
}

fn parse_timestamp(text: &str) -> Result<i64, VerifyError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(VerifyError::BadTimestamp);
    }
    text.parse().map_err(|_| VerifyError::BadTimestamp)
}

fn parse_signature(text: &str) -> Result<Vec<u8>, VerifyError> {
    let bytes = hex::decode(text.trim()).map_err(|_| VerifyError::BadSignatureHex)?;
    if bytes.len() == 32 {
        Ok(bytes)
    } else {
        Err(VerifyError::BadSignatureHex)
    }
}

fn check_age(seconds: i64, now: Timestamp, tolerance: Duration) -> Result<(), VerifyError> {
    let limit = tolerance.as_secs();
    let age = i128::from(now.as_second()) - i128::from(seconds);
    let off = u64::try_from(age.unsigned_abs()).unwrap_or(u64::MAX);
    match age {
        a if a > 0 && off > limit => Err(VerifyError::TooOld(off, limit)),
        a if a < 0 && off > limit => Err(VerifyError::TooNew(off, limit)),
        _ => Ok(()),
    }
}
