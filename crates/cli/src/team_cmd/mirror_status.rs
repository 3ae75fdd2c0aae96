//! The shared mirror's part of `team status`: whether the team shares one, who walks for it
//! and since when, how far each status is mirrored (the walk state the syncer last published),
//! the team's budget as the syncer last read it, and how far behind each member's store is.
//! Names are a teammate's text: sanitized before they are printed.

use jiff::Timestamp;

use feedback_api::RateLimit;
use feedback_core::text::Clean;
use feedback_store::WalkState;
use feedback_team::MirrorStatus;

/// The lines of text `team status` prints for the mirror (none when the team does not share
/// one and never did).
pub(super) fn lines(status: &MirrorStatus, now: Timestamp) -> Vec<String> {
    if !status.shared && status.syncer.is_none() {
        return Vec::new();
    }
    let mut lines = vec![format!(
        "shared mirror: {}",
        if status.shared {
            "on"
        } else {
            "off (each member syncs alone)"
        }
    )];
    if let Some(syncer) = &status.syncer {
        let ago = super::seconds_ago(now, syncer.since);
        lines.push(if syncer.alive {
            format!(
                "  syncer: {}'s process (since {ago})",
                Clean::line(&syncer.member)
            )
        } else {
            format!(
                "  syncer: none now (last {}'s, from {ago}; the next member's process takes over)",
                Clean::line(&syncer.member)
            )
        });
    } else {
        lines.push("  syncer: none yet (the first member's `sync` or inbox walks)".to_owned());
    }
    if let Some((walk, written)) = &status.walk {
        let reached: Vec<String> = reach(walk)
            .iter()
            .map(|r| {
                let newest = r
                    .newest
                    .map_or("nothing".to_owned(), super::super::output::short_time);
                let depth = if r.complete {
                    "to the end".to_owned()
                } else {
                    match r.deep {
                        Some(at) => {
                            format!("back to {}", super::super::output::short_time(at))
                        }
                        None => "gaps pending".to_owned(),
                    }
                };
                format!("{}: newest {newest}, {depth}", Clean::line(&r.status))
            })
            .collect();
        lines.push(format!(
            "  mirrored: {} (published {})",
            reached.join(" · "),
            super::seconds_ago(now, *written)
        ));
    }
    if let Some(budget) = budget(status).and_then(|b| crate::output::budget_text(b, now)) {
        lines.push(format!(
            "  {budget} (the team's, as the syncer last read it)"
        ));
    }
    let positions: Vec<String> = status
        .positions
        .iter()
        .map(|p| {
            let behind = status.last_seq - p.seq;
            let place = if behind <= 0 {
                "up to date".to_owned()
            } else {
                format!(
                    "{} writes behind",
                    feedback_core::text::output::thousands(behind)
                )
            };
            format!(
                "{} {place} ({})",
                Clean::line(&p.member),
                super::seconds_ago(now, p.at)
            )
        })
        .collect();
    if !positions.is_empty() {
        lines.push(format!("  stores: {}", positions.join(", ")));
    }
    lines
}

/// The mirror as `team status --format json` gives it.
pub(super) fn json(status: &MirrorStatus) -> serde_json::Value {
    serde_json::json!({
        "shared": status.shared,
        "syncer": status.syncer.as_ref().map(|s| serde_json::json!({
            "member": s.member,
            "since": s.since.to_string(),
            "alive": s.alive,
            "generation": s.generation,
        })),
        "last_write": status.last_seq,
        "statuses": status.walk.as_ref().map(|(walk, _)| reach(walk).iter().map(|r| serde_json::json!({
            "status": r.status,
            "newest": r.newest.map(|t| t.to_string()),
            "complete": r.complete,
            "back_to": r.deep.map(|t| t.to_string()),
        })).collect::<Vec<_>>()),
        "published_at": status.walk.as_ref().map(|(_, at)| at.to_string()),
        "budget": budget(status).map(|b| serde_json::json!({
            "remaining": b.remaining, "limit": b.limit, "reset": b.reset.map(|t| t.to_string()),
        })),
        "stores": status.positions.iter().map(|p| serde_json::json!({
            "member": p.member,
            "position": p.seq,
            "behind": (status.last_seq - p.seq).max(0),
            "at": p.at.to_string(),
        })).collect::<Vec<_>>(),
    })
}

/// How far each status is mirrored, from the published walk state; none when it does not read.
fn reach(walk: &serde_json::Value) -> Vec<feedback_store::Reach> {
    serde_json::from_value::<WalkState>(walk.clone())
        .map(|w| w.reach())
        .unwrap_or_default()
}

fn budget(status: &MirrorStatus) -> Option<RateLimit> {
    serde_json::from_value(status.budget.clone()?).ok()
}
