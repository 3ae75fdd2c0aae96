//! Starts the simulator: binds (127.0.0.1:0 unless told), serves until shut down, and hands back
//! a [`SimHandle`] with the base URL, the fault knobs and the statistics.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use axum::Router;
use axum::middleware::from_fn_with_state;
use axum::routing::get;
use jiff::Timestamp;
use tower_http::compression::CompressionLayer;

use super::cursor::CursorCodec;
use super::data::{self, Dataset};
use super::faults::Faults;
use super::limiter::Limiter;
use super::state::{SimState, Stats};
use super::{layers, routes};
use feedback_core::background::Background;
use feedback_core::clock::{self, SharedClock};

/// How to run the simulator.
#[derive(Debug, Clone)]
pub struct SimConfig {
    pub addr: SocketAddr,
    pub seed: u64,
    pub items: usize,
    pub rate_per_minute: u32,
    /// Added to every answer.
    pub latency: Duration,
    pub clock: SharedClock,
    /// The newest item is received just before this; defaults to the clock's now.
    pub anchor: Option<Timestamp>,
}

impl Default for SimConfig {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            seed: 1,
            items: 5000,
            rate_per_minute: 120,
            latency: Duration::ZERO,
            clock: clock::system(),
            anchor: None,
        }
    }
}

/// A running simulator. Dropping it stops the server.
#[derive(Debug)]
pub struct SimHandle {
    addr: SocketAddr,
    state: Arc<SimState>,
    server: Background,
}

/// Builds the dataset, binds and starts serving.
pub async fn start(config: SimConfig) -> std::io::Result<SimHandle> {
    let anchor = config.anchor.unwrap_or_else(|| config.clock.now());
    let dataset = data::generate(config.seed, config.items, anchor);
    start_with(config, dataset).await
}

/// Like [`start`] but serves the given dataset.
pub async fn start_with(config: SimConfig, dataset: Dataset) -> std::io::Result<SimHandle> {
    let state = Arc::new(SimState {
        store: RwLock::new(dataset),
        codec: CursorCodec::new(config.seed),
        limiter: Limiter::new(config.rate_per_minute),
        faults: Faults::default(),
        stats: Mutex::new(Stats::default()),
        clock: config.clock,
        latency: config.latency,
    });
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    let server = Background::serve(listener, router(Arc::clone(&state)), "simulator");
    Ok(SimHandle {
        addr,
        state,
        server,
    })
}

fn router(state: Arc<SimState>) -> Router {
    Router::new()
        .route("/v1/feedback", get(routes::list_feedback))
        .route("/v1/feedback/{id}", get(routes::get_feedback))
        .route("/v1/projects", get(routes::list_projects))
        .route("/v1/apps", get(routes::list_apps))
        .route("/v1/tags", get(routes::list_tags))
        .route_layer(from_fn_with_state(Arc::clone(&state), layers::auth))
        .route("/v1/openapi.json", get(routes::openapi))
        .route("/llms.txt", get(routes::llms))
        .fallback(routes::unknown_route)
        .layer(from_fn_with_state(Arc::clone(&state), layers::faults))
        .layer(CompressionLayer::new())
        .with_state(state)
}

impl SimHandle {
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    #[must_use]
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The fault knobs.
    #[must_use]
    pub fn faults(&self) -> &Faults {
        &self.state.faults
    }

    /// Requests seen so far.
    #[must_use]
    pub fn stats(&self) -> Stats {
        self.state.stats()
    }

    /// The served data and its state, for tests and the live demo.
    #[must_use]
    pub fn state(&self) -> &Arc<SimState> {
        &self.state
    }

    /// Stops serving and waits for the server task to end.
    pub async fn shutdown(self) {
        self.server.stop().await;
    }
}
