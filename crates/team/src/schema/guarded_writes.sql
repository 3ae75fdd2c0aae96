-- Members change the team's state only through the functions below: each runs as the
-- schema's owner (SECURITY DEFINER, a fixed search_path), checks that the session's role is a
-- member of the team, bounds every value, and writes the state and its event in one
-- transaction. Members keep SELECT (row-level security shows them their teams' rows) and
-- lose every direct write, so no change escapes the history, no value is out of bounds, no
-- member acts as another or as the shared role, and none can lock a team's rows.
--
-- Each team's hints go out on a channel of its own, named by a secret only its members can
-- read: another team's members can neither hear them nor send them.
ALTER TABLE feedback_team.teams ADD COLUMN channel text NOT NULL
    DEFAULT ('feedback_team_' || replace(gen_random_uuid()::text, '-', ''));
ALTER TABLE feedback_team.mirror_asks ADD COLUMN asked_by name;

REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER
    ON ALL TABLES IN SCHEMA feedback_team FROM feedback_team_member;
REVOKE UPDATE (account) ON feedback_team.teams FROM feedback_team_member;
REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA feedback_team FROM PUBLIC;
GRANT EXECUTE ON FUNCTION feedback_team.my_teams() TO feedback_team_member;

-- The write policies now serve the functions, which run as the owner: they check the
-- session's role (`session_user`), never `current_user` (the owner there).
DROP POLICY events_write ON feedback_team.events;
CREATE POLICY events_write ON feedback_team.events FOR INSERT
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()) AND member = session_user);
DROP POLICY notes_write ON feedback_team.notes;
CREATE POLICY notes_write ON feedback_team.notes FOR INSERT
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()) AND author = session_user);
DROP POLICY presence_insert ON feedback_team.presence;
CREATE POLICY presence_insert ON feedback_team.presence FOR INSERT
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()) AND member = session_user);
DROP POLICY presence_update ON feedback_team.presence;
CREATE POLICY presence_update ON feedback_team.presence FOR UPDATE
    USING (team_id IN (SELECT feedback_team.my_teams()) AND member = session_user)
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()) AND member = session_user);

-- The schema's owner (the role of `team init`) creates the teams: the table holds it to
-- row-level security too, so this policy, the owner's alone, is its way in.
DO $$
BEGIN
    EXECUTE format(
        'CREATE POLICY teams_owner ON feedback_team.teams FOR ALL TO %I USING (true) WITH CHECK (true)',
        (SELECT tableowner FROM pg_tables
         WHERE schemaname = 'feedback_team' AND tablename = 'teams'));
END
$$;

-- Refuses a session whose role is not a member of the team.
CREATE FUNCTION feedback_team.require_member(p_team bigint) RETURNS void
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM feedback_team.members
                   WHERE team_id = p_team AND member = session_user) THEN
        RAISE EXCEPTION 'this role is not a member of the team' USING ERRCODE = '42501';
    END IF;
END
$$;

-- Refuses a text outside 1 ..= `longest` characters (`what` names it in the error).
CREATE FUNCTION feedback_team.bounded(value text, longest integer, what text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    IF value IS NULL OR length(value) NOT BETWEEN 1 AND longest THEN
        RAISE EXCEPTION '% must be 1 to % characters', what, longest USING ERRCODE = '22023';
    END IF;
    RETURN value;
END
$$;

-- A JSON array of labels as text[]: at most 32, each 1 to 64 characters.
CREATE FUNCTION feedback_team.labels_of(value jsonb) RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp
    AS $$
DECLARE
    out text[];
BEGIN
    IF value IS NULL OR jsonb_typeof(value) <> 'array' OR jsonb_array_length(value) > 32 THEN
        RAISE EXCEPTION 'labels must be an array of at most 32' USING ERRCODE = '22023';
    END IF;
    SELECT coalesce(array_agg(feedback_team.bounded(l, 64, 'a label')), '{}') INTO out
        FROM jsonb_array_elements_text(value) AS l;
    RETURN out;
END
$$;

-- The team's hint channel.
CREATE FUNCTION feedback_team.hint(p_team bigint, payload text) RETURNS void
    LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$ SELECT pg_notify(channel, p_team || ' ' || payload)
          FROM feedback_team.teams WHERE team_id = p_team $$;

-- One member's change to one item, as the event `p_event` (sent again, it is stored once):
-- the state changed (a claim by compare-and-set), the event appended with the server's
-- time and the session's role, the item's last event number set, the team hinted. The
-- outcome: 'applied' (with the event's number), 'already' (the event was stored before) or
-- 'claimed' (the owner the claim lost to, and for how many seconds they have owned it).
CREATE FUNCTION feedback_team.apply_change(
    p_team bigint, p_event text, p_item text, p_kind text, p_body jsonb)
    RETURNS TABLE (outcome text, seq bigint, owner text, seconds bigint)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
#variable_conflict use_column
DECLARE
    me name := session_user;
    changed boolean;
    body jsonb;
    number bigint;
    v_from text;
    v_to text;
    v_until timestamptz;
    v_add text[];
    v_remove text[];
    v_note text;
    v_text text;
    v_author name;
    v_note_item text;
BEGIN
    PERFORM feedback_team.require_member(p_team);
    PERFORM feedback_team.bounded(p_event, 128, 'an event id');
    PERFORM feedback_team.bounded(p_item, 256, 'an item id');
    IF p_body IS NULL OR jsonb_typeof(p_body) <> 'object' THEN
        RAISE EXCEPTION 'a change''s body must be a JSON object' USING ERRCODE = '22023';
    END IF;
    IF EXISTS (SELECT 1 FROM feedback_team.events e
               WHERE e.team_id = p_team AND e.event_id = p_event) THEN
        RETURN QUERY SELECT 'already'::text, NULL::bigint, NULL::text, NULL::bigint;
        RETURN;
    END IF;
    INSERT INTO feedback_team.items (team_id, item_id) VALUES (p_team, p_item)
        ON CONFLICT DO NOTHING;
    CASE p_kind
    WHEN 'claim' THEN
        UPDATE feedback_team.items i SET owner = me, owner_since = now()
            WHERE i.team_id = p_team AND i.item_id = p_item AND (i.owner IS NULL OR i.owner = me);
        changed := FOUND;
        body := '{}';
    WHEN 'take-over' THEN
        v_from := feedback_team.bounded(p_body->>'from', 63, 'the owner taken over from');
        UPDATE feedback_team.items i SET owner = me, owner_since = now()
            WHERE i.team_id = p_team AND i.item_id = p_item AND i.owner = v_from::name;
        changed := FOUND;
        body := jsonb_build_object('from', v_from);
    WHEN 'unclaim' THEN
        UPDATE feedback_team.items i SET owner = NULL, owner_since = now()
            WHERE i.team_id = p_team AND i.item_id = p_item AND i.owner = me;
        changed := FOUND;
        body := '{}';
    WHEN 'assign' THEN
        v_to := feedback_team.bounded(p_body->>'to', 63, 'the member assigned to');
        v_from := p_body->>'from';
        IF NOT EXISTS (SELECT 1 FROM feedback_team.members m
                       WHERE m.team_id = p_team AND m.member = v_to::name) THEN
            RAISE EXCEPTION '% is not a member of the team', v_to USING ERRCODE = 'FT001';
        END IF;
        UPDATE feedback_team.items i SET owner = v_to::name, owner_since = now()
            WHERE i.team_id = p_team AND i.item_id = p_item
              AND i.owner IS NOT DISTINCT FROM v_from::name;
        changed := FOUND;
        body := jsonb_build_object('to', v_to, 'from', v_from);
    WHEN 'done' THEN
        IF jsonb_typeof(p_body->'done') IS DISTINCT FROM 'boolean' THEN
            RAISE EXCEPTION 'done must be true or false' USING ERRCODE = '22023';
        END IF;
        UPDATE feedback_team.items i SET done = (p_body->>'done')::boolean
            WHERE i.team_id = p_team AND i.item_id = p_item;
        changed := FOUND;
        body := jsonb_build_object('done', (p_body->>'done')::boolean);
    WHEN 'snooze' THEN
        v_text := p_body->>'until';
        IF v_text IS NOT NULL THEN
            v_until := v_text::timestamptz;
            IF NOT isfinite(v_until) OR v_until < timestamptz '2000-01-01'
               OR v_until > now() + interval '20 years' THEN
                RAISE EXCEPTION 'a snooze must end within 20 years' USING ERRCODE = '22023';
            END IF;
        END IF;
        UPDATE feedback_team.items i SET snoozed_until = v_until
            WHERE i.team_id = p_team AND i.item_id = p_item;
        changed := FOUND;
        body := jsonb_build_object('until', v_text);
    WHEN 'labels' THEN
        v_add := feedback_team.labels_of(p_body->'add');
        v_remove := feedback_team.labels_of(p_body->'remove');
        UPDATE feedback_team.items i SET labels = ARRAY(
                SELECT DISTINCT l FROM unnest(i.labels || v_add) AS l
                WHERE l <> ALL(v_remove) ORDER BY l)
            WHERE i.team_id = p_team AND i.item_id = p_item;
        IF (SELECT cardinality(i.labels) FROM feedback_team.items i
            WHERE i.team_id = p_team AND i.item_id = p_item) > 64 THEN
            RAISE EXCEPTION 'an item keeps at most 64 labels' USING ERRCODE = '22023';
        END IF;
        changed := true;
        body := jsonb_build_object('add', to_jsonb(v_add), 'remove', to_jsonb(v_remove));
    WHEN 'note' THEN
        v_note := feedback_team.bounded(p_body->>'note_id', 128, 'a note id');
        v_text := p_body->>'body';
        IF v_text IS NULL OR length(v_text) > 65536 THEN
            RAISE EXCEPTION 'a note holds at most 65536 characters' USING ERRCODE = '22023';
        END IF;
        -- A note is edited only by its author, and stays on its item.
        SELECT n.author, n.item_id INTO v_author, v_note_item FROM feedback_team.notes n
            WHERE n.team_id = p_team AND n.note_id = v_note ORDER BY n.version LIMIT 1;
        IF FOUND AND (v_author <> me OR v_note_item <> p_item) THEN
            RAISE EXCEPTION 'a note is edited only by its author, on its item'
                USING ERRCODE = 'FT001';
        END IF;
        INSERT INTO feedback_team.notes (team_id, item_id, note_id, version, author, body)
            SELECT p_team, p_item, v_note, coalesce(max(n.version), 0) + 1, me, v_text
            FROM feedback_team.notes n WHERE n.team_id = p_team AND n.note_id = v_note;
        changed := true;
        body := jsonb_build_object('note_id', v_note, 'body', v_text);
    ELSE
        RAISE EXCEPTION 'no change is called %', left(p_kind, 40) USING ERRCODE = '22023';
    END CASE;
    IF NOT changed THEN
        RETURN QUERY SELECT 'claimed'::text, NULL::bigint, i.owner::text,
                coalesce(extract(epoch FROM now() - i.owner_since), 0)::bigint
            FROM feedback_team.items i WHERE i.team_id = p_team AND i.item_id = p_item;
        RETURN;
    END IF;
    INSERT INTO feedback_team.events (team_id, seq, event_id, member, item_id, kind, body)
        VALUES (p_team, 0, p_event, me, p_item, p_kind, body)
        RETURNING events.seq INTO number;
    UPDATE feedback_team.items i SET last_seq = number
        WHERE i.team_id = p_team AND i.item_id = p_item;
    PERFORM feedback_team.hint(p_team, number::text);
    RETURN QUERY SELECT 'applied'::text, number, NULL::text, NULL::bigint;
END
$$;

-- Records the feedback account the team serves, when none is yet; the one recorded.
CREATE FUNCTION feedback_team.bind_account(p_team bigint, p_account text) RETURNS text
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    PERFORM feedback_team.require_member(p_team);
    PERFORM feedback_team.bounded(p_account, 100000, 'an account');
    UPDATE feedback_team.teams SET account = p_account
        WHERE team_id = p_team AND account IS NULL;
    RETURN (SELECT account FROM feedback_team.teams WHERE team_id = p_team);
END
$$;

-- This member is connected with `p_item` open (NULL: none), as of the server's clock now;
-- the team is hinted when the item changed or the last heartbeat had expired (older than
-- `p_expiry` seconds). Whether it was hinted.
CREATE FUNCTION feedback_team.heartbeat(p_team bigint, p_item text, p_expiry integer)
    RETURNS boolean
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
DECLARE
    before_item text;
    before_seen timestamptz;
    known boolean;
BEGIN
    PERFORM feedback_team.require_member(p_team);
    IF p_item IS NOT NULL THEN
        PERFORM feedback_team.bounded(p_item, 256, 'an item id');
    END IF;
    SELECT item_id, seen_at INTO before_item, before_seen FROM feedback_team.presence
        WHERE team_id = p_team AND member = session_user;
    known := FOUND;
    INSERT INTO feedback_team.presence (team_id, member, item_id, seen_at)
        VALUES (p_team, session_user, p_item, now())
        ON CONFLICT (team_id, member) DO UPDATE SET item_id = excluded.item_id, seen_at = now();
    IF NOT known OR before_item IS DISTINCT FROM p_item
       OR before_seen < now() - least(greatest(p_expiry, 1), 3600) * interval '1 second' THEN
        PERFORM feedback_team.hint(p_team, 'presence');
        RETURN true;
    END IF;
    RETURN false;
END
$$;

-- The syncer's lease, for 1 to 300 seconds by the server's clock: taken when nobody holds
-- it (never taken, expired or released), renewed or released only by its holder's session.
CREATE FUNCTION feedback_team.take_syncer(p_team bigint, p_seconds integer)
    RETURNS TABLE (generation bigint, expires_at timestamptz)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
#variable_conflict use_column
BEGIN
    PERFORM feedback_team.require_member(p_team);
    IF p_seconds IS NULL OR p_seconds NOT BETWEEN 1 AND 300 THEN
        RAISE EXCEPTION 'a lease lasts 1 to 300 seconds' USING ERRCODE = '22023';
    END IF;
    RETURN QUERY
    INSERT INTO feedback_team.syncer AS s (team_id, member, generation, since, expires_at)
        VALUES (p_team, session_user, 1, clock_timestamp(),
                clock_timestamp() + p_seconds * interval '1 second')
        ON CONFLICT (team_id) DO UPDATE
            SET member = session_user, generation = s.generation + 1,
                since = clock_timestamp(),
                expires_at = clock_timestamp() + p_seconds * interval '1 second'
            WHERE s.expires_at <= clock_timestamp()
        RETURNING s.generation, s.expires_at;
END
$$;

CREATE FUNCTION feedback_team.renew_syncer(p_team bigint, p_generation bigint, p_seconds integer)
    RETURNS TABLE (generation bigint, expires_at timestamptz)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
#variable_conflict use_column
BEGIN
    PERFORM feedback_team.require_member(p_team);
    -- Renewed for no time, it expires at once.
    IF p_seconds IS NULL OR p_seconds NOT BETWEEN 0 AND 300 THEN
        RAISE EXCEPTION 'a lease lasts 0 to 300 seconds' USING ERRCODE = '22023';
    END IF;
    RETURN QUERY
    UPDATE feedback_team.syncer s
        SET expires_at = clock_timestamp() + p_seconds * interval '1 second'
        WHERE s.team_id = p_team AND s.generation = p_generation AND s.member = session_user
          AND s.expires_at > clock_timestamp()
        RETURNING s.generation, s.expires_at;
END
$$;

CREATE FUNCTION feedback_team.release_syncer(p_team bigint, p_generation bigint) RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    PERFORM feedback_team.require_member(p_team);
    UPDATE feedback_team.syncer SET expires_at = clock_timestamp()
        WHERE team_id = p_team AND generation = p_generation AND member = session_user
          AND expires_at > clock_timestamp();
END
$$;

-- Refuses a mirror item's id or JSON out of bounds.
CREATE FUNCTION feedback_team.mirror_bounded(p_id bytea, p_item bytea, p_extras bytea)
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    IF p_id IS NULL OR octet_length(p_id) NOT BETWEEN 1 AND 1024 THEN
        RAISE EXCEPTION 'a mirror item id must be 1 to 1024 bytes' USING ERRCODE = '22023';
    END IF;
    IF octet_length(p_item) > 4194304 OR octet_length(p_extras) > 4194304 THEN
        RAISE EXCEPTION 'a mirror item holds at most 4 MiB' USING ERRCODE = '22023';
    END IF;
END
$$;

-- A page of the mirror, fenced by the lease: written only while the session's role holds
-- the lease in generation `p_generation` (the row stays locked until the transaction ends,
-- so a takeover waits for it). The items (`p_ids`, their JSON, their extras by position:
-- NULL keeps what the mirror held), the items the service no longer has, and the walk state
-- with the budget, when given. How many items changed; NULL when fenced (nothing written).
CREATE FUNCTION feedback_team.mirror_write(
    p_team bigint, p_generation bigint, p_ids bytea[], p_items bytea[], p_extras bytea[],
    p_removed bytea[], p_walk bytea, p_budget jsonb)
    RETURNS bigint
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
DECLARE
    changed bigint := 0;
    k bigint;
BEGIN
    PERFORM feedback_team.require_member(p_team);
    PERFORM 1 FROM feedback_team.syncer
        WHERE team_id = p_team AND generation = p_generation AND member = session_user
          AND expires_at > clock_timestamp()
        FOR SHARE;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    IF coalesce(array_length(p_ids, 1), 0) > 1000 OR coalesce(array_length(p_removed, 1), 0) > 100000
       OR octet_length(p_walk) > 4194304 OR length(p_budget::text) > 65536 THEN
        RAISE EXCEPTION 'a mirror page holds at most 1000 items' USING ERRCODE = '22023';
    END IF;
    FOR n IN 1 .. coalesce(array_length(p_ids, 1), 0) LOOP
        PERFORM feedback_team.mirror_bounded(p_ids[n], p_items[n], p_extras[n]);
        INSERT INTO feedback_team.mirror_items AS m (team_id, item_id, seq, item, extras)
            VALUES (p_team, p_ids[n], 0, p_items[n], p_extras[n])
            ON CONFLICT (team_id, item_id) DO UPDATE
                SET item = excluded.item, removed = false,
                    extras = coalesce(excluded.extras, m.extras)
                WHERE m.item IS DISTINCT FROM excluded.item OR m.removed
                    OR m.extras IS DISTINCT FROM coalesce(excluded.extras, m.extras);
        GET DIAGNOSTICS k = ROW_COUNT;
        changed := changed + k;
    END LOOP;
    FOR n IN 1 .. coalesce(array_length(p_removed, 1), 0) LOOP
        PERFORM feedback_team.mirror_bounded(p_removed[n], NULL, NULL);
        INSERT INTO feedback_team.mirror_items AS m (team_id, item_id, seq, item, removed)
            VALUES (p_team, p_removed[n], 0, 'null'::bytea, true)
            ON CONFLICT (team_id, item_id) DO UPDATE SET removed = true WHERE NOT m.removed;
        GET DIAGNOSTICS k = ROW_COUNT;
        changed := changed + k;
    END LOOP;
    IF p_walk IS NOT NULL THEN
        INSERT INTO feedback_team.mirror_walk AS w (team_id, walk, generation, budget)
            VALUES (p_team, p_walk, p_generation, p_budget)
            ON CONFLICT (team_id) DO UPDATE
                SET walk = excluded.walk, generation = excluded.generation,
                    budget = coalesce(excluded.budget, w.budget),
                    written_at = clock_timestamp();
    END IF;
    IF changed > 0 THEN
        PERFORM feedback_team.hint(p_team, 'mirror');
    END IF;
    RETURN changed;
END
$$;

-- Items a member's webhook receiver stored, added to the mirror when it does not hold them
-- (never over the syncer's copy or its removal); a delivery's extras are added to an item
-- that has none. How many were added or described.
CREATE FUNCTION feedback_team.mirror_deliver(
    p_team bigint, p_ids bytea[], p_items bytea[], p_extras bytea[])
    RETURNS bigint
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
DECLARE
    added bigint := 0;
    k bigint;
BEGIN
    PERFORM feedback_team.require_member(p_team);
    IF coalesce(array_length(p_ids, 1), 0) > 1000 THEN
        RAISE EXCEPTION 'a delivery holds at most 1000 items' USING ERRCODE = '22023';
    END IF;
    FOR n IN 1 .. coalesce(array_length(p_ids, 1), 0) LOOP
        PERFORM feedback_team.mirror_bounded(p_ids[n], p_items[n], p_extras[n]);
        INSERT INTO feedback_team.mirror_items AS m (team_id, item_id, seq, item, extras)
            VALUES (p_team, p_ids[n], 0, p_items[n], p_extras[n])
            ON CONFLICT (team_id, item_id) DO UPDATE SET extras = excluded.extras
                WHERE m.extras IS NULL AND excluded.extras IS NOT NULL AND NOT m.removed;
        GET DIAGNOSTICS k = ROW_COUNT;
        added := added + k;
    END LOOP;
    IF added > 0 THEN
        PERFORM feedback_team.hint(p_team, 'mirror');
    END IF;
    RETURN added;
END
$$;

-- What a member's store knows of an item beyond its list fields, shared with the mirror's
-- copy when the mirror holds the item and did not know it so. Whether it was written.
CREATE FUNCTION feedback_team.mirror_share_extras(p_team bigint, p_id bytea, p_extras bytea)
    RETURNS boolean
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    PERFORM feedback_team.require_member(p_team);
    PERFORM feedback_team.mirror_bounded(p_id, NULL, p_extras);
    UPDATE feedback_team.mirror_items SET extras = p_extras
        WHERE team_id = p_team AND item_id = p_id AND NOT removed
          AND extras IS DISTINCT FROM p_extras;
    IF FOUND THEN
        PERFORM feedback_team.hint(p_team, 'mirror');
        RETURN true;
    END IF;
    RETURN false;
END
$$;

-- A member's ask for a walk of the lists' tops: recorded with who asked. Asks are one per
-- ten seconds per team: one within ten seconds of the last is that one (its time answered,
-- nothing hinted), so a flood of asks costs the team no more than a walk's head each ten
-- seconds. When it was asked, by the server's clock.
CREATE FUNCTION feedback_team.ask_mirror_walk(p_team bigint) RETURNS timestamptz
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
DECLARE
    asked timestamptz;
BEGIN
    PERFORM feedback_team.require_member(p_team);
    INSERT INTO feedback_team.mirror_asks AS a (team_id, asked_at, asked_by)
        VALUES (p_team, clock_timestamp(), session_user)
        ON CONFLICT (team_id) DO UPDATE
            SET asked_at = excluded.asked_at, asked_by = excluded.asked_by
            WHERE a.asked_at IS NULL OR a.asked_at <= clock_timestamp() - interval '10 seconds'
        RETURNING a.asked_at INTO asked;
    IF FOUND THEN
        PERFORM feedback_team.hint(p_team, 'ask');
        RETURN asked;
    END IF;
    RETURN (SELECT asked_at FROM feedback_team.mirror_asks WHERE team_id = p_team);
END
$$;

-- The walk that started at `p_started` is published whole: said only by the lease's holder.
CREATE FUNCTION feedback_team.mirror_served(p_team bigint, p_started timestamptz) RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    PERFORM feedback_team.require_member(p_team);
    IF NOT EXISTS (SELECT 1 FROM feedback_team.syncer WHERE team_id = p_team
                   AND member = session_user AND expires_at > clock_timestamp()) THEN
        RAISE EXCEPTION 'only the team''s syncer serves asks' USING ERRCODE = '42501';
    END IF;
    IF p_started IS NULL OR p_started > clock_timestamp() THEN
        RAISE EXCEPTION 'a walk cannot start in the future' USING ERRCODE = '22023';
    END IF;
    INSERT INTO feedback_team.mirror_asks AS a (team_id, served_at) VALUES (p_team, p_started)
        ON CONFLICT (team_id) DO UPDATE
            SET served_at = greatest(a.served_at, excluded.served_at);
END
$$;

-- How far this member's store has followed the mirror (at most its last write).
CREATE FUNCTION feedback_team.record_mirror_position(p_team bigint, p_seq bigint) RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    PERFORM feedback_team.require_member(p_team);
    IF p_seq IS NULL OR p_seq < 0 OR p_seq > coalesce(
        (SELECT last_seq FROM feedback_team.mirror_counters WHERE team_id = p_team), 0) THEN
        RAISE EXCEPTION 'a position past the mirror''s last write' USING ERRCODE = '22023';
    END IF;
    INSERT INTO feedback_team.mirror_positions AS p (team_id, member, seq)
        VALUES (p_team, session_user, p_seq)
        ON CONFLICT (team_id, member) DO UPDATE SET seq = excluded.seq, at = clock_timestamp();
END
$$;

-- Whether the team shares one mirror of the account, set by a member.
CREATE FUNCTION feedback_team.set_shared_mirror(p_team bigint, p_shared boolean) RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    PERFORM feedback_team.require_member(p_team);
    INSERT INTO feedback_team.mirror_setting AS m (team_id, shared, set_by)
        VALUES (p_team, coalesce(p_shared, false), session_user)
        ON CONFLICT (team_id) DO UPDATE
            SET shared = excluded.shared, set_by = session_user, set_at = clock_timestamp();
END
$$;

-- The writers' helpers stay the owner's; the writers are the members'.
REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA feedback_team FROM PUBLIC;
GRANT EXECUTE ON FUNCTION
    feedback_team.my_teams(),
    feedback_team.apply_change(bigint, text, text, text, jsonb),
    feedback_team.bind_account(bigint, text),
    feedback_team.heartbeat(bigint, text, integer),
    feedback_team.take_syncer(bigint, integer),
    feedback_team.renew_syncer(bigint, bigint, integer),
    feedback_team.release_syncer(bigint, bigint),
    feedback_team.mirror_write(bigint, bigint, bytea[], bytea[], bytea[], bytea[], bytea, jsonb),
    feedback_team.mirror_deliver(bigint, bytea[], bytea[], bytea[]),
    feedback_team.mirror_share_extras(bigint, bytea, bytea),
    feedback_team.ask_mirror_walk(bigint),
    feedback_team.mirror_served(bigint, timestamptz),
    feedback_team.record_mirror_position(bigint, bigint),
    feedback_team.set_shared_mirror(bigint, boolean)
    TO feedback_team_member;
