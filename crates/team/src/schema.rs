//! The team's schema in PostgreSQL: numbered steps, embedded, applied in order under an advisory
//! lock (two `team init` at once apply each step once). A database whose schema is newer than
//! this version knows is refused, never written.
//!
//! Who acts is the database's word: every member connects as their own role, events and notes
//! record the session's role, and row-level security (forced, so the tables' owner is held to
//! it too) keeps each team's rows to its members. Members only read the tables: every change
//! goes through the schema's functions, which check the member, bound the values and append the
//! event in the change's transaction (`schema/guarded_writes.sql`). Events are append-only; the
//! state per item beside them is what the members' inboxes show. Each team's hints of new
//! events go out on a channel of its own (`teams.channel`, `NOTIFY`): the payload is
//! `team_id seq`.

use tokio_postgres::GenericClient;

use super::TeamError;

/// The schema's name in the database.
pub const SCHEMA: &str = "feedback_team";

/// The role every member's login role is granted: the privileges live on it.
pub(crate) const MEMBER_ROLE: &str = "feedback_team_member";

/// The schema's steps; step N brings the schema to version N + 1. Never edit a step that
/// shipped: append one.
pub const STEPS: &[&str] = &[
    r"
CREATE TABLE feedback_team.teams (
    team_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL UNIQUE,
    -- The feedback account the team serves: recorded by the first member's store to connect.
    account text,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE feedback_team.members (
    team_id bigint NOT NULL REFERENCES feedback_team.teams,
    member name NOT NULL,
    added_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (team_id, member)
);
CREATE INDEX members_by_member ON feedback_team.members (member);

-- Every change, in the server's order. `tx` and `seq` are the position a reader resumes from:
-- rows are read only below the oldest transaction still running, so a commit landing late
-- is never skipped.
CREATE TABLE feedback_team.events (
    team_id bigint NOT NULL REFERENCES feedback_team.teams,
    seq bigint GENERATED ALWAYS AS IDENTITY,
    tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
    event_id text NOT NULL,
    member name NOT NULL DEFAULT current_user,
    item_id text NOT NULL,
    kind text NOT NULL,
    body jsonb NOT NULL DEFAULT '{}',
    at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (team_id, seq),
    UNIQUE (team_id, event_id)
);
CREATE INDEX events_by_position ON feedback_team.events (team_id, tx, seq);
CREATE INDEX events_by_item ON feedback_team.events (team_id, item_id, seq);

-- The shared state of each item, written in the transaction of the event that changed it.
CREATE TABLE feedback_team.items (
    team_id bigint NOT NULL REFERENCES feedback_team.teams,
    item_id text NOT NULL,
    owner name,
    owner_since timestamptz,
    done boolean NOT NULL DEFAULT false,
    snoozed_until timestamptz,
    labels text[] NOT NULL DEFAULT '{}',
    last_seq bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (team_id, item_id)
);
CREATE INDEX items_by_owner ON feedback_team.items (team_id, owner);

-- Notes are append-only: an edit is a new version of the same note.
CREATE TABLE feedback_team.notes (
    team_id bigint NOT NULL REFERENCES feedback_team.teams,
    item_id text NOT NULL,
    note_id text NOT NULL,
    version integer NOT NULL,
    author name NOT NULL DEFAULT current_user,
    body text NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (team_id, note_id, version)
);
CREATE INDEX notes_by_item ON feedback_team.notes (team_id, item_id);

-- The teams of the role that logged in. Runs as the schema's owner, which `members` (not
-- forced) lets read it, so the policies below can ask it without asking themselves; inside it
-- `current_user` is the owner, so the member is the session's.
CREATE FUNCTION feedback_team.my_teams() RETURNS SETOF bigint
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS 'SELECT team_id FROM feedback_team.members WHERE member = session_user';

ALTER TABLE feedback_team.members ENABLE ROW LEVEL SECURITY;
CREATE POLICY members_read ON feedback_team.members FOR SELECT
    USING (team_id IN (SELECT feedback_team.my_teams()));

ALTER TABLE feedback_team.teams ENABLE ROW LEVEL SECURITY;
ALTER TABLE feedback_team.teams FORCE ROW LEVEL SECURITY;
CREATE POLICY teams_read ON feedback_team.teams FOR SELECT
    USING (team_id IN (SELECT feedback_team.my_teams()));
-- The first member's store records the account, once.
CREATE POLICY teams_account ON feedback_team.teams FOR UPDATE
    USING (team_id IN (SELECT feedback_team.my_teams()) AND account IS NULL)
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()));

ALTER TABLE feedback_team.events ENABLE ROW LEVEL SECURITY;
ALTER TABLE feedback_team.events FORCE ROW LEVEL SECURITY;
CREATE POLICY events_read ON feedback_team.events FOR SELECT
    USING (team_id IN (SELECT feedback_team.my_teams()));
CREATE POLICY events_write ON feedback_team.events FOR INSERT
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()) AND member = current_user);

ALTER TABLE feedback_team.items ENABLE ROW LEVEL SECURITY;
ALTER TABLE feedback_team.items FORCE ROW LEVEL SECURITY;
CREATE POLICY items_all ON feedback_team.items FOR ALL
    USING (team_id IN (SELECT feedback_team.my_teams()))
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()));

ALTER TABLE feedback_team.notes ENABLE ROW LEVEL SECURITY;
ALTER TABLE feedback_team.notes FORCE ROW LEVEL SECURITY;
CREATE POLICY notes_read ON feedback_team.notes FOR SELECT
    USING (team_id IN (SELECT feedback_team.my_teams()));
CREATE POLICY notes_write ON feedback_team.notes FOR INSERT
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()) AND author = current_user);

GRANT USAGE ON SCHEMA feedback_team TO feedback_team_member;
GRANT SELECT ON feedback_team.teams, feedback_team.members TO feedback_team_member;
GRANT UPDATE (account) ON feedback_team.teams TO feedback_team_member;
GRANT SELECT, INSERT ON feedback_team.events, feedback_team.notes TO feedback_team_member;
GRANT SELECT, INSERT, UPDATE ON feedback_team.items TO feedback_team_member;
GRANT EXECUTE ON FUNCTION feedback_team.my_teams() TO feedback_team_member;
",
    r"
-- Presence: who is connected, and which item each has open, as of their last heartbeat. A row
-- older than the expiry means nothing (a closed laptop leaves no ghost); each member writes
-- only their own row.
CREATE TABLE feedback_team.presence (
    team_id bigint NOT NULL REFERENCES feedback_team.teams,
    member name NOT NULL DEFAULT current_user,
    item_id text,
    seen_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (team_id, member)
);
ALTER TABLE feedback_team.presence ENABLE ROW LEVEL SECURITY;
ALTER TABLE feedback_team.presence FORCE ROW LEVEL SECURITY;
CREATE POLICY presence_read ON feedback_team.presence FOR SELECT
    USING (team_id IN (SELECT feedback_team.my_teams()));
CREATE POLICY presence_insert ON feedback_team.presence FOR INSERT
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()) AND member = current_user);
CREATE POLICY presence_update ON feedback_team.presence FOR UPDATE
    USING (team_id IN (SELECT feedback_team.my_teams()) AND member = current_user)
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()) AND member = current_user);
GRANT SELECT, INSERT, UPDATE ON feedback_team.presence TO feedback_team_member;
",
    r"
-- Each team's events are numbered as they commit: a trigger takes the team's next number from
-- its counter, whose row stays locked until the transaction ends, so no event of the team can
-- commit with a lower number than one already visible (a reader never skips one, whatever else
-- runs on the server). The trigger sets the number: a member cannot choose it. Members cannot
-- reach the counters but through it.
CREATE TABLE feedback_team.counters (
    team_id bigint PRIMARY KEY REFERENCES feedback_team.teams,
    last_seq bigint NOT NULL
);
INSERT INTO feedback_team.counters (team_id, last_seq)
    SELECT t.team_id, coalesce(max(e.seq), 0)
    FROM feedback_team.teams t LEFT JOIN feedback_team.events e ON e.team_id = t.team_id
    GROUP BY t.team_id;
ALTER TABLE feedback_team.events ALTER COLUMN seq DROP IDENTITY;
DROP INDEX feedback_team.events_by_position;
CREATE FUNCTION feedback_team.number_event() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    INSERT INTO feedback_team.counters AS c (team_id, last_seq) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET last_seq = c.last_seq + 1
        RETURNING last_seq INTO NEW.seq;
    RETURN NEW;
END
$$;
CREATE TRIGGER events_numbered BEFORE INSERT ON feedback_team.events
    FOR EACH ROW EXECUTE FUNCTION feedback_team.number_event();
",
    r"
-- The shared mirror. One member's process at a time is the team's syncer: it holds the lease
-- (`syncer`), renewing it before it expires (by the server's clock); another takes it over
-- only once it has expired, raising the generation. Every write of the mirror checks, in its
-- own transaction and under a lock the takeover waits for, that its generation still holds
-- the lease: a syncer that lost it (a laptop waking after its lease ran out) cannot write.
CREATE TABLE feedback_team.syncer (
    team_id bigint PRIMARY KEY REFERENCES feedback_team.teams,
    member name NOT NULL DEFAULT session_user,
    generation bigint NOT NULL,
    since timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
ALTER TABLE feedback_team.syncer ENABLE ROW LEVEL SECURITY;
ALTER TABLE feedback_team.syncer FORCE ROW LEVEL SECURITY;
CREATE POLICY syncer_read ON feedback_team.syncer FOR SELECT
    USING (team_id IN (SELECT feedback_team.my_teams()));
CREATE POLICY syncer_take ON feedback_team.syncer FOR INSERT
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()) AND member = session_user);
CREATE POLICY syncer_hold ON feedback_team.syncer FOR UPDATE
    USING (team_id IN (SELECT feedback_team.my_teams()))
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()) AND member = session_user);
GRANT SELECT, INSERT, UPDATE ON feedback_team.syncer TO feedback_team_member;

-- The service's items as the syncer read them, each with the number of its last write: a
-- member's store follows the mirror from the number it has (the numbers come from the team's
-- counter row, locked until the writing transaction ends, so none is skipped).
CREATE TABLE feedback_team.mirror_items (
    team_id bigint NOT NULL REFERENCES feedback_team.teams,
    item_id text NOT NULL,
    seq bigint NOT NULL,
    item jsonb NOT NULL,
    PRIMARY KEY (team_id, item_id)
);
CREATE INDEX mirror_items_by_seq ON feedback_team.mirror_items (team_id, seq);
CREATE TABLE feedback_team.mirror_counters (
    team_id bigint PRIMARY KEY REFERENCES feedback_team.teams,
    last_seq bigint NOT NULL
);
CREATE FUNCTION feedback_team.number_mirror_item() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    INSERT INTO feedback_team.mirror_counters AS c (team_id, last_seq) VALUES (NEW.team_id, 1)
        ON CONFLICT (team_id) DO UPDATE SET last_seq = c.last_seq + 1
        RETURNING last_seq INTO NEW.seq;
    RETURN NEW;
END
$$;
CREATE TRIGGER mirror_items_numbered BEFORE INSERT OR UPDATE ON feedback_team.mirror_items
    FOR EACH ROW EXECUTE FUNCTION feedback_team.number_mirror_item();
ALTER TABLE feedback_team.mirror_items ENABLE ROW LEVEL SECURITY;
ALTER TABLE feedback_team.mirror_items FORCE ROW LEVEL SECURITY;
CREATE POLICY mirror_read ON feedback_team.mirror_items FOR SELECT
    USING (team_id IN (SELECT feedback_team.my_teams()));
CREATE POLICY mirror_write ON feedback_team.mirror_items FOR INSERT
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()));
CREATE POLICY mirror_rewrite ON feedback_team.mirror_items FOR UPDATE
    USING (team_id IN (SELECT feedback_team.my_teams()))
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()));
GRANT SELECT, INSERT, UPDATE ON feedback_team.mirror_items TO feedback_team_member;
",
    r"
-- An item the service no longer has stays in the mirror, marked removed (its last write
-- numbered like any other), so the members' stores remove it too.
ALTER TABLE feedback_team.mirror_items ADD COLUMN removed boolean NOT NULL DEFAULT false;
-- The syncer's walk state (`feedback_sync`'s), written in the transaction of the items it
-- describes: whoever takes the lease over walks on from it.
CREATE TABLE feedback_team.mirror_walk (
    team_id bigint PRIMARY KEY REFERENCES feedback_team.teams,
    walk jsonb NOT NULL,
    generation bigint NOT NULL,
    -- The service's rate limit as the syncer last read it (the team's budget).
    budget jsonb,
    written_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
ALTER TABLE feedback_team.mirror_walk ENABLE ROW LEVEL SECURITY;
ALTER TABLE feedback_team.mirror_walk FORCE ROW LEVEL SECURITY;
CREATE POLICY mirror_walk_read ON feedback_team.mirror_walk FOR SELECT
    USING (team_id IN (SELECT feedback_team.my_teams()));
CREATE POLICY mirror_walk_write ON feedback_team.mirror_walk FOR INSERT
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()));
CREATE POLICY mirror_walk_rewrite ON feedback_team.mirror_walk FOR UPDATE
    USING (team_id IN (SELECT feedback_team.my_teams()))
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()));
GRANT SELECT, INSERT, UPDATE ON feedback_team.mirror_walk TO feedback_team_member;
-- Whether the team shares one mirror of the account (agreed per team): set by a member, or by
-- the role that created the team (the tables' owner, who is not held to these policies here).
CREATE TABLE feedback_team.mirror_setting (
    team_id bigint PRIMARY KEY REFERENCES feedback_team.teams,
    shared boolean NOT NULL,
    set_by name NOT NULL DEFAULT session_user,
    set_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
ALTER TABLE feedback_team.mirror_setting ENABLE ROW LEVEL SECURITY;
CREATE POLICY mirror_setting_read ON feedback_team.mirror_setting FOR SELECT
    USING (team_id IN (SELECT feedback_team.my_teams()));
CREATE POLICY mirror_setting_write ON feedback_team.mirror_setting FOR INSERT
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()) AND set_by = session_user);
CREATE POLICY mirror_setting_rewrite ON feedback_team.mirror_setting FOR UPDATE
    USING (team_id IN (SELECT feedback_team.my_teams()))
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()) AND set_by = session_user);
GRANT SELECT, INSERT, UPDATE ON feedback_team.mirror_setting TO feedback_team_member;
-- How far each member's store has followed the mirror (`team status`).
CREATE TABLE feedback_team.mirror_positions (
    team_id bigint NOT NULL REFERENCES feedback_team.teams,
    member name NOT NULL DEFAULT session_user,
    seq bigint NOT NULL,
    at timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (team_id, member)
);
ALTER TABLE feedback_team.mirror_positions ENABLE ROW LEVEL SECURITY;
ALTER TABLE feedback_team.mirror_positions FORCE ROW LEVEL SECURITY;
CREATE POLICY mirror_positions_read ON feedback_team.mirror_positions FOR SELECT
    USING (team_id IN (SELECT feedback_team.my_teams()));
CREATE POLICY mirror_positions_write ON feedback_team.mirror_positions FOR INSERT
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()) AND member = session_user);
CREATE POLICY mirror_positions_rewrite ON feedback_team.mirror_positions FOR UPDATE
    USING (team_id IN (SELECT feedback_team.my_teams()) AND member = session_user)
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()) AND member = session_user);
GRANT SELECT, INSERT, UPDATE ON feedback_team.mirror_positions TO feedback_team_member;
-- A member's `sync` asks the syncer for a walk of the lists' tops (`asked_at`); the syncer
-- says which of its walks, by when it started, it has published (`served_at`): an ask is
-- served by a walk that started after it. Both by the server's clock.
CREATE TABLE feedback_team.mirror_asks (
    team_id bigint PRIMARY KEY REFERENCES feedback_team.teams,
    asked_at timestamptz,
    served_at timestamptz
);
ALTER TABLE feedback_team.mirror_asks ENABLE ROW LEVEL SECURITY;
ALTER TABLE feedback_team.mirror_asks FORCE ROW LEVEL SECURITY;
CREATE POLICY mirror_asks_read ON feedback_team.mirror_asks FOR SELECT
    USING (team_id IN (SELECT feedback_team.my_teams()));
CREATE POLICY mirror_asks_write ON feedback_team.mirror_asks FOR INSERT
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()));
CREATE POLICY mirror_asks_rewrite ON feedback_team.mirror_asks FOR UPDATE
    USING (team_id IN (SELECT feedback_team.my_teams()))
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()));
GRANT SELECT, INSERT, UPDATE ON feedback_team.mirror_asks TO feedback_team_member;
",
    r"
-- What a member's store knows of an item beyond its list fields (metadata, the delivery
-- links once a detail was read: `api::Extras`), shared with the item so no other member asks
-- the service for its detail again.
ALTER TABLE feedback_team.mirror_items ADD COLUMN extras jsonb;
",
    r"
-- The service's text may hold any character, NUL included, which PostgreSQL's text and jsonb
-- refuse: the mirror keeps item ids, items, their extras and the walk state as their UTF-8
-- bytes (the JSON the members' program writes), so no odd item stops the team's mirror.
ALTER TABLE feedback_team.mirror_items
    ALTER COLUMN item_id TYPE bytea USING convert_to(item_id, 'UTF8'),
    ALTER COLUMN item TYPE bytea USING convert_to(item::text, 'UTF8'),
    ALTER COLUMN extras TYPE bytea USING convert_to(extras::text, 'UTF8');
ALTER TABLE feedback_team.mirror_walk
    ALTER COLUMN walk TYPE bytea USING convert_to(walk::text, 'UTF8');
",
    include_str!("schema/guarded_writes.sql"),
    r"
-- Which team this is, made with it: a store that followed a team dropped and made again under
-- its name, or another database's, sees another id and reads the team's state again.
ALTER TABLE feedback_team.teams ADD COLUMN instance uuid NOT NULL DEFAULT gen_random_uuid();
",
    include_str!("schema/links.sql"),
    include_str!("schema/replies.sql"),
    include_str!("schema/presence_replying.sql"),
    include_str!("schema/templates.sql"),
];

/// `expression` (a timestamptz) as SQL that reads into a timestamp whatever a row holds: a
/// time out of the range a timestamp can say (`infinity`, the year 10000: a row written by
/// hand) becomes the nearest one it can; NULL stays NULL.
#[must_use]
pub(super) fn readable_time(expression: &str) -> String {
    format!(
        "(CASE WHEN {expression} IS NULL THEN NULL ELSE least(greatest({expression}, \
         '0001-01-02'::timestamptz), '9999-12-30'::timestamptz) END)"
    )
}

/// The version the steps bring a schema to.
#[must_use]
pub fn latest() -> i32 {
    i32::try_from(STEPS.len()).unwrap_or(i32::MAX)
}

/// Brings the schema to the latest version (creating it, and the members' role, when missing);
/// refuses a schema newer than this version knows. Needs a role that may create schemas and
/// roles; runs in one transaction.
pub async fn migrate(admin: &mut crate::Admin) -> Result<i32, TeamError> {
    let tx = admin.0.transaction().await?;
    // One migration at a time, whoever runs it.
    tx.execute(
        "SELECT pg_advisory_xact_lock(hashtext('feedback_team schema'))",
        &[],
    )
    .await?;
    // Roles are the whole server's: another database's `team init` may create it meanwhile.
    tx.batch_execute(&format!(
        "DO $$ BEGIN
             IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{MEMBER_ROLE}') THEN
                 CREATE ROLE {MEMBER_ROLE} NOLOGIN;
             END IF;
         EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
         END $$"
    ))
    .await?;
    tx.batch_execute(&format!(
        "CREATE SCHEMA IF NOT EXISTS {SCHEMA};
         CREATE TABLE IF NOT EXISTS {SCHEMA}.version (
             one boolean PRIMARY KEY DEFAULT true CHECK (one),
             version integer NOT NULL
         );
         ALTER TABLE {SCHEMA}.version ADD COLUMN IF NOT EXISTS app_version text;
         INSERT INTO {SCHEMA}.version (version) VALUES (0) ON CONFLICT DO NOTHING;
         GRANT USAGE ON SCHEMA {SCHEMA} TO {MEMBER_ROLE};
         GRANT SELECT ON {SCHEMA}.version TO {MEMBER_ROLE};"
    ))
    .await?;
    let found: i32 = tx
        .query_one(&format!("SELECT version FROM {SCHEMA}.version"), &[])
        .await?
        .get(0);
    if found > latest() {
        return Err(TeamError::NewerSchema {
            found,
            known: latest(),
            by: written_by(&tx).await,
        });
    }
    for step in STEPS.iter().skip(usize::try_from(found).unwrap_or(0)) {
        tx.batch_execute(step).await?;
    }
    // Only a version that moved the schema names itself: an older one meeting it says which
    // version to install.
    if found < latest() {
        tx.execute(
            &format!("UPDATE {SCHEMA}.version SET version = $1, app_version = $2"),
            &[&latest(), &feedback_core::release::VERSION],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(latest())
}

/// The version of feedback-inbox that brought the schema to its version, when one said.
pub(crate) async fn written_by(client: &impl GenericClient) -> Option<String> {
    client
        .query_one(
            &format!("SELECT to_jsonb(v)->>'app_version' FROM {SCHEMA}.version v"),
            &[],
        )
        .await
        .ok()
        .and_then(|row| row.try_get(0).ok())
}

/// Whether the team's schema exists, whether or not the role connected may read it (the
/// catalog shows every schema's name).
pub(crate) async fn exists(client: &impl GenericClient) -> Result<bool, TeamError> {
    Ok(client
        .query_opt("SELECT 1 FROM pg_namespace WHERE nspname = $1", &[&SCHEMA])
        .await?
        .is_some())
}

/// The schema's version as the connected role reads it; `None` when there is no team schema
/// (or none this role may read).
pub(crate) async fn version(client: &impl GenericClient) -> Result<Option<i32>, TeamError> {
    let exists = client
        .query_opt(
            "SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'version'",
            &[&SCHEMA],
        )
        .await?
        .is_some();
    if !exists {
        return Ok(None);
    }
    let row = client
        .query_one(&format!("SELECT version FROM {SCHEMA}.version"), &[])
        .await?;
    Ok(Some(row.get(0)))
}
