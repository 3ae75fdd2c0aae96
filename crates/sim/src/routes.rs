//! The read API's handlers: query rules, keyset paging and the Error shape, as the spec states.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::query::ListQuery;
use super::state::SimState;
use feedback_api::model::{Data, ErrorBody, Page, Status, Tag};
use feedback_api::query::{DEFAULT_LIMIT, check_limit, check_status, check_tag, check_uuid};

/// An Error-shaped JSON response.
pub(crate) fn error(status: StatusCode, code: &str, message: impl Into<String>) -> Response {
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

    fn query(&self) -> ListQuery<'_> {
        ListQuery {
            status: &self.status,
            app: self.app.as_deref(),
            project: self.project.as_deref(),
            tag: self.tag.as_deref(),
        }
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

/// `GET /v1/feedback`: newest first, keyset paging.
pub(crate) async fn list_feedback(
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
    let (items, next) = state
        .read()
        .page(&filter.query(), after.as_ref(), limit as usize);
    let body = Page {
        data: items,
        next_cursor: next.map(|p| feedback_api::model::Cursor(state.codec.seal(&p, &key))),
    };
    Json(body).into_response()
}

/// `GET /v1/feedback/{id}`.
pub(crate) async fn get_feedback(
    State(state): State<Arc<SimState>>,
    Path(id): Path<String>,
) -> Response {
    let item = state.read().get(&id);
    match item {
        Some(item) => Json(Data { data: item }).into_response(),
        None => error(
            StatusCode::NOT_FOUND,
            "not_found",
            format!(
                "no feedback item with id {}",
                feedback_core::text::sanitize_line(&id)
            ),
        ),
    }
}

/// `GET /v1/projects`.
pub(crate) async fn list_projects(State(state): State<Arc<SimState>>) -> Response {
    Json(Data {
        data: &state.read().projects,
    })
    .into_response()
}

/// `GET /v1/apps`. A malformed project id is rejected with invalid_query (a stricter choice
/// than the spec's silence; a well-formed unknown id gives an empty list).
pub(crate) async fn list_apps(
    State(state): State<Arc<SimState>>,
    RawQuery(raw): RawQuery,
) -> Response {
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
pub(crate) async fn list_tags(
    State(state): State<Arc<SimState>>,
    RawQuery(raw): RawQuery,
) -> Response {
    let params = params(raw.as_deref());
    let (app, project) = match scope(&params) {
        Ok(scope) => scope,
        Err(message) => return invalid_query(message),
    };
    let counts = state.read().tag_counts(app.as_deref(), project.as_deref());
    let mut tags: Vec<Tag> = counts
        .into_iter()
        .map(|(tag, count)| Tag { tag, count })
        .collect();
    tags.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.tag.cmp(&b.tag)));
    Json(Data { data: tags }).into_response()
}

/// `GET /v1/openapi.json` (public).
pub(crate) async fn openapi() -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        include_str!("../../../assets/openapi.json"),
    )
        .into_response()
}

/// `GET /llms.txt` (public).
pub(crate) async fn llms() -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; charset=utf-8",
        )],
        include_str!("../../../assets/llms.txt"),
    )
        .into_response()
}

/// Any other path.
pub(crate) async fn unknown_route() -> Response {
    error(
        StatusCode::NOT_FOUND,
        "not_found",
        "no such route; the API lives under /v1/",
    )
}
