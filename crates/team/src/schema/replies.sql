-- Replies to reporters, as the team's history records them: a member's `reply` event once the
-- mail server took the reply (its id, the address, the subject and the text). Nothing but the
-- event changes. `apply_change` takes the kind itself and hands every other on.
ALTER FUNCTION feedback_team.apply_change(bigint, text, text, text, jsonb)
    RENAME TO apply_link_change;
REVOKE EXECUTE ON FUNCTION feedback_team.apply_link_change(bigint, text, text, text, jsonb)
    FROM feedback_team_member;

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
    v_subject text;
    v_text text;
BEGIN
    IF p_kind <> 'reply' THEN
        RETURN QUERY SELECT * FROM feedback_team.apply_link_change(
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
    v_subject := feedback_team.bounded(p_body->>'subject', 200, 'a reply''s subject');
    IF v_subject ~ '[[:cntrl:]]' THEN
        RAISE EXCEPTION 'a reply''s subject is one line' USING ERRCODE = '22023';
    END IF;
    v_text := p_body->>'body';
    IF v_text IS NULL OR length(v_text) > 65536 THEN
        RAISE EXCEPTION 'a reply holds at most 65536 characters' USING ERRCODE = '22023';
    END IF;
    body := jsonb_build_object(
        'reply_id', feedback_team.bounded(p_body->>'reply_id', 128, 'a reply id'),
        'to', feedback_team.bounded(p_body->>'to', 320, 'a reply''s address'),
        'subject', v_subject,
        'body', v_text);
    INSERT INTO feedback_team.items (team_id, item_id) VALUES (p_team, p_item)
        ON CONFLICT DO NOTHING;
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
GRANT EXECUTE ON FUNCTION feedback_team.apply_change(bigint, text, text, text, jsonb)
    TO feedback_team_member;
