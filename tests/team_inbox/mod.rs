//! A member's inbox as the team tests drive it: its store, and the port its sync jobs go to
//! on a team that shares one mirror (`TeamSyncer`), called as the inbox's runtime calls it.
#![allow(dead_code, clippy::unwrap_used, clippy::missing_panics_doc)]

use std::sync::Arc;

use feedback_api::Status;
use feedback_store::Shared;
use feedback_sync::{SyncSettings, Syncer};
use feedback_team::TeamUrl;
use feedback_team_sync::team_walk::TeamWalk;
use feedback_tui::action::{SyncJob, Synced};
use feedback_tui::{SyncPort, TeamSyncer};

use super::common::Rig;
use super::sync_support::file_syncer;

/// A member's inbox: its store and the port its sync jobs go to.
pub struct Inbox {
    pub store: Shared,
    pub syncer: Syncer,
    pub walk: Arc<TeamWalk>,
    pub port: TeamSyncer,
}

pub fn inbox(rig: &Rig, path: &std::path::Path, url: &str) -> Inbox {
    let (syncer, store) = file_syncer(rig, path, SyncSettings::default());
    let url: TeamUrl = url.parse().unwrap();
    let walk = Arc::new(TeamWalk::new(url, None, store.clone(), rig.clock.clone()));
    let port = TeamSyncer::new(syncer.clone(), Arc::clone(&walk));
    Inbox {
        store,
        syncer,
        walk,
        port,
    }
}

impl Inbox {
    pub async fn run(&self, job: SyncJob) -> Synced {
        self.port.run(job).await.unwrap()
    }

    /// Background jobs until the inbox would stop sending them (nothing left to do).
    pub async fn background(&self) {
        for _ in 0..1_000 {
            let done = self
                .run(SyncJob::Background {
                    listed: Status::New,
                })
                .await;
            if done.idle {
                return;
            }
        }
        panic!("the background never went idle");
    }
}
