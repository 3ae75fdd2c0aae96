//! `R`: a reply to the reporters of the marked items (or the selected one), as the inbox holds
//! it while it is composed: one recipient per distinct address (their first item the one it is
//! about), a template chosen (when `[[templates]]` or the team has any), the subject and the text edited,
//! then a confirm screen (From, To, Subject, the first lines) where `y` sends and any other key
//! goes back to the text, kept. The replies are written to the store's outbox before anything
//! leaves; the runtime sends them (`feedback_mail`), once.

use feedback_config::mail::{MailSettings, Template};
use feedback_core::text::Clean;
use feedback_mail::template::{self, Values};
use ratatui_textarea::TextArea;

/// One reporter a reply goes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipient {
    /// The address, checked (as the service sent it).
    pub to: String,
    /// Their items among those replied to, the first the one the reply is about.
    pub item_ids: Vec<String>,
    /// The first item's values for the template's variables.
    pub values: Values,
    /// The first item's message, quoted below the reply.
    pub message: String,
    /// When they wrote it (`2026-11-30`).
    pub written: String,
}

/// Where the composer is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Choosing a template (the first entry: a blank reply).
    Template { selected: usize },
    /// Editing the subject (`subject_focus`) or the text.
    Edit { subject_focus: bool },
    /// The confirm screen.
    Confirm,
    /// Written to the outbox, being sent.
    Sending,
    /// Handed to the desktop's mail client (`mailto`): recorded as sent once the user says
    /// they went.
    AskSent {
        replies: Vec<feedback_store::NewReply>,
    },
}

/// The reply being composed.
#[derive(Debug, Clone)]
pub struct Composer {
    pub recipients: Vec<Recipient>,
    /// Items without a usable address, left out (said on the confirm screen).
    pub skipped: usize,
    pub templates: Vec<Template>,
    pub step: Step,
    pub subject: String,
    pub body: TextArea<'static>,
    /// Why the last `Enter` did not go on (an unknown variable, an empty subject).
    pub error: Option<Clean>,
    /// A teammate answered one of these reporters in the last day: said before `y`.
    pub answered: Option<Clean>,
}

impl Composer {
    /// A composer for `recipients`, on the template picker when there are templates, else on
    /// a blank reply with the default subject.
    #[must_use]
    pub fn new(recipients: Vec<Recipient>, skipped: usize, templates: Vec<Template>) -> Self {
        let step = if templates.is_empty() {
            Step::Edit {
                subject_focus: false,
            }
        } else {
            Step::Template { selected: 0 }
        };
        Self {
            recipients,
            skipped,
            templates,
            step,
            subject: template::DEFAULT_SUBJECT.to_owned(),
            body: TextArea::default(),
            error: None,
            answered: None,
        }
    }

    /// Starts from `template` (`None`: a blank reply).
    pub fn take_template(&mut self, template: Option<usize>) {
        let chosen = template.and_then(|n| self.templates.get(n));
        self.subject = chosen
            .and_then(|t| t.subject.clone())
            .unwrap_or_else(|| template::DEFAULT_SUBJECT.to_owned());
        let body = chosen.map(|t| t.body.clone()).unwrap_or_default();
        self.body = TextArea::new(body.lines().map(str::to_owned).collect());
        self.step = Step::Edit {
            subject_focus: false,
        };
    }

    /// The text as typed.
    #[must_use]
    pub fn text(&self) -> String {
        self.body.lines().join("\n")
    }

    /// Each recipient's subject and text, its variables filled in and the reporter's message
    /// quoted below.
    ///
    /// # Errors
    /// An unknown variable, a subject that is no one line, or an empty text.
    pub fn filled(&self) -> Result<Vec<(Recipient, String, String)>, String> {
        let text = self.text();
        if text.trim().is_empty() {
            return Err("the reply is empty".to_owned());
        }
        self.recipients
            .iter()
            .map(|r| {
                let subject =
                    template::fill(&self.subject, &r.values).map_err(|e| e.to_string())?;
                let subject =
                    feedback_mail::compose::subject(&subject).map_err(|e| e.to_string())?;
                let body = template::fill(&text, &r.values).map_err(|e| e.to_string())?;
                Ok((
                    r.clone(),
                    subject,
                    template::with_quote(&body, &r.message, &r.written),
                ))
            })
            .collect()
    }
}

/// The most replies handed to the mail client at once (each opens a window of its own).
pub const MAILTO_MAX: usize = 10;

/// The `mailto:` address of a reply to `to` (RFC 6068: every reserved character of the
/// subject and the text percent-encoded, line breaks as CRLF).
#[must_use]
pub fn mailto(to: &str, subject: &str, body: &str) -> String {
    use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
    let body = body.replace("\r\n", "\n").replace('\n', "\r\n");
    format!(
        "mailto:{}?subject={}&body={}",
        utf8_percent_encode(to, NON_ALPHANUMERIC),
        utf8_percent_encode(subject, NON_ALPHANUMERIC),
        utf8_percent_encode(&body, NON_ALPHANUMERIC)
    )
}

/// The team's shared templates as the composer offers them.
#[must_use]
pub fn team_templates(shared: &[feedback_store::TeamTemplate]) -> Vec<Template> {
    shared
        .iter()
        .map(|t| Template {
            name: t.name.clone(),
            subject: t.subject.clone(),
            body: t.body.clone(),
            shared_by: Some(t.shared_by.clone()),
        })
        .collect()
}

/// The inbox's mail settings: how replies leave (none without `[mail]`) and the templates.
#[derive(Debug, Clone, Default)]
pub struct MailState {
    pub settings: Option<MailSettings>,
    pub templates: Vec<Template>,
    /// The team's shared templates, offered after `templates`.
    pub team_templates: Vec<Template>,
    /// The reply being composed.
    pub composer: Option<Composer>,
    /// Replies written to the outbox and being sent (the status bar says so).
    pub sending: usize,
}

impl MailState {
    /// The templates `R` offers: this config's own, then the team's.
    #[must_use]
    pub fn offered(&self) -> Vec<Template> {
        self.templates
            .iter()
            .chain(&self.team_templates)
            .cloned()
            .collect()
    }
}

/// What became of one reply the runtime sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentReply {
    pub to: String,
    pub sent: bool,
    /// Why it was not sent, and whether it waits to be tried again.
    pub why: Option<String>,
    pub waits: bool,
    /// Its fate is unknown (its sender was killed mid-send): never sent again on its own.
    pub unknown: bool,
}
