-- Whether a member is composing a reply to the item they have open ("bo is replying"), kept
-- with their presence and hinted when it changes, so a teammate is asked before answering the
-- same reporter.
ALTER TABLE feedback_team.presence ADD COLUMN replying boolean NOT NULL DEFAULT false;

CREATE FUNCTION feedback_team.heartbeat(
    p_team bigint, p_item text, p_expiry integer, p_replying boolean)
    RETURNS boolean
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
DECLARE
    before_item text;
    before_replying boolean;
    before_seen timestamptz;
    known boolean;
    v_replying boolean := coalesce(p_replying, false) AND p_item IS NOT NULL;
BEGIN
    PERFORM feedback_team.require_member(p_team);
    IF p_item IS NOT NULL THEN
        PERFORM feedback_team.bounded(p_item, 256, 'an item id');
    END IF;
    SELECT item_id, replying, seen_at INTO before_item, before_replying, before_seen
        FROM feedback_team.presence WHERE team_id = p_team AND member = session_user;
    known := FOUND;
    INSERT INTO feedback_team.presence (team_id, member, item_id, seen_at, replying)
        VALUES (p_team, session_user, p_item, now(), v_replying)
        ON CONFLICT (team_id, member) DO UPDATE
            SET item_id = excluded.item_id, seen_at = now(), replying = excluded.replying;
    IF NOT known OR before_item IS DISTINCT FROM p_item
       OR before_replying IS DISTINCT FROM v_replying
       OR before_seen < now() - least(greatest(p_expiry, 1), 3600) * interval '1 second' THEN
        PERFORM feedback_team.hint(p_team, 'presence');
        RETURN true;
    END IF;
    RETURN false;
END
$$;
REVOKE EXECUTE ON FUNCTION feedback_team.heartbeat(bigint, text, integer, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION feedback_team.heartbeat(bigint, text, integer, boolean)
    TO feedback_team_member;
