//! A real PostgreSQL for the team tests: each test gets a database of its own (and roles named
//! for it), dropped at the end. The server is the one `FEEDBACK_TEST_PG` names (a URL or
//! connection string of a role that may create databases and roles), else the local one
//! (`127.0.0.1:5432` as `postgres`). Without one, a test says so in one line and passes, except
//! under `CI=true`, where it fails.

// Each test crate that includes this module uses part of it.
#![allow(dead_code)]

pub mod burst;
pub mod cluster;
pub mod member;
pub mod shared_state;

use feedback_team::{self as team, TeamUrl};

/// A store file at `path` holding the test items `id00000`.. (`count` of them): the team's
/// commands act only on items the store holds.
pub fn store_with_items(path: &std::path::Path, count: usize) {
    let mut store = feedback_store::Store::open(path).unwrap();
    let items: Vec<_> = (0..count).map(feedback_tui::testkit::item).collect();
    store
        .put_items(&items, feedback_tui::testkit::now())
        .unwrap();
}

/// The admin connection's URL, as text.
fn admin_text() -> String {
    std::env::var("FEEDBACK_TEST_PG")
        .unwrap_or_else(|_| "host=127.0.0.1 port=5432 user=postgres dbname=postgres".to_owned())
}

/// The skip is said once per run.
static SKIP_SAID: std::sync::Once = std::sync::Once::new();

/// A database of the test's own.
pub struct Db {
    pub name: String,
    /// The server's admin connection string (key=value, or a URL).
    base: String,
    admin: TeamUrl,
}

impl Db {
    /// A fresh database, or `None` (after one line on stderr) when no PostgreSQL answers and
    /// the run is not CI's.
    pub async fn new(test: &str) -> Option<Self> {
        Self::on(admin_text(), test).await
    }

    /// A fresh database on the server `base` (an admin's connection string) names.
    pub async fn on(base: String, test: &str) -> Option<Self> {
        let admin: TeamUrl = base.parse().expect("FEEDBACK_TEST_PG is a PostgreSQL URL");
        let client = match team::connect(&admin).await {
            Ok(client) => client,
            Err(error) => {
                assert!(
                    std::env::var("CI").as_deref() != Ok("true"),
                    "no PostgreSQL for the team tests under CI: {error}"
                );
                // Once per run, past the test harness's capture (it holds back `eprintln!`).
                SKIP_SAID.call_once(|| {
                    use std::io::Write as _;
                    let _ = writeln!(
                        std::io::stderr(),
                        "team tests skipped: no PostgreSQL at {} ({error}); set FEEDBACK_TEST_PG",
                        admin.describe()
                    );
                });
                return None;
            }
        };
        let name = format!("fi_{test}_{}", fastrand::u32(..));
        client
            .raw()
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .await
            .unwrap();
        Some(Self { name, base, admin })
    }

    /// The URL of this database as the admin.
    pub fn admin(&self) -> TeamUrl {
        self.admin.with_database(&self.name)
    }

    /// A role name of this test's own (roles are the whole server's).
    pub fn role(&self, member: &str) -> String {
        format!("{}_{member}", self.name)
    }

    /// The URL of this database as `role` with its password.
    pub fn as_member(&self, role: &str, password: Option<&str>) -> TeamUrl {
        self.admin().as_role(role, password)
    }

    /// The URL text (`FEEDBACK_TEAM_URL`) of this database as `role` with its password (`None`:
    /// the admin): the admin's connection string with the database, role and password laid
    /// over (a later key wins).
    pub fn url_text(&self, role: Option<&str>, password: Option<&str>) -> String {
        let base = &self.base;
        assert!(
            !base.contains("://"),
            "url_text takes a key=value FEEDBACK_TEST_PG, not a URL: {base}"
        );
        let role = role.map(|r| format!(" user={r}")).unwrap_or_default();
        let password = password
            .map(|p| format!(" password={p}"))
            .unwrap_or_default();
        format!("{base} dbname={}{role}{password}", self.name)
    }

    /// `url` (key=value) pointed at a port where no server listens: the same role, database
    /// and password, unreachable (its host and port replaced: a second `host=` or `port=` would
    /// add one to try, not replace the first).
    pub fn away(url: &str) -> String {
        let rest: Vec<&str> = url
            .split_whitespace()
            .filter(|kv| !kv.starts_with("host=") && !kv.starts_with("port="))
            .collect();
        format!("{} host=127.0.0.1 port=1", rest.join(" "))
    }

    /// The team `support` in this database with these members (login roles of this test's
    /// own): each one's role and URL text (`FEEDBACK_TEAM_URL`).
    pub async fn team(&self, members: &[&str]) -> Vec<(String, String)> {
        self.team_named("support", members).await
    }

    /// [`Db::team`] of the team `name`.
    pub async fn team_named(&self, name: &str, members: &[&str]) -> Vec<(String, String)> {
        let mut admin = team::connect(&self.admin()).await.unwrap();
        team::create_team(&mut admin, name).await.unwrap();
        let mut out = Vec::new();
        for member in members {
            let role = self.role(member);
            let team::AddedMember::Created { password } =
                team::add_member(&mut admin, name, &role).await.unwrap()
            else {
                panic!("the role {role} existed");
            };
            let url = self.url_text(Some(&role), Some(&password));
            out.push((role, url));
        }
        out
    }

    /// The team `name` with these members, each connected.
    pub async fn connected(&self, name: &str, members: &[&str]) -> Vec<team::Team> {
        let mut out = Vec::new();
        for (_, url) in self.team_named(name, members).await {
            let url: TeamUrl = url.parse().unwrap();
            out.push(team::Team::open(&url, None).await.unwrap());
        }
        out
    }

    /// Drops the database and the test's roles.
    pub async fn drop(self) {
        let client = team::connect(&self.admin).await.unwrap();
        client
            .raw()
            .batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ))
            .await
            .unwrap();
        let roles = client
            .raw()
            .query(
                "SELECT rolname::text FROM pg_roles WHERE starts_with(rolname, $1)",
                &[&format!("{}_", self.name)],
            )
            .await
            .unwrap();
        for role in roles {
            let role: String = role.get(0);
            client
                .raw()
                .batch_execute(&format!("DROP ROLE IF EXISTS \"{role}\""))
                .await
                .unwrap();
        }
    }
}
