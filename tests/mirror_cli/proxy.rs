//! A proxy in front of the simulator for one run of the binary: every request the run sends
//! goes through it, so what it forwarded is what that run asked the service for. It notes the
//! list requests (status and cursor) in the order it forwards them.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// One list request: the status asked for, and the cursor it goes on from (`None`: the top).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Asked {
    pub status: String,
    pub cursor: Option<String>,
}

type Noted = Arc<Mutex<Vec<Asked>>>;

/// A proxy for one run (see the module doc).
pub struct Proxy {
    addr: SocketAddr,
    accepting: JoinHandle<()>,
    /// Each connection's reading of the run's requests, to wait for at the run's end.
    readers: Arc<Mutex<Vec<JoinHandle<()>>>>,
    asked: Noted,
}

impl Proxy {
    /// A proxy on a port of its own in front of the service at `service`.
    pub async fn start(service: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let readers: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::default();
        let asked: Noted = Arc::default();
        let accepting = tokio::spawn({
            let readers = Arc::clone(&readers);
            let asked = Arc::clone(&asked);
            async move {
                while let Ok((client, _)) = listener.accept().await {
                    let upstream = TcpStream::connect(service).await.unwrap();
                    let reader = tokio::spawn(relay(client, upstream, Arc::clone(&asked)));
                    readers.lock().unwrap().push(reader);
                }
            }
        });
        Self {
            addr,
            accepting,
            readers,
            asked,
        }
    }

    /// The base URL the run is given instead of the service's.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Once the run's process has ended: stops accepting (a connection it had not accepted
    /// carried nothing to the service), reads each connection to its end (the process is
    /// gone, so each ends) and gives the list requests forwarded, in order.
    pub async fn finish(self) -> Vec<Asked> {
        self.accepting.abort();
        let _ = self.accepting.await;
        let readers = std::mem::take(&mut *self.readers.lock().unwrap());
        for reader in readers {
            reader.await.unwrap();
        }
        std::mem::take(&mut *self.asked.lock().unwrap())
    }
}

/// Forwards one connection both ways; the run's side is read request by request (its requests
/// are GETs: a head and no body), each list request noted as it is forwarded. Ends when the
/// run's side ends.
async fn relay(client: TcpStream, upstream: TcpStream, asked: Noted) {
    let (mut from_run, mut to_run) = client.into_split();
    let (mut from_service, mut to_service) = upstream.into_split();
    let answers = tokio::spawn(async move {
        let _ = tokio::io::copy(&mut from_service, &mut to_run).await;
    });
    let mut pending = Vec::new();
    let mut buf = vec![0_u8; 16 * 1024];
    'read: loop {
        let n = match from_run.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        pending.extend_from_slice(&buf[..n]);
        while let Some(end) = pending.windows(4).position(|w| w == b"\r\n\r\n") {
            let head: Vec<u8> = pending.drain(..end + 4).collect();
            if let Some(list) = list_request(&head) {
                asked.lock().unwrap().push(list);
            }
            if to_service.write_all(&head).await.is_err() {
                break 'read;
            }
        }
    }
    let _ = to_service.shutdown().await;
    answers.abort();
}

/// The list request a request head is, if it is one.
fn list_request(head: &[u8]) -> Option<Asked> {
    let line = std::str::from_utf8(head).ok()?.lines().next()?;
    let target = line.strip_prefix("GET ")?.split(' ').next()?;
    let url = url::Url::parse(&format!("http://service{target}")).ok()?;
    if url.path() != "/v1/feedback" {
        return None;
    }
    let query = |name: &str| {
        url.query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    };
    Some(Asked {
        status: query("status")?,
        cursor: query("cursor"),
    })
}
