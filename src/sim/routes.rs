//! The read API's handlers: query rules, keyset paging and the Error shape, as the spec states.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::cursor::Position;
use super::data;
use super::state::SimState;
use crate::api::model::{Data, ErrorBody, Feedback, FeedbackDetail, Page, Status, Tag};
use crate::api::query::{DEFAULT_LIMIT, check_limit, check_status, check_tag, check_uuid};

/// An Error-shaped JSON response.
pub fn error(status: StatusCode, code: &str, message: impl Into<String>) -> Response {
    let body = ErrorBody {
        error: code.to_owned(),
        message: Some(message.into()),
    };
    (status, Json(body)).into_response()
}

fn invalid_query(message: String) -> Response {
    error(StatusCode::BAD_REQUEST, "invalid_query", message)
}

/// First value of each query parameter.
fn params(raw: Option<&str>) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for (name, value) in url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes()) {
        out.entry(name.into_owned())
            .or_insert_with(|| value.into_owned());
    }
    out
}

/// Filters of the feedback list, validated.
struct ListFilter {
    status: Status,
    app: Option<String>,
    project: Option<String>,
    tag: Option<String>,
}

impl ListFilter {
    fn from_params(params: &HashMap<String, String>) -> Result<Self, String> {
        let status = match params.get("status") {
            Some(s) => {
                check_status(s).map_err(|r| format!("status {r}"))?;
                Status::from(s.as_str())
            }
            None => Status::New,
        };
        let (app, project) = scope(params)?;
        let tag = match params.get("tag") {
            Some(t) => Some(
                check_tag(t)
                    .map(|()| t.clone())
                    .map_err(|r| format!("tag {r}"))?,
            ),
            None => None,
        };
        Ok(Self {
            status,
            app,
            project,
            tag,
        })
    }

    /// The filter set a cursor is bound to.
    fn key(&self) -> String {
        format!(
            "status={}&app={}&project={}&tag={}",
            self.status,
            self.app.as_deref().unwrap_or_default(),
            self.project.as_deref().unwrap_or_default(),
            self.tag.as_deref().unwrap_or_default()
        )
    }

    fn matches(&self, item: &FeedbackDetail) -> bool {
        let f = &item.feedback;
        f.status == self.status
            && scope_matches(item, self.app.as_deref(), self.project.as_deref())
            && self
                .tag
                .as_ref()
                .is_none_or(|t| f.tags.iter().any(|x| x == t))
    }
}

/// `app` and `project` query values, checked as UUIDs and lower-cased.
fn scope(params: &HashMap<String, String>) -> Result<(Option<String>, Option<String>), String> {
    let get = |name: &str| -> Result<Option<String>, String> {
        params
            .get(name)
            .map(|v| {
                check_uuid(v)
                    .map(|()| v.to_ascii_lowercase())
                    .map_err(|r| format!("{name} {r}"))
            })
            .transpose()
    };
    Ok((get("app")?, get("project")?))
}

fn scope_matches(item: &FeedbackDetail, app: Option<&str>, project: Option<&str>) -> bool {
    let f = &item.feedback;
    app.is_none_or(|a| f.app.as_ref().is_some_and(|x| x.id == a))
        && project.is_none_or(|p| f.project.id == p)
}

/// `GET /v1/feedback`: newest first, keyset paging.
pub async fn list_feedback(
    State(state): State<Arc<SimState>>,
    RawQuery(raw): RawQuery,
) -> Response {
    let params = params(raw.as_deref());
    let filter = match ListFilter::from_params(&params) {
        Ok(filter) => filter,
        Err(message) => return invalid_query(message),
    };
    let limit = match params.get("limit") {
        None => DEFAULT_LIMIT,
        Some(v) => match v
            .parse::<i64>()
            .map_err(|_| format!("must be an integer, got \"{v}\""))
            .and_then(check_limit)
        {
            Ok(limit) => limit,
            Err(reason) => return invalid_query(format!("limit {reason}")),
        },
    };
    let key = filter.key();
    let after = match params.get("cursor") {
        None => None,
        Some(c) => match state.codec.open(c, &key) {
            Some(position) => Some(position),
            None => {
                return error(
                    StatusCode::BAD_REQUEST,
                    "invalid_cursor",
                    "cursor is not acceptable; start again without a cursor",
                );
            }
        },
    };
    let store = state.read();
    let (items, next) = page(&store.items, &filter, after.as_ref(), limit as usize);
    let body = Page {
        data: items,
        next_cursor: next.map(|p| crate::api::model::Cursor(state.codec.seal(&p, &key))),
    };
    Json(body).into_response()
}

/// Up to `limit` matching items strictly after `after`, and the position to continue from
/// when more match.
fn page<'a>(
    items: &'a [FeedbackDetail],
    filter: &ListFilter,
    after: Option<&Position>,
    limit: usize,
) -> (Vec<&'a Feedback>, Option<Position>) {
    let start = after.map_or(0, |p| {
        items.partition_point(|it| data::key(it) >= (p.received_at, p.id.as_str()))
    });
    let mut matching = items[start..].iter().filter(|it| filter.matches(it));
    let data: Vec<&Feedback> = matching
        .by_ref()
        .take(limit)
        .map(|it| &it.feedback)
        .collect();
    let more = matching.next().is_some();
    let next = match data.last() {
        Some(last) if more => Some(Position {
            received_at: last.received_at,
            id: last.id.0.clone(),
        }),
        _ => None,
    };
    (data, next)
}

/// `GET /v1/feedback/{id}`.
pub async fn get_feedback(State(state): State<Arc<SimState>>, Path(id): Path<String>) -> Response {
    let store = state.read();
    match store.items.iter().find(|it| it.feedback.id.as_str() == id) {
        Some(item) => Json(Data { data: item }).into_response(),
        None => error(
            StatusCode::NOT_FOUND,
            "not_found",
            format!(
                "no feedback item with id {}",
                crate::text::sanitize_line(&id)
            ),
        ),
    }
}

/// `GET /v1/projects`.
pub async fn list_projects(State(state): State<Arc<SimState>>) -> Response {
    Json(Data {
        data: &state.read().projects,
    })
    .into_response()
}

/// `GET /v1/apps`. A malformed project id is rejected with invalid_query (a stricter choice
/// than the spec's silence; a well-formed unknown id gives an empty list).
pub async fn list_apps(State(state): State<Arc<SimState>>, RawQuery(raw): RawQuery) -> Response {
    let params = params(raw.as_deref());
    let project = match scope(&params) {
        Ok((_, project)) => project,
        Err(message) => return invalid_query(message),
    };
    let store = state.read();
    let apps: Vec<_> = store
        .apps
        .iter()
        .filter(|a| {
            project
                .as_ref()
                .is_none_or(|p| a.project_id.as_ref() == Some(p))
        })
        .collect();
    Json(Data { data: apps }).into_response()
}

/// `GET /v1/tags`: distinct tags with counts over both statuses, most used first.
pub async fn list_tags(State(state): State<Arc<SimState>>, RawQuery(raw): RawQuery) -> Response {
    let params = params(raw.as_deref());
    let (app, project) = match scope(&params) {
        Ok(scope) => scope,
        Err(message) => return invalid_query(message),
    };
    let store = state.read();
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    for item in store
        .items
        .iter()
        .filter(|it| scope_matches(it, app.as_deref(), project.as_deref()))
    {
        for tag in &item.feedback.tags {
            *counts.entry(tag).or_default() += 1;
        }
    }
    let mut tags: Vec<Tag> = counts
        .into_iter()
        .map(|(tag, count)| Tag {
            tag: tag.to_owned(),
            count,
        })
        .collect();
    tags.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.tag.cmp(&b.tag)));
    Json(Data { data: tags }).into_response()
}

/// `GET /v1/openapi.json` (public).
pub async fn openapi() -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        include_str!("../../assets/openapi.json"),
    )
        .into_response()
}

/// `GET /llms.txt` (public).
pub async fn llms() -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; charset=utf-8",
        )],
        include_str!("../../assets/llms.txt"),
    )
        .into_response()
}

/// Any other path.
pub async fn unknown_route() -> Response {
    error(
        StatusCode::NOT_FOUND,
        "not_found",
        "no such route; the API lives under /v1/",
    )
}
