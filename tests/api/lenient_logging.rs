//! What the lenient reading of a page logs: the item kept with unreadable fields, and the item
//! skipped for want of an id, with ids cleaned. In a process of its own, with its subscriber
//! the global one: in the library's test binary another test thread could meet the same log
//! callsite first, with no subscriber, and leave it cached as never enabled.
#![allow(clippy::unwrap_used)]

use std::sync::{Arc, Mutex};

use feedback_api::lenient::feedback_page;

#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Buffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn what_was_unreadable_or_skipped_is_logged() {
    let buffer = Buffer::default();
    let writer = buffer.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    tracing::subscriber::set_global_default(subscriber).unwrap();
    let body = br#"{"data":[
        {"id":"odd\u001b1","message":"m","received_at":"soon","tags":"x"},
        {"message":"no id"}],"next_cursor":"c2"}"#;
    let page = feedback_page(body).unwrap();
    assert_eq!(page.data.len(), 1);
    let logs = String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap();
    assert!(
        logs.contains("kept an item with unreadable fields"),
        "{logs}"
    );
    assert!(logs.contains("received_at: not a time"), "{logs}");
    assert!(logs.contains("tags: not a list"), "{logs}");
    assert!(
        logs.contains("project: missing") && logs.contains("status: missing"),
        "{logs}"
    );
    assert!(
        logs.contains("skipped an item without a usable id"),
        "{logs}"
    );
    assert!(
        !logs.contains('\u{1b}'),
        "ids are cleaned before they are logged: {logs:?}"
    );
}
