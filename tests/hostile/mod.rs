//! The hostile corpus (`assets/hostile_strings.json`) and one checker, independent of the
//! sanitizer's own classification, shared by the hostile-sink tests.
#![allow(clippy::unwrap_used, dead_code)]

use std::collections::BTreeMap;

use feedback_api::{
    AppRef, Channel, Delivery, DeliveryStatus, Feedback, FeedbackDetail, FeedbackId, Metadata,
    Platform, ProjectRef, Status,
};
use feedback_store::StoredDetail;
use feedback_tui::keymap::Keymap;
use feedback_tui::render;
use feedback_tui::state::AppState;
use feedback_tui::testkit::{self, Harness, PaneData, now};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

#[derive(serde::Deserialize)]
pub struct Corpus {
    pub hostile: Vec<String>,
    pub enum_values: Vec<String>,
    pub kept: Vec<String>,
    pub long: String,
}

/// Every string of the corpus.
pub fn corpus() -> Vec<String> {
    let c: Corpus =
        serde_json::from_str(include_str!("../../assets/hostile_strings.json")).unwrap();
    let mut all = c.hostile;
    all.extend(c.enum_values);
    all.extend(c.kept);
    all.push(c.long);
    all
}

/// The first character a terminal must not be sent: C0 controls (but '\n' where lines are
/// allowed), DEL, C1 controls, bidi controls, zero-width and other invisible characters, and a
/// ZWJ that does not join two emoji.
pub fn offending(text: &str, newlines: bool) -> Option<char> {
    let chars: Vec<char> = text.chars().collect();
    let emoji = |c: Option<&char>| {
        c.is_some_and(
            |&c| matches!(c, '\u{1F000}'..='\u{1FAFF}' | '\u{2600}'..='\u{27BF}' | '\u{FE0F}'),
        )
    };
    chars.iter().enumerate().find_map(|(i, &c)| {
        let bad = match c {
            '\n' => !newlines,
            '\u{200D}' => {
                !(emoji(i.checked_sub(1).and_then(|j| chars.get(j))) && emoji(chars.get(i + 1)))
            }
            // C0, DEL and C1 controls; bidi controls; zero-width and other invisible characters.
            '\0'..='\x1F'
            | '\x7F'..='\u{9F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{061C}'
            | '\u{200B}'
            | '\u{200C}'
            | '\u{2060}'..='\u{2064}'
            | '\u{FEFF}'
            | '\u{00AD}'
            | '\u{180E}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{E0000}'..='\u{E007F}' => true,
            _ => false,
        };
        bad.then_some(c)
    })
}

#[track_caller]
pub fn assert_inert(sink: &str, text: &str, newlines: bool) {
    if let Some(c) = offending(text, newlines) {
        let at = text.find(c).unwrap_or(0);
        let around: String = text[at.saturating_sub(40)..].chars().take(60).collect();
        panic!("{sink}: {c:?} reached the sink in …{around:?}");
    }
}

/// A piped table (tab-separated): every line has the header's number of cells (no tab came
/// from the data), and no cell holds what [`assert_inert`] refuses.
pub fn assert_inert_tsv(sink: &str, text: &str) {
    let width = text.lines().next().map_or(0, |h| h.split('\t').count());
    for line in text.lines() {
        assert_eq!(line.split('\t').count(), width, "{sink}: {line:?}");
    }
    assert_inert(sink, &text.replace('\t', " "), true);
}

/// An item whose every string field, enumerations included, is `s`.
pub fn hostile_item(n: usize, id: String, s: &str) -> Feedback {
    let mut item = testkit::item(n);
    item.id = FeedbackId(id);
    s.clone_into(&mut item.message);
    item.reporter_email = Some(s.to_owned());
    item.status = Status::from(s);
    item.tags = vec![s.to_owned(), "bug".to_owned()];
    item.app = Some(AppRef {
        id: s.to_owned(),
        name: s.to_owned(),
        platform: Platform::from(s),
    });
    item.project = ProjectRef {
        id: s.to_owned(),
        name: s.to_owned(),
    };
    item
}

pub fn hostile_detail(feedback: Feedback) -> FeedbackDetail {
    let s = feedback.message.clone();
    let map = BTreeMap::from([(s.clone(), s.clone()), ("key".to_owned(), s.clone())]);
    FeedbackDetail {
        feedback,
        metadata: Metadata {
            built_in: map.clone(),
            custom: map,
        },
        delivery: vec![
            Delivery {
                channel: Channel::from(s.as_str()),
                status: DeliveryStatus::from(s.as_str()),
                external_url: Some(s.clone()),
            },
            Delivery {
                channel: Channel::IssueTracker,
                status: DeliveryStatus::from(s.as_str()),
                external_url: Some(format!("https://issues.example/{s}")),
            },
        ],
    }
}

pub fn hostile_items() -> Vec<Feedback> {
    let all = corpus();
    let id = |n: usize, s: &str| format!("h{n:03}{}", s.chars().take(12).collect::<String>());
    all.iter()
        .enumerate()
        .map(|(n, s)| hostile_item(n, id(n, s), s))
        .collect()
}

/// [`hostile_items`] listed under `new` (a view is of one status; the detail tests show
/// hostile statuses).
pub fn hostile_new_items() -> Vec<Feedback> {
    hostile_items()
        .into_iter()
        .map(|mut item| {
            item.status = feedback_api::Status::New;
            item
        })
        .collect()
}

#[track_caller]
pub fn assert_screen_inert(what: &str, state: &AppState) {
    let mut terminal = Terminal::new(TestBackend::new(state.width, state.height)).unwrap();
    terminal
        .draw(|frame| render::render(frame, state, &Keymap::default()))
        .unwrap();
    let buffer = terminal.backend().buffer();
    for y in 0..state.height {
        let row: String = (0..state.width).map(|x| buffer[(x, y)].symbol()).collect();
        assert_inert(&format!("{what}, screen row {y}"), &row, false);
    }
}

/// A `width`×`height` inbox whose store (so panes and list) holds the hostile corpus.
pub fn hostile_inbox(width: u16, height: u16, items: &[Feedback]) -> Harness {
    let [projects, apps, _] = testkit::panes();
    let names = corpus();
    let (PaneData::Projects(mut projects), PaneData::Apps(mut apps)) = (projects, apps) else {
        unreachable!("testkit::panes is projects, apps, tags")
    };
    projects[0].name.clone_from(&names[0]);
    apps[0].name.clone_from(&names[1]);
    apps[0].platform = Some(Platform::from(names[2].as_str()));
    projects.extend(names.iter().skip(3).map(|s| feedback_api::Project {
        id: s.clone(),
        name: s.clone(),
        slug: None,
        created_at: None,
    }));
    let store = testkit::fill(0);
    store.write(|s| {
        s.put_projects(&projects).unwrap();
        s.put_apps(&apps, None).unwrap();
        s.put_items(items, now()).unwrap();
    });
    Harness::start(store, width, height)
}

pub fn stored(detail: FeedbackDetail) -> StoredDetail {
    StoredDetail {
        item: feedback_store::StoredItem {
            key: 1,
            feedback: detail.feedback,
            seen: now(),
        },
        metadata: detail.metadata,
        delivery: Some(detail.delivery),
        detail_at: Some(now()),
    }
}
