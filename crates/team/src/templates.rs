//! The team's shared reply templates: every member's `R` and `reply --template` offer them
//! beside their own `[[templates]]`. A template is shared under a name (one trimmed line, one
//! per team whatever its case: sharing it again replaces it) with an optional subject and a
//! body; the schema's functions check the member, bound the values and hint the team
//! (`team_id templates`) so open inboxes read them again at once.

use jiff::Timestamp;

use super::TeamError;
use super::actions::Team;
use super::schema::{SCHEMA, readable_time};

/// One template the team shares, as the database keeps it (untrusted text: a teammate's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedTemplate {
    pub name: String,
    pub subject: Option<String>,
    pub body: String,
    /// The member who shared it last.
    pub shared_by: String,
    pub at: Timestamp,
}

impl Team {
    /// The team's templates, by name.
    pub async fn templates(&self) -> Result<Vec<SharedTemplate>, TeamError> {
        let rows = self
            .client()
            .query(
                &format!(
                    "SELECT name, subject, body, shared_by::text, {} FROM {SCHEMA}.templates
                     WHERE team_id = $1 ORDER BY lower(name)",
                    readable_time("at")
                ),
                &[&self.team_id()],
            )
            .await?;
        Ok(rows
            .iter()
            .filter_map(|r| {
                Some(SharedTemplate {
                    name: r.try_get(0).ok()?,
                    subject: r.try_get(1).ok()?,
                    body: r.try_get(2).ok()?,
                    shared_by: r.try_get(3).ok()?,
                    at: r.try_get(4).ok()?,
                })
            })
            .collect())
    }

    /// Shares a template as this member, replacing the team's one of that name.
    pub async fn put_template(
        &self,
        name: &str,
        subject: Option<&str>,
        body: &str,
    ) -> Result<(), TeamError> {
        self.client()
            .execute(
                &format!("SELECT {SCHEMA}.put_template($1, $2, $3, $4)"),
                &[&self.team_id(), &name, &subject, &body],
            )
            .await?;
        Ok(())
    }

    /// Removes the team's template of that name; whether there was one.
    pub async fn remove_template(&self, name: &str) -> Result<bool, TeamError> {
        let row = self
            .client()
            .query_one(
                &format!("SELECT {SCHEMA}.remove_template($1, $2)"),
                &[&self.team_id(), &name],
            )
            .await?;
        Ok(row.try_get(0)?)
    }
}
