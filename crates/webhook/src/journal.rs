//! Durable append-only line files (the receiver's JSONL and its seen-id record) and the JSONL
//! record format.
//!
//! A delivery is acknowledged only after its line is written whole *and* synced to disk, so
//! every write goes through [`AppendLog::append_line`]: write, then `sync_data`. A write that
//! fails part-way (a full disk, a crash) can leave a torn line; the log remembers that it may be
//! torn and starts its next line with a `'\n'`, so a later record is never glued onto the
//! fragment. Readers ([`read_lines`]) skip a line that does not parse and report it. A file
//! the log creates is made durable in its folder ([`sync_dir`]) before anything is written, and
//! is private (`0600`, [`feedback_config::private_files`]): its lines are customers' feedback.
//!
//! Every line is JSON made terminal-safe: C1 controls, bidi and invisible characters are
//! written as `\uXXXX` escapes (the same escaping as the CLI's JSON output), so `cat` or `tail`
//! of the file cannot drive a terminal, and the JSON means exactly the same.
//!
//! # The JSONL file
//!
//! One JSON document per line. A verified event is its body, compacted. A delivery whose
//! signature holds but whose body is not a usable event (not JSON, no event name, a
//! `feedback.created` without its fields) is kept raw, never refused:
//!
//! ```text
//! {"unparsed":true,"reason":"...","received_at":"2026-11-01T12:00:00Z","sha256":"<hex of the body>","body":"<the body>"}
//! ```
//!
//! `body` holds the original bytes when they are UTF-8 (so a lone `\ud800` escape stays as the
//! six characters it was); otherwise the record has `body_base64` (standard alphabet) instead.

use std::fmt;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;

use base64::Engine as _;
use jiff::Timestamp;
use sha2::{Digest, Sha256};

use feedback_config::private_files::{self, Follow};
use feedback_core::text::output::terminal_safe_json;

/// Where an [`AppendLog`] writes: a file, or a test double that fails on demand.
pub trait Sink: Send + fmt::Debug {
    /// Writes all of `bytes` at the end; on failure part of them may have been written.
    fn append(&mut self, bytes: &[u8]) -> io::Result<()>;
    /// Makes everything appended so far durable (`fsync` of the data).
    fn sync(&mut self) -> io::Result<()>;
}

impl Sink for File {
    fn append(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.write_all(bytes)
    }

    fn sync(&mut self) -> io::Result<()> {
        self.sync_data()
    }
}

/// A pipe, terminal or other device (`--jsonl /dev/stdout`): it cannot be synced (`fsync`
/// fails with EINVAL), and what is written has been handed to its reader once the write returns.
#[derive(Debug)]
struct Device(File);

impl Sink for Device {
    fn append(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.0.write_all(bytes)
    }

    fn sync(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The process's stdout (`webhook listen` without `--jsonl`): each line is flushed before
/// `sync` returns, and synced to disk too when stdout is a regular file (`> events.jsonl`).
#[derive(Debug)]
struct Stdout {
    /// Stdout's file, when it is a regular one.
    file: Option<File>,
}

impl Sink for Stdout {
    fn append(&mut self, bytes: &[u8]) -> io::Result<()> {
        io::stdout().lock().write_all(bytes)
    }

    fn sync(&mut self) -> io::Result<()> {
        io::stdout().lock().flush()?;
        self.file.as_ref().map_or(Ok(()), File::sync_data)
    }
}

/// Stdout as a file of its own (a duplicate descriptor), when it is a regular file.
#[cfg(unix)]
fn stdout_file() -> Option<File> {
    use std::os::fd::AsFd;
    let file = File::from(io::stdout().as_fd().try_clone_to_owned().ok()?);
    file.metadata().ok()?.is_file().then_some(file)
}

#[cfg(not(unix))]
fn stdout_file() -> Option<File> {
    None
}

/// An append-only file of whole lines, each durable before `append_line` returns.
#[derive(Debug)]
pub(crate) struct AppendLog {
    sink: Box<dyn Sink>,
    /// The last write may have stopped mid-line: the next one starts with `'\n'`.
    torn: bool,
}

impl AppendLog {
    /// A log over `sink`; `mid_line` when what is already there does not end with `'\n'`.
    #[must_use]
    pub(crate) fn new(sink: Box<dyn Sink>, mid_line: bool) -> Self {
        Self {
            sink,
            torn: mid_line,
        }
    }

    /// Opens (or creates) the file at `path` for appending, noticing a torn last line. A file
    /// it creates is made durable in its folder ([`sync_dir`]) before this returns, so the
    /// lines synced into it later cannot vanish with it on a power loss.
    pub(crate) fn open(path: &Path) -> io::Result<Self> {
        Self::open_with(path, &mut sync_dir)
    }

    /// [`AppendLog::open`], with `sync_folder` in place of [`sync_dir`].
    pub(super) fn open_with(path: &Path, sync_folder: &mut SyncDir<'_>) -> io::Result<Self> {
        Self::open_file(path, Follow::Yes, sync_folder)
    }

    /// [`AppendLog::open_with`] for a record of this program's own (the seen ids): only a
    /// regular file, never through a symlink ([`private_files`]).
    pub(super) fn open_record(path: &Path, sync_folder: &mut SyncDir<'_>) -> io::Result<Self> {
        Self::open_file(path, Follow::No, sync_folder)
    }

    /// Opens the file (`0600` when created, tightened when others could read it); a pipe or a
    /// device, where `follow` allows one, is written without syncs.
    fn open_file(path: &Path, follow: Follow, sync_folder: &mut SyncDir<'_>) -> io::Result<Self> {
        let (mut file, created) = private_files::open_append(path, follow)?;
        if !file.metadata()?.is_file() {
            return Ok(Self::new(Box::new(Device(file)), false));
        }
        if created {
            sync_folder(parent_dir(path))?;
        }
        let mid_line = ends_mid_line(&mut file)?;
        Ok(Self::new(Box::new(file), mid_line))
    }

    /// A log written to the process's stdout, flushed (and synced when it is a file) line
    /// by line.
    #[must_use]
    pub(crate) fn stdout() -> Self {
        Self::new(
            Box::new(Stdout {
                file: stdout_file(),
            }),
            false,
        )
    }

    /// Appends `line` (which ends with `'\n'`) whole and syncs it. On failure the log
    /// remembers that the file may end mid-line.
    pub(crate) fn append_line(&mut self, line: &[u8]) -> io::Result<()> {
        if self.torn {
            self.sink.append(b"\n")?;
        }
        self.torn = true;
        self.sink.append(line)?;
        self.torn = !line.ends_with(b"\n");
        self.sink.sync()
    }
}

/// Makes a folder's entries durable; [`sync_dir`], or a test's double.
pub(super) type SyncDir<'a> = dyn FnMut(&Path) -> io::Result<()> + 'a;

/// Makes the entries of the folder `dir` durable (a file created or renamed in it): `fsync` of
/// the folder. A file system that cannot sync a folder (EINVAL, like a device's data) is not an
/// error; neither is a platform without folder sync.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    if !cfg!(unix) {
        return Ok(());
    }
    match File::open(dir).and_then(|folder| folder.sync_all()) {
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::InvalidInput | io::ErrorKind::Unsupported
            ) =>
        {
            Ok(())
        }
        other => other,
    }
}

/// The folder that holds `path` (`.` for a bare file name).
#[must_use]
pub(crate) fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// True when the file is not empty and its last byte is not `'\n'`.
fn ends_mid_line(file: &mut File) -> io::Result<bool> {
    if file.metadata()?.len() == 0 {
        return Ok(false);
    }
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] != b'\n')
}

/// `value` as one terminal-safe JSON line, ending with `'\n'`.
pub(crate) fn json_line(value: &impl serde::Serialize) -> serde_json::Result<Vec<u8>> {
    let mut line = terminal_safe_json(serde_json::to_string(value)?).into_bytes();
    line.push(b'\n');
    Ok(line)
}

/// The JSONL line of a verified event: its body, compacted (all its fields, whatever their
/// layout was). `None` when the body is not JSON after all.
#[must_use]
pub fn event_line(body: &[u8]) -> Option<Vec<u8>> {
    let value: serde_json::Value = feedback_core::json::from_slice(body).ok()?;
    json_line(&value).ok()
}

/// The hex SHA-256 of a body: the idempotency key of a body that is not a usable event.
#[must_use]
pub(crate) fn body_hash(body: &[u8]) -> String {
    hex::encode(Sha256::digest(body))
}

/// The JSONL line of a signed body kept raw (see the module documentation).
#[must_use]
pub(crate) fn unparsed_line(body: &[u8], reason: &str, received_at: Timestamp) -> Vec<u8> {
    let mut record = serde_json::json!({
        "unparsed": true,
        "reason": reason,
        "received_at": received_at.to_string(),
        "sha256": body_hash(body),
    });
    match std::str::from_utf8(body) {
        Ok(text) => record["body"] = text.into(),
        Err(_) => {
            record["body_base64"] = base64::engine::general_purpose::STANDARD
                .encode(body)
                .into();
        }
    }
    // A map of strings always serializes.
    json_line(&record).unwrap_or_default()
}

/// What a reader found in a line file.
#[derive(Debug, Default)]
pub struct Lines<T> {
    /// The lines that parsed, in order.
    pub records: Vec<T>,
    /// 1-based numbers of the lines that did not parse (torn by a crash or a full disk).
    pub torn: Vec<usize>,
}

/// Parses each line of `bytes` as `T`, skipping a leading BOM, blank lines and a `'\r'` before
/// `'\n'`; a line that does not parse is skipped and reported in [`Lines::torn`].
pub fn read_lines<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Lines<T> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut lines = Lines {
        records: Vec::new(),
        torn: Vec::new(),
    };
    for (i, line) in bytes.split(|b| *b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match feedback_core::json::from_slice(line) {
            Ok(record) => lines.records.push(record),
            Err(_) => lines.torn.push(i + 1),
        }
    }
    lines
}
