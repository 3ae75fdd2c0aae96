//! The team's shared reply templates, read from its database into the store (so they are
//! there offline); the inbox reads them again on a hint that one changed.

use feedback_store::{Shared, TeamTemplate};
use feedback_team::Team;

use super::TeamSyncError;

/// Reads the team's templates into `store`; the templates when they changed since last read.
///
/// # Errors
/// The database or the store failed: the templates kept before stay.
pub async fn refresh(
    team: &Team,
    store: &Shared,
) -> Result<Option<Vec<TeamTemplate>>, TeamSyncError> {
    let templates: Vec<TeamTemplate> = team
        .templates()
        .await?
        .into_iter()
        .map(|t| TeamTemplate {
            name: t.name,
            subject: t.subject,
            body: t.body,
            shared_by: t.shared_by,
            at: t.at,
        })
        .collect();
    let changed = store.write(|s| s.put_team_templates(&templates))?;
    Ok(changed.then_some(templates))
}
