-- Links on items to what was made from them outside (a ticket, an issue, a doc): one row per
-- item and URL, the last link of a URL giving its title; an unlink removes the row. Members
-- read them; they change only through `apply_change`, which records the event with them.
CREATE TABLE feedback_team.links (
    team_id bigint NOT NULL REFERENCES feedback_team.teams,
    item_id text NOT NULL,
    url text NOT NULL,
    title text,
    added_by name NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (team_id, item_id, url)
);
ALTER TABLE feedback_team.links ENABLE ROW LEVEL SECURITY;
ALTER TABLE feedback_team.links FORCE ROW LEVEL SECURITY;
CREATE POLICY links_read ON feedback_team.links FOR SELECT
    USING (team_id IN (SELECT feedback_team.my_teams()));
CREATE POLICY links_write ON feedback_team.links FOR ALL
    USING (team_id IN (SELECT feedback_team.my_teams()))
    WITH CHECK (team_id IN (SELECT feedback_team.my_teams()) AND added_by = session_user);
GRANT SELECT ON feedback_team.links TO feedback_team_member;

-- The changes known before links keep their function; `apply_change` takes the link kinds
-- itself and hands it every other.
ALTER FUNCTION feedback_team.apply_change(bigint, text, text, text, jsonb)
    RENAME TO apply_state_change;
REVOKE EXECUTE ON FUNCTION feedback_team.apply_state_change(bigint, text, text, text, jsonb)
    FROM feedback_team_member;

-- A link's URL: http or https, no space or control, at most 2048 characters (the members'
-- program sends it in its normal form; this bounds what a hand-written call can store).
CREATE FUNCTION feedback_team.link_url(value text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    PERFORM feedback_team.bounded(value, 2048, 'a link''s address');
    IF value !~ '^https?://[^[:space:][:cntrl:]/]+[^[:space:][:cntrl:]]*$' THEN
        RAISE EXCEPTION 'a link is an http:// or https:// address' USING ERRCODE = '22023';
    END IF;
    RETURN value;
END
$$;

-- As before, with `link` (`url`, an optional `title` of at most 200 characters on one line)
-- and `unlink` (`url`).
CREATE FUNCTION feedback_team.apply_change(
    p_team bigint, p_event text, p_item text, p_kind text, p_body jsonb)
    RETURNS TABLE (outcome text, seq bigint, owner text, seconds bigint)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
#variable_conflict use_column
DECLARE
    me name := session_user;
    body jsonb;
    number bigint;
    v_url text;
    v_title text;
BEGIN
    IF p_kind NOT IN ('link', 'unlink') THEN
        RETURN QUERY SELECT * FROM feedback_team.apply_state_change(
            p_team, p_event, p_item, p_kind, p_body);
        RETURN;
    END IF;
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
    v_url := feedback_team.link_url(p_body->>'url');
    IF p_kind = 'link' THEN
        v_title := nullif(btrim(p_body->>'title'), '');
        IF v_title IS NOT NULL AND (length(v_title) > 200 OR v_title ~ '[[:cntrl:]]') THEN
            RAISE EXCEPTION 'a link''s title is at most 200 characters on one line'
                USING ERRCODE = '22023';
        END IF;
        INSERT INTO feedback_team.links (team_id, item_id, url, title, added_by)
            VALUES (p_team, p_item, v_url, v_title, me)
            ON CONFLICT (team_id, item_id, url)
            DO UPDATE SET title = excluded.title, added_by = excluded.added_by, at = now();
        body := jsonb_build_object('url', v_url, 'title', v_title);
    ELSE
        DELETE FROM feedback_team.links l
            WHERE l.team_id = p_team AND l.item_id = p_item AND l.url = v_url;
        body := jsonb_build_object('url', v_url);
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
REVOKE EXECUTE ON FUNCTION feedback_team.apply_change(bigint, text, text, text, jsonb) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION feedback_team.link_url(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION feedback_team.apply_change(bigint, text, text, text, jsonb)
    TO feedback_team_member;
