//! New submissions over time, for the live demo: every `every`, a new item is received "now",
//! becomes visible in the list API at once, and (when a target is set) is delivered as a signed
//! webhook in its own task, so a delivery waiting on its retry schedule never holds up the
//! next submission.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;

use super::state::SimState;
use super::webhooks::{Outcome, Sender};
use super::{data, item};
use feedback_api::model::{FeedbackDetail, Status};
use feedback_api::webhook::Submission;
use feedback_core::background::Background;

/// Makes new submissions arrive.
#[derive(Debug, Clone)]
pub struct Submitter {
    state: Arc<SimState>,
    rng: fastrand::Rng,
    sender: Option<Arc<Sender>>,
}

/// A running submission loop. Dropping it stops new submissions; `stop` also waits for the loop
/// (deliveries already started run to their end).
pub type SubmitHandle = Background;

impl Submitter {
    /// A submitter over the simulator's data, delivering to `sender` when given.
    #[must_use]
    pub fn new(state: Arc<SimState>, seed: u64, sender: Option<Sender>) -> Self {
        Self {
            state,
            rng: fastrand::Rng::with_seed(seed ^ 0x5eed_5eed),
            sender: sender.map(Arc::new),
        }
    }

    /// Receives one new submission now: inserts it into the served data and returns it.
    pub fn submit(&mut self) -> FeedbackDetail {
        let now = self.state.clock.now();
        let at = now.round(jiff::Unit::Second).unwrap_or(now);
        let mut store = self.state.write();
        loop {
            let id = data::unique_id(&mut self.rng, |id| store.contains(id));
            let mut seed = self.rng.u64(..);
            // After the story's bad release, its extra crash reports keep coming.
            if store.story.extra_crash(&mut self.rng, at) {
                seed = data::crash_seed(&mut self.rng, store.apps.len());
            }
            // Deliveries come from an app's webhook, so a new submission always has its app.
            if item::skeleton(seed, store.apps.len()).with_app {
                return store.insert_seeded(seed, &id, at, Status::New);
            }
        }
    }

    /// Submits one item and, with a target, starts its delivery; the delivery's outcome goes to
    /// `outcomes` when it ends.
    pub fn submit_and_deliver(
        &mut self,
        outcomes: Option<&UnboundedSender<(Submission, Outcome)>>,
    ) -> FeedbackDetail {
        let item = self.submit();
        if let (Some(sender), Some(submission)) = (&self.sender, Submission::from_detail(&item)) {
            let sender = Arc::clone(sender);
            let outcomes = outcomes.cloned();
            tokio::spawn(async move {
                let outcome = sender.deliver(&submission).await;
                if let Some(outcomes) = outcomes {
                    let _ = outcomes.send((submission, outcome));
                }
            });
        }
        item
    }

    /// Submits every `every` (first after one interval) until the handle is dropped. Meant for
    /// the system clock: tests call [`Submitter::submit_and_deliver`] instead.
    #[must_use]
    pub fn start(
        mut self,
        every: Duration,
        outcomes: Option<UnboundedSender<(Submission, Outcome)>>,
    ) -> SubmitHandle {
        let clock = Arc::clone(&self.state.clock);
        Background::spawn(|stop| async move {
            loop {
                tokio::select! {
                    () = stop.cancelled() => break,
                    () = clock.sleep(every) => {
                        self.submit_and_deliver(outcomes.as_ref());
                    }
                }
            }
        })
    }
}
