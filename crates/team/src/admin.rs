//! Setting a team up: `team init NAME` (the schema when missing, then the team),
//! `team add-member MEMBER` (the member's login role, or the SQL a DBA runs when the role
//! connected as may not create roles) and `team remove-member MEMBER`.

use super::TeamError;
use super::connect::Admin;
use super::schema::{MEMBER_ROLE, SCHEMA};

/// Creates the team `name` (the schema first, when missing); its id. A team of that name that
/// exists already is kept and its id answered.
pub async fn create_team(admin: &mut Admin, name: &str) -> Result<i64, TeamError> {
    check_name(name, "team")?;
    super::schema::migrate(admin).await?;
    let row = admin
        .0
        .query_one(
            &format!(
                "INSERT INTO {SCHEMA}.teams (name) VALUES ($1)
                 ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING team_id"
            ),
            &[&name],
        )
        .await?;
    Ok(row.get(0))
}

/// Sets whether the team `team_id` shares one mirror of the account, as the role that created
/// it (`team init --shared-mirror`).
pub async fn set_shared_mirror(admin: &Admin, team_id: i64, shared: bool) -> Result<(), TeamError> {
    let client = &admin.0;
    client
        .execute(
            &format!(
                "INSERT INTO {SCHEMA}.mirror_setting AS m (team_id, shared) VALUES ($1, $2)
                 ON CONFLICT (team_id) DO UPDATE
                     SET shared = excluded.shared, set_by = session_user,
                         set_at = clock_timestamp()"
            ),
            &[&team_id, &shared],
        )
        .await?;
    Ok(())
}

/// What `add-member` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddedMember {
    /// The login role was created with this password (shown once).
    Created { password: String },
    /// The role existed: it was made a member of the team.
    Existing,
    /// The role connected as may not create roles: the SQL a DBA runs (the role's password is
    /// theirs to choose), then `add-member` again.
    NeedsDba { sql: String },
}

/// Makes `member` (a database role) a member of the team `team`, creating its login role with a
/// generated password when it does not exist.
pub async fn add_member(
    admin: &mut Admin,
    team: &str,
    member: &str,
) -> Result<AddedMember, TeamError> {
    let client = &mut admin.0;
    check_name(member, "member")?;
    let tx = client.transaction().await?;
    let team_id = team_id_named(&tx, team).await?;
    let exists = tx
        .query_opt("SELECT 1 FROM pg_roles WHERE rolname = $1", &[&member])
        .await?
        .is_some();
    let ident = quote_ident(member);
    let added = if exists {
        AddedMember::Existing
    } else {
        let may_create: bool = tx
            .query_one(
                "SELECT rolcreaterole OR rolsuper FROM pg_roles WHERE rolname = current_user",
                &[],
            )
            .await?
            .get(0);
        if !may_create {
            return Ok(AddedMember::NeedsDba {
                sql: format!(
                    "CREATE ROLE {ident} LOGIN PASSWORD 'choose-one';\n\
                     GRANT {MEMBER_ROLE} TO {ident};"
                ),
            });
        }
        let password = generated_password()?;
        tx.batch_execute(&format!(
            "CREATE ROLE {ident} LOGIN PASSWORD {}",
            verifier_literal(&password)
        ))
        .await?;
        AddedMember::Created { password }
    };
    tx.batch_execute(&format!("GRANT {MEMBER_ROLE} TO {ident}"))
        .await?;
    tx.execute(
        &format!(
            "INSERT INTO {SCHEMA}.members (team_id, member) VALUES ($1, $2) ON CONFLICT DO NOTHING"
        ),
        &[&team_id, &member],
    )
    .await?;
    tx.commit().await?;
    Ok(added)
}

/// The id of the team named `team`; `NoTeam` when there is none.
async fn team_id_named(tx: &tokio_postgres::Transaction<'_>, team: &str) -> Result<i64, TeamError> {
    Ok(tx
        .query_opt(
            &format!("SELECT team_id FROM {SCHEMA}.teams WHERE name = $1"),
            &[&team],
        )
        .await?
        .ok_or_else(|| TeamError::NoTeam(team.to_owned()))?
        .get(0))
}

/// What `remove-member` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemovedMember {
    /// No longer a member; `revoked`: the role is in no other team, so its grant of the
    /// members' role went too (it can read no team table).
    Removed { revoked: bool },
    /// The role was not a member of the team.
    NotAMember,
}

/// Takes `member` out of the team `team`: the team's rows are no longer theirs to read or
/// change (row-level security follows the members table), and when they are in no other team
/// the members' role is revoked from them. Their events, notes and claims stay in the history;
/// the login role stays (it may be the DBA's, and other databases may use it).
pub async fn remove_member(
    admin: &mut Admin,
    team: &str,
    member: &str,
) -> Result<RemovedMember, TeamError> {
    let client = &mut admin.0;
    check_name(member, "member")?;
    let tx = client.transaction().await?;
    let team_id = team_id_named(&tx, team).await?;
    let removed = tx
        .execute(
            &format!("DELETE FROM {SCHEMA}.members WHERE team_id = $1 AND member = $2"),
            &[&team_id, &member],
        )
        .await?;
    if removed == 0 {
        return Ok(RemovedMember::NotAMember);
    }
    let elsewhere = tx
        .query_opt(
            &format!("SELECT 1 FROM {SCHEMA}.members WHERE member = $1 LIMIT 1"),
            &[&member],
        )
        .await?
        .is_some();
    let role_exists = tx
        .query_opt("SELECT 1 FROM pg_roles WHERE rolname = $1", &[&member])
        .await?
        .is_some();
    let revoked = !elsewhere && role_exists;
    if revoked {
        tx.batch_execute(&format!(
            "REVOKE {MEMBER_ROLE} FROM {}",
            quote_ident(member)
        ))
        .await?;
    }
    tx.commit().await?;
    Ok(RemovedMember::Removed { revoked })
}

/// Takes `member` out of the team `team` and drops its login role: for roles the caller made
/// itself and no one else uses (the demo's simulated teammates), which would otherwise outlive
/// the database, roles being the whole server's. Their events stay in the history.
pub async fn drop_member_role(
    admin: &mut Admin,
    team: &str,
    member: &str,
) -> Result<(), TeamError> {
    remove_member(admin, team, member).await?;
    admin
        .0
        .batch_execute(&format!("DROP ROLE IF EXISTS {}", quote_ident(member)))
        .await?;
    Ok(())
}

/// Sets a new generated password for the login role `member` (one the caller made, such as the
/// demo's teammates); the password.
pub async fn reset_password(admin: &mut Admin, member: &str) -> Result<String, TeamError> {
    let client = &mut admin.0;
    check_name(member, "member")?;
    let password = generated_password()?;
    client
        .batch_execute(&format!(
            "ALTER ROLE {} LOGIN PASSWORD {}",
            quote_ident(member),
            verifier_literal(&password)
        ))
        .await?;
    Ok(password)
}

/// The SQL literal that sets a role's password to `password` without it reaching the server:
/// its SCRAM-SHA-256 verifier, computed here with a fresh salt, as `psql`'s `\password` sends
/// it (a server that logs statements logs the verifier, from which the password cannot be had).
fn verifier_literal(password: &str) -> String {
    let verifier = postgres_protocol::password::scram_sha_256(password.as_bytes());
    // Base64 and `$:`: nothing in it needs quoting.
    format!("'{verifier}'")
}

/// Team and member names: what a role name may be without surprises (letters, digits, `_`,
/// `-`, `.`; at most 63 bytes, PostgreSQL's limit).
fn check_name(name: &str, what: &str) -> Result<(), TeamError> {
    let fine = !name.is_empty()
        && name.len() <= 63
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if fine {
        Ok(())
    } else {
        Err(TeamError::Name(format!(
            "a {what} name is 1 to 63 letters, digits, '_', '-' or '.'"
        )))
    }
}

/// `name` as a quoted SQL identifier.
fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

fn generated_password() -> Result<String, TeamError> {
    let mut bytes = [0u8; 18];
    getrandom::fill(&mut bytes).map_err(|error| TeamError::Name(error.to_string()))?;
    Ok(hex::encode(bytes))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_password_is_sent_only_as_its_scram_verifier_salted_afresh_each_time() {
        let password = "0123456789abcdef0123456789abcdef";
        let sent = verifier_literal(password);
        assert!(sent.starts_with("'SCRAM-SHA-256$4096:"), "{sent}");
        assert!(sent.ends_with('\'') && !sent[1..sent.len() - 1].contains('\''));
        assert!(!sent.contains(password), "{sent}");
        assert_ne!(sent, verifier_literal(password), "a fresh salt each time");
    }
}
