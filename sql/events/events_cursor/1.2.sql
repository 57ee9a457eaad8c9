-- The opaque page cursor: base64url (no padding) of "v1:<micros>:<id>";
-- the tier decodes it (httpd/src/events/requests.cpp).
CREATE FUNCTION corebank_internal.events_cursor(after_micros bigint, after_id bigint) RETURNS text
    LANGUAGE sql STABLE
    AS $fn$
    SELECT rtrim(translate(encode(convert_to('v1:' || events_cursor.after_micros || ':' || events_cursor.after_id,
                                             'UTF8'), 'base64'), E'+/\n', '-_'), '=')
$fn$;
