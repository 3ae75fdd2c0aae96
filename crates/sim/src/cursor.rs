//! Keyset cursors: opaque, URL-safe, and tamper-evident. A cursor carries the position (the last
//! item's received_at and id) and a fingerprint of the filters it was issued for, sealed with an
//! HMAC under the simulator's secret; any change, or reuse with other filters, is rejected.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use jiff::Timestamp;
use sha2::{Digest, Sha256};

type HmacSha256 = Hmac<Sha256>;

/// Bytes of the MAC kept in a cursor.
const MAC_LEN: usize = 16;

/// The position after which the next page starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    pub received_at: Timestamp,
    pub id: String,
}

/// Seals and opens cursors.
#[derive(Clone)]
pub(crate) struct CursorCodec {
    secret: [u8; 32],
}

impl std::fmt::Debug for CursorCodec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CursorCodec(<secret>)")
    }
}

impl CursorCodec {
    #[must_use]
    pub(crate) fn new(seed: u64) -> Self {
        let digest = Sha256::digest(format!("feedback-inbox-sim-cursor:{seed}"));
        Self {
            secret: digest.into(),
        }
    }

    /// Encodes `position` for the filter set `filters`.
    #[must_use]
    pub(crate) fn seal(&self, position: &Position, filters: &str) -> String {
        let payload = format!(
            "1.{}.{}.{}",
            position.received_at.as_nanosecond(),
            position.id,
            fingerprint(filters)
        );
        let mut bytes = payload.into_bytes();
        let tag = self.mac(&bytes);
        bytes.extend_from_slice(&tag[..MAC_LEN]);
        URL_SAFE_NO_PAD.encode(bytes)
    }

    /// Decodes a cursor; `None` when it is malformed, altered or issued for other filters.
    #[must_use]
    pub(crate) fn open(&self, cursor: &str, filters: &str) -> Option<Position> {
        let bytes = URL_SAFE_NO_PAD.decode(cursor).ok()?;
        let split = bytes.len().checked_sub(MAC_LEN)?;
        let (payload, tag) = bytes.split_at(split);
        let mut mac = self.keyed();
        mac.update(payload);
        mac.verify_truncated_left(tag).ok()?;
        let text = std::str::from_utf8(payload).ok()?;
        let mut parts = text.splitn(4, '.');
        let (version, nanos, id, fp) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        if version != "1" || fp != fingerprint(filters) {
            return None;
        }
        let received_at = Timestamp::from_nanosecond(nanos.parse().ok()?).ok()?;
        Some(Position {
            received_at,
            id: id.to_owned(),
        })
    }

    fn keyed(&self) -> HmacSha256 {
        // HMAC accepts keys of any length; this cannot fail for a 32-byte key.
        <HmacSha256 as KeyInit>::new_from_slice(&self.secret).unwrap_or_else(|_| unreachable!())
    }

    fn mac(&self, payload: &[u8]) -> Vec<u8> {
        let mut mac = self.keyed();
        mac.update(payload);
        mac.finalize().into_bytes().to_vec()
    }
}

fn fingerprint(filters: &str) -> String {
    hex::encode(&Sha256::digest(filters.as_bytes())[..8])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position() -> Position {
        Position {
            received_at: "2026-10-01T10:00:00.123Z".parse().unwrap(),
            id: "ab23cd45".into(),
        }
    }

    #[test]
    fn sealed_cursor_opens_for_the_same_filters_only() {
        let codec = CursorCodec::new(1);
        let cursor = codec.seal(&position(), "status=new");
        assert_eq!(codec.open(&cursor, "status=new"), Some(position()));
        assert_eq!(codec.open(&cursor, "status=archived"), None);
        assert_eq!(CursorCodec::new(2).open(&cursor, "status=new"), None);
    }

    #[test]
    fn any_altered_character_is_rejected() {
        let codec = CursorCodec::new(1);
        let cursor = codec.seal(&position(), "");
        for i in 0..cursor.len() {
            let mut altered: Vec<u8> = cursor.clone().into_bytes();
            altered[i] = if altered[i] == b'A' { b'B' } else { b'A' };
            let altered = String::from_utf8(altered).unwrap();
            assert_eq!(codec.open(&altered, ""), None, "position {i}");
        }
        assert_eq!(codec.open("", ""), None);
        assert_eq!(codec.open("!!!", ""), None);
    }
}
