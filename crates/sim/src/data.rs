//! The seeded dataset: the same seed and anchor always give the same projects, apps and items.
//! Items spread over about six months before the anchor, newest first, with realistic variety:
//! missing email or app, both statuses, built-in and custom metadata, and delivery entries.
//!
//! Items are kept compact (see `index`): a generated item is its key, its seed and a few bytes
//! for filtering, and is built again from the seed when an answer needs it, so a million items
//! take tens of megabytes, not gigabytes. Items handed in whole (tests) are kept whole.

use std::collections::{BTreeMap, HashSet};

use jiff::{SignedDuration, Timestamp};

use super::catalog;
use super::index::{Body, Entry, Index, NONE, status_code};
use super::item::{self, Place};
use super::story::Story;
use feedback_api::model::{
    App, Feedback, FeedbackDetail, FeedbackId, Platform, Project, Region, Status,
};

/// Seconds the items are spread over.
const SPAN_SECONDS: i64 = 183 * 24 * 3600;

/// Everything the simulator serves.
#[derive(Debug, Clone)]
pub struct Dataset {
    pub projects: Vec<Project>,
    pub apps: Vec<App>,
    /// Oldest first (received_at, then id, both ascending): a new submission is an append.
    pub(crate) entries: Vec<Entry>,
    pub(crate) index: Index,
    /// The story the items tell (releases, the bad one, clusters), fixed by the anchor.
    pub story: Story,
}

/// Builds the dataset for `seed` with `count` items, the newest received just before `anchor`.
#[must_use]
pub fn generate(seed: u64, count: usize, anchor: Timestamp) -> Dataset {
    let anchor = anchor.round(jiff::Unit::Second).unwrap_or(anchor);
    let mut rng = fastrand::Rng::with_seed(seed);
    let projects = projects(&mut rng, anchor);
    let apps = apps(&mut rng, &projects);
    let mut dataset = Dataset {
        projects,
        apps,
        entries: Vec::with_capacity(count),
        index: Index::default(),
        story: Story { anchor },
    };
    // The story's extra crash reports come from a generator of their own: the rest of the
    // data is drawn as it was before the story.
    let mut told = fastrand::Rng::with_seed(seed ^ 0x5709_0003_5709_0003);
    let mut ids = HashSet::with_capacity(count);
    let mean_gap = (SPAN_SECONDS / i64::try_from(count.max(1)).unwrap_or(i64::MAX)).max(1);
    let mut at = anchor;
    for _ in 0..count {
        at = at
            .saturating_sub(SignedDuration::from_secs(rng.i64(1..=mean_gap * 2)))
            .unwrap_or(at);
        let id = loop {
            let id = draw_id(&mut rng);
            if ids.insert(u64::from_be_bytes(id)) {
                break id;
            }
        };
        let mut item_seed = rng.u64(..);
        if dataset.story.extra_crash(&mut told, at) {
            item_seed = crash_seed(&mut told, dataset.apps.len());
        }
        // Ids are drawn from an ASCII alphabet.
        let id = std::str::from_utf8(&id).unwrap_or_default();
        let entry = dataset.seeded_entry(item_seed, id, at, None);
        dataset.entries.push(entry);
    }
    dataset
        .entries
        .sort_unstable_by(|a, b| a.key().cmp(&b.key()));
    dataset.reindex();
    dataset
}

fn projects(rng: &mut fastrand::Rng, anchor: Timestamp) -> Vec<Project> {
    catalog::PROJECTS
        .iter()
        .map(|(name, slug, days)| Project {
            id: uuid(rng),
            name: (*name).to_owned(),
            slug: Some((*slug).to_owned()),
            created_at: anchor
                .saturating_sub(SignedDuration::from_hours(days * 24))
                .ok(),
        })
        .collect()
}

fn apps(rng: &mut fastrand::Rng, projects: &[Project]) -> Vec<App> {
    catalog::APPS
        .iter()
        .map(|(project, name, slug, platform, identifier, region)| App {
            id: uuid(rng),
            project_id: Some(projects[*project].id.clone()),
            name: (*name).to_owned(),
            slug: Some((*slug).to_owned()),
            platform: Some(Platform::from(*platform)),
            app_identifier: Some((*identifier).to_owned()),
            region: Some(Region::from(*region)),
        })
        .collect()
}

/// A random v4-shaped UUID from the seeded generator.
pub fn uuid(rng: &mut fastrand::Rng) -> String {
    let bytes: [u8; 16] = std::array::from_fn(|_| rng.u8(..));
    uuid::Builder::from_random_bytes(bytes)
        .into_uuid()
        .hyphenated()
        .to_string()
}

/// An 8-character short id from an alphabet without look-alikes, drawn again while `taken`
/// says it is in use.
pub(crate) fn unique_id(rng: &mut fastrand::Rng, mut taken: impl FnMut(&str) -> bool) -> String {
    loop {
        let id = String::from_utf8_lossy(&draw_id(rng)).into_owned();
        if !taken(&id) {
            return id;
        }
    }
}

/// A seed whose item is a crash report of the story's bad app.
pub(crate) fn crash_seed(rng: &mut fastrand::Rng, apps: usize) -> u64 {
    loop {
        let seed = rng.u64(..);
        if item::is_bad_app_crash(seed, apps) {
            return seed;
        }
    }
}

/// Eight characters from an alphabet without look-alikes (so always ASCII).
fn draw_id(rng: &mut fastrand::Rng) -> [u8; 8] {
    const ALPHABET: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";
    std::array::from_fn(|_| ALPHABET[rng.usize(..ALPHABET.len())])
}

fn small(index: Option<usize>) -> u8 {
    index.and_then(|i| u8::try_from(i).ok()).unwrap_or(NONE)
}

impl Dataset {
    /// Where an item received at `at` sits in the story.
    fn place(&self, at: Timestamp) -> Place<'_> {
        Place {
            story: &self.story,
            at,
            projects: &self.projects,
            apps: &self.apps,
        }
    }

    /// The compact entry of a generated item (`status` overrides the generated one).
    fn seeded_entry(&self, seed: u64, id: &str, at: Timestamp, status: Option<Status>) -> Entry {
        let skeleton = item::skeleton(seed, self.apps.len());
        let project = self.apps.get(skeleton.app).map(|app| {
            let project = item::project_of(app, &self.projects);
            self.projects.iter().position(|p| p.id == project.id)
        });
        let archived = status.map_or(skeleton.archived, |s| s == Status::Archived);
        Entry {
            at,
            short_id: id.as_bytes().try_into().unwrap_or_default(),
            body: Body::Seed(seed),
            status: status_code(if archived {
                &Status::Archived
            } else {
                &Status::New
            }),
            app: small(skeleton.with_app.then_some(skeleton.app)),
            project: small(project.flatten()),
            tags: skeleton.tags,
        }
    }

    /// The compact entry of an item handed in whole.
    fn full_entry(&self, item: FeedbackDetail) -> Entry {
        let f = &item.feedback;
        let app = f
            .app
            .as_ref()
            .and_then(|a| self.apps.iter().position(|x| x.id == a.id));
        let project = self.projects.iter().position(|p| p.id == f.project.id);
        let tags = catalog::TAGS
            .iter()
            .enumerate()
            .filter(|(_, t)| f.tags.iter().any(|x| x == *t))
            .fold(0, |mask, (i, _)| mask | (1 << i));
        Entry {
            at: f.received_at,
            short_id: [0; 8],
            status: status_code(&f.status),
            app: small(app),
            project: small(project),
            tags,
            body: Body::Full(Box::new(item)),
        }
    }

    fn reindex(&mut self) {
        self.index = Index::build(
            &self.entries,
            self.apps.len(),
            self.projects.len(),
            catalog::TAGS.len(),
        );
    }

    /// The whole item of an entry.
    pub(crate) fn materialize(&self, entry: &Entry) -> FeedbackDetail {
        match &entry.body {
            Body::Full(item) => (**item).clone(),
            Body::Seed(seed) => {
                let id = FeedbackId(entry.id().to_owned());
                let mut item = item::build(*seed, id, &self.place(entry.at));
                item.feedback.status = entry.status();
                item
            }
        }
    }

    /// The list part of an entry's item (what a page shows).
    pub(crate) fn materialize_feedback(&self, entry: &Entry) -> Feedback {
        match &entry.body {
            Body::Full(item) => item.feedback.clone(),
            Body::Seed(seed) => {
                let id = FeedbackId(entry.id().to_owned());
                let mut f = item::build_feedback(*seed, id, &self.place(entry.at));
                f.status = entry.status();
                f
            }
        }
    }

    /// How many items are served.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every item's id and the story its message was written from (`item::told`), newest
    /// first: the ground truth a measurement of Top issues compares its clusters with.
    pub fn stories(&self) -> impl Iterator<Item = (String, String)> + '_ {
        self.entries.iter().rev().map(|e| {
            let story = match &e.body {
                Body::Seed(seed) => item::told(*seed, &self.place(e.at)),
                Body::Full(item) => format!("handed in {}", item.feedback.message),
            };
            (e.id().to_owned(), story)
        })
    }

    /// Every item, newest first, built one by one (a test's view of what is served).
    pub fn items(&self) -> impl Iterator<Item = FeedbackDetail> + '_ {
        self.entries.iter().rev().map(|e| self.materialize(e))
    }

    /// The item with `id`.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<FeedbackDetail> {
        let position = self.index.position(id)?;
        self.entries.get(position).map(|e| self.materialize(e))
    }

    /// True when an item has `id`.
    #[must_use]
    pub fn contains(&self, id: &str) -> bool {
        self.index.position(id).is_some()
    }

    /// Serves exactly `items` (in any order) instead of what was served.
    pub fn replace_items(&mut self, items: Vec<FeedbackDetail>) {
        self.entries = items.into_iter().map(|i| self.full_entry(i)).collect();
        self.entries.sort_by(|a, b| a.key().cmp(&b.key()));
        self.reindex();
    }

    /// Adds an item handed in whole.
    pub fn insert(&mut self, item: FeedbackDetail) {
        let entry = self.full_entry(item);
        self.add(entry);
    }

    /// Adds an item handed in whole, listed under `listed` whatever its own status says: a
    /// service whose status enum grew lists its new values under one of the lists.
    pub fn insert_listed(&mut self, item: FeedbackDetail, listed: &Status) {
        let mut entry = self.full_entry(item);
        entry.status = status_code(listed);
        self.add(entry);
    }

    /// Adds the generated item of `seed` with `id`, received at `at`, with `status`; returns it.
    pub(crate) fn insert_seeded(
        &mut self,
        seed: u64,
        id: &str,
        at: Timestamp,
        status: Status,
    ) -> FeedbackDetail {
        let entry = self.seeded_entry(seed, id, at, Some(status));
        let item = self.materialize(&entry);
        self.add(entry);
        item
    }

    /// Appends in the common case (newest so far); otherwise inserts in order and re-indexes.
    fn add(&mut self, entry: Entry) {
        let newest = self
            .entries
            .last()
            .is_none_or(|last| last.key() < entry.key());
        if newest {
            let position = u32::try_from(self.entries.len()).unwrap_or(u32::MAX);
            self.index.push(position, &entry);
            self.entries.push(entry);
        } else {
            let at = self.entries.partition_point(|e| e.key() < entry.key());
            self.entries.insert(at, entry);
            self.reindex();
        }
    }

    /// Moves the item with `id` to `status` (archive or unarchive); false when there is none.
    pub fn set_status(&mut self, id: &str, status: &Status) -> bool {
        let Some(position) = self.index.position(id) else {
            return false;
        };
        let Some(entry) = self.entries.get_mut(position) else {
            return false;
        };
        let (from, to) = (entry.status, status_code(status));
        entry.status = to;
        if let Body::Full(item) = &mut entry.body {
            item.feedback.status = status.clone();
        }
        self.index.move_status(position, from, to);
        true
    }

    /// Tag counts over the items in scope (an app id, a project id), any status.
    #[must_use]
    pub fn tag_counts(&self, app: Option<&str>, project: Option<&str>) -> BTreeMap<String, u64> {
        let mut known = [0u64; 16];
        let mut counts: BTreeMap<String, u64> = BTreeMap::new();
        for entry in &self.entries {
            if !self.in_scope(entry, app, project) {
                continue;
            }
            match &entry.body {
                Body::Full(item) => {
                    for tag in &item.feedback.tags {
                        *counts.entry(tag.clone()).or_default() += 1;
                    }
                }
                Body::Seed(_) => {
                    for (bit, count) in known.iter_mut().enumerate() {
                        *count += u64::from(entry.tags >> bit & 1);
                    }
                }
            }
        }
        for (tag, count) in catalog::TAGS.iter().zip(known) {
            if count > 0 {
                *counts.entry((*tag).to_owned()).or_default() += count;
            }
        }
        counts
    }
}

#[cfg(test)]
mod tests;
