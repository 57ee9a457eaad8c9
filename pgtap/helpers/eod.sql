-- helpers/eod.sql: stepping the end-of-day runner in a pgTAP file's
-- transaction (eod_runner.sql, eod_closed_period.sql).

-- Steps the runner until it has nothing to do now (idle or waiting), or
-- until it has started the job `until_job`; the answers, in order.
CREATE FUNCTION pg_temp.steps(worker text DEFAULT 't', max_steps int DEFAULT 2000, until_job text DEFAULT NULL) RETURNS jsonb
    LANGUAGE plpgsql
    AS $f$
DECLARE
    answers jsonb := '[]'::jsonb;
    answer jsonb;
BEGIN
    FOR i IN 1 .. max_steps LOOP
        answer := corebank.eod_step(worker);
        answers := answers || jsonb_build_array(answer);
        EXIT WHEN answer ->> 'step' IN ('idle', 'waiting')
                  OR (answer ->> 'step' = 'started' AND answer ->> 'job' = until_job);
    END LOOP;
    RETURN answers;
END
$f$;
