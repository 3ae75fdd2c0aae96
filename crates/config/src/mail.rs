//! `[mail]`: how a reply to a reporter leaves. One way of three: `smtp_url` (`smtp://HOST:PORT`
//! with STARTTLS, required off loopback; `smtps://HOST:PORT` with TLS from the first byte; a
//! `username` and a `password_command`, run like `api_key_command` when a reply is sent, never
//! stored), `sendmail` (a program that takes the message on stdin, as `sendmail -t` does), or
//! `mailto = true` (the desktop's mail client; the reply is recorded once the user says it
//! went). `from` is the address replies come from; `per_minute` paces a bulk reply (default
//! [`DEFAULT_PER_MINUTE`]); `ca_file` adds a PEM root for an SMTP server with a private CA.
//! `[[templates]]` are replies to start from: a `name`, a `subject` and a `body`, with
//! variables such as `{app}` and `{ticket}` filled in when composed.

use std::path::PathBuf;

use serde::Deserialize;

use super::ConfigError;

/// Replies a bulk send takes a minute when the config does not say.
pub const DEFAULT_PER_MINUTE: u32 = 30;
/// The paces the config may give, replies a minute.
pub const PER_MINUTE: std::ops::RangeInclusive<u32> = 1..=600;

/// The `[mail]` table.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct MailConfig {
    /// `Support <support@acme.example>`: the replies' From.
    pub from: Option<String>,
    pub smtp_url: Option<String>,
    pub username: Option<String>,
    /// A command whose first line of output is the SMTP password (a password manager).
    pub password_command: Option<String>,
    /// A program that sends the message it reads on stdin (`/usr/sbin/sendmail`).
    pub sendmail: Option<String>,
    /// Hand each reply to the desktop's mail client instead.
    pub mailto: Option<bool>,
    pub per_minute: Option<u32>,
    /// A PEM file of root certificates the SMTP server's is checked against too.
    pub ca_file: Option<PathBuf>,
}

/// One `[[templates]]` entry.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Template {
    pub name: String,
    /// The subject (default: `Re: your feedback on {app}`).
    pub subject: Option<String>,
    pub body: String,
    /// The member who shared it with the team (a team's template, never read from the file);
    /// `None`: this config's own.
    #[serde(skip)]
    pub shared_by: Option<String>,
}

/// How replies leave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Via {
    Smtp {
        url: String,
        username: Option<String>,
        /// Run when a reply is sent (its output is the password; never kept).
        password_command: Option<String>,
        ca_file: Option<PathBuf>,
    },
    Sendmail {
        program: String,
    },
    Mailto,
}

/// `[mail]`, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailSettings {
    /// The From address as written (checked as an address where a message is made).
    pub from: String,
    pub via: Via,
    pub per_minute: u32,
}

impl MailSettings {
    /// The settings `[mail]` gives; `None` without a `[mail]` table.
    ///
    /// # Errors
    /// No way or more than one way of sending, no `from` to send from, a pace out of range, or a
    /// password command without a username.
    pub fn from_config(config: Option<&MailConfig>) -> Result<Option<Self>, ConfigError> {
        let Some(config) = config else {
            return Ok(None);
        };
        let bad = |why: &str| ConfigError::Mail(why.to_owned());
        let mailto = config.mailto.unwrap_or(false);
        let ways = usize::from(config.smtp_url.is_some())
            + usize::from(config.sendmail.is_some())
            + usize::from(mailto);
        if ways != 1 {
            return Err(bad(
                "[mail] takes one way to send: smtp_url, sendmail or mailto = true",
            ));
        }
        let from = config.from.clone().filter(|f| !f.trim().is_empty());
        let per_minute = config.per_minute.unwrap_or(DEFAULT_PER_MINUTE);
        if !PER_MINUTE.contains(&per_minute) {
            return Err(bad(&format!(
                "[mail] per_minute is {} to {} replies a minute",
                PER_MINUTE.start(),
                PER_MINUTE.end()
            )));
        }
        if config.password_command.is_some() && config.username.is_none() {
            return Err(bad("[mail] password_command needs a username"));
        }
        let via = if let Some(url) = &config.smtp_url {
            Via::Smtp {
                url: url.trim().to_owned(),
                username: config.username.clone(),
                password_command: config.password_command.clone(),
                ca_file: config.ca_file.clone(),
            }
        } else if let Some(program) = &config.sendmail {
            Via::Sendmail {
                program: program.trim().to_owned(),
            }
        } else {
            Via::Mailto
        };
        let from = match (from, &via) {
            (Some(from), _) => from.trim().to_owned(),
            // The mail client sends from the user's own address.
            (None, Via::Mailto) => String::new(),
            (None, _) => return Err(bad("[mail] needs from = \"Name <address>\" to send from")),
        };
        Ok(Some(Self {
            from,
            via,
            per_minute,
        }))
    }
}

/// The templates, checked: each named once, with a body.
///
/// # Errors
/// A template without a name or a body, or a name given twice.
pub fn templates(templates: &[Template]) -> Result<Vec<Template>, ConfigError> {
    let mut seen = std::collections::BTreeSet::new();
    for t in templates {
        if t.name.trim().is_empty() || t.body.trim().is_empty() {
            return Err(ConfigError::Mail(
                "each [[templates]] entry needs a name and a body".to_owned(),
            ));
        }
        if !seen.insert(t.name.trim().to_lowercase()) {
            return Err(ConfigError::Mail(format!(
                "[[templates]] names \"{}\" twice",
                feedback_core::text::Clean::line(&t.name)
            )));
        }
    }
    Ok(templates.to_vec())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn settings(toml: &str) -> Result<Option<MailSettings>, ConfigError> {
        let file = crate::parse(toml).unwrap();
        MailSettings::from_config(file.mail.as_ref())
    }

    #[test]
    fn one_way_to_send_from_an_address_at_a_sane_pace() {
        let smtp = settings(
            "[mail]\nfrom = \"Support <s@acme.example>\"\nsmtp_url = \"smtp://mail.acme.example:587\"\n\
             username = \"s\"\npassword_command = \"pass show smtp\"\n",
        )
        .unwrap()
        .unwrap();
        assert_eq!(smtp.from, "Support <s@acme.example>");
        assert_eq!(smtp.per_minute, DEFAULT_PER_MINUTE);
        assert!(matches!(
            smtp.via,
            Via::Smtp { ref url, ref password_command, .. }
                if url == "smtp://mail.acme.example:587" && password_command.is_some()
        ));
        let sendmail = settings(
            "[mail]\nfrom = \"s@acme.example\"\nsendmail = \"/usr/sbin/sendmail\"\nper_minute = 5\n",
        )
        .unwrap()
        .unwrap();
        assert_eq!(sendmail.per_minute, 5);
        let mailto = settings("[mail]\nmailto = true\n").unwrap().unwrap();
        assert_eq!(mailto.via, Via::Mailto);
        assert_eq!(settings("").unwrap(), None);
        for bad in [
            "[mail]\nfrom = \"s@a.example\"\n",
            "[mail]\nfrom = \"s@a.example\"\nsmtp_url = \"smtp://h\"\nsendmail = \"x\"\n",
            "[mail]\nsmtp_url = \"smtp://h\"\n",
            "[mail]\nfrom = \"s@a.example\"\nsmtp_url = \"smtp://h\"\nper_minute = 0\n",
            "[mail]\nfrom = \"s@a.example\"\nsmtp_url = \"smtp://h\"\npassword_command = \"x\"\n",
        ] {
            assert!(settings(bad).is_err(), "{bad}");
        }
        assert!(crate::parse("[mail]\nfrom = \"a\"\npasword = \"x\"\n").is_err());
    }

    #[test]
    fn templates_are_named_once_and_have_a_body() {
        let file = crate::parse(
            "[[templates]]\nname = \"Fixed\"\nbody = \"Fixed in {version}.\"\n\
             [[templates]]\nname = \"Logs\"\nsubject = \"Logs for {ticket}\"\nbody = \"Send logs\"\n",
        )
        .unwrap();
        let kept = templates(&file.templates).unwrap();
        assert_eq!(kept[1].subject.as_deref(), Some("Logs for {ticket}"));
        let twice = crate::parse(
            "[[templates]]\nname = \"A\"\nbody = \"x\"\n[[templates]]\nname = \"a\"\nbody = \"y\"\n",
        )
        .unwrap();
        assert!(templates(&twice.templates).is_err());
        let empty = crate::parse("[[templates]]\nname = \"A\"\nbody = \" \"\n").unwrap();
        assert!(templates(&empty.templates).is_err());
    }
}
