-- How many corebank tables have their CHECK constraints planned in this
-- backend (pg/check_constraints.hpp): for tests and for a DBA who wants to
-- see that the cache is in use. Not a cache control: it only counts.
CREATE FUNCTION corebank_internal.check_constraints_cached() RETURNS integer
    AS 'MODULE_PATHNAME', 'check_constraints_cached' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
