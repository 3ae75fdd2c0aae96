//! Reaching the team's database: the URL (`[team] url`, `FEEDBACK_TEAM_URL`), its TLS, and the
//! role connected as. The password is never printed: `Debug` and every message name the host,
//! database and role only. TLS is required for any host that is not loopback or a Unix socket
//! (rustls, the certificate verified by the platform's verifier); `sslmode` in the URL is
//! honoured where it asks for more.

use std::str::FromStr;

use tokio::sync::mpsc::UnboundedSender;
use tokio_postgres::config::{Host, SslMode};
use tokio_postgres::{AsyncMessage, Notification};

use super::TeamError;

/// How long a team statement waits for a lock another session holds (a teammate's open
/// transaction, a stuck process) before it gives up, saying so.
pub(crate) const LOCK_TIMEOUT_SECONDS: u32 = 5;
/// How long one team statement may run.
pub(crate) const STATEMENT_TIMEOUT_SECONDS: u32 = 30;
/// How long the server keeps a transaction its client left idle (a process stopped inside one)
/// before it ends the session, and with it every lock the transaction held.
pub(crate) const IDLE_IN_TRANSACTION_SECONDS: u32 = 20;

/// The session settings every team connection starts with, after the URL's own options: no
/// member's stuck session stalls the others for long, and none of ours is stuck for long.
fn session_options(url_options: Option<&str>) -> String {
    let ours = format!(
        "-c lock_timeout={LOCK_TIMEOUT_SECONDS}s -c statement_timeout={STATEMENT_TIMEOUT_SECONDS}s \
         -c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_SECONDS}s"
    );
    match url_options.map(str::trim).filter(|o| !o.is_empty()) {
        Some(theirs) => format!("{theirs} {ours}"),
        None => ours,
    }
}

/// A parsed team URL (a `postgres://` URL or a `key=value` string).
#[derive(Clone)]
pub struct TeamUrl {
    config: tokio_postgres::Config,
}

impl FromStr for TeamUrl {
    type Err = TeamError;

    fn from_str(text: &str) -> Result<Self, TeamError> {
        // The parser's message may quote the text, and the text may hold the password.
        let config = tokio_postgres::Config::from_str(text)
            .map_err(|_| TeamError::Url("not a PostgreSQL URL or connection string".to_owned()))?;
        if config.get_hosts().is_empty() {
            return Err(TeamError::Url("it names no host".to_owned()));
        }
        Ok(Self { config })
    }
}

impl TeamUrl {
    /// The role connected as: the member this process acts as.
    #[must_use]
    pub fn role(&self) -> Option<&str> {
        self.config.get_user()
    }

    /// `role@host/database`, for messages (never the password).
    #[must_use]
    pub fn describe(&self) -> String {
        let host = self
            .config
            .get_hosts()
            .first()
            .map_or_else(String::new, describe_host);
        format!(
            "{}@{host}/{}",
            self.role().unwrap_or("?"),
            self.config.get_dbname().unwrap_or("?")
        )
    }

    /// The same URL for another database on the same server (tests, `team init` of a new one).
    #[must_use]
    pub fn with_database(&self, database: &str) -> Self {
        let mut config = self.config.clone();
        config.dbname(database);
        Self { config }
    }

    /// The same URL as another role, with its password if it has one.
    #[must_use]
    pub fn as_role(&self, role: &str, password: Option<&str>) -> Self {
        let mut config = self.config.clone();
        config.user(role);
        if let Some(password) = password {
            config.password(password);
        }
        Self { config }
    }

    /// The connection string a new member pastes (`key=value` form): this URL's server and
    /// database as `role` with `password`, and `sslmode=require` where the connection must be
    /// encrypted. It holds the password: shown once, to the admin who hands it over.
    #[must_use]
    pub fn for_member(&self, role: &str, password: &str) -> String {
        let quoted = |value: &str| {
            if !value.is_empty()
                && value
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-/:".contains(c))
            {
                value.to_owned()
            } else {
                format!("'{}'", value.replace('\\', "\\\\").replace('\'', "\\'"))
            }
        };
        let mut parts = Vec::new();
        if let Some(host) = self.config.get_hosts().first() {
            parts.push(format!("host={}", quoted(&describe_host(host))));
        }
        if let Some(port) = self.config.get_ports().first() {
            parts.push(format!("port={port}"));
        }
        if let Some(database) = self.config.get_dbname() {
            parts.push(format!("dbname={}", quoted(database)));
        }
        parts.push(format!("user={}", quoted(role)));
        parts.push(format!("password={}", quoted(password)));
        if self.needs_tls() {
            parts.push("sslmode=require".to_owned());
        }
        parts.join(" ")
    }

    /// Whether the connection must be encrypted: any host that is not loopback or a Unix
    /// socket, and any that `sslmode=require` names.
    #[must_use]
    pub fn needs_tls(&self) -> bool {
        self.config.get_ssl_mode() == SslMode::Require
            || self.config.get_hosts().iter().any(|host| !local(host))
    }
}

/// Never the password.
impl std::fmt::Debug for TeamUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TeamUrl")
            .field("at", &self.describe())
            .field(
                "password",
                &self.config.get_password().map(|_| "<redacted>"),
            )
            .finish()
    }
}

fn describe_host(host: &Host) -> String {
    match host {
        Host::Tcp(name) => name.clone(),
        #[cfg(unix)]
        Host::Unix(path) => path.display().to_string(),
    }
}

fn local(host: &Host) -> bool {
    match host {
        Host::Tcp(name) => {
            name == "localhost"
                || name
                    .trim_start_matches('[')
                    .trim_end_matches(']')
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback())
        }
        #[cfg(unix)]
        Host::Unix(_) => true,
    }
}

/// A connection as the URL's role: its client, and the task that drives it (it ends when the
/// client is dropped or the connection breaks). Plain TCP for loopback and Unix sockets, TLS for
/// every other host.
pub async fn connect(url: &TeamUrl) -> Result<Admin, TeamError> {
    connect_with(url, None).await.map(Admin)
}

/// A connection for setting teams up (`team init`, `add-member`, `remove-member`): the
/// [`crate::create_team`] and member calls take it. Its driver's client never leaves the crate,
/// but for the tests of the crates above (the `testing` feature).
pub struct Admin(pub(crate) tokio_postgres::Client);

impl Admin {
    /// The team schema's version in this database; `None` before `team init`.
    pub async fn schema_version(&self) -> Result<Option<i32>, TeamError> {
        crate::schema::version(&self.0).await
    }

    /// The driver's client, for a test that reads or damages the database behind the team's
    /// back.
    #[cfg(feature = "testing")]
    #[must_use]
    pub fn raw(&self) -> &tokio_postgres::Client {
        &self.0
    }

    /// [`Admin::raw`], mutable (a test's transaction).
    #[cfg(feature = "testing")]
    pub fn raw_mut(&mut self) -> &mut tokio_postgres::Client {
        &mut self.0
    }
}

/// A message on a channel the connection listens on (PostgreSQL's `NOTIFY`), as the team
/// backend hands it on: [`crate::Team::hint`] reads what it hints.
#[derive(Debug)]
pub struct Notice(pub(crate) Notification);

#[cfg(feature = "testing")]
impl Notice {
    /// The channel it came on.
    #[must_use]
    pub fn channel(&self) -> &str {
        self.0.channel()
    }

    /// What it says.
    #[must_use]
    pub fn payload(&self) -> &str {
        self.0.payload()
    }
}

/// [`connect`], with the server's notifications (`NOTIFY`, once the client ran `LISTEN`) passed
/// to `notices`; the channel closes when the connection ends.
pub(super) async fn connect_with(
    url: &TeamUrl,
    notices: Option<UnboundedSender<crate::Notice>>,
) -> Result<tokio_postgres::Client, TeamError> {
    let mut config = url.config.clone();
    config.options(session_options(url.config.get_options()));
    if url.needs_tls() {
        config.ssl_mode(SslMode::Require);
        let (client, connection) = config.connect(tls()?).await?;
        tokio::spawn(drive(connection, notices));
        Ok(client)
    } else {
        let (client, connection) = config.connect(tokio_postgres::NoTls).await?;
        tokio::spawn(drive(connection, notices));
        Ok(client)
    }
}

/// Drives the connection until it ends, passing its notifications on.
async fn drive<S, T>(
    mut connection: tokio_postgres::Connection<S, T>,
    notices: Option<UnboundedSender<crate::Notice>>,
) where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    loop {
        match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
            Some(Ok(AsyncMessage::Notification(notice))) => {
                if let Some(notices) = &notices {
                    // The listener went away: the connection still serves its client.
                    let _ = notices.send(Notice(notice));
                }
            }
            Some(Ok(_)) => {}
            Some(Err(error)) => {
                tracing::warn!(%error, "the team database's connection ended");
                return;
            }
            None => return,
        }
    }
}

/// rustls with the platform's certificate verifier.
fn tls() -> Result<tokio_postgres_rustls::MakeRustlsConnect, TeamError> {
    use rustls_platform_verifier::ConfigVerifierExt as _;
    let _already_installed = rustls::crypto::ring::default_provider().install_default();
    let config = rustls::ClientConfig::with_platform_verifier()
        .map_err(|error| TeamError::Tls(error.to_string()))?;
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_new_members_connection_string_reads_back_as_their_role_on_the_same_database() {
        let admin: TeamUrl = "postgres://admin:root-pw@db.example.com:6432/support"
            .parse()
            .unwrap();
        let line = admin.for_member("ana", "0a1b2c");
        assert_eq!(
            line,
            "host=db.example.com port=6432 dbname=support user=ana password=0a1b2c sslmode=require"
        );
        assert!(!line.contains("root-pw"));
        let back: TeamUrl = line.parse().unwrap();
        assert_eq!(back.describe(), "ana@db.example.com/support");
        // A socket folder with a space, a database with a quote: quoted, and read back.
        let local: TeamUrl = r"host='/run/pg sock' dbname='it\'s' user=postgres"
            .parse()
            .unwrap();
        let line = local.for_member("bo", "pw");
        assert!(!line.contains("sslmode"), "{line}");
        let back: TeamUrl = line.parse().unwrap();
        assert_eq!(back.describe(), "bo@/run/pg sock/it's");
    }

    #[test]
    fn the_password_never_shows() {
        let url: TeamUrl = "postgres://ana:s3cr3t-pw@db.example.com/support"
            .parse()
            .unwrap();
        for shown in [format!("{url:?}"), url.describe()] {
            assert!(!shown.contains("s3cr3t-pw"), "{shown}");
            assert!(shown.contains("ana@db.example.com/support"), "{shown}");
        }
        let bad = "postgres://ana:s3cr3t-pw@db.example.com:notaport/x".parse::<TeamUrl>();
        assert!(!bad.unwrap_err().to_string().contains("s3cr3t-pw"));
    }

    #[test]
    fn tls_is_required_off_loopback_and_where_asked() {
        let needs = |text: &str| text.parse::<TeamUrl>().unwrap().needs_tls();
        assert!(needs("postgres://ana@db.example.com/support"));
        assert!(needs("postgres://ana@10.0.0.5/support"));
        assert!(!needs("postgres://ana@127.0.0.1/support"));
        assert!(!needs("postgres://ana@localhost/support"));
        assert!(!needs("postgres://ana@[::1]/support"));
        assert!(!needs("host=/var/run/postgresql user=ana dbname=support"));
        assert!(needs("postgres://ana@127.0.0.1/support?sslmode=require"));
    }
}
