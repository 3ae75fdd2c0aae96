//! The team's checks: reachable, over TLS where it must be, the schema's version, the member and
//! the team, row-level security forced, `NOTIFY` delivered (a warning behind a pooler that drops
//! it: the inbox then polls), and the clock against the database's. The URL's password is never
//! part of any line: every line names the database as `role@host/database`.

use std::time::Duration;

use jiff::SignedDuration;

use super::Check;
use crate::context::Context;
use feedback_team::{self as team, Diagnosis, Team, TeamError, TeamUrl};

/// A clock further off the database's than this gets a warning.
const SKEW_WARN: SignedDuration = SignedDuration::from_secs(5);

/// What connecting found, for [`lines`].
#[derive(Debug)]
pub(super) enum Probe {
    /// No team is configured.
    None,
    /// The settings could not be read (why).
    Settings(String),
    /// Connected as `member` of `team`, with what the checks found.
    Connected {
        at: String,
        tls: bool,
        team: String,
        member: String,
        diagnosis: Diagnosis,
    },
    /// Could not connect or was refused (at where, why).
    Failed {
        at: String,
        tls: bool,
        error: TeamError,
    },
}

/// Connects as this command line's team settings say and runs the checks.
pub(super) async fn probe(args: &Context) -> Probe {
    let (settings, url) = match crate::context::team::configured(args) {
        Ok(Some(found)) => found,
        Ok(None) => return Probe::None,
        Err(error) => return Probe::Settings(error.to_string()),
    };
    connected(&url, settings.team.as_deref()).await
}

async fn connected(url: &TeamUrl, team: Option<&str>) -> Probe {
    let (at, tls) = (url.describe(), url.needs_tls());
    let (hint_tx, mut hints) = tokio::sync::mpsc::unbounded_channel();
    let opened = Team::open_listening(url, team, hint_tx).await;
    let team = match opened {
        Ok(team) => team,
        Err(error) => return Probe::Failed { at, tls, error },
    };
    match team.diagnose(&mut hints).await {
        Ok(diagnosis) => Probe::Connected {
            at,
            tls,
            team: team.name().to_owned(),
            member: team.member().to_owned(),
            diagnosis,
        },
        Err(error) => Probe::Failed { at, tls, error },
    }
}

/// The team's lines for what [`probe`] found.
#[must_use]
pub(super) fn lines(probe: &Probe) -> Vec<Check> {
    match probe {
        Probe::None => vec![Check::ok(
            "team",
            "none configured (optional: [team] url, or FEEDBACK_TEAM_URL, to share owners and labels)",
        )],
        Probe::Settings(why) => vec![Check::fail(
            "team",
            why.clone(),
            "fix [team] in the config file or FEEDBACK_TEAM_URL",
        )],
        Probe::Failed { at, tls, error } => failed(at, *tls, error),
        Probe::Connected {
            at,
            tls,
            team,
            member,
            diagnosis,
        } => {
            let mut checks = vec![
                Check::ok("team database", reached(at, *tls)),
                Check::ok("team schema", format!("version {}", team::schema::latest())),
                Check::ok("team member", format!("{member} in team {team}")),
            ];
            checks.push(if diagnosis.rls_forced {
                Check::ok(
                    "team security",
                    "row-level security forced on every team table",
                )
            } else {
                Check::fail(
                    "team security",
                    "row-level security is not forced on every team table",
                    "run `feedback-inbox team init NAME` as the schema's owner to restore it",
                )
            });
            checks.push(notify(diagnosis.notify));
            checks.push(clock(diagnosis.skew));
            checks
        }
    }
}

fn reached(at: &str, tls: bool) -> String {
    if tls {
        format!("{at} over TLS (certificate verified)")
    } else {
        format!("{at} (loopback or a socket: no TLS needed)")
    }
}

/// The lines when connecting failed: where it stopped decides which line fails.
fn failed(at: &str, tls: bool, error: &TeamError) -> Vec<Check> {
    let skip = |name| Check::skip(name, "the team database must be reached first");
    let reach = Check::ok("team database", reached(at, tls));
    match error {
        TeamError::NoSchema | TeamError::OlderSchema { .. } | TeamError::NewerSchema { .. } => {
            let fix = match error {
                TeamError::NewerSchema { by, .. } => {
                    &feedback_core::release::install(by.as_deref())
                }
                _ => "its admin runs `feedback-inbox team init NAME`",
            };
            vec![
                reach,
                Check::fail("team schema", error.to_string(), fix),
                skip("team member"),
            ]
        }
        TeamError::NotAMember | TeamError::NoTeam(_) | TeamError::ManyTeams(_) => vec![
            reach,
            Check::ok("team schema", format!("version {}", team::schema::latest())),
            Check::fail(
                "team member",
                error.to_string(),
                "the team's lead runs `feedback-inbox team add-member ROLE --team NAME`; [team] team = \"NAME\" picks one",
            ),
        ],
        other => vec![
            Check::fail(
                "team database",
                format!("cannot reach {at}: {other}"),
                "check [team] url (host, port, database, role), the network, and the password",
            ),
            skip("team schema"),
            skip("team member"),
        ],
    }
}

fn notify(delivered: Option<Duration>) -> Check {
    match delivered {
        Some(took) => Check::ok(
            "team notify",
            format!("a NOTIFY came back in {} ms", took.as_millis()),
        ),
        None => Check::warn(
            "team notify",
            format!(
                "a NOTIFY did not come back within {} s (a transaction-mode pooler drops them)",
                team::NOTIFY_WAIT.as_secs()
            ),
            Some(
                "connect directly, or to a session-mode pooler; meanwhile the inbox reads every 15 s"
                    .to_owned(),
            ),
        ),
    }
}

fn clock(skew: SignedDuration) -> Check {
    let seconds = skew.as_secs_f64().abs();
    if skew.abs() <= SKEW_WARN {
        Check::ok(
            "team clock",
            format!("within {seconds:.1} s of the database's"),
        )
    } else {
        Check::warn(
            "team clock",
            format!(
                "{seconds:.0} s off the database's (the team's order is the server's; ages shown may be off)"
            ),
            Some("sync this machine's clock (NTP)".to_owned()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doctor::{Verdict, render};

    fn diagnosis(notify: Option<u64>, skew: i64, rls: bool) -> Diagnosis {
        Diagnosis {
            rls_forced: rls,
            notify: notify.map(Duration::from_millis),
            skew: SignedDuration::from_secs(skew),
        }
    }

    fn connected(d: Diagnosis, tls: bool) -> Probe {
        Probe::Connected {
            at: "ana@db.example.com/support".to_owned(),
            tls,
            team: "support".to_owned(),
            member: "ana".to_owned(),
            diagnosis: d,
        }
    }

    fn verdicts(checks: &[Check]) -> Vec<(&'static str, Verdict)> {
        checks.iter().map(|c| (c.name, c.verdict)).collect()
    }

    #[test]
    fn a_healthy_team_is_all_ok() {
        let checks = lines(&connected(diagnosis(Some(3), 1, true), true));
        assert!(
            checks.iter().all(|c| c.verdict == Verdict::Ok),
            "{checks:?}"
        );
        assert!(render(&checks[0]).contains("over TLS"));
    }

    #[test]
    fn no_notify_and_a_skewed_clock_warn_and_forced_security_missing_fails() {
        let checks = lines(&connected(diagnosis(None, -600, false), false));
        assert_eq!(
            verdicts(&checks),
            [
                ("team database", Verdict::Ok),
                ("team schema", Verdict::Ok),
                ("team member", Verdict::Ok),
                ("team security", Verdict::Fail),
                ("team notify", Verdict::Warn),
                ("team clock", Verdict::Warn),
            ]
        );
        assert!(render(&checks[4]).contains("pooler"));
        assert!(render(&checks[5]).contains("600 s off"));
    }

    #[test]
    fn where_connecting_stopped_decides_the_failing_line() {
        let at = "ana@db/support".to_owned();
        let probe = |error| Probe::Failed {
            at: at.clone(),
            tls: true,
            error,
        };
        assert_eq!(
            verdicts(&lines(&probe(TeamError::NotAMember)))[2],
            ("team member", Verdict::Fail)
        );
        assert_eq!(
            verdicts(&lines(&probe(TeamError::NoSchema)))[1],
            ("team schema", Verdict::Fail)
        );
        let gone = lines(&probe(TeamError::Gone));
        assert_eq!(verdicts(&gone)[0], ("team database", Verdict::Fail));
        assert_eq!(gone[1].verdict, Verdict::Skip);
        assert_eq!(verdicts(&lines(&Probe::None)), [("team", Verdict::Ok)]);
    }
}
