//! Files that hold customers' data or secrets (the store and its lock, the webhook journal and
//! seen-id record, the log) are private: files `0600` and the folders this program makes
//! `0700`, whatever the umask. A file, or a folder of this program's own ([`is_own_folder`]),
//! that others could read is tightened again when it is opened. A folder the user chose (the
//! one holding `--store` or `--jsonl`) keeps its mode: it may be shared for other reasons.
//!
//! A record the program keeps for itself ([`read_record`], [`open_append`] with
//! [`Follow::No`]) must be a regular file: a symlink is refused (writing through it would put
//! ids wherever it points) and so is a FIFO or a device (reading one could wait forever).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// Whether opening a file may follow a symlink in its place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Follow {
    /// The path is the user's (`--jsonl /dev/stdout`): a link, a pipe or a device is theirs.
    Yes,
    /// The path is a record of this program: only a regular file is accepted.
    No,
}

/// True for a folder only this program uses: its data and state folders, and a `stores`
/// folder (where stores live).
#[must_use]
pub(crate) fn is_own_folder(dir: &Path) -> bool {
    if dir.file_name().is_some_and(|n| n == "stores") {
        return true;
    }
    crate::project_dirs().is_some_and(|dirs| {
        [
            Some(dirs.data_dir()),
            Some(dirs.data_local_dir()),
            dirs.state_dir(),
        ]
        .into_iter()
        .flatten()
        .any(|own| own == dir)
    })
}

/// Makes `dir` and its missing parents (each `0700`), and tightens `dir` and those of its
/// parents that are this program's own folders when others can enter them.
pub fn create_dir(dir: &Path) -> io::Result<()> {
    create_dir_with(dir, is_own_folder)
}

/// [`create_dir`], with `own` telling which folders are this program's.
pub(crate) fn create_dir_with(dir: &Path, own: impl Fn(&Path) -> bool) -> io::Result<()> {
    if dir.as_os_str().is_empty() {
        return Ok(());
    }
    make_dir(dir)?;
    for folder in dir.ancestors().filter(|d| own(d)) {
        tighten_path(folder, 0o700)?;
    }
    Ok(())
}

#[cfg(unix)]
fn make_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    if dir.is_dir() {
        return Ok(());
    }
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

#[cfg(not(unix))]
fn make_dir(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)
}

/// Sets `path`'s mode to `mode` when its group or others have any access to it.
#[cfg(unix)]
fn tighten_path(path: &Path, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if fs::metadata(path)?.permissions().mode() & 0o077 != 0 {
        fs::set_permissions(path, fs::Permissions::from_mode(mode))?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn tighten_path(_path: &Path, _mode: u32) -> io::Result<()> {
    Ok(())
}

/// Makes an open regular file `0600` when its group or others have any access to it (a pipe or
/// a device is left as it is).
#[cfg(unix)]
pub fn tighten(file: &File) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let meta = file.metadata()?;
    if meta.is_file() && meta.permissions().mode() & 0o077 != 0 {
        file.set_permissions(fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

#[cfg(not(unix))]
pub fn tighten(_file: &File) -> io::Result<()> {
    Ok(())
}

/// Creates an empty `0600` file at `path` when none is there; an existing one is tightened.
pub fn create_file(path: &Path) -> io::Result<()> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    private(&mut options, Follow::Yes);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => tighten_path(path, 0o600),
        Err(e) => Err(e),
    }
}

/// Opens `path` for reading and appending, creating it (`0600`) when missing; an existing
/// regular file is tightened. With [`Follow::No`] anything but a regular file is refused.
/// Returns the file and whether it was created.
pub fn open_append(path: &Path, follow: Follow) -> io::Result<(File, bool)> {
    let mut options = OpenOptions::new();
    options.read(true).append(true);
    private(&mut options, follow);
    let (file, created) = match options.open(path) {
        Ok(file) => (file, false),
        Err(e) if e.kind() == io::ErrorKind::NotFound => (options.create(true).open(path)?, true),
        Err(e) => return Err(refusal(path, e, follow)),
    };
    if follow == Follow::No {
        regular(path, &file)?;
    }
    tighten(&file)?;
    Ok((file, created))
}

/// Creates (or empties) the `0600` regular file `path` for writing (a record rewritten whole).
pub fn create_truncated(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(true);
    private(&mut options, Follow::No);
    let file = options
        .open(path)
        .map_err(|e| refusal(path, e, Follow::No))?;
    regular(path, &file)?;
    tighten(&file)?;
    Ok(file)
}

/// The bytes of the record `path` (a regular file, never followed through a symlink), `None`
/// when there is none.
pub fn read_record(path: &Path) -> io::Result<Option<Vec<u8>>> {
    let mut options = OpenOptions::new();
    options.read(true);
    private(&mut options, Follow::No);
    let mut file = match options.open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(refusal(path, e, Follow::No)),
    };
    regular(path, &file)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(Some(bytes))
}

/// New files `0600`; with [`Follow::No`], no symlink followed and no wait on a FIFO's other
/// end (the open does not block; [`regular`] then refuses it).
#[cfg(unix)]
fn private(options: &mut OpenOptions, follow: Follow) {
    use std::os::unix::fs::OpenOptionsExt;
    options.mode(0o600);
    if follow == Follow::No {
        options.custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK);
    }
}

#[cfg(not(unix))]
fn private(_options: &mut OpenOptions, _follow: Follow) {}

/// Refuses an open file that is not a regular one.
fn regular(path: &Path, file: &File) -> io::Result<()> {
    if file.metadata()?.is_file() {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} is not a regular file; refusing to use it",
                path.display()
            ),
        ))
    }
}

/// A clear error for a symlink met with [`Follow::No`] (the open fails with `ELOOP`).
fn refusal(path: &Path, error: io::Error, follow: Follow) -> io::Error {
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if follow == Follow::No && is_link {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is a symlink; refusing to follow it", path.display()),
        )
    } else {
        error
    }
}

#[cfg(all(test, unix))]
mod tests;
