//! The idempotency record of a receiver: every accepted `feedback.id`, one JSON string per line
//! in a small file of the platform data folder, so a delivery that arrives again (even after a
//! restart) is acknowledged but not recorded twice. Ids are written as JSON strings, so an id
//! with a newline in it cannot forge a second line.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// When the file holds more ids than this at start, it is rewritten with the newest half.
const COMPACT_ABOVE: usize = 200_000;

/// The ids accepted so far.
#[derive(Debug, Default)]
pub struct Seen {
    ids: HashSet<String>,
    file: Option<File>,
}

/// `<data dir>/webhook-seen.txt`, the receiver's default record.
#[must_use]
pub fn default_path() -> Option<PathBuf> {
    crate::config::project_dirs().map(|dirs| dirs.data_dir().join("webhook-seen.txt"))
}

impl Seen {
    /// A record kept in memory only (the inbox's receiver: what it shows is in the API anyway).
    #[must_use]
    pub fn memory() -> Self {
        Self::default()
    }

    /// Loads the record at `path` (created with its folders when missing) and appends to it.
    pub fn open(path: &Path) -> io::Result<Self> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let text = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(e),
        };
        // A torn last line (a crash mid-write) is skipped, not fatal.
        let mut order: Vec<String> = text
            .split(|b| *b == b'\n')
            .filter_map(|line| serde_json::from_slice(line).ok())
            .collect();
        if order.len() > COMPACT_ABOVE {
            order.drain(..order.len() - COMPACT_ABOVE / 2);
            rewrite(path, &order)?;
        }
        let mut file = OpenOptions::new().create(true).append(true).open(path)?;
        if !text.is_empty() && !text.ends_with(b"\n") {
            file.write_all(b"\n")?;
        }
        Ok(Self {
            ids: order.into_iter().collect(),
            file: Some(file),
        })
    }

    #[must_use]
    pub fn contains(&self, id: &str) -> bool {
        self.ids.contains(id)
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Records `id`; false when it was already there. The line is written whole and flushed
    /// before this returns.
    pub fn insert(&mut self, id: &str) -> io::Result<bool> {
        if self.ids.contains(id) {
            return Ok(false);
        }
        if let Some(file) = &mut self.file {
            let mut line = serde_json::to_string(id).map_err(io::Error::other)?;
            line.push('\n');
            file.write_all(line.as_bytes())?;
            file.flush()?;
        }
        self.ids.insert(id.to_owned());
        Ok(true)
    }
}

fn rewrite(path: &Path, ids: &[String]) -> io::Result<()> {
    let temp = path.with_extension("compacting");
    let mut out = io::BufWriter::new(File::create(&temp)?);
    for id in ids {
        writeln!(
            out,
            "{}",
            serde_json::to_string(id).map_err(io::Error::other)?
        )?;
    }
    out.into_inner()
        .map_err(io::IntoInnerError::into_error)?
        .sync_all()?;
    std::fs::rename(temp, path)
}
