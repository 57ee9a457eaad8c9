-- Months to the next periodic review by risk category; NULL: none.
CREATE FUNCTION corebank_internal.review_months(risk text) RETURNS int
    LANGUAGE sql IMMUTABLE
    AS $fn$ SELECT CASE risk WHEN 'LOW' THEN 36 WHEN 'MEDIUM' THEN 24 WHEN 'HIGH' THEN 12 END $fn$;
