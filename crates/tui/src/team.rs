//! The team as the inbox holds it (`AppState::team`, `None` without a team): the live link's
//! state, who is present and what each has open, the members, the prompt of the team keys
//! (`a` take-over confirmation, `A` member picker, `L` labels), and how an item's team state
//! is shown. Every name and label a teammate wrote is sanitized once, here, as it arrives.

use feedback_core::link::Link as ItemLink;
use feedback_core::text::Clean;
use feedback_team::Presence;
use feedback_team_sync::SharedState;

/// The team part of `AppState`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamState {
    /// The member this inbox acts as (the URL's role until the link says).
    pub member: String,
    /// The team's name, once connected.
    pub name: Option<Clean>,
    pub link: Link,
    /// Changes waiting in the outbox, as last known.
    pub pending: usize,
    /// The members connected now (this one included), and what each has open.
    pub present: Vec<Present>,
    /// The team's members, by name (for `A`).
    pub members: Vec<String>,
    /// The team key's prompt, while open.
    pub prompt: Option<Prompt>,
    /// The item this member has open, as last told to the link.
    pub looking: Option<String>,
    /// Whether this member is composing a reply to it, as last told to the link.
    pub replying: bool,
    /// The history of the item whose detail is open (its id), as last read.
    pub history: Option<(String, Vec<HistoryLine>)>,
}

/// One event of an item's history, as shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryLine {
    pub member: Clean,
    pub what: Clean,
    pub at: jiff::Timestamp,
}

/// The live link's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    Connecting,
    Online,
    /// The database cannot be reached (why): changes wait in the outbox.
    Offline(Clean),
    /// The team refused this store or member (why).
    Refused(Clean),
}

/// A member connected now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Present {
    pub member: String,
    pub shown: Clean,
    pub item: Option<String>,
    /// Composing a reply to that item's reporter.
    pub replying: bool,
}

/// The prompt of a team key; each acts on `ids` (the marked items, or the one selected).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prompt {
    /// `a` on items someone else owns: take them over (`y`), or change nothing.
    TakeOver {
        /// The items others own, each with its owner now.
        items: Vec<(String, String)>,
        /// The owners, as shown (the confirmation names them).
        owners: Clean,
        /// The changes of the other items (claims, unclaims), made with the take-over.
        rest: Vec<(String, feedback_team::Change)>,
    },
    /// `A`: the member to give the items to.
    Assign {
        ids: Vec<String>,
        /// Members (raw, for the change), as shown, online now.
        choices: Vec<(String, Clean, bool)>,
        selected: usize,
    },
    /// `L`: labels to add (`+x`) and remove (`-x`).
    Labels {
        ids: Vec<String>,
        input: String,
        error: Option<Clean>,
    },
    /// `U` on an action whose items changed since (a teammate claimed one after you): undo it
    /// anyway (`y`), or keep the step and change nothing.
    Undo {
        step: crate::triage::UndoStep,
        /// What changed since, as shown ("2qgddabg is bo's now").
        since: Clean,
    },
}

/// An item's team state as drawn: its owner and labels sanitized once, and whether changes
/// made here wait to be sent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TeamShown {
    /// The owner's name as the team keeps it (compared with members' names).
    pub owner: Option<String>,
    pub owner_shown: Option<Clean>,
    /// `#`-less, comma-separated.
    pub labels: Clean,
    /// The labels as the team keeps them (compared with a change's, for its undo).
    pub label_names: Vec<String>,
    /// The item's notes (each at its latest version), oldest first: the author (raw, to
    /// tell this member's own from the others'), as shown, the text, when.
    pub notes: Vec<(String, Clean, Clean, jiff::Timestamp)>,
    /// The item's links (this store's own and the team's), oldest first.
    pub links: Vec<ShownLink>,
    /// The replies to its reporter (this store's, whatever became of them, and teammates'),
    /// oldest first.
    pub replies: Vec<ShownReply>,
    pub pending: bool,
}

/// A reply to an item's reporter as drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownReply {
    pub reply_id: Clean,
    /// The address as kept (masked where privacy mode is on, when drawn).
    pub to: String,
    pub subject: Clean,
    pub by: Option<Clean>,
    pub at: jiff::Timestamp,
    /// `sent`, `waiting`, `sending`, `unknown` or `failed`.
    pub state: &'static str,
    pub why: Option<Clean>,
}

impl ShownReply {
    /// It left (the mail server took it).
    #[must_use]
    pub fn sent(&self) -> bool {
        self.state == "sent"
    }
}

/// A link on an item as drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownLink {
    /// The link as kept (compared with a change's, opened, copied as its URL).
    pub link: ItemLink,
    pub url: Clean,
    pub title: Option<Clean>,
    /// The ticket's short name (`TICKET-26944`), for the list.
    pub short: Clean,
    /// Who linked it (none: this store's own).
    pub by: Option<Clean>,
    pub at: jiff::Timestamp,
    /// Made here and not yet sent to the team.
    pub pending: bool,
}

impl TeamShown {
    /// The link to `url` shown on the item, when it has one.
    #[must_use]
    pub fn link(&self, url: &str) -> Option<&ItemLink> {
        self.links.iter().map(|l| &l.link).find(|l| l.url() == url)
    }

    /// The newest link (the ticket a reply names).
    #[must_use]
    pub fn newest_link(&self) -> Option<&ShownLink> {
        self.links.iter().max_by_key(|l| l.at)
    }
}

impl From<SharedState> for TeamShown {
    fn from(state: SharedState) -> Self {
        let labels: Vec<Clean> = state.labels.iter().map(|l| Clean::line(l)).collect();
        let notes = state
            .notes
            .into_iter()
            .map(|n| {
                (
                    n.author.clone(),
                    Clean::line(&n.author),
                    Clean::text(&n.body),
                    n.at,
                )
            })
            .collect();
        let links = state
            .links
            .into_iter()
            .map(|l| ShownLink {
                url: Clean::line(l.link.url()),
                title: l.link.title().map(Clean::line),
                short: l.link.short_name(),
                by: l.by.as_deref().map(Clean::line),
                at: l.at,
                pending: l.pending,
                link: l.link,
            })
            .collect();
        let replies = state
            .replies
            .into_iter()
            .map(|r| ShownReply {
                reply_id: Clean::line(&r.reply_id),
                subject: Clean::line(&r.subject),
                by: r.by.as_deref().map(Clean::line),
                at: r.at,
                state: r.state,
                why: r.why.as_deref().map(Clean::line),
                to: r.to,
            })
            .collect();
        Self {
            owner_shown: state.owner.as_deref().map(Clean::line),
            owner: state.owner,
            labels: Clean::join(&labels, ", "),
            label_names: state.labels,
            notes,
            links,
            replies,
            pending: state.pending,
        }
    }
}

impl TeamShown {
    /// Says nothing: no owner, no label, nothing pending.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.owner.is_none()
            && self.labels.is_empty()
            && self.notes.is_empty()
            && self.links.is_empty()
            && self.replies.is_empty()
            && !self.pending
    }

    /// The team's states of those of `ids` the team touched (or this member changed), as the
    /// store holds them now (with this member's unsent changes laid over), by id.
    ///
    /// # Errors
    /// The store's.
    pub(crate) fn read_touched(
        store: &feedback_store::Store,
        ids: &[String],
    ) -> Result<std::collections::HashMap<String, Self>, feedback_store::StoreError> {
        Ok(feedback_team_sync::states_now(store, ids)?
            .into_iter()
            .map(|state| (state.item_id.clone(), Self::from(state)))
            .filter(|(_, shown)| !shown.is_empty())
            .collect())
    }
}

impl TeamState {
    /// A team not yet connected, acting as `member`.
    #[must_use]
    pub fn new(member: &str) -> Self {
        Self {
            member: member.to_owned(),
            name: None,
            link: Link::Connecting,
            pending: 0,
            present: Vec::new(),
            members: Vec::new(),
            prompt: None,
            looking: None,
            replying: false,
            history: None,
        }
    }

    /// The present members as the link reported them.
    pub(crate) fn set_present(&mut self, present: Vec<Presence>) {
        self.present = present
            .into_iter()
            .map(|p| Present {
                shown: Clean::line(&p.member),
                member: p.member,
                item: p.item_id,
                replying: p.replying,
            })
            .collect();
    }

    /// How many members are connected now (this one included, once online).
    #[must_use]
    pub fn online(&self) -> usize {
        self.present.len()
    }

    /// Whether `member` is connected now.
    #[must_use]
    pub(crate) fn is_online(&self, member: &str) -> bool {
        self.present.iter().any(|p| p.member == member)
    }

    /// The other members composing a reply to `item`'s reporter now, as shown.
    #[must_use]
    pub(crate) fn replying_to(&self, item: &str) -> Vec<&Clean> {
        self.present
            .iter()
            .filter(|p| p.member != self.member && p.replying && p.item.as_deref() == Some(item))
            .map(|p| &p.shown)
            .collect()
    }

    /// The other members who have `item` open now, as shown.
    #[must_use]
    pub(crate) fn looking_at(&self, item: &str) -> Vec<&Clean> {
        self.present
            .iter()
            .filter(|p| p.member != self.member && p.item.as_deref() == Some(item))
            .map(|p| &p.shown)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_teammates_names_and_labels_are_inert_when_shown() {
        let shown = TeamShown::from(SharedState {
            item_id: "fb_1".to_owned(),
            owner: Some("ana\u{1b}]52;c;evil\u{7}".to_owned()),
            labels: vec!["a\u{202e}b".to_owned(), "ios".to_owned()],
            notes: Vec::new(),
            links: vec![feedback_team_sync::SharedLink {
                link: ItemLink::new("https://t.example/T-1", None).unwrap(),
                by: Some("bo\u{1b}[2J".to_owned()),
                at: jiff::Timestamp::UNIX_EPOCH,
                pending: false,
            }],
            replies: Vec::new(),
            pending: true,
        });
        assert!(!shown.links[0].by.as_ref().unwrap().contains('\u{1b}'));
        assert_eq!(shown.links[0].short, "T-1");
        assert!(!shown.owner_shown.as_ref().unwrap().contains('\u{1b}'));
        assert!(!shown.labels.contains('\u{202e}'));
        assert!(shown.labels.ends_with(", ios"));
        let mut team = TeamState::new("ana");
        team.set_present(vec![
            Presence {
                member: "ana".to_owned(),
                item_id: Some("fb_1".to_owned()),
                replying: false,
            },
            Presence {
                member: "bo\u{1b}[2J".to_owned(),
                item_id: Some("fb_1".to_owned()),
                replying: false,
            },
        ]);
        let looking = team.looking_at("fb_1");
        assert_eq!(looking.len(), 1, "this member is not listed");
        assert!(!looking[0].contains('\u{1b}'));
        assert_eq!(team.online(), 2);
    }
}
