//! One generated item from its own seed. The cheap part (app, status, kind of message, tags) is
//! drawn first as a [`Skeleton`], which the dataset keeps in a few bytes for filtering; the text,
//! email, metadata and delivery are drawn after it, only when an answer needs the whole item. The
//! same seed always gives the same item, so nothing but the seed has to be kept.

use std::collections::BTreeMap;

use jiff::Timestamp;

use super::catalog::{self, Topic};
use super::story::{self, Story};
use super::vocab;
use feedback_api::model::{
    App, AppRef, Channel, Delivery, DeliveryStatus, Feedback, FeedbackDetail, FeedbackId, Metadata,
    Platform, Project, ProjectRef, Status,
};

/// What kind of message an item carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Hostile(usize),
    International(usize),
    Topic(usize),
}

/// The part of an item drawn first: enough to filter it without building it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Skeleton {
    /// Index into the apps; its project is the item's project even without an app.
    pub app: usize,
    pub with_app: bool,
    pub archived: bool,
    /// Bit `i` set: the item has tag `catalog::TAGS[i]`.
    pub tags: u16,
    kind: Kind,
}

/// The skeleton of the item of `seed`, over `apps` apps.
#[must_use]
pub(crate) fn skeleton(seed: u64, apps: usize) -> Skeleton {
    draw_skeleton(&mut fastrand::Rng::with_seed(seed), apps)
}

fn draw_skeleton(rng: &mut fastrand::Rng, apps: usize) -> Skeleton {
    let app = rng.usize(..apps.max(1));
    let with_app = rng.u8(..100) >= 6;
    let archived = rng.u8(..100) < 35;
    let roll = rng.u16(..1000);
    let (kind, tags) = if roll < 4 {
        let kind = Kind::Hostile(rng.usize(..catalog::HOSTILE.len()));
        (kind, tag_bit("bug"))
    } else if roll < 60 {
        (
            Kind::International(rng.usize(..catalog::INTERNATIONAL.len())),
            0,
        )
    } else {
        let index = rng.usize(..catalog::TOPICS.len());
        (Kind::Topic(index), topic_tags(rng, &catalog::TOPICS[index]))
    };
    Skeleton {
        app,
        with_app,
        archived,
        tags,
        kind,
    }
}

fn tag_bit(tag: &str) -> u16 {
    catalog::TAGS
        .iter()
        .position(|t| *t == tag)
        .map_or(0, |i| 1 << i)
}

fn topic_tags(rng: &mut fastrand::Rng, topic: &Topic) -> u16 {
    let mut tags = topic
        .tags
        .iter()
        .filter(|_| rng.bool())
        .fold(0, |mask, tag| mask | tag_bit(tag));
    if rng.u8(..10) == 0 {
        tags |= 1 << rng.usize(..catalog::TAGS.len());
    }
    tags
}

/// The tags of a skeleton as text: the topic's own tags in its order, then any extra one.
fn tag_names(skeleton: &Skeleton) -> Vec<String> {
    let own: &[&str] = match skeleton.kind {
        Kind::Topic(index) => catalog::TOPICS[index].tags,
        _ => &[],
    };
    let first = own
        .iter()
        .copied()
        .filter(|t| skeleton.tags & tag_bit(t) != 0);
    let extra = catalog::TAGS
        .iter()
        .enumerate()
        .filter(|(i, t)| skeleton.tags & (1 << i) != 0 && !own.contains(t))
        .map(|(_, t)| *t);
    first.chain(extra).map(str::to_owned).collect()
}

/// Where an item sits in the story: its time line, app and kind (see `story`).
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    pub story: &'a Story,
    pub at: Timestamp,
    pub projects: &'a [Project],
    pub apps: &'a [App],
}

/// Seeds the story's own generators from the item's seed, apart from the item's generator, so
/// that the story changes nothing else of the item. One for the message (the list needs it),
/// one for the metadata (only the detail does).
const STORY_MESSAGE: u64 = 0x5709_0001_5709_0001;
const STORY_METADATA: u64 = 0x5709_0002_5709_0002;

/// The whole item of `seed`, with id `id`, received at `place.at`.
#[must_use]
pub fn build(seed: u64, id: FeedbackId, place: &Place<'_>) -> FeedbackDetail {
    let mut rng = fastrand::Rng::with_seed(seed);
    let (feedback, skeleton) = draw_feedback(&mut rng, seed, id, place);
    let platform = feedback.app.as_ref().map(|a| a.platform.clone());
    let project = place.projects.iter().find(|p| p.id == feedback.project.id);
    let slug = project.and_then(|p| p.slug.clone()).unwrap_or_default();
    let told = Told {
        story: place.story,
        rng: fastrand::Rng::with_seed(seed ^ STORY_METADATA),
        app: skeleton.app,
        at: place.at,
        complaint: matches!(skeleton.kind, Kind::Topic(t) if story::is_complaint(t)),
        crash: skeleton.kind == Kind::Topic(story::CRASH_TOPIC),
    };
    FeedbackDetail {
        metadata: metadata(&mut rng, platform.as_ref(), told),
        delivery: delivery(&mut rng, &slug),
        feedback,
    }
}

/// Whether `seed`'s item is a crash report of the story's bad app (with its app).
#[must_use]
pub(crate) fn is_bad_app_crash(seed: u64, apps: usize) -> bool {
    let s = skeleton(seed, apps);
    s.with_app && s.app == story::BAD_APP && s.kind == Kind::Topic(story::CRASH_TOPIC)
}

/// The list part of the item of `seed` (what a page shows), without building the rest.
#[must_use]
pub(crate) fn build_feedback(seed: u64, id: FeedbackId, place: &Place<'_>) -> Feedback {
    draw_feedback(&mut fastrand::Rng::with_seed(seed), seed, id, place).0
}

fn draw_feedback(
    rng: &mut fastrand::Rng,
    seed: u64,
    id: FeedbackId,
    place: &Place<'_>,
) -> (Feedback, Skeleton) {
    let skeleton = draw_skeleton(rng, place.apps.len());
    let app = &place.apps[skeleton.app];
    let project = project_of(app, place.projects);
    let (mut message, _) = message(rng, skeleton.kind);
    if let Some((family, _)) = family_of(seed, &skeleton, place) {
        message = family;
    }
    let at = place.at;
    let feedback = Feedback {
        id,
        message,
        reporter_email: (rng.u8(..100) < 70).then(|| email(rng)),
        status: if skeleton.archived {
            Status::Archived
        } else {
            Status::New
        },
        received_at: at,
        tags: tag_names(&skeleton),
        app: skeleton.with_app.then(|| AppRef {
            id: app.id.clone(),
            name: app.name.clone(),
            platform: app.platform.clone().unwrap_or(Platform::Web),
        }),
        project: ProjectRef {
            id: project.id.clone(),
            name: project.name.clone(),
        },
    };
    (feedback, skeleton)
}

/// The project an app belongs to (the first project for an app without one).
#[must_use]
pub(crate) fn project_of<'a>(app: &App, projects: &'a [Project]) -> &'a Project {
    projects
        .iter()
        .find(|p| Some(&p.id) == app.project_id.as_ref())
        .unwrap_or(&projects[0])
}

/// The message, and the story it was written from (see [`told`]).
fn message(rng: &mut fastrand::Rng, kind: Kind) -> (String, String) {
    match kind {
        Kind::Hostile(i) => (catalog::HOSTILE[i].to_owned(), format!("hostile {i}")),
        Kind::International(i) => (
            catalog::INTERNATIONAL[i].to_owned(),
            format!("international {i}"),
        ),
        Kind::Topic(i) => {
            let opener = rng.usize(..catalog::TOPICS[i].openers.len());
            (
                compose(rng, &catalog::TOPICS[i], opener),
                format!("topic {i} opener {opener}"),
            )
        }
    }
}

/// The story the message of `seed`'s item (received at `place.at`) was written from: what it
/// tells, in whatever words and with whatever details: a topic's opening complaint ("topic 0
/// opener 1"), a family of near-duplicates, which tells a topic's opener again in other words
/// or a complaint of its own ("family 5"), or a fixed hostile or international text. The
/// ground truth for measuring how Top issues groups the items.
#[must_use]
pub fn told(seed: u64, place: &Place<'_>) -> String {
    let mut rng = fastrand::Rng::with_seed(seed);
    let skeleton = draw_skeleton(&mut rng, place.apps.len());
    let (_, story) = message(&mut rng, skeleton.kind);
    match family_of(seed, &skeleton, place) {
        Some((_, family)) => family,
        None => story,
    }
}

/// The family message that replaces a topic report, and its story, if the report is one.
fn family_of(seed: u64, skeleton: &Skeleton, place: &Place<'_>) -> Option<(String, String)> {
    let Kind::Topic(topic) = skeleton.kind else {
        return None;
    };
    let bad = skeleton.with_app
        && skeleton.app == story::BAD_APP
        && place.at >= place.story.bad_release();
    let mut told = fastrand::Rng::with_seed(seed ^ STORY_MESSAGE);
    story::family_message(&mut told, topic, bad)
}

fn compose(rng: &mut fastrand::Rng, topic: &Topic, opener: usize) -> String {
    let mut text = topic.openers[opener].to_owned();
    let extra = match rng.u8(..10) {
        0..=3 => 0,
        4..=7 => 1,
        8 => 2,
        _ => 6,
    };
    for n in 0..extra {
        // Long reports come as paragraphs.
        text.push_str(if n > 0 && n % 2 == 0 { "\n\n" } else { " " });
        text.push_str(topic.details[rng.usize(..topic.details.len())]);
    }
    let mut sentence = |shape: &str, word: &str| {
        text.push(' ');
        text.push_str(&shape.replacen("{}", word, 1));
    };
    if rng.u8(..100) < 35 {
        let shape = vocab::DEVICE_SENTENCES[rng.usize(..vocab::DEVICE_SENTENCES.len())];
        sentence(
            shape,
            vocab::DEVICES[vocab::zipf(rng, vocab::DEVICES.len())],
        );
    }
    if rng.u8(..100) < 40 {
        let shape = vocab::FEATURE_SENTENCES[rng.usize(..vocab::FEATURE_SENTENCES.len())];
        sentence(
            shape,
            vocab::FEATURES[vocab::zipf(rng, vocab::FEATURES.len())],
        );
    }
    if rng.u8(..100) < 8 {
        // Reference numbers: nearly every one is unique, the long tail of a real index.
        let code = format!("E{}", rng.u16(1000..10_000));
        sentence("The error code shown is {}.", &code);
    }
    if rng.u8(..100) < 3 {
        // An order number: a word of its own in almost every item that has one.
        let order = format!("{}", rng.u32(10_000_000..100_000_000));
        sentence("My order number is {}.", &order);
    }
    if rng.u8(..100) < 53 {
        sentence("{}", vocab::SIGN_OFFS[rng.usize(..vocab::SIGN_OFFS.len())]);
    }
    text
}

fn email(rng: &mut fastrand::Rng) -> String {
    let name = catalog::FIRST_NAMES[rng.usize(..catalog::FIRST_NAMES.len())];
    let domain = catalog::MAIL_DOMAINS[rng.usize(..catalog::MAIL_DOMAINS.len())];
    match rng.u8(..3) {
        0 => format!("{name}{}@{domain}", rng.u16(1..999)),
        1 => {
            let last = vocab::LAST_NAMES[rng.usize(..vocab::LAST_NAMES.len())];
            format!("{name}.{last}@{domain}")
        }
        _ => {
            let last = vocab::LAST_NAMES[rng.usize(..vocab::LAST_NAMES.len())];
            format!("{}{last}{}@{domain}", &name[..1], rng.u8(..100))
        }
    }
}

/// What the story needs to draw an item's metadata.
struct Told<'a> {
    story: &'a Story,
    rng: fastrand::Rng,
    app: usize,
    at: Timestamp,
    complaint: bool,
    crash: bool,
}

/// Metadata of an item from `platform`'s app (none: an item without an app). The item's own
/// generator `rng` is drawn from exactly as before the story (so its delivery stays the same);
/// the values come from the story's generator.
fn metadata(rng: &mut fastrand::Rng, platform: Option<&Platform>, mut told: Told<'_>) -> Metadata {
    let mut built_in = BTreeMap::new();
    if let Some(platform) = platform {
        let _ = (
            rng.u8(1..4),
            rng.u8(0..20),
            rng.u8(0..10),
            rng.u32(100..5000),
        );
        let (version, build) = told
            .story
            .version(&mut told.rng, told.app, told.at, told.crash);
        built_in.insert("appVersion".into(), version);
        built_in.insert("buildNumber".into(), build.to_string());
        match platform {
            Platform::Ios => {
                let _ = (rng.u8(16..19), rng.u8(0..6));
                built_in.insert("iOSVersion".into(), story::ios_version(&mut told.rng))
            }
            Platform::Android => {
                let _ = rng.u8(11..16);
                built_in.insert(
                    "androidVersion".into(),
                    story::android_version(&mut told.rng).into(),
                )
            }
            _ => built_in.insert(
                "userAgent".into(),
                "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0".into(),
            ),
        };
    }
    let _ = rng.usize(..catalog::LOCALES.len());
    let locale = story::locale(&mut told.rng);
    built_in.insert("locale".into(), locale.into());
    let mut custom = BTreeMap::new();
    if rng.bool() {
        custom.insert(
            "plan".into(),
            ["free", "pro", "team"][rng.usize(..3)].into(),
        );
    }
    // Complaints of the clustered locale always say their screen (the cluster must show).
    let cluster = told.complaint && locale == "de-DE";
    let user = if rng.u8(..3) == 0 {
        let user = rng.u32(..1_000_000);
        let _ = rng.usize(..5);
        Some(user)
    } else {
        cluster.then(|| told.rng.u32(..1_000_000))
    };
    if let Some(user) = user {
        custom.insert("userId".into(), format!("u_{user:06}"));
        custom.insert(
            "screen".into(),
            story::screen(&mut told.rng, locale, told.complaint).into(),
        );
    }
    Metadata { built_in, custom }
}

fn delivery(rng: &mut fastrand::Rng, project_slug: &str) -> Vec<Delivery> {
    let mut out = vec![Delivery {
        channel: Channel::Email,
        status: if rng.u8(..50) == 0 {
            DeliveryStatus::Failed
        } else {
            DeliveryStatus::Delivered
        },
        external_url: None,
    }];
    if rng.u8(..4) > 0 {
        let status = match rng.u8(..100) {
            0..=2 => DeliveryStatus::Other("retrying".into()),
            3..=6 => DeliveryStatus::Failed,
            _ => DeliveryStatus::Delivered,
        };
        out.push(Delivery {
            channel: Channel::Webhook,
            status,
            external_url: None,
        });
    }
    if rng.u8(..3) > 0 {
        let created = rng.u8(..10) > 0;
        out.push(Delivery {
            channel: Channel::IssueTracker,
            status: if created {
                DeliveryStatus::Delivered
            } else {
                DeliveryStatus::Pending
            },
            external_url: created.then(|| {
                format!(
                    "https://issues.example.com/{project_slug}/issues/{}",
                    rng.u32(100..9999)
                )
            }),
        });
    }
    out
}
