//! How a message leaves: SMTP (lettre, TLS by rustls with the platform's verifier and the
//! `ca_file`'s roots: STARTTLS required off loopback, `smtps://` TLS from the first byte, plain
//! only to a server on this machine) or a sendmail program (the message on its stdin, as
//! `sendmail -i -f FROM -- TO` takes it, without the program's secrets in its environment).
//! A send's failure says whether trying again may work (the server was away, or said "later")
//! or not (it refused the address for good). The SMTP password is asked of its command when
//! the mailer is made, kept only in the transport, and never shown.

use std::io::Write as _;
use std::net::IpAddr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use feedback_config::mail::{MailSettings, Via};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{Address, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

/// How long one SMTP conversation may take.
const SMTP_TIMEOUT: Duration = Duration::from_secs(30);
/// How long the password command may run.
const PASSWORD_TIMEOUT: Duration = Duration::from_secs(30);

/// Why mail cannot be sent this way at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("[mail] smtp_url: {0}")]
    Url(String),
    #[error("[mail] ca_file {path}: {why}")]
    CaFile { path: String, why: String },
    #[error("[mail] password_command failed: {0}")]
    Password(String),
    #[error("[mail] mailto hands each reply to the desktop's mail client: it sends nothing itself")]
    Mailto,
}

/// What became of one send.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// Trying again later may work (no connection, a timeout, a 4xx answer).
    #[error("{0}")]
    Later(String),
    /// The server refused it for good (a 5xx answer), or the program failed.
    #[error("{0}")]
    Refused(String),
}

/// A way to send mail, made from `[mail]`.
pub enum Mailer {
    Smtp {
        transport: AsyncSmtpTransport<Tokio1Executor>,
        /// `host:port`, for messages.
        server: String,
    },
    Sendmail {
        program: String,
    },
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Smtp { server, .. } => write!(f, "Mailer::Smtp({server})"),
            Self::Sendmail { program } => write!(f, "Mailer::Sendmail({program})"),
        }
    }
}

/// Whether `host` is this machine (where mail may go unencrypted).
fn loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

impl Mailer {
    /// The mailer `[mail]` configures: for SMTP, its password asked of `password_command` now.
    ///
    /// # Errors
    /// The URL does not read, the CA file does not, the password command fails, or `mailto`
    /// (which sends nothing itself).
    pub fn new(settings: &MailSettings) -> Result<Self, SetupError> {
        match &settings.via {
            Via::Smtp {
                url,
                username,
                password_command,
                ca_file,
            } => {
                let password = match password_command {
                    Some(command) => Some(
                        feedback_config::key_command::run(command, PASSWORD_TIMEOUT)
                            .map_err(|e| SetupError::Password(e.to_string()))?,
                    ),
                    None => None,
                };
                let credentials = username
                    .clone()
                    .map(|user| Credentials::new(user, password.unwrap_or_default()));
                smtp(url, credentials, ca_file.as_deref())
            }
            Via::Sendmail { program } => Ok(Self::Sendmail {
                program: program.clone(),
            }),
            Via::Mailto => Err(SetupError::Mailto),
        }
    }

    /// Hands `message` to the server (or the program), from `from` to `to`.
    ///
    /// # Errors
    /// It was not sent: whether to try again later says [`SendError`].
    pub async fn send(&self, message: Message) -> Result<(), SendError> {
        match self {
            Self::Smtp { transport, server } => transport
                .send(message)
                .await
                .map(|_| ())
                .map_err(|e| smtp_error(&e, server)),
            Self::Sendmail { program } => {
                let program = program.clone();
                tokio::task::spawn_blocking(move || sendmail(&program, &message))
                    .await
                    .map_err(|e| SendError::Later(e.to_string()))?
            }
        }
    }

    /// Checks that mail can leave this way, sending nothing: the SMTP server answers (TLS and
    /// login included), or the program is there to run.
    ///
    /// # Errors
    /// Why it cannot.
    pub async fn check(&self) -> Result<String, String> {
        match self {
            Self::Smtp { transport, server } => match transport.test_connection().await {
                Ok(true) => Ok(format!("{server} answers")),
                Ok(false) => Err(format!("{server} does not answer")),
                Err(e) => Err(smtp_error(&e, server).to_string()),
            },
            Self::Sendmail { program } => {
                if which(program) {
                    Ok(format!("{program} is there to run"))
                } else {
                    Err(format!("{program} is not a program on this machine"))
                }
            }
        }
    }
}

/// The SMTP mailer of `url`.
fn smtp(
    url: &str,
    credentials: Option<Credentials>,
    ca_file: Option<&Path>,
) -> Result<Mailer, SetupError> {
    let parsed = url::Url::parse(url).map_err(|e| SetupError::Url(e.to_string()))?;
    let host = parsed
        .host_str()
        .filter(|h| !h.is_empty())
        .ok_or_else(|| SetupError::Url("it names no host".to_owned()))?
        .to_owned();
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(SetupError::Url(
            "put the login in username and password_command, not in the URL".to_owned(),
        ));
    }
    let (implicit, default_port) = match parsed.scheme() {
        "smtp" => (false, 587),
        "smtps" => (true, 465),
        other => {
            return Err(SetupError::Url(format!(
                "it is smtp:// or smtps://, not {}://",
                feedback_core::text::Clean::line(other)
            )));
        }
    };
    let port = parsed.port().unwrap_or(default_port);
    let _already_installed = rustls::crypto::ring::default_provider().install_default();
    let domain = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_owned();
    let mut params = TlsParameters::builder(domain);
    if let Some(path) = ca_file {
        let failed = |why: String| SetupError::CaFile {
            path: path.display().to_string(),
            why,
        };
        let pem = std::fs::read(path).map_err(|e| failed(e.to_string()))?;
        let cert = Certificate::from_pem(&pem).map_err(|e| failed(e.to_string()))?;
        params = params.add_root_certificate(cert);
    }
    let params = params
        .build_rustls()
        .map_err(|e| SetupError::Url(e.to_string()))?;
    let tls = match (implicit, loopback(&host)) {
        (true, _) => Tls::Wrapper(params),
        // On this machine STARTTLS is used when the server offers it.
        (false, true) => Tls::Opportunistic(params),
        (false, false) => Tls::Required(params),
    };
    let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host.clone())
        .port(port)
        .tls(tls)
        .timeout(Some(SMTP_TIMEOUT));
    if let Some(credentials) = credentials {
        builder = builder.credentials(credentials);
    }
    Ok(Mailer::Smtp {
        transport: builder.build(),
        server: format!("{host}:{port}"),
    })
}

/// A send's error as words, with whether trying again may work.
fn smtp_error(error: &lettre::transport::smtp::Error, server: &str) -> SendError {
    let words = feedback_core::text::Clean::line(&error.to_string()).to_string();
    let words = match error.status() {
        Some(code) => format!("{server} answered {code}: {words}"),
        None => format!("{server}: {words}"),
    };
    if error.is_permanent() {
        SendError::Refused(words)
    } else {
        SendError::Later(words)
    }
}

/// Runs `program -i -f FROM -- TO…` with the message on its stdin; sent when it exits 0.
fn sendmail(program: &str, message: &Message) -> Result<(), SendError> {
    let envelope = message.envelope();
    let mut command = Command::new(program);
    feedback_core::child_env::scrub(&mut command).arg("-i");
    if let Some(from) = envelope.from() {
        command.arg("-f").arg(from);
    }
    command
        .arg("--")
        .args(envelope.to().iter().map(Address::to_string))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = command
        .spawn()
        .map_err(|e| SendError::Later(format!("{program} could not run: {e}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(&message.formatted());
    }
    let output = child
        .wait_with_output()
        .map_err(|e| SendError::Later(format!("{program}: {e}")))?;
    if output.status.success() {
        return Ok(());
    }
    let said = String::from_utf8_lossy(&output.stderr);
    let said = feedback_core::text::Clean::line(said.trim());
    Err(SendError::Refused(format!(
        "{program} exited with {}: {said}",
        output
            .status
            .code()
            .map_or("a signal".to_owned(), |c| c.to_string())
    )))
}

/// Whether `program` is a file to run, or a name found on `PATH`.
fn which(program: &str) -> bool {
    let path = Path::new(program);
    if path.components().count() > 1 {
        return path.is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn smtp_settings(url: &str) -> MailSettings {
        MailSettings {
            from: "s@acme.example".to_owned(),
            via: Via::Smtp {
                url: url.to_owned(),
                username: None,
                password_command: None,
                ca_file: None,
            },
            per_minute: 30,
        }
    }

    #[test]
    fn only_smtp_urls_without_a_login_in_them_make_a_mailer() {
        assert!(matches!(
            Mailer::new(&smtp_settings("smtp://mail.acme.example")).unwrap(),
            Mailer::Smtp { ref server, .. } if server == "mail.acme.example:587"
        ));
        assert!(matches!(
            Mailer::new(&smtp_settings("smtps://mail.acme.example")).unwrap(),
            Mailer::Smtp { ref server, .. } if server == "mail.acme.example:465"
        ));
        for bad in [
            "http://x.example",
            "smtp://user:secret@x.example",
            "smtp://",
            "nope",
        ] {
            let error = Mailer::new(&smtp_settings(bad)).unwrap_err();
            assert!(!error.to_string().contains("secret"), "{error}");
        }
        assert!(loopback("127.0.0.1") && loopback("[::1]") && loopback("LOCALHOST"));
        assert!(!loopback("mail.acme.example") && !loopback("10.0.0.1"));
    }
}
