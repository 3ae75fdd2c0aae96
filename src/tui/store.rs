//! The loaded feedback, kept compact: strings sanitized once on the way in and boxed, app,
//! project, tag and status names interned, and rows in a deque so refreshes prepend without
//! shifting the store. Rows are addressed by position (newest first) and found by id. A page
//! goes in where the server's order puts it ([`Store::insert_page`]), so a refresh that pages
//! down, or a walk restarted from the top, fills its gap without disturbing the rows around it.

use std::collections::{HashMap, HashSet, VecDeque};

use jiff::Timestamp;

use crate::api::Feedback;
use crate::text::{sanitize, sanitize_line};

/// Index of an interned name.
pub type Sym = u32;

/// Names shared by many rows, stored once.
#[derive(Debug, Default, Clone)]
pub struct Interner {
    names: Vec<Box<str>>,
    index: HashMap<Box<str>, Sym>,
}

impl Interner {
    pub fn intern(&mut self, name: &str) -> Sym {
        if let Some(sym) = self.index.get(name) {
            return *sym;
        }
        let sym = Sym::try_from(self.names.len()).unwrap_or(Sym::MAX);
        self.names.push(name.into());
        self.index.insert(name.into(), sym);
        sym
    }

    #[must_use]
    pub fn get(&self, sym: Sym) -> &str {
        self.names.get(sym as usize).map_or("", |s| s)
    }
}

/// One loaded item, ready to display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The id exactly as the server sent it (used in requests).
    pub id: Box<str>,
    /// Sanitized multi-line message.
    pub message: Box<str>,
    pub email: Option<Box<str>>,
    pub received_at: Timestamp,
    pub status: Sym,
    pub tags: Box<[Sym]>,
    /// The tags as shown in the list (`#bug #crash`), interned: few distinct combinations.
    pub tags_label: Sym,
    /// The app as shown in the list (`Name · platform`), and its id.
    pub app: Option<(Sym, Sym)>,
    pub project: Sym,
}

/// Where a page of items goes in the store.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Anchor {
    /// Above every row (a walk starting at the newest item).
    Top,
    /// Just below the row with this id (ids survive rows inserted above them; positions do not).
    After(Box<str>),
    /// Below every row.
    #[default]
    End,
}

/// What merging a page did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    /// Rows added.
    pub added: usize,
    /// Rows added at or inside the block of new rows at the top (so they can be marked new).
    pub on_top: usize,
    /// True when the page held an item that was already loaded.
    pub met_known: bool,
    /// Where the page that follows this one goes: just below this page's last item.
    pub next: Anchor,
}

/// The loaded list, newest first.
#[derive(Debug, Default, Clone)]
pub struct Store {
    rows: VecDeque<Row>,
    ids: HashSet<Box<str>>,
    pub names: Interner,
}

impl Store {
    #[must_use]
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    #[must_use]
    pub fn get(&self, index: usize) -> Option<&Row> {
        self.rows.get(index)
    }

    /// Rows `start..end` (clamped), for drawing one screen.
    pub fn window(&self, start: usize, end: usize) -> impl Iterator<Item = &Row> {
        let end = end.min(self.rows.len());
        self.rows.range(start.min(end)..end)
    }

    #[must_use]
    pub fn contains(&self, id: &str) -> bool {
        self.ids.contains(id)
    }

    /// Position of the row with `id`.
    #[must_use]
    pub fn position(&self, id: &str) -> Option<usize> {
        if !self.contains(id) {
            return None;
        }
        self.rows.iter().position(|r| &*r.id == id)
    }

    /// Position `anchor` stands for now.
    #[must_use]
    pub fn resolve(&self, anchor: &Anchor) -> usize {
        match anchor {
            Anchor::Top => 0,
            Anchor::End => self.rows.len(),
            Anchor::After(id) => self.position(id).map_or(self.rows.len(), |p| p + 1),
        }
    }

    /// Puts a page (newest first) into the list in the server's order: its first new item at
    /// `anchor`, each later one just below the item before it in the page. An item already
    /// loaded is skipped and moves the insertion point to just below itself, so a page that
    /// overlaps loaded rows neither duplicates nor reorders them. `new_rows` is the size of the
    /// block of new rows at the top; insertions that touch it are counted in `on_top`.
    pub fn insert_page(
        &mut self,
        anchor: &Anchor,
        items: impl IntoIterator<Item = Feedback>,
        new_rows: usize,
    ) -> Merged {
        let mut point = self.resolve(anchor);
        let (mut added, mut on_top, mut met_known) = (0, 0, false);
        for item in items {
            if self.ids.contains(item.id.as_str()) {
                met_known = true;
                point = self.known_position(item.id.as_str(), point) + 1;
                continue;
            }
            let row = self.row(item);
            self.ids.insert(row.id.clone());
            self.rows.insert(point, row);
            if point <= new_rows + on_top {
                on_top += 1;
            }
            point += 1;
            added += 1;
        }
        let next = match point.checked_sub(1) {
            None => Anchor::Top,
            Some(_) if point >= self.rows.len() => Anchor::End,
            Some(above) => self
                .rows
                .get(above)
                .map_or(Anchor::End, |r| Anchor::After(r.id.clone())),
        };
        Merged {
            added,
            on_top,
            met_known,
            next,
        }
    }

    /// Position of a loaded `id`, looked up at `hint` first (a page usually continues where the
    /// previous item of the same page was).
    fn known_position(&self, id: &str, hint: usize) -> usize {
        if self.rows.get(hint).is_some_and(|r| &*r.id == id) {
            return hint;
        }
        self.position(id).unwrap_or(hint)
    }

    /// Appends older items (the next page); ids already loaded are skipped. Returns how many
    /// were added.
    pub fn append(&mut self, items: impl IntoIterator<Item = Feedback>) -> usize {
        let before = self.rows.len();
        for item in items {
            if !self.ids.contains(item.id.as_str()) {
                let row = self.row(item);
                self.ids.insert(row.id.clone());
                self.rows.push_back(row);
            }
        }
        self.rows.len() - before
    }

    /// Puts newer items (newest first, as the API sends them) above the list; ids already
    /// loaded are skipped. Returns how many were added.
    pub fn prepend(&mut self, items: impl IntoIterator<Item = Feedback>) -> usize {
        let fresh: Vec<Feedback> = items
            .into_iter()
            .filter(|f| !self.ids.contains(f.id.as_str()))
            .collect();
        let added = fresh.len();
        for item in fresh.into_iter().rev() {
            let row = self.row(item);
            self.ids.insert(row.id.clone());
            self.rows.push_front(row);
        }
        added
    }

    /// Keeps only the rows for which `keep` is true, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Row) -> bool) {
        let ids = &mut self.ids;
        self.rows.retain(|row| {
            let kept = keep(row);
            if !kept {
                ids.remove(&row.id);
            }
            kept
        });
    }

    /// Forgets every row (names stay interned).
    pub fn clear(&mut self) {
        self.rows.clear();
        self.ids.clear();
    }

    fn row(&mut self, item: Feedback) -> Row {
        let names = &mut self.names;
        let tags_label: Vec<String> = item
            .tags
            .iter()
            .map(|t| format!("#{}", sanitize_line(t)))
            .collect();
        let app = item.app.as_ref().map(|a| {
            let label = format!(
                "{} · {}",
                sanitize_line(&a.name),
                sanitize_line(a.platform.as_str())
            );
            (names.intern(&label), names.intern(&a.id))
        });
        Row {
            id: item.id.0.into_boxed_str(),
            message: sanitize(&item.message).into(),
            email: item
                .reporter_email
                .as_deref()
                .map(|e| sanitize_line(e).into()),
            received_at: item.received_at,
            status: names.intern(&sanitize_line(item.status.as_str())),
            tags: item
                .tags
                .iter()
                .map(|t| names.intern(&sanitize_line(t)))
                .collect(),
            tags_label: names.intern(&tags_label.join(" ")),
            app,
            project: names.intern(&sanitize_line(&item.project.name)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn item(id: &str, secs: i64, message: &str) -> Feedback {
        serde_json::from_value(serde_json::json!({
            "id": id, "message": message, "reporter_email": null, "status": "new",
            "received_at": Timestamp::from_second(secs).unwrap().to_string(),
            "tags": ["bug"], "app": null, "project": {"id": "p", "name": "P"}
        }))
        .unwrap()
    }

    #[test]
    fn append_and_prepend_skip_known_ids_and_keep_order() {
        let mut store = Store::default();
        assert_eq!(store.append([item("c", 3, "x"), item("b", 2, "x")]), 2);
        assert_eq!(store.append([item("b", 2, "x"), item("a", 1, "x")]), 1);
        assert_eq!(
            store.prepend([item("e", 5, "x"), item("d", 4, "x"), item("c", 3, "x")]),
            2
        );
        let ids: Vec<&str> = store.window(0, 10).map(|r| &*r.id).collect();
        assert_eq!(ids, ["e", "d", "c", "b", "a"]);
        assert_eq!(store.position("b"), Some(3));
        assert_eq!(store.position("zz"), None);
    }

    fn ids(store: &Store) -> Vec<&str> {
        store.window(0, usize::MAX).map(|r| &*r.id).collect()
    }

    #[test]
    fn a_page_goes_where_the_server_order_puts_it() {
        let mut store = Store::default();
        store.append([item("c", 3, "x"), item("a", 1, "x")]);
        // A refresh page: two new items on top, then a loaded one, then one in between.
        let merged = store.insert_page(
            &Anchor::Top,
            [
                item("e", 5, "x"),
                item("d", 4, "x"),
                item("c", 3, "x"),
                item("b", 2, "x"),
            ],
            0,
        );
        assert_eq!(ids(&store), ["e", "d", "c", "b", "a"]);
        assert_eq!((merged.added, merged.on_top), (3, 2));
        assert!(merged.met_known);
        assert_eq!(merged.next, Anchor::After("b".into()));
        // The page that follows goes below the last item of the one before.
        let merged = store.insert_page(&merged.next, [item("a", 1, "x"), item("z", 0, "x")], 2);
        assert_eq!(ids(&store), ["e", "d", "c", "b", "a", "z"]);
        assert_eq!(
            (merged.added, merged.on_top, merged.next),
            (1, 0, Anchor::End)
        );
        // Below an anchor inside the new block, insertions still count as new.
        let merged = store.insert_page(&Anchor::After("e".into()), [item("e2", 5, "x")], 2);
        assert_eq!(merged.on_top, 1);
        assert_eq!(store.resolve(&Anchor::After("e2".into())), 2);
    }

    #[test]
    fn text_is_sanitized_once_on_the_way_in_and_names_are_interned() {
        let mut store = Store::default();
        store.append([item("a", 1, "\u{1b}[2Jhi"), item("b", 0, "ok")]);
        assert_eq!(&*store.get(0).unwrap().message, "␛hi");
        assert_eq!(store.get(0).unwrap().tags, store.get(1).unwrap().tags);
        assert_eq!(store.names.get(store.get(0).unwrap().tags[0]), "bug");
    }
}
