//! `feedback-inbox store info`: where the store is, how big, what it holds per status, and how
//! long it keeps items. Text is sanitized (statuses are the server's raw values); JSON keeps
//! them raw. A missing store is reported, not created.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};
use serde::Serialize;

use crate::CliError;
use crate::output::{ShowFormat, terminal_safe_json};
use feedback_api::Status;
use feedback_core::text::output::thousands;
use feedback_core::text::sanitize_line;
use feedback_store::Store;

/// What `store info` reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub path: String,
    pub exists: bool,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub contents: Option<Contents>,
    /// `retention_days`, or `None`: items are kept until `store forget`.
    pub retention_days: Option<i64>,
}

/// What an existing store holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Contents {
    /// The database's size (pages in use), without its write-ahead log.
    pub bytes: u64,
    /// The `-wal` file's size: commits not yet folded into the database.
    pub wal_bytes: u64,
    /// The file's permission bits (`0600`), when the platform has them.
    pub mode: Option<String>,
    pub items: u64,
    /// Per status (`new` and `archived` always, then any other value the server used).
    pub statuses: Vec<StatusReport>,
    /// Items whose metadata and delivery were fetched (a detail or a webhook).
    pub with_detail: u64,
    pub oldest: Option<Timestamp>,
    pub newest: Option<Timestamp>,
}

/// One status: what is stored, and (for the statuses sync walks) how far and how fresh.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatusReport {
    pub status: String,
    pub stored: u64,
    /// `None` for a status sync does not walk (one only seen on items).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub sync: Option<SyncReport>,
}

/// How far sync mirrored a status (`feedback_sync::StatusState`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SyncReport {
    /// When the last head walk read the top of the list (`None`: never).
    pub synced_at: Option<Timestamp>,
    /// Every item of the status is stored (the deep end was reached, no gap open).
    pub complete: bool,
    /// Walks still to fetch (gaps, and the deep end).
    pub pending_walks: usize,
    /// When the last complete reconcile walk started (statuses right as of then).
    pub reconciled_at: Option<Timestamp>,
    /// When the newest item mirrored from the top was received.
    pub newest_at: Option<Timestamp>,
    /// A partial mirror: how far back the walk towards the deep end has come (`None` once
    /// it reached the end, or before it started).
    pub back_to: Option<Timestamp>,
}

impl From<feedback_sync::StatusState> for SyncReport {
    fn from(state: feedback_sync::StatusState) -> Self {
        Self {
            synced_at: state.synced_at,
            complete: state.complete,
            pending_walks: state.pending_walks,
            reconciled_at: state.reconciled_at,
            newest_at: state.head_at,
            back_to: state.deep_at,
        }
    }
}

/// Reads the report of the store at `path` (which must exist). It neither creates nor
/// migrates: another program's file is refused, an empty file is reported as holding nothing,
/// and a store of an older schema is left for the inbox or `sync` to upgrade.
pub fn read(path: &Path, retention: Option<SignedDuration>) -> Result<Report, CliError> {
    crate::context::store::check_store_file(path, "not reading it as the local store")?;
    if std::fs::metadata(path).is_ok_and(|m| m.len() == 0) {
        return Ok(Report {
            exists: true,
            ..missing(path, retention)
        });
    }
    check_schema(path)?;
    let store = Store::open(path)?;
    let info = store.info()?;
    let mut by_status: BTreeMap<String, u64> = info.by_status;
    let mut statuses = Vec::new();
    for known in [Status::New, Status::Archived] {
        let stored = by_status.remove(known.as_str()).unwrap_or(0);
        let state = feedback_sync::status_state(&store, &known)?;
        statuses.push(StatusReport {
            status: known.as_str().to_owned(),
            stored,
            sync: Some(state.into()),
        });
    }
    statuses.extend(by_status.into_iter().map(|(status, stored)| StatusReport {
        status,
        stored,
        sync: None,
    }));
    Ok(Report {
        path: path.display().to_string(),
        exists: true,
        contents: Some(Contents {
            bytes: info.bytes,
            wal_bytes: file_len(&super::sidecar(path, "-wal")),
            mode: mode_of(path),
            items: statuses.iter().map(|s| s.stored).sum(),
            statuses,
            with_detail: info.with_detail,
            oldest: info.oldest,
            newest: info.newest,
        }),
        retention_days: retention.map(|d| d.as_hours() / 24),
    })
}

/// Refuses a store whose schema is not the one this build writes (opening it would migrate
/// it; a newer one is refused by the store itself with its own message).
fn check_schema(path: &Path) -> Result<(), CliError> {
    let version =
        feedback_store::probe::schema_version(path, feedback_store::probe::Probe::ReadWrite)
            .map_err(|e| {
                CliError::Other(format!(
                    "cannot read {}: {e}",
                    feedback_core::text::Clean::line(&path.display().to_string())
                ))
            })?;
    let latest = i64::try_from(feedback_store::schema::latest()).unwrap_or(i64::MAX);
    if version < latest {
        return Err(CliError::Other(format!(
            "{} is a store of an older version (schema {version}, this build's is {latest}); `store info` does not upgrade it: run `feedback-inbox sync` or the inbox once",
            feedback_core::text::Clean::line(&path.display().to_string())
        )));
    }
    Ok(())
}

/// The report of a path with no store.
#[must_use]
pub fn missing(path: &Path, retention: Option<SignedDuration>) -> Report {
    Report {
        path: path.display().to_string(),
        exists: false,
        contents: None,
        retention_days: retention.map(|d| d.as_hours() / 24),
    }
}

fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

#[cfg(unix)]
fn mode_of(path: &Path) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).ok()?.permissions().mode();
    Some(format!("{:04o}", mode & 0o7777))
}

#[cfg(not(unix))]
fn mode_of(_path: &Path) -> Option<String> {
    None
}

/// Writes the report as text or JSON.
pub fn write(
    report: &Report,
    format: ShowFormat,
    now: Timestamp,
    tz: &TimeZone,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    match format {
        ShowFormat::Json => {
            let json = terminal_safe_json(serde_json::to_string_pretty(report)?);
            writeln!(out, "{json}")?;
        }
        ShowFormat::Text => out.write_all(render_text(report, now, tz).as_bytes())?,
    }
    out.flush()?;
    Ok(())
}

/// The text form: one fact a line, every value sanitized.
#[must_use]
pub fn render_text(report: &Report, now: Timestamp, tz: &TimeZone) -> String {
    let path = sanitize_line(&report.path);
    let mut lines = Vec::new();
    let Some(c) = &report.contents else {
        lines.push(format!(
            "No store yet at {path}: the inbox or `feedback-inbox sync` creates it."
        ));
        lines.push(retention_line(report.retention_days));
        return lines.join("\n") + "\n";
    };
    let mode = c
        .mode
        .as_ref()
        .map(|m| format!(" ({m})"))
        .unwrap_or_default();
    lines.push(format!("Store      {path}{mode}"));
    let wal = if c.wal_bytes > 0 {
        format!(", and {} of write-ahead log", human_bytes(c.wal_bytes))
    } else {
        String::new()
    };
    lines.push(format!("Size       {}{wal}", human_bytes(c.bytes)));
    lines.push(format!("Items      {}", thousands(c.items)));
    for s in &c.statuses {
        let status = feedback_core::width::fit(&sanitize_line(&s.status), 10);
        let sync = s
            .sync
            .as_ref()
            .map(|sync| format!("; {}", sync_text(sync, now, tz)))
            .unwrap_or_default();
        lines.push(format!("  {status} {} stored{sync}", thousands(s.stored)));
    }
    lines.push(format!(
        "Details    {} with metadata and delivery",
        thousands(c.with_detail)
    ));
    let when = |t: Option<Timestamp>| {
        t.map_or_else(
            || "—".to_owned(),
            |t| {
                format!(
                    "{} ({})",
                    feedback_core::timefmt::local(t, tz),
                    feedback_core::timefmt::ago(now, t)
                )
            },
        )
    };
    lines.push(format!("Oldest     {}", when(c.oldest)));
    lines.push(format!("Newest     {}", when(c.newest)));
    lines.push(retention_line(report.retention_days));
    lines.join("\n") + "\n"
}

/// "mirrored to its end, synced 3m ago, reconciled 2h ago", "partly mirrored (2 walks to go:
/// newest 2026-11-20 09:14, back to 2026-10-02 11:00), synced 5d ago", "never synced".
fn sync_text(sync: &SyncReport, now: Timestamp, tz: &TimeZone) -> String {
    let Some(synced) = sync.synced_at else {
        return "never synced".to_owned();
    };
    let reach = if sync.complete {
        "mirrored to its end".to_owned()
    } else {
        let walks = sync.pending_walks;
        let noun = if walks == 1 { "walk" } else { "walks" };
        let span = match (sync.newest_at, sync.back_to) {
            (Some(newest), Some(back)) => format!(
                ": newest {}, back to {}",
                feedback_core::timefmt::local(newest, tz),
                feedback_core::timefmt::local(back, tz)
            ),
            _ => String::new(),
        };
        format!("partly mirrored ({walks} {noun} to go{span})")
    };
    let reconciled = sync
        .reconciled_at
        .map(|t| format!(", reconciled {}", feedback_core::timefmt::ago(now, t)))
        .unwrap_or_default();
    format!(
        "{reach}, synced {}{reconciled}",
        feedback_core::timefmt::ago(now, synced)
    )
}

fn retention_line(days: Option<i64>) -> String {
    match days {
        Some(days) => format!("Retention  {days} days (retention_days): older items are dropped"),
        None => "Retention  everything is kept (no retention_days)".to_owned(),
    }
}

/// `512 B`, `1.5 KiB`, `12.3 MiB`, `2.0 GiB`.
#[must_use]
pub(crate) fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes;
    let mut unit = 0;
    while value >= 1024 * 1024 && unit + 1 < UNITS.len() {
        value /= 1024;
        unit += 1;
    }
    // One decimal from integer arithmetic: tenths of the unit.
    let tenths = value * 10 / 1024;
    format!("{}.{} {}", tenths / 10, tenths % 10, UNITS[unit])
}
