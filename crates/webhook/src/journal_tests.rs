//! Durability of the receiver's records, with an injected disk that fills up on demand.

use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc::unbounded_channel;

use super::journal::{AppendLog, Sink, parent_dir, read_lines, sync_dir};
use super::receiver::{self, Notice, ReceiverConfig};
use super::record::{RecordError, Recorded, Recorder};
use super::seen::{Seen, rewrite};
use feedback_api::webhook::verify::{DEFAULT_TOLERANCE, Secret, sign};

/// ENOSPC on Linux and macOS.
const NO_SPACE: i32 = 28;

/// An in-memory disk: what was written, what was synced, and how much room is left.
#[derive(Debug, Default)]
struct DiskState {
    bytes: Vec<u8>,
    synced: usize,
    room: Option<usize>,
}

#[derive(Debug, Clone, Default)]
struct Disk(Arc<Mutex<DiskState>>);

impl Disk {
    fn with_room(room: usize) -> Self {
        let disk = Self::default();
        disk.0.lock().unwrap().room = Some(room);
        disk
    }

    fn set_room(&self, room: Option<usize>) {
        self.0.lock().unwrap().room = room;
    }

    fn bytes(&self) -> Vec<u8> {
        self.0.lock().unwrap().bytes.clone()
    }

    fn all_synced(&self) -> bool {
        let state = self.0.lock().unwrap();
        state.synced == state.bytes.len()
    }

    fn sink(&self) -> Box<dyn Sink> {
        Box::new(self.clone())
    }
}

impl Sink for Disk {
    /// Writes what fits, then fails with ENOSPC, as a full file system does.
    fn append(&mut self, bytes: &[u8]) -> io::Result<()> {
        let mut state = self.0.lock().unwrap();
        let fits = state.room.map_or(bytes.len(), |room| room.min(bytes.len()));
        state.bytes.extend_from_slice(&bytes[..fits]);
        if let Some(room) = &mut state.room {
            *room -= fits;
        }
        if fits < bytes.len() {
            return Err(io::Error::from_raw_os_error(NO_SPACE));
        }
        Ok(())
    }

    fn sync(&mut self) -> io::Result<()> {
        let mut state = self.0.lock().unwrap();
        state.synced = state.bytes.len();
        Ok(())
    }
}

fn line(id: &str) -> Vec<u8> {
    format!("{{\"feedback\":{{\"id\":\"{id}\"}}}}\n").into_bytes()
}

fn ids(bytes: &[u8]) -> (Vec<String>, Vec<usize>) {
    let lines = read_lines::<serde_json::Value>(bytes);
    let ids = lines
        .records
        .iter()
        .map(|r| r["feedback"]["id"].as_str().unwrap().to_owned())
        .collect();
    (ids, lines.torn)
}

#[test]
fn every_line_and_every_seen_id_is_synced_before_it_is_reported_written() {
    let jsonl = Disk::default();
    let seen = Disk::default();
    let mut recorder = Recorder::new(
        Seen::with_sink(seen.sink()),
        Some((
            PathBuf::from("events.jsonl"),
            AppendLog::new(jsonl.sink(), false),
        )),
    );
    assert_eq!(
        recorder
            .record(
                Some("fb_1"),
                &line("fb_1"),
                None,
                jiff::Timestamp::UNIX_EPOCH
            )
            .unwrap(),
        Recorded::New
    );
    assert!(jsonl.all_synced() && seen.all_synced());
    assert_eq!(jsonl.bytes(), line("fb_1"));
    assert_eq!(seen.bytes(), b"\"fb_1\"\n");
}

#[test]
fn a_write_cut_short_by_a_full_disk_fails_and_the_next_line_starts_fresh() {
    let disk = Disk::with_room(line("fb_1").len() + 5);
    let mut log = AppendLog::new(disk.sink(), false);
    log.append_line(&line("fb_1")).unwrap();
    let error = log.append_line(&line("fb_2")).unwrap_err();
    assert_eq!(error.raw_os_error(), Some(NO_SPACE));
    // Still full: the fresh-line marker cannot be written either; still nothing glued.
    assert!(log.append_line(&line("fb_3")).is_err());
    disk.set_room(None);
    log.append_line(&line("fb_4")).unwrap();
    let (ids, torn) = ids(&disk.bytes());
    assert_eq!(ids, ["fb_1", "fb_4"]);
    assert_eq!(torn, [2], "the torn line is skipped and reported");
}

#[test]
fn a_failed_jsonl_write_records_no_id_so_the_retry_is_kept() {
    let jsonl = Disk::with_room(3);
    let mut recorder = Recorder::new(
        Seen::memory(),
        Some((
            PathBuf::from("events.jsonl"),
            AppendLog::new(jsonl.sink(), false),
        )),
    );
    let error = recorder
        .record(
            Some("fb_1"),
            &line("fb_1"),
            None,
            jiff::Timestamp::UNIX_EPOCH,
        )
        .unwrap_err();
    assert!(matches!(error, RecordError::Jsonl { .. }), "{error}");
    assert!(error.to_string().contains("events.jsonl"), "{error}");
    jsonl.set_room(None);
    assert_eq!(
        recorder
            .record(
                Some("fb_1"),
                &line("fb_1"),
                None,
                jiff::Timestamp::UNIX_EPOCH
            )
            .unwrap(),
        Recorded::New
    );
    let (ids, torn) = ids(&jsonl.bytes());
    assert_eq!((ids, torn), (vec!["fb_1".to_owned()], vec![1]));
}

#[test]
fn a_failed_seen_write_is_an_error_but_the_id_is_remembered_for_the_process() {
    let jsonl = Disk::default();
    let seen = Disk::with_room(2);
    let mut recorder = Recorder::new(
        Seen::with_sink(seen.sink()),
        Some((
            PathBuf::from("events.jsonl"),
            AppendLog::new(jsonl.sink(), false),
        )),
    );
    let error = recorder
        .record(
            Some("fb_1"),
            &line("fb_1"),
            None,
            jiff::Timestamp::UNIX_EPOCH,
        )
        .unwrap_err();
    assert!(matches!(error, RecordError::Seen(_)), "{error}");
    assert_eq!(
        recorder
            .record(
                Some("fb_1"),
                &line("fb_1"),
                None,
                jiff::Timestamp::UNIX_EPOCH
            )
            .unwrap(),
        Recorded::Duplicate,
        "the service's retry is not recorded twice"
    );
    assert_eq!(jsonl.bytes(), line("fb_1"));
    seen.set_room(None);
    recorder
        .record(
            Some("fb_2"),
            &line("fb_2"),
            None,
            jiff::Timestamp::UNIX_EPOCH,
        )
        .unwrap();
    let ids = read_lines::<String>(&seen.bytes());
    assert_eq!(ids.records, ["fb_2"]);
    assert_eq!(ids.torn, [1]);
}

#[test]
fn the_seen_file_tolerates_a_bom_crlf_and_torn_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seen.txt");
    std::fs::write(&path, "\u{feff}\"fb_1\"\r\n\"fb_tor\n\"fb_2\"\n\"fb_3").unwrap();
    let mut seen = Seen::open(&path).unwrap();
    assert!(seen.contains("fb_1") && seen.contains("fb_2"));
    assert_eq!(seen.len(), 2);
    assert_eq!(seen.skipped_lines(), 2);
    seen.insert("fb_4").unwrap();
    drop(seen);
    let seen = Seen::open(&path).unwrap();
    assert!(seen.contains("fb_4"), "written on a fresh line");
    assert_eq!(seen.skipped_lines(), 2);
}

#[test]
fn a_jsonl_file_left_torn_by_a_crash_is_continued_on_a_fresh_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("events.jsonl");
    let mut torn = line("fb_1");
    torn.extend_from_slice(b"{\"feedback\":{\"id\":\"fb_");
    std::fs::write(&path, &torn).unwrap();
    let mut log = AppendLog::open(&path).unwrap();
    log.append_line(&line("fb_2")).unwrap();
    let (ids, torn) = ids(&std::fs::read(&path).unwrap());
    assert_eq!(
        (ids, torn),
        (vec!["fb_1".to_owned(), "fb_2".to_owned()], vec![2])
    );
}

#[test]
fn a_device_that_cannot_be_synced_is_still_written() {
    // fsync of /dev/null (like a pipe's, for `--jsonl /dev/stdout`) fails with EINVAL.
    let mut log = AppendLog::open(std::path::Path::new("/dev/null")).unwrap();
    log.append_line(&line("fb_1")).unwrap();
}

pub(super) const NOW: i64 = 1_800_000_000;

/// POSTs `body`, signed at [`NOW`], to the receiver at `addr`; the answer's status.
pub(super) async fn post(addr: SocketAddr, body: &[u8]) -> u16 {
    let sig = sign(&Secret::new(b"whsec_disk").unwrap(), NOW, body);
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nX-Service-Timestamp: {NOW}\r\nX-Service-Signature: {sig}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    answer.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[tokio::test]
async fn a_kept_delivery_whose_seen_write_fails_is_still_reported_and_answered_500() {
    let (tx, mut notices) = unbounded_channel();
    let config = ReceiverConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        secret: Secret::new(b"whsec_disk").unwrap(),
        tolerance: DEFAULT_TOLERANCE,
        seen: Seen::with_sink(Disk::with_room(0).sink()),
        store: None,
        jsonl: None,
        clock: feedback_core::clock::ManualClock::new(jiff::Timestamp::from_second(NOW).unwrap()),
    };
    let handle = receiver::start(config, tx).await.unwrap();
    let event = br#"{"event":"feedback.created","feedback":{"id":"fb_1","appId":"app_1","appName":"A","projectId":"prj_1","projectName":"P","message":"m","email":null,"metadata":{"custom":{}},"receivedAt":"2026-11-01T11:59:00Z"}}"#;
    for body in [&event[..], b"not json"] {
        assert_eq!(post(handle.addr(), body).await, 500, "not durable: retried");
        let key = match notices.recv().await.unwrap() {
            Notice::Accepted { event, .. } => event.idempotency_key().unwrap(),
            Notice::Unparsed { key, .. } => key,
            other => panic!("the kept delivery is not reported: {other:?}"),
        };
        let rejected = notices.recv().await.unwrap();
        assert!(
            matches!(&rejected, Notice::Rejected { status: 500, .. }),
            "{rejected:?}"
        );
        assert_eq!(
            post(handle.addr(), body).await,
            204,
            "the retry is acknowledged"
        );
        assert_eq!(notices.recv().await, Some(Notice::Duplicate(key)));
    }
    handle.shutdown().await;
}

/// A folder sync that records which folders it was asked to sync.
fn recording(synced: &mut Vec<PathBuf>) -> impl FnMut(&Path) -> io::Result<()> + '_ {
    |dir| {
        synced.push(dir.to_owned());
        Ok(())
    }
}

#[test]
fn a_new_jsonl_or_seen_file_is_made_durable_in_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let mut synced = Vec::new();
    for name in ["events.jsonl", "seen.txt"] {
        let path = dir.path().join(name);
        if name == "seen.txt" {
            Seen::open_with(&path, &mut recording(&mut synced)).unwrap();
        } else {
            AppendLog::open_with(&path, &mut recording(&mut synced)).unwrap();
        }
        assert_eq!(synced, [dir.path()], "{name} created: its folder synced");
        synced.clear();
        // Opened again: nothing new in the folder.
        AppendLog::open_with(&path, &mut recording(&mut synced)).unwrap();
        Seen::open_with(&path, &mut recording(&mut synced)).unwrap();
        assert!(synced.is_empty(), "{name}: {synced:?}");
    }
    let failing = dir.path().join("unsynced.jsonl");
    let error = AppendLog::open_with(&failing, &mut |_: &Path| {
        Err(io::Error::from_raw_os_error(5))
    })
    .unwrap_err();
    assert_eq!(error.raw_os_error(), Some(5), "an EIO is not hidden");
}

#[test]
fn the_compacted_seen_file_is_made_durable_in_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seen.txt");
    std::fs::write(&path, "\"fb_1\"\n\"fb_2\"\n\"fb_3\"\n").unwrap();
    let mut synced = Vec::new();
    let newest = ["fb_2".to_owned(), "fb_3".to_owned()];
    rewrite(&path, &newest, &mut recording(&mut synced)).unwrap();
    assert_eq!(synced, [dir.path()], "the rename is synced");
    assert_eq!(std::fs::read(&path).unwrap(), b"\"fb_2\"\n\"fb_3\"\n");
}

#[test]
fn folders_are_synced_for_real_and_a_bare_name_is_in_the_current_folder() {
    assert_eq!(parent_dir(Path::new("events.jsonl")), Path::new("."));
    assert_eq!(
        parent_dir(Path::new("/tmp/events.jsonl")),
        Path::new("/tmp")
    );
    let dir = tempfile::tempdir().unwrap();
    sync_dir(dir.path()).unwrap();
    sync_dir(Path::new(".")).unwrap();
    assert!(sync_dir(&dir.path().join("missing")).is_err());
}
