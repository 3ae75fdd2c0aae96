//! The inbox's start-up sync of the listed status: discovery when it is due, then the status's
//! head. On an empty store (a first run, the demo) discovery's three lists and the status's top
//! page are asked for at once, so the first rows show after one round trip rather than four; the
//! page waits in memory until the project list has confirmed the account (nothing the service
//! says is stored before that: see `account`).

use super::paging::fetch;
use super::walk::head_from;
use super::{Priority, Report, SyncError, Syncer};
use feedback_api::Status;

impl Syncer {
    /// The start-up sync of `status`: discovery when due, then its head (only its top page
    /// when the store never had it: the rest is a gap that backfill walks, so an empty store
    /// shows rows after one page).
    pub async fn start(&self, status: &Status) -> Result<Report, SyncError> {
        let due = self.catalog_due().await?;
        let name = status.as_str().to_owned();
        let row = self.blocking(move |s| s.sync_status(&name)).await?;
        let never = row.head.is_none() && !row.complete;
        if due && never {
            return self.first_start(status).await;
        }
        let mut report = if due {
            self.discovery().await?
        } else {
            Report::default()
        };
        let step = if never {
            self.backfill_page(status, Priority::User)
                .await?
                .unwrap_or_default()
        } else {
            self.head(status, Priority::User).await?
        };
        report.add(step);
        Ok(report)
    }

    /// Discovery and the top page of `status` at once; the page stored once the catalog is.
    async fn first_start(&self, status: &Status) -> Result<Report, SyncError> {
        let _session = self.session()?;
        let _turn = self.gate.turn(Priority::User).await;
        let query = self.query(status, None);
        let asked = self.now();
        let (catalog, page) = tokio::join!(self.ask_catalog(), fetch(self, &query, None));
        let (mut report, _) = self.keep_catalog(catalog).await?;
        report.add(head_from(self, status, Priority::User, 1, asked, page?).await?);
        Ok(report)
    }
}
