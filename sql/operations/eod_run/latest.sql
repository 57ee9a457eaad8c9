-- For pg_cron or a DBA: up to max_steps steps of the runner, each committed
-- on its own, until there is nothing to do now (docs/operations.md:
-- `SELECT cron.schedule('corebank-eod', '* * * * *', 'CALL corebank_internal.eod_run(10000)')`).
-- A procedure, because only a procedure called at top level may COMMIT;
-- not SECURITY DEFINER (that forbids COMMIT), so it lives with the
-- internal helpers, for the owner or a superuser. The work is eod_step's.
CREATE PROCEDURE corebank_internal.eod_run(max_steps int DEFAULT 10000, worker text DEFAULT 'sql')
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    step jsonb;
BEGIN
    IF max_steps IS NULL OR max_steps NOT BETWEEN 1 AND 1000000 THEN
        RAISE EXCEPTION 'max_steps: must be from 1 to 1000000';
    END IF;
    FOR i IN 1 .. max_steps LOOP
        step := corebank.eod_step(worker);
        COMMIT;
        EXIT WHEN step ->> 'step' IN ('idle', 'waiting');
    END LOOP;
END
$fn$;
