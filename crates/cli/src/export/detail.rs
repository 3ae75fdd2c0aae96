//! Where an export's metadata and delivery links come from. The list endpoint has neither:
//! they come from the item's detail. What the local store holds (details fetched before,
//! webhook deliveries) costs no request; `--with-detail` fetches the rest, one request per
//! item, paced by the client's rate-limit handling, and stores each detail it fetched when a
//! store is open, once the key's account is confirmed to be the store's (another account's
//! store is refused, exit 2, before anything is written or printed).

use jiff::Timestamp;

use super::super::CliError;
use super::fields::{Keys, Record};
use feedback_api::{ApiError, Client, Feedback};
use feedback_store::{Shared, Store};

/// The sources of details for one export.
pub struct Details {
    store: Option<Shared>,
    /// The records' triage state is read from the store too.
    triage: bool,
    /// And their links.
    links: bool,
    /// `--with-detail`: the client to fetch missing details with.
    fetch: Option<Client>,
    /// A write failed once: the export goes on without storing.
    store_failed: bool,
    fetched: u64,
}

impl Details {
    #[must_use]
    pub fn new(store: Option<Shared>, fetch: Option<Client>) -> Self {
        Self {
            store,
            triage: false,
            links: false,
            fetch,
            store_failed: false,
            fetched: 0,
        }
    }

    /// Reads the records' triage state from the store (when there is one: without, it is
    /// not known).
    #[must_use]
    pub(crate) fn with_triage(mut self, links: bool) -> Self {
        self.triage = true;
        self.links = links;
        self
    }

    /// The store read from, if any.
    #[must_use]
    pub fn store(&self) -> Option<&Shared> {
        self.store.as_ref()
    }

    /// Details fetched so far (requests made for them).
    #[must_use]
    pub fn fetched(&self) -> u64 {
        self.fetched
    }

    /// Records of these items with what is known of their details.
    pub async fn records(&mut self, items: Vec<Feedback>) -> Result<Vec<Record>, CliError> {
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            let mut record = match &self.store {
                Some(store) => store.read(|s| stored(s, item))?,
                None => Record::bare(item),
            };
            if record.metadata.is_none() || record.delivery.is_none() {
                self.fill(&mut record).await?;
            }
            out.push(record);
        }
        if let (Some(store), true) = (&self.store, self.triage) {
            store.read(|s| with_triage(s, &mut out, Timestamp::now(), self.links))?;
        }
        Ok(out)
    }

    /// With `--with-detail`, fetches the record's detail (and stores it). An item gone since
    /// it was listed stays as it is.
    async fn fill(&mut self, record: &mut Record) -> Result<(), CliError> {
        let Some(client) = &self.fetch else {
            return Ok(());
        };
        self.fetched += 1;
        let detail = match client.get_feedback(record.feedback.id.as_str()).await {
            Ok(detail) => detail,
            Err(ApiError::NotFound { .. }) => return Ok(()),
            Err(error) => return Err(error.into()),
        };
        if let (Some(store), false) = (&self.store, self.store_failed)
            && feedback_sync::account::confirm_account_for(client, store, &detail.feedback).await?
            && let Err(error) = store.write(|s| s.put_detail(&detail, Timestamp::now()))
        {
            eprintln!("warning: details are not kept in the store: {error}");
            self.store_failed = true;
        }
        record.metadata = Some(detail.metadata);
        record.delivery = Some(detail.delivery);
        Ok(())
    }
}

/// The item with what the store knows of its detail: metadata when a detail or a webhook
/// delivery brought it, delivery when a detail did.
pub fn stored(store: &Store, item: Feedback) -> Result<Record, CliError> {
    let Some(detail) = store.detail(item.id.as_str())? else {
        return Ok(Record::bare(item));
    };
    let has_meta = !detail.metadata.built_in.is_empty() || !detail.metadata.custom.is_empty();
    let known = detail.detail_at.is_some() || has_meta;
    Ok(Record {
        feedback: item,
        metadata: known.then_some(detail.metadata),
        delivery: detail.delivery,
        triage: None,
        links: None,
    })
}

/// Reads the records' triage state from the store (an item it does not hold has the state of
/// one never triaged); a snooze over by `now` reads as none.
pub(crate) fn with_triage(
    store: &Store,
    records: &mut [Record],
    now: Timestamp,
    links: bool,
) -> Result<(), CliError> {
    let ids: Vec<&str> = records.iter().map(|r| r.feedback.id.as_str()).collect();
    let mut found = store.triage_of(&ids)?;
    let mut linked = if links {
        let ids: Vec<String> = ids.iter().map(|id| (*id).to_owned()).collect();
        feedback_team_sync::links_now(store, &ids)?
    } else {
        std::collections::BTreeMap::new()
    };
    for record in records {
        let mut triage = found
            .remove(record.feedback.id.as_str())
            .unwrap_or_default();
        if !triage.snoozed(now) {
            triage.snoozed_until = None;
        }
        record.triage = Some(triage);
        if links {
            record.links = Some(
                linked
                    .remove(record.feedback.id.as_str())
                    .unwrap_or_default(),
            );
        }
    }
    Ok(())
}

/// The metadata keys and delivery channels of the items with these keys, read up front so a
/// CSV or a table of `--fields all` has its columns before the first row.
pub fn stored_keys(store: &Store, keys: &[i64]) -> Result<Keys, CliError> {
    let found = store.field_names(keys)?;
    Ok(Keys {
        built_in: found.built_in,
        custom: found.custom,
        channels: found.channels,
    })
}
