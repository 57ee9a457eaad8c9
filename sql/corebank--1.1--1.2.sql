/* sql/corebank--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION corebank UPDATE TO '1.2'" to load this file. \quit

-- corebank 1.2: the event ingestion service (docs/events.md; design notes in
-- docs/design/events.md; specification 03-verification-and-events.md part B).
--
-- Installed on top of 1.1 by ALTER EXTENSION corebank UPDATE, and chained
-- after 1.0 and 1.1 by a fresh CREATE EXTENSION corebank.
--
-- What holds, whoever writes:
--   - an event is stored once per (source, event_id) (unique constraint), so
--     a re-post is a duplicate and changes nothing, also when two posts of the
--     same batch run at the same time;
--   - a stored event is never deleted and never changed, except that a merge
--     re-points its customer_id (trigger events_immutable);
--   - every identifier (kind, value) belongs to exactly one customer; a
--     merged customer points at the customer it was merged into, and that
--     one is never itself merged (merged_into is flattened on every merge);
--   - consent per (customer, purpose) holds the decision with the newest
--     occurredAt; an older decision never overwrites it.
--
-- Ingest (corebank.events_ingest) is C++: one call per batch, each event in
-- its own subtransaction, validation against the type registry, identity
-- resolution, merges and consent ordering. Reads are PL/pgSQL. Readers follow
-- merged_into at read time: an event that a concurrent batch attached to a
-- customer while that customer was being merged still shows under the
-- customer it was merged into.
--
-- JSON for the tier: camelCase; timestamps ISO 8601 UTC with a trailing Z
-- (a fraction only when there is one); the customer's public id
-- ("cus_" + 20 base32 characters) is the only customer id clients see.

-- configuration

-- The platform registry: six names of deployment configuration
-- (event_platforms in corebank.conf). The tier writes it with
-- events_configure; a name no longer configured stays, inactive, because
-- stored events name it.
CREATE TABLE corebank.event_platforms (
    name       text PRIMARY KEY,
    active     bool NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT event_platforms_name CHECK (name ~ '^[a-z0-9][a-z0-9_.-]{0,59}$')
);
COMMENT ON TABLE corebank.event_platforms IS 'Event platform registry (six configured names; retired names inactive)';
INSERT INTO corebank.event_platforms (name, active) VALUES
    ('web', true), ('android', true), ('ios', true), ('ussd', true), ('whatsapp', true), ('pos', true);

-- One row: the home country of phone normalisation (a local number with a
-- leading 0 gains this calling code).
CREATE TABLE corebank.event_settings (
    singleton                 bool PRIMARY KEY DEFAULT true,
    home_country_calling_code text NOT NULL,
    updated_at                timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT event_settings_singleton CHECK (singleton),
    CONSTRAINT event_settings_calling_code CHECK (home_country_calling_code ~ '^[1-9][0-9]{0,2}$')
);
COMMENT ON TABLE corebank.event_settings IS 'Event service settings (one row)';
INSERT INTO corebank.event_settings (home_country_calling_code) VALUES ('263');

-- the identity graph

CREATE TABLE corebank.customers_graph (
    id           uuid PRIMARY KEY,
    public_id    text NOT NULL UNIQUE,
    display_name text,
    is_guest     bool NOT NULL,
    merged_into  uuid REFERENCES corebank.customers_graph (id),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT customers_graph_public_id CHECK (public_id ~ '^cus_[a-z2-7]{20}$'),
    CONSTRAINT customers_graph_display_name CHECK (length(display_name) BETWEEN 1 AND 200),
    CONSTRAINT customers_graph_not_self CHECK (merged_into <> id)
);
COMMENT ON TABLE corebank.customers_graph IS 'Customers of the event identity graph; merged ones point at their survivor';
CREATE INDEX customers_graph_merged ON corebank.customers_graph (merged_into) WHERE merged_into IS NOT NULL;

-- Kinds: user:<platform>, zbid, phone (E.164), email, national_id, session.
CREATE TABLE corebank.customer_identifiers (
    kind          text NOT NULL,
    value         text NOT NULL,
    customer_id   uuid NOT NULL REFERENCES corebank.customers_graph (id),
    first_seen_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kind, value),
    CONSTRAINT customer_identifiers_kind
        CHECK (kind IN ('zbid', 'phone', 'email', 'national_id', 'session')
               OR kind ~ '^user:[a-z0-9][a-z0-9_.-]{0,59}$'),
    CONSTRAINT customer_identifiers_value CHECK (length(value) BETWEEN 1 AND 320)
);
COMMENT ON TABLE corebank.customer_identifiers IS 'Normalised identifiers; each names one customer';
CREATE INDEX customer_identifiers_by_customer ON corebank.customer_identifiers (customer_id);

-- the stream

-- Only corebank.events_ingest writes this table, and it checks every value
-- first (core/events_envelope.cpp, core/events_registry.cpp: source pattern,
-- eventId 1..120, a registry type, schemaVersion >= 1, platform 1..60,
-- identity and payload objects); events_immutable keeps rows as written.
-- The table therefore has no CHECK constraint and no foreign key on
-- customer_id, on purpose: it is the hot path, one INSERT per event, and
-- PostgreSQL deserialises and compiles every CHECK expression again at each
-- INSERT (measured: a third of ingest time). customer_id always names an
-- existing customer (customers are never deleted).
CREATE TABLE corebank.events (
    id             bigserial PRIMARY KEY,
    source         text NOT NULL,
    event_id       text NOT NULL,
    type           text NOT NULL,
    schema_version int NOT NULL,
    occurred_at    timestamptz NOT NULL,
    received_at    timestamptz NOT NULL DEFAULT now(),
    platform       text NOT NULL,
    customer_id    uuid,
    identity       jsonb NOT NULL,
    payload        jsonb NOT NULL,
    CONSTRAINT events_source_event_id UNIQUE (source, event_id)
);
COMMENT ON TABLE corebank.events IS 'The global event stream; unique per (source, event_id); append-only';
-- The feed, and each customer's events, in (occurred_at, id) order.
CREATE INDEX events_feed ON corebank.events (occurred_at, id);
CREATE INDEX events_by_customer ON corebank.events (customer_id, occurred_at, id);

CREATE TABLE corebank.customer_merges (
    id            bigserial PRIMARY KEY,
    from_customer uuid NOT NULL REFERENCES corebank.customers_graph (id),
    into_customer uuid NOT NULL REFERENCES corebank.customers_graph (id),
    reason        text NOT NULL,
    claimed_kind  text NOT NULL,
    claimed_value text NOT NULL,
    event_row_id  bigint NOT NULL REFERENCES corebank.events (id),
    merged_at     timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT customer_merges_distinct CHECK (from_customer <> into_customer),
    CONSTRAINT customer_merges_reason CHECK (reason = 'identity.claimed')
);
COMMENT ON TABLE corebank.customer_merges IS 'Every merge of one customer into another, with the claiming event';
CREATE INDEX customer_merges_into ON corebank.customer_merges (into_customer);

CREATE TABLE corebank.consents (
    customer_id  uuid NOT NULL REFERENCES corebank.customers_graph (id),
    purpose      text NOT NULL,
    status       text NOT NULL,
    occurred_at  timestamptz NOT NULL,
    event_row_id bigint NOT NULL REFERENCES corebank.events (id),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (customer_id, purpose),
    CONSTRAINT consents_status CHECK (status IN ('granted', 'revoked')),
    CONSTRAINT consents_purpose CHECK (length(purpose) BETWEEN 1 AND 100)
);
COMMENT ON TABLE corebank.consents IS 'Consent per customer and purpose: the decision with the newest occurredAt';

CREATE TABLE corebank.loyalty_members (
    member_id   text PRIMARY KEY,
    customer_id uuid NOT NULL REFERENCES corebank.customers_graph (id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT loyalty_members_member_id CHECK (member_id ~ '^[A-Za-z0-9._:-]{1,64}$')
);
COMMENT ON TABLE corebank.loyalty_members IS 'Loyalty member id to customer; a member id maps to one customer';
CREATE INDEX loyalty_members_by_customer ON corebank.loyalty_members (customer_id);

-- pg_dump leaves out the rows of an extension's tables unless they are
-- registered here. The registry and settings are not: CREATE EXTENSION seeds
-- them and the tier rewrites them from corebank.conf at start.
SELECT pg_catalog.pg_extension_config_dump('corebank.customers_graph', '');
SELECT pg_catalog.pg_extension_config_dump('corebank.customer_identifiers', '');
SELECT pg_catalog.pg_extension_config_dump('corebank.events', '');
SELECT pg_catalog.pg_extension_config_dump('corebank.events_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('corebank.customer_merges', '');
SELECT pg_catalog.pg_extension_config_dump('corebank.customer_merges_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('corebank.consents', '');
SELECT pg_catalog.pg_extension_config_dump('corebank.loyalty_members', '');

-- triggers

-- Events are append-only; the one change allowed is the customer a merge
-- moves them to.
CREATE FUNCTION corebank_internal.events_immutable() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    IF TG_OP = 'UPDATE'
       AND (NEW.id, NEW.source, NEW.event_id, NEW.type, NEW.schema_version, NEW.occurred_at, NEW.received_at,
            NEW.platform, NEW.identity, NEW.payload)
           IS NOT DISTINCT FROM
           (OLD.id, OLD.source, OLD.event_id, OLD.type, OLD.schema_version, OLD.occurred_at, OLD.received_at,
            OLD.platform, OLD.identity, OLD.payload) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'corebank.events is append-only'
        USING ERRCODE = 'insufficient_privilege',
              DETAIL = format('%s refused; only a merge may change customer_id', TG_OP);
END
$fn$;

CREATE TRIGGER events_immutable
    BEFORE UPDATE OR DELETE ON corebank.events
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.events_immutable();
CREATE TRIGGER events_no_truncate
    BEFORE TRUNCATE ON corebank.events
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.events_immutable();

-- private functions

-- {kind, value} of an identifier as ingest stores it (the same C++ rules),
-- or NULL when the value is not usable (a phone that is no phone number).
-- kind is the API name: userId (needs platform), zbIdSubject, phone, email,
-- nationalId, sessionId.
CREATE FUNCTION corebank_internal.events_identifier(kind text, value text, platform text,
                                                    home_calling_code text) RETURNS text[]
    AS 'MODULE_PATHNAME', 'events_identifier'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- ISO 8601 UTC with a trailing Z; microseconds only when not zero.
CREATE FUNCTION corebank_internal.events_iso(at timestamptz) RETURNS text
    LANGUAGE sql STABLE
    AS $fn$
    SELECT to_char(events_iso.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')
           || CASE WHEN extract(microseconds FROM events_iso.at)::bigint % 1000000 = 0 THEN ''
                   ELSE to_char(events_iso.at AT TIME ZONE 'UTC', '.US') END
           || 'Z'
$fn$;

-- Microseconds since the epoch (the feed cursor) and back, exactly.
CREATE FUNCTION corebank_internal.events_micros(at timestamptz) RETURNS bigint
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT (extract(epoch FROM events_micros.at) * 1000000)::bigint
$fn$;

CREATE FUNCTION corebank_internal.events_from_micros(micros bigint) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT CASE WHEN events_from_micros.micros IS NULL THEN '-infinity'::timestamptz
                ELSE 'epoch'::timestamptz + events_from_micros.micros * interval '1 microsecond' END
$fn$;

-- The opaque page cursor: base64url (no padding) of "v1:<micros>:<id>";
-- the tier decodes it (httpd/src/events/requests.cpp).
CREATE FUNCTION corebank_internal.events_cursor(after_micros bigint, after_id bigint) RETURNS text
    LANGUAGE sql STABLE
    AS $fn$
    SELECT rtrim(translate(encode(convert_to('v1:' || events_cursor.after_micros || ':' || events_cursor.after_id,
                                             'UTF8'), 'base64'), E'+/\n', '-_'), '=')
$fn$;

-- The surviving customer of a public id (itself, or the one it was merged into).
CREATE FUNCTION corebank_internal.events_canonical(public_id text) RETURNS uuid
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(c.merged_into, c.id) FROM corebank.customers_graph c
            WHERE c.public_id = events_canonical.public_id);
END
$fn$;

-- A surviving customer and every customer merged into it.
CREATE FUNCTION corebank_internal.events_members(customer uuid) RETURNS uuid[]
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN ARRAY(SELECT c.id FROM corebank.customers_graph c
                 WHERE c.id = events_members.customer OR c.merged_into = events_members.customer
                 ORDER BY c.id);
END
$fn$;

-- Consent state of a surviving customer: per purpose the decision with the
-- newest occurredAt over the customer and those merged into it (a merge
-- moves consents, and this also covers one that raced with the merge).
CREATE FUNCTION corebank_internal.events_consents_json(customer uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object(
                       'purpose', x.purpose, 'status', x.status,
                       'occurredAt', corebank_internal.events_iso(x.occurred_at),
                       'source', x.source, 'eventId', x.event_id,
                       'updatedAt', corebank_internal.events_iso(x.updated_at))
                   ORDER BY x.purpose), '[]'::jsonb)
            FROM (SELECT DISTINCT ON (k.purpose) k.purpose, k.status, k.occurred_at, k.updated_at,
                         e.source, e.event_id
                  FROM corebank.consents k
                  JOIN corebank.events e ON e.id = k.event_row_id
                  WHERE k.customer_id = ANY (corebank_internal.events_members(events_consents_json.customer))
                  ORDER BY k.purpose, k.occurred_at DESC, k.updated_at DESC) x);
END
$fn$;

-- The customer object of the API.
CREATE FUNCTION corebank_internal.events_customer_json(customer uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    members uuid[] := corebank_internal.events_members(events_customer_json.customer);
BEGIN
    RETURN (SELECT jsonb_build_object(
                'customerId', c.public_id,
                'displayName', c.display_name,
                'isGuest', c.is_guest,
                'createdAt', corebank_internal.events_iso(c.created_at),
                'updatedAt', corebank_internal.events_iso(c.updated_at),
                'identifiers', (SELECT coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
                                            'type', CASE WHEN i.kind LIKE 'user:%' THEN 'userId'
                                                         WHEN i.kind = 'zbid' THEN 'zbIdSubject'
                                                         WHEN i.kind = 'national_id' THEN 'nationalId'
                                                         WHEN i.kind = 'session' THEN 'sessionId'
                                                         ELSE i.kind END,
                                            'platform', CASE WHEN i.kind LIKE 'user:%' THEN substr(i.kind, 6) END,
                                            'value', i.value,
                                            'firstSeenAt', corebank_internal.events_iso(i.first_seen_at)))
                                        ORDER BY i.first_seen_at, i.kind, i.value), '[]'::jsonb)
                                FROM corebank.customer_identifiers i WHERE i.customer_id = ANY (members)),
                'consents', corebank_internal.events_consents_json(c.id),
                'loyaltyMemberIds', (SELECT coalesce(jsonb_agg(l.member_id ORDER BY l.member_id), '[]'::jsonb)
                                     FROM corebank.loyalty_members l WHERE l.customer_id = ANY (members)),
                'mergedCustomerIds', (SELECT coalesce(jsonb_agg(m.public_id ORDER BY m.created_at, m.id), '[]'::jsonb)
                                      FROM corebank.customers_graph m
                                      WHERE m.merged_into = events_customer_json.customer))
            FROM corebank.customers_graph c
            WHERE c.id = events_customer_json.customer);
END
$fn$;

-- One page of events in (occurred_at, id) order after the cursor, for the
-- feed (customer NULL) or one surviving customer. page_size + 1 rows are
-- read to know whether a next page exists.
CREATE FUNCTION corebank_internal.events_page(customer uuid, after_micros bigint, after_id bigint, page_size int)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    after_at timestamptz := corebank_internal.events_from_micros(events_page.after_micros);
    after_row bigint := coalesce(events_page.after_id, 0);
    rows_max int := events_page.page_size + 1;
    page jsonb;
    last_micros bigint;
    last_id bigint;
    fetched int;
BEGIN
    WITH candidates AS (
        SELECT e.* FROM corebank.events e
        WHERE events_page.customer IS NULL AND (e.occurred_at, e.id) > (after_at, after_row)
        ORDER BY e.occurred_at, e.id
        LIMIT rows_max
    ), member_candidates AS (
        SELECT x.* FROM unnest(corebank_internal.events_members(events_page.customer)) AS m(id)
        CROSS JOIN LATERAL (
            SELECT e.* FROM corebank.events e
            WHERE e.customer_id = m.id AND (e.occurred_at, e.id) > (after_at, after_row)
            ORDER BY e.occurred_at, e.id
            LIMIT rows_max) x
        WHERE events_page.customer IS NOT NULL
    ), chosen AS (
        SELECT * FROM (SELECT * FROM candidates UNION ALL SELECT * FROM member_candidates) u
        ORDER BY u.occurred_at, u.id
        LIMIT rows_max
    ), numbered AS (
        SELECT c.*, row_number() OVER (ORDER BY c.occurred_at, c.id) AS position FROM chosen c
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object(
               'sequence', n.id, 'source', n.source, 'eventId', n.event_id, 'type', n.type,
               'schemaVersion', n.schema_version,
               'occurredAt', corebank_internal.events_iso(n.occurred_at),
               'receivedAt', corebank_internal.events_iso(n.received_at),
               'platform', n.platform,
               'customerId', (SELECT w.public_id FROM corebank.customers_graph c
                              JOIN corebank.customers_graph w ON w.id = coalesce(c.merged_into, c.id)
                              WHERE c.id = n.customer_id),
               'identity', n.identity, 'payload', n.payload)
               ORDER BY n.occurred_at, n.id) FILTER (WHERE n.position <= events_page.page_size), '[]'::jsonb),
           max(corebank_internal.events_micros(n.occurred_at)) FILTER (WHERE n.position = events_page.page_size),
           max(n.id) FILTER (WHERE n.position = events_page.page_size),
           count(*)
    INTO page, last_micros, last_id, fetched
    FROM numbered n;
    RETURN jsonb_build_object('items', page,
                              'nextCursor', CASE WHEN fetched > events_page.page_size
                                                 THEN corebank_internal.events_cursor(last_micros, last_id) END);
END
$fn$;

-- Moves everything of `loser` (and of the customers merged into it) to
-- `winner` and records the merge: identifiers, events (re-pointed, never
-- copied), consents (per purpose the newest occurredAt wins; on a tie the
-- winner's stays), loyalty members; the best-known name survives and the
-- survivor is a guest only if both were. The decision is ingest's (C++),
-- which holds both customer rows locked. Returns the survivor's facts.
CREATE FUNCTION corebank_internal.events_merge(loser uuid, winner uuid, claimed_kind text, claimed_value text,
                                               event_row_id bigint)
    RETURNS TABLE (display_name text, is_guest bool)
    LANGUAGE plpgsql
    AS $fn$
#variable_conflict use_variable
DECLARE
    members uuid[] := corebank_internal.events_members(loser);
BEGIN
    IF loser IS NULL OR winner IS NULL OR loser = winner OR winner = ANY (members) THEN
        RAISE EXCEPTION 'events_merge: invalid pair' USING ERRCODE = 'internal_error';
    END IF;
    UPDATE corebank.customer_identifiers i SET customer_id = winner WHERE i.customer_id = ANY (members);
    UPDATE corebank.events e SET customer_id = winner WHERE e.customer_id = ANY (members);
    INSERT INTO corebank.consents AS k (customer_id, purpose, status, occurred_at, event_row_id, updated_at)
    SELECT DISTINCT ON (x.purpose) winner, x.purpose, x.status, x.occurred_at, x.event_row_id, x.updated_at
    FROM corebank.consents x
    WHERE x.customer_id = ANY (members)
    ORDER BY x.purpose, x.occurred_at DESC, x.updated_at DESC
    ON CONFLICT ON CONSTRAINT consents_pkey DO UPDATE
    SET status = excluded.status, occurred_at = excluded.occurred_at, event_row_id = excluded.event_row_id,
        updated_at = now()
    WHERE k.occurred_at < excluded.occurred_at;
    DELETE FROM corebank.consents k WHERE k.customer_id = ANY (members);
    UPDATE corebank.loyalty_members l SET customer_id = winner WHERE l.customer_id = ANY (members);
    UPDATE corebank.customers_graph c SET merged_into = winner, updated_at = now() WHERE c.id = ANY (members);
    INSERT INTO corebank.customer_merges (from_customer, into_customer, reason, claimed_kind, claimed_value,
                                          event_row_id)
    VALUES (loser, winner, 'identity.claimed', claimed_kind, claimed_value, event_row_id);
    RETURN QUERY
    UPDATE corebank.customers_graph w
    SET display_name = coalesce(w.display_name, l.display_name), is_guest = w.is_guest AND l.is_guest,
        updated_at = now()
    FROM corebank.customers_graph l
    WHERE w.id = winner AND l.id = loser
    RETURNING w.display_name, w.is_guest;
END
$fn$;

-- The money fields of the type registry (core/events_registry.cpp), for the
-- trait engine: a trait only ever adds up these stored strings.
CREATE FUNCTION corebank_internal.events_money_fields() RETURNS TABLE (type text, field text)
    LANGUAGE sql IMMUTABLE
    AS $fn$
    VALUES ('order.created', 'total'), ('order.paid', 'subtotal'), ('order.paid', 'total'),
           ('payment.completed', 'amount'), ('billpay.initiated', 'amount'), ('billpay.initiated', 'total'),
           ('billpay.completed', 'amount'), ('billpay.completed', 'total'), ('loan.applied', 'amountRequested'),
           ('loan.disbursed', 'amount'), ('loan.repayment', 'amount')
$fn$;

-- API functions: C++ (rules)

-- One batch, one call: {results: [{eventId, status, error?}], accepted,
-- duplicates, invalid}. source is the calling key's callerId.
CREATE FUNCTION corebank.events_ingest(source text, events jsonb) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'events_ingest'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

-- API functions: PL/pgSQL (configuration and reads)

-- Makes the registry match the configuration: the six names are active
-- unless listed inactive; any other stored name becomes inactive (never
-- deleted). Idempotent; every tier process calls it on its first request.
CREATE FUNCTION corebank.events_configure(platforms text[], inactive text[], home_country_calling_code text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    platform_count CONSTANT int := 6;
BEGIN
    IF platforms IS NULL OR array_ndims(platforms) <> 1 OR cardinality(platforms) <> platform_count
       OR (SELECT count(DISTINCT p.name) FROM unnest(platforms) AS p(name)) <> platform_count
       OR EXISTS (SELECT FROM unnest(platforms) AS p(name) WHERE p.name IS NULL OR p.name !~ '^[a-z0-9][a-z0-9_.-]{0,59}$') THEN
        PERFORM corebank_internal.fail('CBV00', 'platforms: must be 6 distinct names of 1 to 60 of a-z 0-9 _ . - (starting with a letter or digit)');
    END IF;
    IF inactive IS NULL OR array_ndims(inactive) > 1
       OR EXISTS (SELECT FROM unnest(inactive) AS p(name) WHERE p.name IS NULL OR NOT p.name = ANY (platforms)) THEN
        PERFORM corebank_internal.fail('CBV00', 'inactive: must name only configured platforms');
    END IF;
    IF home_country_calling_code IS NULL OR home_country_calling_code !~ '^[1-9][0-9]{0,2}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'home_country_calling_code: must be 1 to 3 digits, not starting with 0');
    END IF;
    IF (SELECT count(*) FROM (SELECT p.name FROM corebank.event_platforms p
                              UNION SELECT x.name FROM unnest(platforms) AS x(name)) AS known) > 1000 THEN
        PERFORM corebank_internal.fail('CBV00', 'platforms: the registry holds at most 1000 names, retired ones included');
    END IF;
    INSERT INTO corebank.event_platforms AS p (name, active)
    SELECT x.name, NOT (x.name = ANY (inactive)) FROM unnest(platforms) AS x(name)
    ON CONFLICT (name) DO UPDATE SET active = excluded.active, updated_at = now()
    WHERE p.active IS DISTINCT FROM excluded.active;
    UPDATE corebank.event_platforms p SET active = false, updated_at = now()
    WHERE p.active AND NOT (p.name = ANY (platforms));
    UPDATE corebank.event_settings s SET home_country_calling_code = events_configure.home_country_calling_code,
                                         updated_at = now()
    WHERE s.home_country_calling_code IS DISTINCT FROM events_configure.home_country_calling_code;
    RETURN corebank.events_platforms_list();
END
$fn$;

CREATE FUNCTION corebank.events_platforms_list() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN jsonb_build_object(
        'platforms', (SELECT coalesce(jsonb_agg(jsonb_build_object('name', p.name, 'active', p.active)
                                                ORDER BY p.active DESC, p.name), '[]'::jsonb)
                      FROM corebank.event_platforms p),
        'homeCountryCallingCode', (SELECT s.home_country_calling_code FROM corebank.event_settings s));
END
$fn$;

-- The customer an identifier names. kind is the API name (userId needs
-- platform); the value is normalised the way ingest does it. Returns
-- {"outcome": "found", "customer": {...}} or {"outcome": o} with o one of
-- not_found, unknown_platform (userId on a platform the registry never had),
-- invalid_value (e.g. a phone that is no phone number).
CREATE FUNCTION corebank.events_customer_lookup(kind text, value text, platform text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    home text := (SELECT s.home_country_calling_code FROM corebank.event_settings s);
    identifier text[];
    survivor uuid;
BEGIN
    IF kind IS NULL OR kind NOT IN ('userId', 'zbIdSubject', 'phone', 'email', 'nationalId', 'sessionId') THEN
        PERFORM corebank_internal.fail('CBV00', 'kind: must be userId, zbIdSubject, phone, email, nationalId or sessionId');
    END IF;
    IF value IS NULL OR length(value) NOT BETWEEN 1 AND 320 THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be 1 to 320 characters', kind));
    END IF;
    IF kind = 'userId' AND (platform IS NULL OR length(platform) NOT BETWEEN 1 AND 60) THEN
        PERFORM corebank_internal.fail('CBV00', 'platform: is required with userId');
    END IF;
    IF kind = 'userId' AND NOT EXISTS (SELECT FROM corebank.event_platforms p WHERE p.name = platform) THEN
        RETURN jsonb_build_object('outcome', 'unknown_platform');
    END IF;
    identifier := corebank_internal.events_identifier(kind, value, platform, home);
    IF identifier IS NULL THEN
        RETURN jsonb_build_object('outcome', 'invalid_value');
    END IF;
    SELECT coalesce(c.merged_into, c.id) INTO survivor
    FROM corebank.customer_identifiers i
    JOIN corebank.customers_graph c ON c.id = i.customer_id
    WHERE i.kind = identifier[1] AND i.value = identifier[2];
    IF survivor IS NULL THEN
        RETURN jsonb_build_object('outcome', 'not_found');
    END IF;
    RETURN jsonb_build_object('outcome', 'found', 'customer', corebank_internal.events_customer_json(survivor));
END
$fn$;

-- A customer by public id; a merged customer's id gives its survivor.
CREATE FUNCTION corebank.events_customer_get(customer_id text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.events_customer_json(corebank_internal.events_canonical(events_customer_get.customer_id));
END
$fn$;

-- A customer's events, oldest occurredAt first: {customerId, items, nextCursor}.
CREATE FUNCTION corebank.events_customer_events(customer_id text, after_micros bigint, after_id bigint,
                                                page_size int) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    page_size_max CONSTANT int := 500;
    customer uuid := corebank_internal.events_canonical(customer_id);
BEGIN
    IF page_size IS NULL OR page_size NOT BETWEEN 1 AND page_size_max THEN
        PERFORM corebank_internal.fail('CBV00', format('limit: must be from 1 to %s', page_size_max));
    END IF;
    IF customer IS NULL THEN
        RETURN NULL;
    END IF;
    RETURN jsonb_build_object('customerId', (SELECT c.public_id FROM corebank.customers_graph c WHERE c.id = customer))
           || corebank_internal.events_page(customer, after_micros, after_id, page_size);
END
$fn$;

CREATE FUNCTION corebank.events_customer_consents(customer_id text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    customer uuid := corebank_internal.events_canonical(customer_id);
BEGIN
    IF customer IS NULL THEN
        RETURN NULL;
    END IF;
    RETURN jsonb_build_object('customerId', (SELECT c.public_id FROM corebank.customers_graph c WHERE c.id = customer),
                              'consents', corebank_internal.events_consents_json(customer));
END
$fn$;

-- Read-time traits: sums of stored money strings, per currency, nothing
-- else. totalPaid adds order.paid.total, payment.completed.amount and
-- billpay.completed.total; sums has every money field on its own.
CREATE FUNCTION corebank.events_customer_traits(customer_id text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    customer uuid := corebank_internal.events_canonical(customer_id);
    members uuid[];
    sums jsonb;
    total_paid jsonb;
BEGIN
    IF customer IS NULL THEN
        RETURN NULL;
    END IF;
    members := corebank_internal.events_members(customer);
    WITH amounts AS (
        SELECT f.type || '.' || f.field AS key, e.payload ->> 'currency' AS currency,
               (e.payload ->> f.field)::numeric AS amount
        FROM corebank.events e
        JOIN corebank_internal.events_money_fields() f ON f.type = e.type
        WHERE e.customer_id = ANY (members) AND e.payload ->> 'currency' IS NOT NULL
    ), per_field AS (
        SELECT a.key, a.currency, sum(a.amount) AS total FROM amounts a GROUP BY a.key, a.currency
    ), per_key AS (
        SELECT p.key, jsonb_object_agg(p.currency, p.total::text ORDER BY p.currency) AS totals
        FROM per_field p GROUP BY p.key
    )
    SELECT coalesce(jsonb_object_agg(k.key, k.totals ORDER BY k.key), '{}'::jsonb) INTO sums FROM per_key k;
    WITH paid AS (
        SELECT e.payload ->> 'currency' AS currency, sum((e.payload ->> f.field)::numeric) AS total
        FROM corebank.events e
        JOIN (VALUES ('order.paid', 'total'), ('payment.completed', 'amount'), ('billpay.completed', 'total'))
             AS f(type, field) ON f.type = e.type
        WHERE e.customer_id = ANY (members) AND e.payload ->> 'currency' IS NOT NULL
        GROUP BY 1
    )
    SELECT coalesce(jsonb_object_agg(p.currency, p.total::text ORDER BY p.currency), '{}'::jsonb)
    INTO total_paid FROM paid p;
    RETURN jsonb_build_object('customerId', (SELECT c.public_id FROM corebank.customers_graph c WHERE c.id = customer),
                              'totalPaid', total_paid, 'sums', sums);
END
$fn$;

-- The global stream in (occurredAt, sequence) order: {items, nextCursor}.
CREATE FUNCTION corebank.events_feed(after_micros bigint, after_id bigint, page_size int) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    page_size_max CONSTANT int := 500;
BEGIN
    IF page_size IS NULL OR page_size NOT BETWEEN 1 AND page_size_max THEN
        PERFORM corebank_internal.fail('CBV00', format('limit: must be from 1 to %s', page_size_max));
    END IF;
    RETURN corebank_internal.events_page(NULL, after_micros, after_id, page_size);
END
$fn$;

CREATE FUNCTION corebank.events_loyalty_member_get(member_id text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object('memberId', l.member_id, 'customerId', w.public_id,
                                      'createdAt', corebank_internal.events_iso(l.created_at))
            FROM corebank.loyalty_members l
            JOIN corebank.customers_graph c ON c.id = l.customer_id
            JOIN corebank.customers_graph w ON w.id = coalesce(c.merged_into, c.id)
            WHERE l.member_id = events_loyalty_member_get.member_id);
END
$fn$;

-- Maps a loyalty member id to a customer. {"outcome": "created" |
-- "unchanged" | "member_taken" | "customer_not_found", "mapping": {...}}:
-- mapping the same pair again is "unchanged"; a member id already mapped to
-- another (surviving) customer is "member_taken" and names that customer.
CREATE FUNCTION corebank.events_loyalty_member_map(member_id text, customer_id text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    customer uuid;
    owner uuid;
    created bool := false;
BEGIN
    IF member_id IS NULL OR member_id !~ '^[A-Za-z0-9._:-]{1,64}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'memberId: must be 1 to 64 of A-Z a-z 0-9 . _ : -');
    END IF;
    IF customer_id IS NULL OR length(customer_id) > 64 THEN
        PERFORM corebank_internal.fail('CBV00', 'customerId: is required');
    END IF;
    customer := corebank_internal.events_canonical(customer_id);
    IF customer IS NULL THEN
        RETURN jsonb_build_object('outcome', 'customer_not_found');
    END IF;
    INSERT INTO corebank.loyalty_members AS l (member_id, customer_id) VALUES (member_id, customer)
    ON CONFLICT DO NOTHING;
    created := FOUND;
    SELECT coalesce(c.merged_into, c.id) INTO owner
    FROM corebank.loyalty_members l JOIN corebank.customers_graph c ON c.id = l.customer_id
    WHERE l.member_id = member_id;
    RETURN jsonb_build_object('outcome', CASE WHEN created THEN 'created'
                                              WHEN owner = customer THEN 'unchanged'
                                              ELSE 'member_taken' END,
                              'mapping', corebank.events_loyalty_member_get(member_id));
END
$fn$;

-- privileges
--
-- As in 1.0 and 1.1: corebank_app executes the API functions and touches no
-- table; corebank_internal has no grant.

REVOKE ALL ON ALL TABLES IN SCHEMA corebank FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA corebank FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA corebank FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA corebank_internal FROM PUBLIC;

GRANT EXECUTE ON FUNCTION
    corebank.events_ingest(text, jsonb),
    corebank.events_configure(text[], text[], text),
    corebank.events_platforms_list(),
    corebank.events_customer_lookup(text, text, text),
    corebank.events_customer_get(text),
    corebank.events_customer_events(text, bigint, bigint, int),
    corebank.events_customer_consents(text),
    corebank.events_customer_traits(text),
    corebank.events_feed(bigint, bigint, int),
    corebank.events_loyalty_member_get(text),
    corebank.events_loyalty_member_map(text, text)
TO corebank_app;
