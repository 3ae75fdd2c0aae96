//! Background work owned by a handle: an HTTP server (the simulator, the webhook receiver) or a
//! loop (new submissions). Dropping the handle stops the work; [`Background::stop`] also waits
//! for it to end.

use std::future::Future;

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// A running task and the token that stops it.
#[derive(Debug)]
pub struct Background {
    stop: CancellationToken,
    task: Option<JoinHandle<()>>,
}

impl Background {
    /// Spawns the future `work` makes from the stop token (it should end once it is cancelled).
    pub fn spawn<F>(work: impl FnOnce(CancellationToken) -> F) -> Self
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let stop = CancellationToken::new();
        let task = tokio::spawn(work(stop.clone()));
        Self {
            stop,
            task: Some(task),
        }
    }

    /// Serves `app` on `listener` until stopped, then shuts down gracefully.
    pub fn serve(listener: tokio::net::TcpListener, app: axum::Router, what: &'static str) -> Self {
        Self::spawn(|stop| async move {
            if let Err(error) = axum::serve(listener, app)
                .with_graceful_shutdown(stop.cancelled_owned())
                .await
            {
                tracing::error!(%error, "{what} stopped with an error");
            }
        })
    }

    /// Stops the work and waits for it to end.
    pub async fn stop(mut self) {
        self.stop.cancel();
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}
