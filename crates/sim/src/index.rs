//! The compact form of the served items and the lists that find a page without a scan.
//!
//! An [`Entry`] is about 48 bytes: its keyset key, a generated item's seed (or a whole item that
//! was handed in), and its status, app, project and tags as small numbers. Entries are kept
//! oldest first, so a new submission is an append. [`Index`] holds, for every status, app,
//! project and known tag, the ascending positions of the entries that have it, and the position
//! of every id: a page is a binary search in the shortest list that applies and then a walk down
//! it, O(log n + page) for a filter of one value (more when several filters combine and the
//! shortest list is much longer than its matches).

use std::collections::HashMap;

use jiff::Timestamp;

use feedback_api::model::{FeedbackDetail, Status};

/// No app or project (an app-less item, or one handed in with an unknown one).
pub(crate) const NONE: u8 = u8::MAX;

/// Status codes kept in an entry.
const NEW: u8 = 0;
const ARCHIVED: u8 = 1;
const OTHER: u8 = 2;

/// What an entry builds its item from.
#[derive(Debug, Clone)]
pub(crate) enum Body {
    /// A generated item: built again from its seed when an answer needs it.
    Seed(u64),
    /// An item handed in whole (tests, hostile corpora).
    Full(Box<FeedbackDetail>),
}

/// One served item, compact.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub at: Timestamp,
    /// The id of a seeded item (ids of whole items live in them).
    pub short_id: [u8; 8],
    pub body: Body,
    pub status: u8,
    pub app: u8,
    pub project: u8,
    /// Bit `i`: has `catalog::TAGS[i]`.
    pub tags: u16,
}

impl Entry {
    /// The item's id.
    #[must_use]
    pub(crate) fn id(&self) -> &str {
        match &self.body {
            Body::Seed(_) => std::str::from_utf8(&self.short_id).unwrap_or_default(),
            Body::Full(item) => item.feedback.id.as_str(),
        }
    }

    /// The keyset ordering key.
    #[must_use]
    pub(crate) fn key(&self) -> (Timestamp, &str) {
        (self.at, self.id())
    }

    /// The served status.
    #[must_use]
    pub(crate) fn status(&self) -> Status {
        match (&self.body, self.status) {
            (Body::Full(item), _) => item.feedback.status.clone(),
            (_, ARCHIVED) => Status::Archived,
            _ => Status::New,
        }
    }
}

/// The entry code of a status.
#[must_use]
pub(crate) fn status_code(status: &Status) -> u8 {
    match status {
        Status::New => NEW,
        Status::Archived => ARCHIVED,
        Status::Other(_) => OTHER,
    }
}

/// An 8-byte id as a number (ids of other lengths are kept by text).
fn packed(id: &str) -> Option<u64> {
    let bytes: [u8; 8] = id.as_bytes().try_into().ok()?;
    Some(u64::from_be_bytes(bytes))
}

/// Positions of entries by id and by filter value.
#[derive(Debug, Clone, Default)]
pub(crate) struct Index {
    short_ids: HashMap<u64, u32>,
    other_ids: HashMap<String, u32>,
    pub status: [Vec<u32>; 2],
    pub apps: Vec<Vec<u32>>,
    pub projects: Vec<Vec<u32>>,
    pub tags: Vec<Vec<u32>>,
    /// Entries holding a whole item: the only ones a filter value outside the tables can match.
    pub full: Vec<u32>,
}

impl Index {
    /// The index of `entries` (oldest first), with room for the given table sizes.
    #[must_use]
    pub(crate) fn build(entries: &[Entry], apps: usize, projects: usize, tags: usize) -> Self {
        let mut index = Self {
            short_ids: HashMap::with_capacity(entries.len()),
            apps: vec![Vec::new(); apps],
            projects: vec![Vec::new(); projects],
            tags: vec![Vec::new(); tags],
            ..Self::default()
        };
        for (position, entry) in entries.iter().enumerate() {
            index.push(u32::try_from(position).unwrap_or(u32::MAX), entry);
        }
        index
    }

    /// Adds `entry`, at `position` after every entry indexed so far.
    pub(crate) fn push(&mut self, position: u32, entry: &Entry) {
        match packed(entry.id()) {
            Some(id) => self.short_ids.insert(id, position),
            None => self.other_ids.insert(entry.id().to_owned(), position),
        };
        if let Some(list) = self.status.get_mut(usize::from(entry.status)) {
            list.push(position);
        }
        if let Some(list) = self.apps.get_mut(usize::from(entry.app)) {
            list.push(position);
        }
        if let Some(list) = self.projects.get_mut(usize::from(entry.project)) {
            list.push(position);
        }
        for (bit, list) in self.tags.iter_mut().enumerate() {
            if entry.tags & (1 << bit) != 0 {
                list.push(position);
            }
        }
        if matches!(entry.body, Body::Full(_)) {
            self.full.push(position);
        }
    }

    /// The position of the entry with `id`.
    #[must_use]
    pub(crate) fn position(&self, id: &str) -> Option<usize> {
        let found = match packed(id) {
            Some(short) => self.short_ids.get(&short),
            None => self.other_ids.get(id),
        };
        found.map(|p| *p as usize)
    }

    /// Moves `position` from the list of status `from` to that of `to`.
    pub(crate) fn move_status(&mut self, position: usize, from: u8, to: u8) {
        let position = u32::try_from(position).unwrap_or(u32::MAX);
        if let Some(list) = self.status.get_mut(usize::from(from))
            && let Ok(at) = list.binary_search(&position)
        {
            list.remove(at);
        }
        if let Some(list) = self.status.get_mut(usize::from(to))
            && let Err(at) = list.binary_search(&position)
        {
            list.insert(at, position);
        }
    }
}
