//! A reply as a message: the reporter's address checked as an address, the subject one line
//! (a subject holding a line break or a control is refused, never folded into a header), the
//! body plain UTF-8 text. Every header is one of lettre's types, so no text of the feedback or
//! a template ever becomes a header line of its own.

use std::str::FromStr;

use lettre::Address;
use lettre::message::header::ContentType;
use lettre::message::{Mailbox, Message};

/// The longest subject a reply takes, in characters.
pub const SUBJECT_MAX: usize = 200;

/// Why a reply could not be made into a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ComposeError {
    #[error("not an email address: {0}")]
    Address(feedback_core::text::Clean),
    #[error("[mail] from is not an address: {0}")]
    From(feedback_core::text::Clean),
    #[error("a subject is one line of at most {SUBJECT_MAX} characters, without controls")]
    Subject,
    #[error("the reply is empty")]
    Empty,
    #[error("the message could not be made: {0}")]
    Message(String),
}

/// The reporter's address, as the service sent it, checked: one address, no spaces, no
/// controls, no display name (it is the service's field, not a person's words).
///
/// # Errors
/// It is not one address.
pub fn reporter(email: &str) -> Result<Address, ComposeError> {
    let email = email.trim();
    let refused = || ComposeError::Address(feedback_core::text::Clean::line(email));
    if email.is_empty() || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(refused());
    }
    Address::from_str(email).map_err(|_| refused())
}

/// `[mail] from` (`Name <address>` or an address), checked.
///
/// # Errors
/// It is not a mailbox.
pub fn from(text: &str) -> Result<Mailbox, ComposeError> {
    let refused = || ComposeError::From(feedback_core::text::Clean::line(text));
    if text.chars().any(char::is_control) {
        return Err(refused());
    }
    Mailbox::from_str(text.trim()).map_err(|_| refused())
}

/// `subject`, checked: one line of at most [`SUBJECT_MAX`] characters without controls.
///
/// # Errors
/// It is empty, too long, or holds a line break or a control.
pub fn subject(subject: &str) -> Result<String, ComposeError> {
    let subject = subject.trim();
    if subject.is_empty()
        || subject.chars().count() > SUBJECT_MAX
        || subject.chars().any(char::is_control)
    {
        return Err(ComposeError::Subject);
    }
    Ok(subject.to_owned())
}

/// The message of a reply `reply_id` from `from` to `to`: its Message-ID made from the reply's
/// id (the same reply is the same message), the body plain text.
///
/// # Errors
/// The subject or the body does not check, or lettre refuses the message.
pub fn message(
    from: &Mailbox,
    to: &Address,
    reply_id: &str,
    subject_text: &str,
    body: &str,
) -> Result<Message, ComposeError> {
    let subject = subject(subject_text)?;
    if body.trim().is_empty() {
        return Err(ComposeError::Empty);
    }
    let domain = from.email.domain();
    let id: String = reply_id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    Message::builder()
        .from(from.clone())
        .to(Mailbox::new(None, to.clone()))
        .subject(subject)
        .message_id(Some(format!("<{id}@{domain}>")))
        .header(ContentType::TEXT_PLAIN)
        .body(body.replace("\r\n", "\n"))
        .map_err(|e| ComposeError::Message(e.to_string()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn formatted(message: &Message) -> String {
        String::from_utf8(message.formatted()).unwrap()
    }

    #[test]
    fn only_one_plain_address_is_a_reporters() {
        assert_eq!(
            reporter(" ana@example.org ").unwrap().to_string(),
            "ana@example.org"
        );
        for bad in [
            "",
            "ana",
            "ana@example.org\r\nBcc: everyone@example.org",
            "ana@example.org, bo@example.org",
            "Ana <ana@example.org>",
            "ana @example.org",
            "ana@exa\u{0}mple.org",
        ] {
            assert!(reporter(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn hostile_text_never_becomes_a_header_line() {
        let from = from("Support <support@acme.example>").unwrap();
        let to = reporter("ana@example.org").unwrap();
        assert!(message(&from, &to, "r1", "Re: x\r\nBcc: evil@example.org", "hi").is_err());
        assert!(message(&from, &to, "r1", "Re: x\nBcc: evil@example.org", "hi").is_err());
        assert!(message(&from, &to, "r1", "Re: \u{1b}[2J", "hi").is_err());
        assert!(message(&from, &to, "r1", "", "hi").is_err());
        assert!(matches!(
            message(&from, &to, "r1", "Re: x", "  \n"),
            Err(ComposeError::Empty)
        ));
        // A body line that looks like a header stays in the body.
        let mail = message(
            &from,
            &to,
            "r-1",
            "Re: Ünïcode feedback",
            "Thanks!\r\nBcc: evil@example.org\r\n\r\n> your message",
        )
        .unwrap();
        let text = formatted(&mail);
        let (headers, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(!headers.contains("Bcc"), "{headers}");
        assert!(headers.contains("To: ana@example.org"), "{headers}");
        assert!(
            headers.contains("From: Support <support@acme.example>"),
            "{headers}"
        );
        assert!(
            headers.contains("Message-ID: <r-1@acme.example>"),
            "{headers}"
        );
        assert!(
            headers.contains("Subject: Re: =?utf-8?b?"),
            "encoded: {headers}"
        );
        assert!(body.contains("Bcc: evil@example.org"), "{body}");
        assert!(from_check("Support\r\nBcc: x <s@acme.example>"));
    }

    fn from_check(text: &str) -> bool {
        from(text).is_err()
    }
}
