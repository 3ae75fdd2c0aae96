//! Query parameters and the spec's rules for them (limit 1..=100, tag at most 32 characters,
//! app/project ids in UUID form, status new|archived). The client checks them before sending;
//! the simulator applies the same rules server-side.

use super::error::ApiError;
use super::model::{Cursor, Status};

/// Smallest and largest page size.
pub(crate) const LIMIT_RANGE: std::ops::RangeInclusive<u32> = 1..=100;
/// Page size when none is given.
pub const DEFAULT_LIMIT: u32 = 25;
/// Longest tag filter, in characters.
pub(crate) const MAX_TAG_CHARS: usize = 32;

/// Filters and paging of `GET /v1/feedback`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FeedbackQuery {
    pub status: Option<Status>,
    pub app: Option<String>,
    pub project: Option<String>,
    pub tag: Option<String>,
    pub limit: Option<u32>,
    pub cursor: Option<Cursor>,
}

/// Filters of `GET /v1/apps` and `GET /v1/tags`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScopeQuery {
    pub app: Option<String>,
    pub project: Option<String>,
}

impl FeedbackQuery {
    /// Checks every rule; the error names the parameter.
    pub fn validate(&self) -> Result<(), ApiError> {
        if let Some(status) = &self.status {
            check_status(status.as_str()).map_err(|reason| invalid("status", reason))?;
        }
        check_optional_uuid("app", self.app.as_deref())?;
        check_optional_uuid("project", self.project.as_deref())?;
        if let Some(tag) = &self.tag {
            check_tag(tag).map_err(|reason| invalid("tag", reason))?;
        }
        if let Some(limit) = self.limit {
            check_limit(i64::from(limit)).map_err(|reason| invalid("limit", reason))?;
        }
        if let Some(cursor) = &self.cursor
            && cursor.as_str().is_empty()
        {
            return Err(invalid("cursor", "must not be empty".into()));
        }
        Ok(())
    }

    /// Query pairs in a stable order, omitting unset values.
    #[must_use]
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        if let Some(status) = &self.status {
            pairs.push(("status", status.as_str().to_owned()));
        }
        push(&mut pairs, "app", self.app.as_deref());
        push(&mut pairs, "project", self.project.as_deref());
        push(&mut pairs, "tag", self.tag.as_deref());
        if let Some(limit) = self.limit {
            pairs.push(("limit", limit.to_string()));
        }
        push(
            &mut pairs,
            "cursor",
            self.cursor.as_ref().map(Cursor::as_str),
        );
        pairs
    }
}

impl ScopeQuery {
    pub fn validate(&self) -> Result<(), ApiError> {
        check_optional_uuid("app", self.app.as_deref())?;
        check_optional_uuid("project", self.project.as_deref())
    }

    #[must_use]
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        push(&mut pairs, "app", self.app.as_deref());
        push(&mut pairs, "project", self.project.as_deref());
        pairs
    }
}

fn push(pairs: &mut Vec<(&'static str, String)>, name: &'static str, value: Option<&str>) {
    if let Some(value) = value {
        pairs.push((name, value.to_owned()));
    }
}

fn invalid(name: &'static str, reason: String) -> ApiError {
    ApiError::InvalidParameter { name, reason }
}

fn check_optional_uuid(name: &'static str, value: Option<&str>) -> Result<(), ApiError> {
    value.map_or(Ok(()), |v| {
        check_uuid(v).map_err(|reason| invalid(name, reason))
    })
}

/// `status` must be `new` or `archived`.
pub fn check_status(value: &str) -> Result<(), String> {
    if Status::KNOWN.contains(&value) {
        Ok(())
    } else {
        Err(format!(
            "must be new or archived, got \"{}\"",
            shorten(value)
        ))
    }
}

/// An id filter must be a hyphenated UUID (8-4-4-4-12 hex digits).
pub fn check_uuid(value: &str) -> Result<(), String> {
    let hyphenated = value.len() == 36 && value.as_bytes()[8] == b'-';
    if hyphenated && uuid::Uuid::try_parse(value).is_ok() {
        Ok(())
    } else {
        Err(format!(
            "must be a UUID like 3f2a9c1e-0b7d-4e1a-9c55-2d8f0a6b1e42, got \"{}\"",
            shorten(value)
        ))
    }
}

/// A tag filter is at most 32 characters and not empty.
pub fn check_tag(value: &str) -> Result<(), String> {
    let chars = value.chars().count();
    if chars == 0 {
        Err("must not be empty".into())
    } else if chars > MAX_TAG_CHARS {
        Err(format!(
            "must be at most {MAX_TAG_CHARS} characters, got {chars}"
        ))
    } else {
        Ok(())
    }
}

/// `limit` is an integer from 1 to 100.
pub fn check_limit(value: i64) -> Result<u32, String> {
    u32::try_from(value)
        .ok()
        .filter(|l| LIMIT_RANGE.contains(l))
        .ok_or_else(|| format!("must be from 1 to 100, got {value}"))
}

/// Echoes at most 40 sanitized characters of a bad value.
fn shorten(value: &str) -> String {
    feedback_core::excerpt::excerpt(value, 40)
}

#[cfg(test)]
mod tests {
    use super::*;

    const UUID: &str = "3f2a9c1e-0b7d-4e1a-9c55-2d8f0a6b1e42";

    fn name_of(err: ApiError) -> &'static str {
        match err {
            ApiError::InvalidParameter { name, .. } => name,
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn each_rule_names_its_parameter() {
        let cases: [(FeedbackQuery, &str); 7] = [
            (
                FeedbackQuery {
                    limit: Some(0),
                    ..Default::default()
                },
                "limit",
            ),
            (
                FeedbackQuery {
                    limit: Some(101),
                    ..Default::default()
                },
                "limit",
            ),
            (
                FeedbackQuery {
                    tag: Some("x".repeat(33)),
                    ..Default::default()
                },
                "tag",
            ),
            (
                FeedbackQuery {
                    tag: Some(String::new()),
                    ..Default::default()
                },
                "tag",
            ),
            (
                FeedbackQuery {
                    app: Some("not-a-uuid".into()),
                    ..Default::default()
                },
                "app",
            ),
            (
                FeedbackQuery {
                    project: Some(UUID.replace('-', "")),
                    ..Default::default()
                },
                "project",
            ),
            (
                FeedbackQuery {
                    status: Some(Status::from("open")),
                    ..Default::default()
                },
                "status",
            ),
        ];
        for (query, name) in cases {
            assert_eq!(name_of(query.validate().unwrap_err()), name);
        }
    }

    #[test]
    fn boundary_values_are_accepted() {
        let q = FeedbackQuery {
            status: Some(Status::Archived),
            app: Some(UUID.into()),
            project: Some(UUID.to_uppercase()),
            tag: Some("é".repeat(32)),
            limit: Some(100),
            cursor: None,
        };
        q.validate().unwrap();
        assert!(
            FeedbackQuery {
                limit: Some(1),
                ..Default::default()
            }
            .validate()
            .is_ok()
        );
        let names: Vec<_> = q.pairs().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["status", "app", "project", "tag", "limit"]);
    }
}
