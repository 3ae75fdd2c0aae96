//! The parsed query: a boolean tree of text terms and qualifier filters, each leaf keeping its
//! byte span so the compiler can point at the part of the input it rejects (an unknown app).

use std::ops::Range;

use jiff::SignedDuration;
use jiff::civil::DateTime;

/// A node of the query tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Not(Box<Expr>),
    /// A bare word or quoted phrase, searched in the message.
    Text(Text),
    Filter(Filter),
}

/// A word (`crash`), phrase (`"a phrase"`), exact word or phrase (`=crash`) or prefix
/// (`crash*`), as the user wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    /// The raw text without `=`, quotes or the trailing `*`.
    pub text: String,
    pub form: Form,
    pub span: Range<usize>,
}

/// How a text term matches a message's words (all case- and accent-insensitively).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Words with the same stem: `crash` finds "crashes" and "crashed".
    Stem,
    /// The words as written: `=crash` finds "crash" and not "crashes".
    Exact,
    /// The last word is the start of a word (the others as written): `crash*`.
    Prefix,
}

/// A qualifier such as `app:"Trailhead iOS"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    pub kind: FilterKind,
    /// The whole qualifier, name to value.
    pub span: Range<usize>,
    /// The value alone (inside the quotes when quoted).
    pub value_span: Range<usize>,
}

/// What a qualifier asks for; values are raw user text, matched case-insensitively.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilterKind {
    /// By name, slug or id; resolved against the stored apps when compiled.
    App(String),
    Project(String),
    Platform(String),
    Tag(String),
    Status(String),
    /// Substring of the reporter's address.
    Email(String),
    /// The server's id, exactly.
    Id(String),
    Meta {
        key: MetaKey,
        value: String,
    },
    Has(Has),
    /// The local triage state (`is:starred`).
    Is(Is),
    /// Received at or after this local time.
    After(DateTime),
    /// Received before this local time.
    Before(DateTime),
    /// Received less (`Younger`) or more (`Older`) than this long ago.
    Age {
        cmp: AgeCmp,
        age: SignedDuration,
    },
    /// The team's owner of the item (`assignee:me` is the member this store acts as).
    Assignee(Assignee),
    /// One of the team's labels, case-insensitively.
    Label(String),
    /// A note written by this member of the team (`note-by:me` too).
    NoteBy(Assignee),
    /// The item's note, or one of the team's notes on it, holds this text (any case).
    Note(String),
    /// A link on the item whose address or title holds this text (any case).
    Ticket(String),
    /// A reply to the item's reporter sent by this member (`replied-by:me` too).
    RepliedBy(Assignee),
    /// The newest reply to the item's reporter was sent less (`Younger`) or more (`Older`)
    /// than this long ago.
    Replied {
        cmp: AgeCmp,
        age: SignedDuration,
    },
    /// The items a view lists (by its name, or the only name beginning with this): its status,
    /// pane filters and search, and what it hides. Views are known where the query is compiled.
    View(String),
}

/// A member of the team, as a qualifier names one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Assignee {
    /// The member this store acts as.
    Me,
    /// A member by name, case-insensitively.
    Named(String),
}

impl Assignee {
    /// `me` (any case) or the name.
    #[must_use]
    pub fn parse(value: &str) -> Self {
        if value.eq_ignore_ascii_case("me") {
            Self::Me
        } else {
            Self::Named(value.to_owned())
        }
    }
}

/// Which metadata keys a metadata qualifier looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetaKey {
    /// Any of these built-in keys (`version:` -> appVersion).
    BuiltIn(&'static [&'static str]),
    /// `meta.KEY:`: this key, built-in or custom, case-insensitively.
    Any(String),
}

/// `has:` flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Has {
    Email,
    /// A delivery with an external link (an issue-tracker ticket).
    Link,
    Tag,
    App,
    /// A triage note with text in it.
    Note,
    /// A link of the user's or the team's on the item (a ticket).
    Ticket,
}

/// `is:` flags: the local triage state (`store::triage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Is {
    Unseen,
    Seen,
    Starred,
    Done,
    /// Snoozed until a time still in the future (the query's `Context.now`).
    Snoozed,
    /// No member of the team owns it.
    Unclaimed,
    /// Owned by the member this store acts as.
    Mine,
    /// A reply to its reporter was sent (by anyone of the team, or from this store).
    Replied,
}

/// The comparison of `age:`: `<` younger, `>` older, `=` inclusive of the bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgeCmp {
    Younger { inclusive: bool },
    Older { inclusive: bool },
}
