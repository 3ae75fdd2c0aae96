//! A store filled from the simulator's generator (plus odd cases: unknown statuses, tag and
//! email case variants, accents) and a brute-force evaluation of a query over the same items
//! in plain Rust, written from the language's description, not from the compiler.

use std::collections::HashMap;

use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

use super::super::{Context, compile};
use crate::match_walk::Choice;
use crate::{NamedView, RowNeeds, Sighting, Store, StoreError, Triage, ViewQuery};
use feedback_api::{FeedbackDetail, Status};
use feedback_config::views::ViewDef;
use feedback_core::query::*;
use feedback_sim::data::{Dataset, generate};

pub(super) struct Fixture {
    pub(super) store: Store,
    pub(super) data: Dataset,
    /// The generator's items with the oddities mixed in, newest first.
    pub(super) items: Vec<FeedbackDetail>,
    /// Per item: stored key, and whether its detail (metadata, delivery) was stored.
    pub(super) keys: HashMap<String, (i64, bool)>,
    /// Per item: the message's folded tokens (tokenizing is the slow part of brute force).
    tokens: HashMap<String, Vec<String>>,
    /// Per item: its triage state (untouched items are absent).
    triage: HashMap<String, Triage>,
    /// Per item: its team state (items the team never touched are absent).
    team: HashMap<String, Shared>,
    pub(super) cx: Context,
}

/// The views `view:` names: the built-in and the team's, and some of a user's (a status, the
/// panes' filters, a search; one whose search asks for done items).
fn views(data: &Dataset) -> Vec<NamedView> {
    let def = |name: &str, status: &str, query: &str| ViewDef {
        name: name.into(),
        status: status.into(),
        query: query.into(),
        ..ViewDef::default()
    };
    let defs = [
        ViewDef {
            tag: Some("bug".into()),
            ..def("Bugs", "new", "crash* OR sync")
        },
        ViewDef {
            app: Some(data.apps[1].id.clone()),
            ..def("Web without email", "any", "-has:email")
        },
        ViewDef {
            project: Some(data.projects[0].id.clone()),
            ..def("Old first project", "archived", "")
        },
        def("Done or sync", "new", "is:done OR sync"),
    ];
    crate::saved_views::every(&defs, true)
}

/// The member the fixture's store acts as in its team.
const ME: &str = "ana";

/// One item's team state: owner, labels, the authors of its notes, the bodies of this
/// member's notes still in the outbox, its links (address, title) as shown.
#[derive(Debug, Clone, Default)]
struct Shared {
    owner: Option<String>,
    labels: Vec<String>,
    note_authors: Vec<String>,
    pending_notes: Vec<String>,
    links: Vec<(String, Option<String>)>,
    /// The replies sent to the reporter: who sent them (none: this store's own in no team) and
    /// when.
    replies: Vec<(Option<String>, Timestamp)>,
}

/// The replies the store itself sent on the `i`th item (by, hours before `anchor()`), and
/// whether one more waits unsent (never a reply sent).
fn own_replies_of(i: usize) -> (Vec<(Option<&'static str>, i64)>, bool) {
    match i % 11 {
        3 => (vec![(None, 1)], false),
        7 => (vec![(Some(ME), 72)], false),
        9 => (vec![], true),
        10 => (vec![(Some("Bo"), 400), (Some(ME), 20)], false),
        _ => (vec![], false),
    }
}

/// The team's `reply` events on the `i`th item (by, hours before `anchor()`).
fn team_replies_of(i: usize) -> Vec<(&'static str, i64)> {
    match i % 13 {
        5 => vec![("bo", 0)],
        8 => vec![(ME, 240)],
        _ => vec![],
    }
}

/// The links the store itself keeps on the `i`th item (made before it was in a team); one
/// shares its address with a link of the team's ([`team_of`]).
fn own_links_of(i: usize) -> Vec<(String, Option<String>)> {
    match i % 10 {
        2 => vec![(
            format!("https://tracker.example/T-{i}"),
            Some("mine".into()),
        )],
        3 => vec![("https://docs.example/guide".into(), Some("Guide".into()))],
        _ => vec![],
    }
}

/// The changes this member made to the `i`th item and has not sent yet (as JSON, the outbox's
/// form), in the order made; most items have none.
fn pending_of(i: usize) -> Vec<serde_json::Value> {
    use serde_json::json;
    match i % 17 {
        0 => vec![json!("claim")],
        1 => vec![json!("unclaim")],
        2 => vec![json!({"assign": {"to": "bo", "from": null}})],
        3 => vec![
            json!({"take-over": {"from": "cy"}}),
            json!("unclaim"),
            json!("claim"),
        ],
        4 => vec![json!({"labels": {"add": ["urgent"], "remove": ["ios", "billing"]}})],
        5 => vec![
            json!({"labels": {"add": ["fresh", "label"], "remove": []}}),
            json!({"labels": {"add": [], "remove": ["FRESH"]}}),
        ],
        6 => vec![json!({"labels": {"add": ["urgent"], "remove": ["urgent"]}})],
        7 => vec![json!({"note": {"note_id": format!("p{i}"), "body": "sent it back"}})],
        8 => vec![json!({"done": true}), json!({"snooze": null})],
        9 => vec![
            json!({"link": {"url": "https://tracker.example/NEW-1", "title": "Refund_100% asked"}}),
        ],
        10 => vec![json!({"unlink": {"url": "https://docs.example/guide"}})],
        11 => vec![
            json!({"link": {"url": "https://tracker.example/GONE-1"}}),
            json!({"unlink": {"url": "https://tracker.example/GONE-1"}}),
        ],
        12 => vec![
            json!({"unlink": {"url": format!("https://tracker.example/T-{i}")}}),
            json!({"link": {"url": format!("https://tracker.example/T-{i}"), "title": "relinked"}}),
        ],
        _ => vec![],
    }
}

/// `shared` with a pending change (by [`ME`]) laid over, by the rule the inbox shows: a claim
/// or take-over makes the item this member's, an unclaim nobody's, an assignment the
/// assignee's; labels are added then removed, by their exact names; a note is this member's.
fn lay_over(shared: &mut Shared, change: &serde_json::Value) {
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_str().map(str::to_owned))
            .collect()
    };
    match change {
        serde_json::Value::String(s) if s == "claim" => shared.owner = Some(ME.to_owned()),
        serde_json::Value::String(s) if s == "unclaim" => shared.owner = None,
        v if v.get("take-over").is_some() => shared.owner = Some(ME.to_owned()),
        v if v.get("assign").is_some() => {
            shared.owner = v["assign"]["to"].as_str().map(str::to_owned);
        }
        v if v.get("labels").is_some() => {
            let (add, remove) = (
                strings(&v["labels"]["add"]),
                strings(&v["labels"]["remove"]),
            );
            shared.labels.extend(add);
            shared.labels.retain(|l| !remove.contains(l));
        }
        v if v.get("note").is_some() => {
            shared
                .pending_notes
                .push(v["note"]["body"].as_str().unwrap().to_owned());
        }
        // A link replaces the item's link to its address (with its title); an unlink removes it.
        v if v.get("link").is_some() => {
            let url = v["link"]["url"].as_str().unwrap().to_owned();
            shared.links.retain(|(u, _)| *u != url);
            shared
                .links
                .push((url, v["link"]["title"].as_str().map(str::to_owned)));
        }
        v if v.get("unlink").is_some() => {
            let url = v["unlink"]["url"].as_str().unwrap();
            shared.links.retain(|(u, _)| u != url);
        }
        _ => {}
    }
}

/// Puts the pending changes of `items` in `store`'s outbox and lays them over `team`.
fn put_outbox(store: &mut Store, items: &[FeedbackDetail], team: &mut HashMap<String, Shared>) {
    let mut entries = Vec::new();
    for (i, d) in items.iter().enumerate() {
        let id = d.feedback.id.as_str().to_owned();
        for change in pending_of(i) {
            lay_over(team.entry(id.clone()).or_default(), &change);
            entries.push(crate::OutboxEntry {
                event_id: format!("pending-{}", entries.len()),
                item_id: id.clone(),
                change: Ok(serde_json::from_value(change.clone()).unwrap()),
                member: ME.to_owned(),
                made_at: anchor(),
            });
        }
    }
    store.team_outbox_push(&entries).unwrap();
}

/// A team state for the `i`th item: owners (this member, others, in other cases), labels
/// (in two cases), notes by several members; most items untouched.
fn team_of(i: usize) -> Option<Shared> {
    if i % 4 == 3 {
        return None;
    }
    let owner = match i % 6 {
        0 => Some(ME),
        1 => Some("Bo"),
        2 => Some("cy"),
        _ => None,
    };
    let labels = match i % 5 {
        0 => vec!["urgent"],
        1 => vec!["Urgent", "ios"],
        2 => vec!["billing"],
        _ => vec![],
    };
    let note_authors = match i % 7 {
        0 => vec![ME],
        1 => vec!["bo", ME],
        _ => vec![],
    };
    let replies = team_replies_of(i)
        .into_iter()
        .map(|(by, hours)| {
            (
                Some(by.to_owned()),
                anchor() - SignedDuration::from_hours(hours),
            )
        })
        .collect();
    let links = match i % 9 {
        0 | 4 => vec![(
            format!("https://tracker.example/T-{i}"),
            Some("Crash report".into()),
        )],
        1 | 3 => vec![("https://docs.example/guide".into(), None)],
        _ => vec![],
    };
    Some(Shared {
        owner: owner.map(str::to_owned),
        labels: labels.into_iter().map(str::to_owned).collect(),
        note_authors: note_authors.into_iter().map(str::to_owned).collect(),
        pending_notes: Vec::new(),
        links,
        replies,
    })
}

/// The text of a team note by `author`.
fn note_body(author: &str) -> String {
    if author == ME {
        "looked".to_owned()
    } else {
        "Refund 100% sent".to_owned()
    }
}

/// Stores the team states in `store`'s replica, as a catch-up would; the team's done and snooze
/// are the item's triage state's (with a team, those are the team's).
fn put_team(store: &mut Store, team: &HashMap<String, Shared>, triage: &HashMap<String, Triage>) {
    use crate::{TeamBatch, TeamItemRecord};
    use feedback_core::team_event::{Change, EventChange, TeamEvent};
    store.team_start_replica("support", ME).unwrap();
    let mut batch = TeamBatch::default();
    let mut ids: Vec<&String> = team.keys().collect();
    ids.sort();
    for id in ids {
        let shared = &team[id];
        batch.items.push(TeamItemRecord {
            item_id: id.clone(),
            owner: shared.owner.clone(),
            labels: shared.labels.clone(),
            done: triage.get(id).is_some_and(|t| t.done),
            snoozed_until: triage.get(id).and_then(|t| t.snoozed_until),
            last_seq: 1,
        });
        for author in &shared.note_authors {
            let seq = i64::try_from(batch.events.len()).unwrap() + 1;
            batch.events.push(TeamEvent {
                seq,
                event_id: format!("e{seq}"),
                member: author.clone(),
                item_id: id.clone(),
                change: EventChange::Known(Change::Note {
                    note_id: format!("n{seq}"),
                    body: note_body(author),
                }),
                at: anchor(),
            });
        }
        for (by, at) in &shared.replies {
            let seq = i64::try_from(batch.events.len()).unwrap() + 1;
            batch.events.push(TeamEvent {
                seq,
                event_id: format!("e{seq}"),
                member: by.clone().unwrap(),
                item_id: id.clone(),
                change: EventChange::Known(Change::Reply {
                    reply_id: format!("t{seq}"),
                    to: "someone@example.org".to_owned(),
                    subject: "Fixed".to_owned(),
                    body: "It is fixed".to_owned(),
                }),
                at: *at,
            });
        }
        for (url, title) in &shared.links {
            let seq = i64::try_from(batch.events.len()).unwrap() + 1;
            batch.events.push(TeamEvent {
                seq,
                event_id: format!("e{seq}"),
                member: "bo".to_owned(),
                item_id: id.clone(),
                change: EventChange::Known(Change::Link(
                    feedback_core::link::Link::new(url, title.as_deref()).unwrap(),
                )),
                at: anchor(),
            });
        }
    }
    store.team_apply(&batch, anchor()).unwrap();
}

/// Sends (as the store records it) the store's own replies of `items` at their times, leaves
/// one more waiting where [`own_replies_of`] says, and adds the sent ones to what `team` shows.
fn put_own_replies(
    store: &mut Store,
    items: &[FeedbackDetail],
    team: &mut HashMap<String, Shared>,
) {
    // Each sent in turn (the sender takes the oldest waiting), then those left waiting.
    let mut waiting = Vec::new();
    for (i, d) in items.iter().enumerate() {
        let id = d.feedback.id.as_str().to_owned();
        let (sent, left) = own_replies_of(i);
        let reply = |n: usize| crate::NewReply {
            reply_id: format!("own-{i}-{n}"),
            batch: format!("batch-{i}-{n}"),
            item_ids: vec![id.clone()],
            to: "reporter@example.org".to_owned(),
            subject: "Re: your feedback".to_owned(),
            body: "Thanks".to_owned(),
            by: None,
        };
        for (n, (by, hours)) in sent.iter().enumerate() {
            let at = anchor() - SignedDuration::from_hours(*hours);
            let mut new = reply(n);
            new.by = by.map(str::to_owned);
            store.queue_replies(&[new], at).unwrap();
            let sending = store.reply_to_send(at).unwrap().unwrap();
            store
                .reply_settled(&sending.reply_id, crate::ReplyState::Sent, None, at, &[])
                .unwrap();
            team.entry(id.clone())
                .or_default()
                .replies
                .push((by.map(str::to_owned), at));
        }
        if left {
            waiting.push(reply(9));
        }
    }
    store.queue_replies(&waiting, anchor()).unwrap();
}

/// Keeps the store's own links of `items` and adds them to what `team` shows, where the team
/// holds no link to the same address (the team's is shown).
fn put_own_links(store: &mut Store, items: &[FeedbackDetail], team: &mut HashMap<String, Shared>) {
    use feedback_core::team_event::Change;
    let mut changes = Vec::new();
    for (i, d) in items.iter().enumerate() {
        let id = d.feedback.id.as_str().to_owned();
        for (url, title) in own_links_of(i) {
            let link = feedback_core::link::Link::new(&url, title.as_deref()).unwrap();
            changes.push((id.clone(), Change::Link(link)));
            let shown = team.entry(id.clone()).or_default();
            if !shown.links.iter().any(|(u, _)| *u == url) {
                shown.links.push((url, title));
            }
        }
    }
    store.change_links(&changes, anchor()).unwrap();
}

/// A triage state for the `i`th item: a mix of every flag, snoozes ending before and after
/// `anchor()`, notes blank and not; a third of the items untouched.
fn triage_of(i: usize) -> Option<Triage> {
    if i.is_multiple_of(3) {
        return None;
    }
    let hours = |h: i64| anchor() + SignedDuration::from_hours(h);
    Some(Triage {
        seen: i.is_multiple_of(2),
        starred: i % 5 == 1,
        snoozed_until: match i % 7 {
            1 => Some(hours(3)),
            2 => Some(hours(-3)),
            _ => None,
        },
        done: i % 11 == 4,
        note: match i % 13 {
            2 => Some("call back".into()),
            5 => Some("  ".into()),
            _ => None,
        },
        changed: None,
    })
}

pub(super) fn anchor() -> Timestamp {
    "2026-11-20T12:00:00Z".parse().unwrap()
}

/// Items of the generator with a few hand-made oddities mixed in.
fn dataset(count: usize) -> (Dataset, Vec<FeedbackDetail>) {
    let data = generate(7, count, anchor());
    let mut items: Vec<FeedbackDetail> = data.items().collect();
    let mut previous = None;
    for (i, item) in items.iter_mut().enumerate() {
        let f = &mut item.feedback;
        // Ties: some items received in the same microsecond as the one before.
        if i % 13 == 5
            && let Some(at) = previous
        {
            f.received_at = at;
        }
        previous = Some(f.received_at);
        match i % 97 {
            0 => f.status = Status::Other("Triage".into()),
            1 => f.tags.push("Bug".into()),
            2 => f.message.push_str(" Café crème, NAÏVE façade"),
            3 => f.reporter_email = f.reporter_email.as_ref().map(|e| e.to_uppercase()),
            4 => f.message.push_str(" refund_100% please"),
            _ => {}
        }
    }
    (data, items)
}

impl Fixture {
    pub(super) fn new(count: usize) -> Self {
        let (data, items) = dataset(count);
        let mut store = Store::open_memory().unwrap();
        store.put_projects(&data.projects).unwrap();
        store.put_apps(&data.apps, None).unwrap();
        // Oldest first, a third as list sightings only (no metadata, delivery unknown).
        let sightings: Vec<Sighting<'_>> = items
            .iter()
            .rev()
            .enumerate()
            .map(|(i, d)| match i % 3 {
                0 => Sighting::listed(&d.feedback, &d.feedback.status),
                _ => Sighting::detail(d),
            })
            .collect();
        store.put(&sightings, anchor()).unwrap();
        let tokens = items
            .iter()
            .map(|d| {
                (
                    d.feedback.id.as_str().to_owned(),
                    index_words(&d.feedback.message),
                )
            })
            .collect();
        let mut keys = HashMap::new();
        for (i, d) in items.iter().rev().enumerate() {
            let key = store.item(d.feedback.id.as_str()).unwrap().unwrap().key;
            keys.insert(d.feedback.id.as_str().to_owned(), (key, i % 3 != 0));
        }
        let triage: HashMap<String, Triage> = items
            .iter()
            .enumerate()
            .filter_map(|(i, d)| Some((d.feedback.id.as_str().to_owned(), triage_of(i)?)))
            .collect();
        let states: Vec<(String, Triage)> =
            triage.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        store.restore_triage(&states, anchor()).unwrap();
        let mut team: HashMap<String, Shared> = items
            .iter()
            .enumerate()
            .filter_map(|(i, d)| Some((d.feedback.id.as_str().to_owned(), team_of(i)?)))
            .collect();
        put_team(&mut store, &team, &triage);
        put_own_links(&mut store, &items, &mut team);
        put_own_replies(&mut store, &items, &mut team);
        put_outbox(&mut store, &items, &mut team);
        let cx = Context {
            now: anchor(),
            tz: TimeZone::fixed(jiff::tz::offset(-5)),
            views: views(&data).into(),
        };
        Self {
            store,
            data,
            items,
            keys,
            tokens,
            triage,
            team,
            cx,
        }
    }

    /// Keys of the items the store returns for `input`, in its order.
    pub(super) fn search(&self, input: &str) -> Result<Vec<i64>, QueryError> {
        let query = parse(input)?;
        let sql = compile(self.store.conn(), &query, &self.cx)?;
        let view = ViewQuery::default().search(sql);
        Ok(self.store.view_keys(&view, None).unwrap())
    }

    /// Keys of the rows a bulk walk lends for `input`, walked as `choice` says, at most `limit`.
    pub(super) fn walked(&self, input: &str, choice: Choice, limit: Option<usize>) -> Vec<i64> {
        let query = parse(input).unwrap();
        let sql = compile(self.store.conn(), &query, &self.cx).unwrap();
        let view = ViewQuery::default().search(sql);
        let mut keys = Vec::new();
        self.store
            .view_rows_walk(&view, limit, RowNeeds::ALL, choice, |row| {
                keys.push(row.key);
                Ok::<_, StoreError>(())
            })
            .unwrap();
        keys
    }

    /// Keys of the items brute force selects for `input`, newest first (ties: the store's key
    /// ascending, the last stored first).
    pub(super) fn brute(&self, input: &str) -> Vec<i64> {
        let query = parse(input).unwrap();
        let mut hits: Vec<(Timestamp, i64)> = self
            .items
            .iter()
            .filter(|d| query.root().is_none_or(|e| self.eval(e, d)))
            .map(|d| (d.feedback.received_at, self.keys[d.feedback.id.as_str()].0))
            .collect();
        hits.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        hits.into_iter().map(|h| h.1).collect()
    }

    fn eval(&self, expr: &Expr, d: &FeedbackDetail) -> bool {
        match expr {
            Expr::And(parts) => parts.iter().all(|p| self.eval(p, d)),
            Expr::Or(parts) => parts.iter().any(|p| self.eval(p, d)),
            Expr::Not(inner) => !self.eval(inner, d),
            Expr::Text(t) => text_matches(&t.text, t.form, &self.tokens[d.feedback.id.as_str()]),
            Expr::Filter(f) => self.filter(&f.kind, d),
        }
    }

    fn filter(&self, kind: &FilterKind, d: &FeedbackDetail) -> bool {
        let f = &d.feedback;
        let detail = self.keys[f.id.as_str()].1;
        let same = |a: &str, b: &str| a.to_lowercase() == b.to_lowercase();
        let received = f.received_at;
        match kind {
            FilterKind::App(v) => f.app.as_ref().is_some_and(|a| {
                let listed = self.data.apps.iter().find(|x| x.id == a.id);
                a.id == *v
                    || same(&a.name, v)
                    || listed.is_some_and(|x| {
                        same(&x.name, v) || x.slug.as_deref().is_some_and(|s| same(s, v))
                    })
            }),
            FilterKind::Project(v) => {
                let p = &f.project;
                let listed = self.data.projects.iter().find(|x| x.id == p.id);
                p.id == *v
                    || same(&p.name, v)
                    || listed.is_some_and(|x| {
                        same(&x.name, v) || x.slug.as_deref().is_some_and(|s| same(s, v))
                    })
            }
            FilterKind::Platform(v) => f.app.as_ref().is_some_and(|a| same(a.platform.as_str(), v)),
            FilterKind::Tag(v) => f.tags.iter().any(|t| same(t, v)),
            // `new` and `archived` name the list an item is in (an item with a status this
            // version does not know, listed on no page here, is in `new`, the list's default);
            // any other value names the service's own status.
            FilterKind::Status(v) => {
                if Status::from(v.to_lowercase().as_str()).is_known() {
                    let list = if f.status.is_known() {
                        f.status.as_str()
                    } else {
                        "new"
                    };
                    same(list, v)
                } else {
                    same(f.status.as_str(), v)
                }
            }
            FilterKind::Email(v) => f
                .reporter_email
                .as_ref()
                .is_some_and(|e| e.to_ascii_lowercase().contains(&v.to_ascii_lowercase())),
            FilterKind::Id(v) => f.id.as_str() == v,
            FilterKind::Meta { key, value } => detail && meta_matches(d, key, value),
            FilterKind::Has(Has::Email) => {
                f.reporter_email.as_deref().is_some_and(|e| !e.is_empty())
            }
            FilterKind::Has(Has::Link) => {
                detail
                    && d.delivery
                        .iter()
                        .any(|x| x.external_url.as_deref().is_some_and(|u| !u.is_empty()))
            }
            FilterKind::Has(Has::Tag) => !f.tags.is_empty(),
            FilterKind::Has(Has::App) => f.app.is_some(),
            FilterKind::Has(Has::Note) => self.state(d).note.is_some_and(|n| !n.trim().is_empty()),
            FilterKind::Has(Has::Ticket) => !self.shared(d).links.is_empty(),
            FilterKind::Ticket(text) => self.ticket_holds(d, text),
            FilterKind::RepliedBy(who) => self
                .shared(d)
                .replies
                .iter()
                .any(|(by, _)| by.as_deref().is_some_and(|by| names(who, by))),
            FilterKind::Replied { cmp, age } => self.replied_within(d, *cmp, *age),
            FilterKind::Is(is) => self.is_flag(d, *is),
            FilterKind::Assignee(who) => {
                self.shared(d).owner.is_some_and(|owner| names(who, &owner))
            }
            FilterKind::Label(label) => self
                .shared(d)
                .labels
                .iter()
                .any(|l| l.eq_ignore_ascii_case(label)),
            FilterKind::NoteBy(who) => {
                let shared = self.shared(d);
                shared.note_authors.iter().any(|a| names(who, a))
                    || (!shared.pending_notes.is_empty() && names(who, ME))
            }
            FilterKind::Note(text) => self.note_holds(d, text),
            FilterKind::View(name) => self.view_lists(name, d),
            FilterKind::After(at) => {
                received >= at.to_zoned(self.cx.tz.clone()).unwrap().timestamp()
            }
            FilterKind::Before(at) => {
                received < at.to_zoned(self.cx.tz.clone()).unwrap().timestamp()
            }
            FilterKind::Age { cmp, age } => {
                let ago: SignedDuration = self.cx.now.duration_since(received);
                match cmp {
                    AgeCmp::Younger { inclusive } => ago < *age || (*inclusive && ago == *age),
                    AgeCmp::Older { inclusive } => ago > *age || (*inclusive && ago == *age),
                }
            }
        }
    }
}

/// Whether `who` names the member `name` (`me`: this store's member; a name in any ASCII case).
fn names(who: &Assignee, name: &str) -> bool {
    match who {
        Assignee::Me => name == ME,
        Assignee::Named(wanted) => wanted.eq_ignore_ascii_case(name),
    }
}

impl Fixture {
    fn shared(&self, d: &FeedbackDetail) -> Shared {
        self.team
            .get(d.feedback.id.as_str())
            .cloned()
            .unwrap_or_default()
    }

    /// `note:TEXT`: the item's note or a team note on it holds the text, ASCII letters in
    /// any case and everything else exactly (as LIKE compares).
    fn note_holds(&self, d: &FeedbackDetail, text: &str) -> bool {
        let holds = |note: &str| {
            note.to_ascii_lowercase()
                .contains(&text.to_ascii_lowercase())
        };
        let shared = self.shared(d);
        self.state(d).note.as_deref().is_some_and(holds)
            || shared.note_authors.iter().any(|a| holds(&note_body(a)))
            || shared.pending_notes.iter().any(|b| holds(b))
    }

    /// `is:…`: the item's triage state and the team's, as the inbox shows them.
    fn is_flag(&self, d: &FeedbackDetail, is: Is) -> bool {
        let t = self.state(d);
        match is {
            Is::Unseen => !t.seen,
            Is::Seen => t.seen,
            Is::Starred => t.starred,
            Is::Done => t.done,
            Is::Snoozed => t.snoozed_until.is_some_and(|u| u > self.cx.now),
            Is::Unclaimed => self.shared(d).owner.is_none(),
            Is::Mine => self.shared(d).owner.as_deref() == Some(ME),
            Is::Replied => !self.shared(d).replies.is_empty(),
        }
    }

    /// `replied:<2d`: the newest reply was sent less (more) than the age ago.
    fn replied_within(&self, d: &FeedbackDetail, cmp: AgeCmp, age: SignedDuration) -> bool {
        let Some(newest) = self.shared(d).replies.iter().map(|(_, at)| *at).max() else {
            return false;
        };
        let ago: SignedDuration = self.cx.now.duration_since(newest);
        match cmp {
            AgeCmp::Younger { inclusive } => ago < age || (inclusive && ago == age),
            AgeCmp::Older { inclusive } => ago > age || (inclusive && ago == age),
        }
    }

    /// `ticket:TEXT`: a link's address or title holds the text, ASCII letters in any case and
    /// everything else exactly (as LIKE compares).
    fn ticket_holds(&self, d: &FeedbackDetail, text: &str) -> bool {
        let text = text.to_ascii_lowercase();
        let holds = |s: &str| s.to_ascii_lowercase().contains(&text);
        self.shared(d)
            .links
            .iter()
            .any(|(url, title)| holds(url) || title.as_deref().is_some_and(holds))
    }

    /// `view:NAME`: the view named so (case aside), else the only one whose name begins so;
    /// it lists an item of its status (both for `any`), its panes' project, app (by id) and
    /// tag, that its search selects, and that is neither done nor snoozed unless its search
    /// names `is:done` or `is:snoozed`.
    fn view_lists(&self, name: &str, d: &FeedbackDetail) -> bool {
        let lower = name.to_lowercase();
        let views = &self.cx.views;
        let view = views
            .iter()
            .find(|v| v.name.to_lowercase() == lower)
            .unwrap_or_else(|| {
                let begins: Vec<_> = views
                    .iter()
                    .filter(|v| v.name.to_lowercase().starts_with(&lower))
                    .collect();
                assert_eq!(begins.len(), 1, "view:{name} names one view");
                begins[0]
            });
        let spec = &view.spec;
        let f = &d.feedback;
        let status = spec
            .status_filter()
            .is_none_or(|s| self.filter(&FilterKind::Status(s.to_owned()), d));
        let project = spec
            .project
            .as_ref()
            .is_none_or(|c| f.project.id == c.value);
        let app = spec
            .app
            .as_ref()
            .is_none_or(|c| f.app.as_ref().is_some_and(|a| a.id == c.value));
        let tag = spec.tag.as_ref().is_none_or(|c| f.tags.contains(&c.value));
        let search = parse(&spec.search).unwrap();
        let selected = search.root().is_none_or(|e| self.eval(e, d));
        let t = self.state(d);
        let hidden = t.done || t.snoozed_until.is_some_and(|u| u > self.cx.now);
        let shows_hidden = ["is:done", "is:snoozed"]
            .iter()
            .any(|q| spec.search.to_lowercase().contains(q));
        status && project && app && tag && selected && (shows_hidden || !hidden)
    }

    fn state(&self, d: &FeedbackDetail) -> Triage {
        self.triage
            .get(d.feedback.id.as_str())
            .cloned()
            .unwrap_or_default()
    }
}

fn meta_matches(d: &FeedbackDetail, key: &MetaKey, value: &str) -> bool {
    let same = |a: &str, b: &str| a.to_lowercase() == b.to_lowercase();
    let m = &d.metadata;
    match key {
        MetaKey::BuiltIn(keys) => keys
            .iter()
            .any(|k| m.built_in.get(*k).is_some_and(|v| same(v, value))),
        MetaKey::Any(want) => m
            .built_in
            .iter()
            .chain(&m.custom)
            .any(|(k, v)| same(k, want) && same(v, value)),
    }
}

/// Whether the message contains the term's tokens, adjacent: compared by their stems for a
/// plain term, as written for an exact one, the last a prefix for a prefix.
fn text_matches(term: &str, form: Form, have: &[String]) -> bool {
    let want = index_words(term);
    let last = want.len() - 1;
    have.windows(want.len()).any(|w| {
        w.iter()
            .zip(&want)
            .enumerate()
            .all(|(i, (h, x))| match form {
                Form::Stem => stem(h) == stem(x),
                Form::Prefix if i == last => h.starts_with(x.as_str()),
                Form::Exact | Form::Prefix => h == x,
            })
    })
}
