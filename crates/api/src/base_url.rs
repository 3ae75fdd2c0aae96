//! The service's base address: accepted with or without a trailing `/` or `/v1`, normalised to
//! the root that `v1/...` paths are joined to. Plain `http://` is refused except to loopback,
//! because the API key travels as a bearer header.

use std::net::IpAddr;

use thiserror::Error;
use url::Url;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum BaseUrlError {
    #[error("the base URL \"{0}\" is not a valid URL")]
    Invalid(String),
    #[error(
        "the base URL must use https:// (plain http:// is allowed only to 127.0.0.1, ::1 or localhost, since the API key would travel unencrypted)"
    )]
    InsecureHttp,
    #[error("the base URL must start with https:// (got scheme \"{0}\")")]
    Scheme(String),
    #[error("the base URL must not contain a query, fragment or user info")]
    Extras,
}

/// Parses and normalises a base URL so that it ends with `/` and without `/v1`.
pub fn normalize(raw: &str) -> Result<Url, BaseUrlError> {
    let trimmed = raw.trim();
    let mut url = Url::parse(trimmed).map_err(|_| BaseUrlError::Invalid(shown(trimmed)))?;
    match url.scheme() {
        "https" => {}
        "http" if is_loopback(&url) => {}
        "http" => return Err(BaseUrlError::InsecureHttp),
        other => return Err(BaseUrlError::Scheme(shown(other))),
    }
    if url.host().is_none() {
        return Err(BaseUrlError::Invalid(shown(trimmed)));
    }
    if url.query().is_some()
        || url.fragment().is_some()
        || !url.username().is_empty()
        || url.password().is_some()
    {
        return Err(BaseUrlError::Extras);
    }
    let path = url.path().trim_end_matches('/');
    let path = path.strip_suffix("/v1").unwrap_or(path);
    url.set_path(&format!("{path}/"));
    Ok(url)
}

/// True when the URL's host is a loopback address or `localhost`.
#[must_use]
pub fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(domain)) => domain.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    }
}

/// A value quoted in an error: short, and with anything key-shaped redacted (a key put in the
/// base URL's place must not be echoed).
fn shown(value: &str) -> String {
    feedback_core::excerpt::excerpt(&super::key::redact_keys(value), 80)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_slash_and_v1_are_optional() {
        for raw in [
            "https://api.example.com",
            "https://api.example.com/",
            "https://api.example.com/v1",
            "https://api.example.com/v1/",
        ] {
            assert_eq!(
                normalize(raw).unwrap().as_str(),
                "https://api.example.com/",
                "{raw}"
            );
        }
        assert_eq!(
            normalize("https://example.com/feedback/v1")
                .unwrap()
                .as_str(),
            "https://example.com/feedback/"
        );
    }

    #[test]
    fn plain_http_only_to_loopback() {
        assert!(normalize("http://127.0.0.1:8787").is_ok());
        assert!(normalize("http://[::1]:8787/v1").is_ok());
        assert!(normalize("http://localhost:1").is_ok());
        assert_eq!(
            normalize("http://api.example.com"),
            Err(BaseUrlError::InsecureHttp)
        );
        assert_eq!(
            normalize("http://10.0.0.1"),
            Err(BaseUrlError::InsecureHttp)
        );
        assert!(matches!(normalize("ftp://x"), Err(BaseUrlError::Scheme(_))));
        assert!(matches!(
            normalize("not a url"),
            Err(BaseUrlError::Invalid(_))
        ));
        assert_eq!(normalize("https://u:p@x.com"), Err(BaseUrlError::Extras));
    }
}
