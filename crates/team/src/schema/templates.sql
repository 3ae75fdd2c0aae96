-- The team's shared reply templates: a name (one line, unique whatever its case), an optional
-- subject and a body, with who shared it last and when. Members read them; they change only
-- through `put_template` and `remove_template`, which check the member, bound the values and
-- hint the team (`team_id templates`) so every open inbox reads them again.
CREATE TABLE feedback_team.templates (
    team_id bigint NOT NULL REFERENCES feedback_team.teams,
    name text NOT NULL,
    subject text,
    body text NOT NULL,
    shared_by name NOT NULL,
    at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX templates_by_name ON feedback_team.templates (team_id, lower(name));
ALTER TABLE feedback_team.templates ENABLE ROW LEVEL SECURITY;
ALTER TABLE feedback_team.templates FORCE ROW LEVEL SECURITY;
CREATE POLICY templates_read ON feedback_team.templates FOR SELECT
    USING (team_id IN (SELECT feedback_team.my_teams()));
GRANT SELECT ON feedback_team.templates TO feedback_team_member;

-- Shares a template under `p_name`, replacing the team's one of that name (whatever its case).
CREATE FUNCTION feedback_team.put_template(
    p_team bigint, p_name text, p_subject text, p_body text)
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    PERFORM feedback_team.require_member(p_team);
    PERFORM feedback_team.bounded(p_name, 64, 'a template''s name');
    IF p_name ~ '[[:cntrl:]]' OR p_name <> btrim(p_name) THEN
        RAISE EXCEPTION 'a template''s name is one trimmed line' USING ERRCODE = '22023';
    END IF;
    IF p_subject IS NOT NULL THEN
        PERFORM feedback_team.bounded(p_subject, 200, 'a template''s subject');
        IF p_subject ~ '[[:cntrl:]]' THEN
            RAISE EXCEPTION 'a template''s subject is one line' USING ERRCODE = '22023';
        END IF;
    END IF;
    PERFORM feedback_team.bounded(p_body, 20000, 'a template''s body');
    INSERT INTO feedback_team.templates AS t (team_id, name, subject, body, shared_by)
        VALUES (p_team, p_name, p_subject, p_body, session_user)
        ON CONFLICT (team_id, lower(name)) DO UPDATE
            SET name = excluded.name, subject = excluded.subject, body = excluded.body,
                shared_by = excluded.shared_by, at = now();
    PERFORM feedback_team.hint(p_team, 'templates');
END
$$;
REVOKE EXECUTE ON FUNCTION feedback_team.put_template(bigint, text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION feedback_team.put_template(bigint, text, text, text)
    TO feedback_team_member;

-- Removes the team's template of that name (whatever its case); whether there was one.
CREATE FUNCTION feedback_team.remove_template(p_team bigint, p_name text) RETURNS boolean
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
BEGIN
    PERFORM feedback_team.require_member(p_team);
    DELETE FROM feedback_team.templates WHERE team_id = p_team AND lower(name) = lower(p_name);
    IF FOUND THEN
        PERFORM feedback_team.hint(p_team, 'templates');
        RETURN true;
    END IF;
    RETURN false;
END
$$;
REVOKE EXECUTE ON FUNCTION feedback_team.remove_template(bigint, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION feedback_team.remove_template(bigint, text) TO feedback_team_member;
