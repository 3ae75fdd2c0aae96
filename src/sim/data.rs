//! The seeded dataset: the same seed and anchor always give the same projects, apps and items.
//! Items spread over about six months before the anchor, newest first, with realistic variety:
//! missing email or app, both statuses, built-in and custom metadata, and delivery entries.

use std::collections::{BTreeMap, HashSet};

use jiff::{SignedDuration, Timestamp};

use super::catalog::{self, Topic};
use crate::api::model::{
    App, AppRef, Channel, Delivery, DeliveryStatus, Feedback, FeedbackDetail, FeedbackId, Metadata,
    Platform, Project, ProjectRef, Region, Status,
};

/// Seconds the items are spread over.
const SPAN_SECONDS: i64 = 183 * 24 * 3600;

/// Everything the simulator serves.
#[derive(Debug, Clone)]
pub struct Dataset {
    pub projects: Vec<Project>,
    pub apps: Vec<App>,
    /// Newest first (received_at, then id, both descending).
    pub items: Vec<FeedbackDetail>,
}

/// Builds the dataset for `seed` with `count` items, the newest received just before `anchor`.
#[must_use]
pub fn generate(seed: u64, count: usize, anchor: Timestamp) -> Dataset {
    let anchor = anchor.round(jiff::Unit::Second).unwrap_or(anchor);
    let mut rng = fastrand::Rng::with_seed(seed);
    let projects = projects(&mut rng, anchor);
    let apps = apps(&mut rng, &projects);
    let mut ids = HashSet::with_capacity(count);
    let mut items = Vec::with_capacity(count);
    let mean_gap = (SPAN_SECONDS / i64::try_from(count.max(1)).unwrap_or(i64::MAX)).max(1);
    let mut at = anchor;
    for _ in 0..count {
        at = at
            .saturating_sub(SignedDuration::from_secs(rng.i64(1..=mean_gap * 2)))
            .unwrap_or(at);
        let id = unique_id(&mut rng, &mut ids);
        items.push(item(&mut rng, id, at, &projects, &apps));
    }
    sort_newest_first(&mut items);
    Dataset {
        projects,
        apps,
        items,
    }
}

/// Orders items newest first, ties broken by id descending (the keyset order).
pub fn sort_newest_first(items: &mut [FeedbackDetail]) {
    items.sort_by(|a, b| key(b).cmp(&key(a)));
}

/// The keyset ordering key of an item.
#[must_use]
pub fn key(item: &FeedbackDetail) -> (Timestamp, &str) {
    (item.feedback.received_at, item.feedback.id.as_str())
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

/// An 8-character short id from an alphabet without look-alikes.
pub fn unique_id<S: std::hash::BuildHasher>(
    rng: &mut fastrand::Rng,
    seen: &mut HashSet<String, S>,
) -> FeedbackId {
    const ALPHABET: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";
    loop {
        let id: String = (0..8)
            .map(|_| char::from(ALPHABET[rng.usize(..ALPHABET.len())]))
            .collect();
        if seen.insert(id.clone()) {
            return FeedbackId(id);
        }
    }
}

/// One item received at `at`.
pub fn item(
    rng: &mut fastrand::Rng,
    id: FeedbackId,
    at: Timestamp,
    projects: &[Project],
    apps: &[App],
) -> FeedbackDetail {
    let app = &apps[rng.usize(..apps.len())];
    let project = projects
        .iter()
        .find(|p| Some(&p.id) == app.project_id.as_ref())
        .unwrap_or(&projects[0]);
    let (message, tags) = message_and_tags(rng);
    let platform = app.platform.clone().unwrap_or(Platform::Web);
    let with_app = rng.u8(..100) >= 6;
    let feedback = Feedback {
        id,
        message,
        reporter_email: (rng.u8(..100) < 70).then(|| email(rng)),
        status: if rng.u8(..100) < 35 {
            Status::Archived
        } else {
            Status::New
        },
        received_at: at,
        tags,
        app: with_app.then(|| AppRef {
            id: app.id.clone(),
            name: app.name.clone(),
            platform: platform.clone(),
        }),
        project: ProjectRef {
            id: project.id.clone(),
            name: project.name.clone(),
        },
    };
    let slug = project.slug.clone().unwrap_or_default();
    FeedbackDetail {
        metadata: metadata(rng, &platform, with_app),
        delivery: delivery(rng, &slug),
        feedback,
    }
}

fn message_and_tags(rng: &mut fastrand::Rng) -> (String, Vec<String>) {
    let roll = rng.u16(..1000);
    if roll < 4 {
        let text = catalog::HOSTILE[rng.usize(..catalog::HOSTILE.len())];
        return (text.to_owned(), vec!["bug".to_owned()]);
    }
    if roll < 60 {
        let text = catalog::INTERNATIONAL[rng.usize(..catalog::INTERNATIONAL.len())];
        return (text.to_owned(), Vec::new());
    }
    let topic = &catalog::TOPICS[rng.usize(..catalog::TOPICS.len())];
    (compose(rng, topic), topic_tags(rng, topic))
}

fn compose(rng: &mut fastrand::Rng, topic: &Topic) -> String {
    let mut text = topic.openers[rng.usize(..topic.openers.len())].to_owned();
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
    text
}

fn topic_tags(rng: &mut fastrand::Rng, topic: &Topic) -> Vec<String> {
    let mut tags: Vec<String> = topic
        .tags
        .iter()
        .filter(|_| rng.bool())
        .map(|t| (*t).to_owned())
        .collect();
    if rng.u8(..10) == 0 {
        let extra = catalog::TAGS[rng.usize(..catalog::TAGS.len())];
        if !tags.iter().any(|t| t == extra) {
            tags.push(extra.to_owned());
        }
    }
    tags
}

fn email(rng: &mut fastrand::Rng) -> String {
    let name = catalog::FIRST_NAMES[rng.usize(..catalog::FIRST_NAMES.len())];
    let domain = catalog::MAIL_DOMAINS[rng.usize(..catalog::MAIL_DOMAINS.len())];
    format!("{name}{}@{domain}", rng.u16(1..999))
}

fn metadata(rng: &mut fastrand::Rng, platform: &Platform, with_app: bool) -> Metadata {
    let mut built_in = BTreeMap::new();
    if with_app {
        built_in.insert(
            "appVersion".into(),
            format!("{}.{}.{}", rng.u8(1..4), rng.u8(0..20), rng.u8(0..10)),
        );
        built_in.insert("buildNumber".into(), rng.u32(100..5000).to_string());
        match platform {
            Platform::Ios => built_in.insert(
                "iOSVersion".into(),
                format!("{}.{}", rng.u8(16..19), rng.u8(0..6)),
            ),
            Platform::Android => {
                built_in.insert("androidVersion".into(), rng.u8(11..16).to_string())
            }
            _ => built_in.insert(
                "userAgent".into(),
                "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0".into(),
            ),
        };
    }
    let locale = catalog::LOCALES[rng.usize(..catalog::LOCALES.len())];
    built_in.insert("locale".into(), locale.into());
    let mut custom = BTreeMap::new();
    if rng.bool() {
        custom.insert(
            "plan".into(),
            ["free", "pro", "team"][rng.usize(..3)].into(),
        );
    }
    if rng.u8(..3) == 0 {
        custom.insert("userId".into(), format!("u_{:06}", rng.u32(..1_000_000)));
        custom.insert(
            "screen".into(),
            ["Home", "Settings", "Editor", "Map", "Checkout"][rng.usize(..5)].into(),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn anchor() -> Timestamp {
        "2026-11-01T12:00:00Z".parse().unwrap()
    }

    #[test]
    fn same_seed_gives_same_data() {
        let a = generate(42, 300, anchor());
        let b = generate(42, 300, anchor());
        assert_eq!(a.items, b.items);
        assert_ne!(generate(43, 300, anchor()).items, a.items);
    }

    #[test]
    fn items_are_newest_first_with_unique_ids_and_variety() {
        let d = generate(7, 3000, anchor());
        assert_eq!(d.items.len(), 3000);
        assert!(d.items.windows(2).all(|w| key(&w[0]) > key(&w[1])));
        let ids: HashSet<_> = d.items.iter().map(|i| &i.feedback.id).collect();
        assert_eq!(ids.len(), 3000);
        let f = |p: &dyn Fn(&FeedbackDetail) -> bool| d.items.iter().filter(|i| p(i)).count();
        assert!(f(&|i| i.feedback.app.is_none()) > 0);
        assert!(f(&|i| i.feedback.reporter_email.is_none()) > 0);
        assert!(f(&|i| i.feedback.status == Status::Archived) > 0);
        assert!(f(&|i| i.issue_tracker_url().is_some()) > 0);
        assert!(f(&|i| !i.metadata.custom.is_empty()) > 0);
        assert!(
            d.items.last().unwrap().feedback.received_at
                > anchor()
                    .saturating_sub(SignedDuration::from_hours(200 * 24))
                    .unwrap()
        );
    }
}
