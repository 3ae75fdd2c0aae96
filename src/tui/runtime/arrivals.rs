//! Items from outside (a webhook receiver): each is stored with the metadata its delivery
//! carried, then the loop is told, and queries the view again (so it shows where the view's
//! order puts it, or not at all under filters it does not match).

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

use super::Arrival;
use crate::store::{Shared, Sighting, Store, StoreError};
use crate::tui::action::Msg;

/// Stores each item from outside (with its metadata; the app's platform, which a webhook does
/// not carry, from the stored apps), then tells the loop, which queries the view again.
pub(super) fn store_arrivals(
    source: Option<UnboundedReceiver<Arrival>>,
    store: Shared,
    tx: UnboundedSender<Msg>,
) {
    let Some(mut source) = source else { return };
    tokio::spawn(async move {
        while let Some(arrival) = source.recv().await {
            let store = store.clone();
            let stored =
                tokio::task::spawn_blocking(move || store.write(|s| put_arrival(s, arrival))).await;
            match stored {
                Ok(Ok(())) => {}
                Ok(Err(error)) => tracing::warn!(%error, "cannot store an arrival"),
                Err(error) => tracing::warn!(%error, "cannot store an arrival"),
            }
            if tx.send(Msg::Arrived).is_err() {
                break;
            }
        }
    });
}

fn put_arrival(store: &mut Store, mut arrival: Arrival) -> Result<(), StoreError> {
    if let Some(app) = arrival
        .feedback
        .app
        .as_mut()
        .filter(|a| !a.platform.is_known())
    {
        let platform = store
            .apps(None)?
            .into_iter()
            .find(|a| a.id == app.id)
            .and_then(|a| a.platform);
        if let Some(platform) = platform {
            app.platform = platform;
        }
    }
    let sighting = Sighting {
        feedback: &arrival.feedback,
        metadata: arrival.metadata.as_ref(),
        delivery: None,
    };
    store.put(&[sighting], jiff::Timestamp::now()).map(|_| ())
}
