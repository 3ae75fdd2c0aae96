//! The readers of each kind of item, field by field (see the parent module for the rules).

use serde_json::Value;

use super::{Fields, scalar_text};
use crate::api::model::{
    App, AppRef, Delivery, Feedback, FeedbackDetail, Metadata, Project, ProjectRef, Tag,
};

/// A feedback list item; skipped without an id.
pub fn feedback(f: &mut Fields<'_>) -> Option<Feedback> {
    let id = f.id("id")?;
    let app = f.object("app", "app.", |a| {
        Some(AppRef {
            id: a.text("id"),
            name: a.text("name"),
            platform: a.open("platform"),
        })
    });
    let project = f
        .object("project", "project.", |p| {
            Some(ProjectRef {
                id: p.text("id"),
                name: p.text("name"),
            })
        })
        .unwrap_or_else(|| {
            if f.get("project").is_none() {
                f.note("project", "missing");
            }
            ProjectRef {
                id: String::new(),
                name: String::new(),
            }
        });
    Some(Feedback {
        id: id.as_str().into(),
        message: f.text("message"),
        reporter_email: f.opt_text("reporter_email"),
        status: f.open("status"),
        received_at: f.time("received_at"),
        tags: f.strings("tags"),
        app,
        project,
    })
}

/// A feedback item with metadata and delivery; skipped without an id.
pub fn detail(f: &mut Fields<'_>) -> Option<FeedbackDetail> {
    let feedback = feedback(f)?;
    let metadata = f
        .object("metadata", "metadata.", |m| {
            Some(Metadata {
                built_in: string_map(m, "built_in"),
                custom: string_map(m, "custom"),
            })
        })
        .unwrap_or_default();
    let delivery = match f.map.get("delivery").filter(|v| !v.is_null()) {
        Some(Value::Array(entries)) => entries.iter().filter_map(|e| delivery(f, e)).collect(),
        None => Vec::new(),
        Some(_) => {
            f.note("delivery", "not a list");
            Vec::new()
        }
    };
    Some(FeedbackDetail {
        feedback,
        metadata,
        delivery,
    })
}

fn delivery(f: &mut Fields<'_>, entry: &Value) -> Option<Delivery> {
    let Some(map) = entry.as_object() else {
        f.note("delivery", "an entry is not an object");
        return None;
    };
    let mut d = Fields {
        map,
        prefix: "delivery.",
        problems: f.problems,
    };
    Some(Delivery {
        channel: d.open("channel"),
        status: d.open("status"),
        external_url: d.opt_text("external_url"),
    })
}

fn string_map(
    f: &mut Fields<'_>,
    name: &'static str,
) -> std::collections::BTreeMap<String, String> {
    match f.get(name) {
        None => std::collections::BTreeMap::new(),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| (k.clone(), scalar_text(v).unwrap_or_else(|| v.to_string())))
            .collect(),
        Some(_) => {
            f.note(name, "not an object");
            std::collections::BTreeMap::new()
        }
    }
}

/// A project; skipped without an id.
pub fn project(f: &mut Fields<'_>) -> Option<Project> {
    Some(Project {
        id: f.id("id")?,
        name: f.text("name"),
        slug: f.opt_text("slug"),
        created_at: f.opt_time("created_at"),
    })
}

/// An app; skipped without an id.
pub fn app(f: &mut Fields<'_>) -> Option<App> {
    Some(App {
        id: f.id("id")?,
        project_id: f.opt_text("project_id"),
        name: f.text("name"),
        slug: f.opt_text("slug"),
        platform: f.opt_open("platform"),
        app_identifier: f.opt_text("app_identifier"),
        region: f.opt_open("region"),
    })
}

/// A tag count; skipped without the tag. A count that is not a whole number counts as 0.
pub fn tag(f: &mut Fields<'_>) -> Option<Tag> {
    let tag = f.id("tag")?;
    let count = match f.get("count") {
        Some(Value::Number(n)) if n.is_u64() => n.as_u64(),
        Some(Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    };
    if count.is_none() {
        f.note("count", "not a whole number");
    }
    Some(Tag {
        tag,
        count: count.unwrap_or_default(),
    })
}
