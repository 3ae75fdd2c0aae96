//! The account's API key: a bearer secret of the form `service_{eu|us}_sk_<secret>`.
//!
//! The key is checked for form when it enters the program, never appears in `Debug` output, and
//! error messages about it describe the problem without echoing it. A key put in the wrong place
//! (in the base URL variable, under another config field) could still be echoed by a message
//! about that place, so [`redact_keys`] blanks anything of the key's form in such messages.

use std::borrow::Cow;
use std::fmt;

use thiserror::Error;

use super::model::Region;

const PREFIX: &str = "service_";
const SECRET_MARK: &str = "_sk_";

/// A validated API key. Its `Debug` shows only the region.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey {
    secret: Box<str>,
    region: Region,
}

/// What is wrong with a key's form. Messages never contain the key itself.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum KeyError {
    #[error("the API key is empty")]
    Empty,
    #[error("the API key contains spaces or line breaks; copy it again without extra characters")]
    Whitespace,
    #[error(
        "the API key must start with service_eu_sk_ or service_us_sk_ (a secret key from /account/api-keys)"
    )]
    WrongForm,
    #[error("the API key names region \"{0}\"; expected eu or us")]
    UnknownRegion(String),
    #[error("the API key has no secret after service_{0}_sk_")]
    MissingSecret(String),
}

impl ApiKey {
    /// Checks the form `service_{region}_sk_<secret>`; surrounding whitespace is trimmed.
    pub fn parse(raw: &str) -> Result<Self, KeyError> {
        let key = raw.trim();
        if key.is_empty() {
            return Err(KeyError::Empty);
        }
        if key.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(KeyError::Whitespace);
        }
        let rest = key.strip_prefix(PREFIX).ok_or(KeyError::WrongForm)?;
        let (region, secret) = rest.split_once(SECRET_MARK).ok_or(KeyError::WrongForm)?;
        let region = match region {
            "eu" => Region::Eu,
            "us" => Region::Us,
            other if other.len() <= 8 && other.chars().all(|c| c.is_ascii_alphanumeric()) => {
                return Err(KeyError::UnknownRegion(other.to_owned()));
            }
            _ => return Err(KeyError::WrongForm),
        };
        if secret.is_empty() {
            return Err(KeyError::MissingSecret(region.to_string()));
        }
        Ok(Self {
            secret: key.into(),
            region,
        })
    }

    /// The region the key implies (`eu` or `us`).
    #[must_use]
    pub fn region(&self) -> &Region {
        &self.region
    }

    /// The secret itself, for the Authorization header only.
    #[must_use]
    pub fn expose(&self) -> &str {
        &self.secret
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKey(service_{}_sk_<redacted>)", self.region)
    }
}

/// What a redacted secret is shown as.
const REDACTED: &str = "<redacted>";

/// `text` with the secret of every `service_<region>_sk_<secret>` (any case) replaced by
/// `<redacted>`; borrowed when there is none.
#[must_use]
pub fn redact_keys(text: &str) -> Cow<'_, str> {
    let lower = text.to_ascii_lowercase();
    let mut out = String::new();
    let mut copied = 0;
    let mut from = 0;
    while let Some(found) = lower[from..].find(PREFIX) {
        let start = from + found;
        from = start + PREFIX.len();
        let Some(secret) = secret_span(&lower, from) else {
            continue;
        };
        out.push_str(&text[copied..secret.start]);
        out.push_str(REDACTED);
        copied = secret.end;
        from = secret.end;
    }
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// Where the secret lies when `service_` ends at `at`: after a short alphanumeric region and
/// `_sk_`, up to a character no key contains. `None` when there is no secret.
fn secret_span(lower: &str, at: usize) -> Option<std::ops::Range<usize>> {
    let rest = &lower[at..];
    let region = rest
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(rest.len());
    if !(1..=16).contains(&region) || !rest[region..].starts_with(SECRET_MARK) {
        return None;
    }
    let start = at + region + SECRET_MARK.len();
    let len = lower[start..]
        .find(|c: char| {
            !c.is_ascii()
                || c.is_ascii_whitespace()
                || c.is_ascii_control()
                || "\"'`<>()[]{},;".contains(c)
        })
        .unwrap_or(lower.len() - start);
    (len > 0).then_some(start..start + len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_shaped_values_are_redacted_wherever_they_appear() {
        let cases = [
            (
                "the base URL \"service_eu_sk_hunter2\" is not valid",
                "the base URL \"service_eu_sk_<redacted>\" is not valid",
            ),
            (
                "https://SERVICE_US_SK_Hunter2.example/v1",
                "https://SERVICE_US_SK_<redacted>",
            ),
            (
                "a service_ap_sk_x/y+z= b service_eu_sk_q",
                "a service_ap_sk_<redacted> b service_eu_sk_<redacted>",
            ),
            (
                "service_eu_sk_ and service_sk_x and service_eu_pk_x",
                "service_eu_sk_ and service_sk_x and service_eu_pk_x",
            ),
            (
                "service_service_eu_sk_abc…",
                "service_service_eu_sk_<redacted>…",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(redact_keys(text), expected, "{text}");
        }
        assert!(matches!(redact_keys("nothing here"), Cow::Borrowed(_)));
    }

    #[test]
    fn valid_keys_give_their_region() {
        let eu = ApiKey::parse(" service_eu_sk_abc123\n").unwrap();
        assert_eq!(eu.region(), &Region::Eu);
        assert_eq!(eu.expose(), "service_eu_sk_abc123");
        assert_eq!(
            ApiKey::parse("service_us_sk_x").unwrap().region(),
            &Region::Us
        );
    }

    #[test]
    fn malformed_keys_say_what_is_wrong_without_echoing_the_key() {
        let cases = [
            ("", KeyError::Empty),
            ("service_eu_sk_ab cd", KeyError::Whitespace),
            ("sk_live_secret123", KeyError::WrongForm),
            ("service_eu_pk_secret123", KeyError::WrongForm),
            (
                "service_ap_sk_secret123",
                KeyError::UnknownRegion("ap".into()),
            ),
            ("service_eu_sk_", KeyError::MissingSecret("eu".into())),
        ];
        for (raw, expected) in cases {
            let err = ApiKey::parse(raw).unwrap_err();
            assert_eq!(err, expected, "{raw:?}");
            assert!(!err.to_string().contains("secret123"));
        }
    }

    #[test]
    fn debug_redacts_the_secret() {
        let key = ApiKey::parse("service_eu_sk_topsecret").unwrap();
        let shown = format!("{key:?}");
        assert!(!shown.contains("topsecret"), "{shown}");
        assert!(shown.contains("eu"));
    }
}
