//! `demo --team URL`: the demo joins a team in the PostgreSQL database at URL, with two
//! simulated teammates (`demo_ana`, `demo_bo`, login roles of their own) who claim items, label
//! them, give some to you and let some go, and have items open as they do; so a newcomer sees
//! the team live. The URL's role must be allowed to create schemas and roles (a local
//! PostgreSQL's `postgres`): the demo makes the team `demo` and its members. Two demos with the
//! same seed on one database are two members of one team over the same items. The teammates'
//! roles the demo made it drops when it ends ([`tear_down`]): roles are the whole server's and
//! would outlive the database.

use std::time::Duration;

use feedback_team::{self as team, AddedMember, Change, Team, TeamUrl};
use feedback_team_sync::live::LiveSettings;

/// The demo's team.
pub(crate) const TEAM: &str = "demo";

/// The simulated teammates.
const TEAMMATES: [&str; 2] = ["demo_ana", "demo_bo"];

/// Joins the team `demo` as the URL's role: when the role is a member already (its lead ran
/// `team init demo` and `team add-member`), as it is; otherwise the role makes the team (and the
/// schema, when missing) and joins it, which needs a role that may create schemas. The
/// teammates are made as login roles when the role may create roles (else the demo goes on
/// without them, said on stderr). The live link's settings for the inbox, and the teammates'
/// URLs.
pub(crate) async fn set_up(
    text: &str,
) -> Result<(LiveSettings, Vec<TeamUrl>, Made), super::CliError> {
    let url: TeamUrl = text
        .parse()
        .map_err(|e: team::TeamError| super::CliError::Usage(format!("--team: {e}")))?;
    let me = url
        .role()
        .ok_or_else(|| super::CliError::Usage("--team: the URL names no role".to_owned()))?
        .to_owned();
    let mut client = team::connect(&url).await?;
    if Team::open(&url, Some(TEAM)).await.is_err() {
        team::create_team(&mut client, TEAM).await?;
        team::add_member(&mut client, TEAM, &me).await?;
    }
    let (teammates, roles) = teammates(&mut client, &url, &me).await;
    let settings = LiveSettings {
        url: url.clone(),
        team: Some(TEAM.to_owned()),
        poll: crate::context::team::POLL,
        listen: true,
        retry: Duration::from_secs(2),
        clock: feedback_core::clock::system(),
    };
    Ok((settings, teammates, Made { url, roles }))
}

/// What the demo made on the server that outlives its database: the teammates' login roles
/// it created (not those an earlier demo left, which another may be using).
pub(crate) struct Made {
    url: TeamUrl,
    roles: Vec<String>,
}

/// Drops the teammates' roles the demo made, once their tasks are stopped; a failure is said
/// on stderr (the demo is over either way).
pub(crate) async fn tear_down(made: Made) {
    if made.roles.is_empty() {
        return;
    }
    let dropped = async {
        let mut client = team::connect(&made.url).await?;
        for role in &made.roles {
            team::drop_member_role(&mut client, TEAM, role).await?;
        }
        Ok::<_, team::TeamError>(())
    };
    if let Err(error) = dropped.await {
        eprintln!(
            "note: the demo's teammates' roles ({}) were not dropped: {error}",
            made.roles.join(", ")
        );
    }
}

/// The teammates' URLs, their roles made (or given a new password) as members of the team,
/// and the roles made now; none, said on stderr, when `me` may not create roles.
async fn teammates(
    client: &mut team::Admin,
    url: &TeamUrl,
    me: &str,
) -> (Vec<TeamUrl>, Vec<String>) {
    let (mut urls, mut made) = (Vec::new(), Vec::new());
    for name in TEAMMATES {
        let password = match team::add_member(client, TEAM, name).await {
            Ok(AddedMember::Created { password }) => {
                made.push(name.to_owned());
                Ok(password)
            }
            // A role of an earlier demo: its password was shown then and is not known now.
            Ok(AddedMember::Existing) => team::reset_password(client, name).await,
            Ok(AddedMember::NeedsDba { .. }) => {
                Err(team::TeamError::Name(format!("{me} may not create roles")))
            }
            Err(error) => Err(error),
        };
        match password {
            Ok(password) => urls.push(url.as_role(name, Some(&password))),
            Err(error) => {
                eprintln!(
                    "note: the demo runs in team {TEAM} without simulated teammates ({error})"
                );
                return (Vec::new(), made);
            }
        }
    }
    (urls, made)
}

/// Runs the teammates until the returned handle is dropped: each, every few seconds, claims one
/// of the newest `items` nobody owns (and labels it), gives one of theirs to `you`, or lets one
/// go, with the item open as they act.
pub(crate) fn start(teammates: Vec<TeamUrl>, items: &[String], you: &str, seed: u64) -> Teammates {
    let tasks = teammates
        .into_iter()
        .enumerate()
        .map(|(n, url)| {
            let items = items.to_vec();
            let you = you.to_owned();
            let n = u64::try_from(n).unwrap_or(0);
            tokio::spawn(async move {
                if let Err(error) = act(url, items, you, seed.wrapping_add(n)).await {
                    tracing::warn!(%error, "a demo teammate stopped");
                }
            })
        })
        .collect();
    Teammates { tasks }
}

/// The running teammates; dropping it stops them.
pub(crate) struct Teammates {
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Drop for Teammates {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

async fn act(
    url: TeamUrl,
    items: Vec<String>,
    you: String,
    seed: u64,
) -> Result<(), team::TeamError> {
    let team = Team::open(&url, Some(TEAM)).await?;
    let me = team.member().to_owned();
    let mut rng = fastrand::Rng::with_seed(seed);
    let labels = ["crash", "billing", "ios", "needs-repro", "sync"];
    loop {
        tokio::time::sleep(Duration::from_millis(rng.u64(2500..6000))).await;
        let Some(item) = items.get(rng.usize(..items.len().max(1))).cloned() else {
            continue;
        };
        team.heartbeat(Some(&item), false).await?;
        let owner = team
            .states(std::slice::from_ref(&item))
            .await?
            .pop()
            .and_then(|s| s.owner);
        let change = match owner.as_deref() {
            None => Change::Claim,
            Some(owner) if owner == me => match rng.u8(..3) {
                0 => Change::Assign {
                    to: you.clone(),
                    from: Some(me.clone()),
                },
                1 => Change::Unclaim,
                _ => Change::Labels {
                    add: vec![labels[rng.usize(..labels.len())].to_owned()],
                    remove: vec![],
                },
            },
            Some(_) => continue,
        };
        let event_id = uuid::Uuid::new_v4().to_string();
        team.apply(&event_id, &item, &change).await?;
        if change == Change::Claim {
            let label = labels[rng.usize(..labels.len())].to_owned();
            let event_id = uuid::Uuid::new_v4().to_string();
            let change = Change::Labels {
                add: vec![label],
                remove: vec![],
            };
            team.apply(&event_id, &item, &change).await?;
        }
    }
}
