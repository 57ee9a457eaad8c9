-- Statement, one keyset page (1.8, docs/design/posting-engine.md section 4):
-- the entries with value dates in [from, to] ordered by value date and entry
-- id, at most page_limit (1 to 1,000; NULL means 100) of them, each with its
-- running balance.
--
-- The range's members (openingBalance as of the day before from, totals and
-- closingBalance) come from the stored day totals: their cost is the number
-- of days, not the number of entries. A page never sums history either: the
-- first page starts from the range's opening balance, every other page from
-- the running balance the caller passes with its cursor.
--
-- The cursor is four plain arguments, all NULL for the first page:
--   cursor_direction     'next' (the lines after the key) or 'previous' (the
--                        lines before it, the nearest page_limit of them);
--   cursor_value_date,
--   cursor_entry_id      the key: a line of the range;
--   cursor_balance_minor for 'next' the running balance after the key line
--                        (the page's opening balance); for 'previous' the
--                        balance before the key line (the page's closing
--                        balance).
-- The result carries nextCursor and previousCursor in that form ({direction,
-- valueDate, entryId, balanceMinor}), NULL when there is no line after (or
-- before) the page. The HTTP tier seals them into opaque tokens with its data
-- key, so a client cannot choose a balance. A psql caller who passes its own
-- balance gets what it asked for: the running balances are display values
-- computed from it, and the ledger is untouched.
CREATE OR REPLACE FUNCTION corebank.core_statement(account_id uuid, from_date date, to_date date,
                                                   page_limit integer, cursor_direction text,
                                                   cursor_value_date date, cursor_entry_id bigint,
                                                   cursor_balance_minor bigint) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    page_limit_default constant integer := 100;
    page_limit_max constant integer := 1000;
    first_day date;
    last_day date;
    a corebank.ledger_accounts;
    opening bigint;
    debits bigint;
    credits bigint;
    wanted integer := coalesce(page_limit, page_limit_default);
    backward boolean := cursor_direction IS NOT DISTINCT FROM 'previous';
    key_date date;
    key_id bigint;
    base bigint;
    lines jsonb;
    line_count bigint;
    page_net bigint;
    overflow boolean;
    first_date date;
    first_id bigint;
    last_date date;
    last_id bigint;
    page_opening bigint;
    page_closing bigint;
    more_before boolean;
    more_after boolean;
BEGIN
    IF wanted NOT BETWEEN 1 AND page_limit_max THEN
        PERFORM corebank_internal.fail('CBV00', 'limit: must be an integer from 1 to 1000');
    END IF;
    IF cursor_direction IS NOT NULL AND cursor_direction NOT IN ('next', 'previous') THEN
        PERFORM corebank_internal.fail('CBV00', 'cursor: direction must be next or previous');
    END IF;
    IF num_nulls(cursor_direction, cursor_value_date, cursor_entry_id, cursor_balance_minor) NOT IN (0, 4) THEN
        PERFORM corebank_internal.fail('CBV00', 'cursor: direction, value date, entry id and balance go together');
    END IF;
    SELECT p.first_day, p.last_day INTO first_day, last_day FROM corebank_internal.deposit_period(from_date, to_date) p;
    IF cursor_value_date NOT BETWEEN first_day AND last_day THEN
        PERFORM corebank_internal.fail('CBV00', 'cursor: must be a line of the period');
    END IF;
    -- Branch scoping (issue 15): the account decides; its lines need no check.
    SELECT x.* INTO a FROM corebank.ledger_accounts x JOIN corebank.deposit_accounts d ON d.id = x.id
    WHERE x.id = account_id AND corebank.branch_visible(x.branch_id);
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;

    opening := corebank_internal.account_balance_as_of(account_id, first_day - 1);
    SELECT coalesce(sum(t.debit_minor), 0)::bigint, coalesce(sum(t.credit_minor), 0)::bigint INTO debits, credits
    FROM corebank.account_day_totals t
    WHERE t.account_id = account_id AND t.day BETWEEN first_day AND last_day;

    -- The first page is the page after (first_day, 0): entry ids start at 1.
    key_date := coalesce(cursor_value_date, first_day);
    key_id := coalesce(cursor_entry_id, 0);
    base := coalesce(cursor_balance_minor, opening);
    -- One more line than the page, in the direction of travel, says whether
    -- another page lies beyond it. Each branch is one range scan of the index
    -- journal_entries_by_account (ledger_account_id, value_date, id).
    WITH fetched AS (
        (SELECT e.id, e.value_date, e.transaction_id, e.side, e.amount_minor, e.narrative
         FROM corebank.journal_entries e
         WHERE NOT backward AND e.ledger_account_id = account_id
           AND (e.value_date, e.id) > (key_date, key_id) AND e.value_date <= last_day
         ORDER BY e.value_date, e.id
         LIMIT wanted + 1)
        UNION ALL
        (SELECT e.id, e.value_date, e.transaction_id, e.side, e.amount_minor, e.narrative
         FROM corebank.journal_entries e
         WHERE backward AND e.ledger_account_id = account_id
           AND (e.value_date, e.id) < (key_date, key_id) AND e.value_date >= first_day
         ORDER BY e.value_date DESC, e.id DESC
         LIMIT wanted + 1)
    ), ranked AS (
        SELECT f.*, CASE WHEN f.side = 'C' THEN f.amount_minor ELSE -f.amount_minor END::bigint AS signed,
               row_number() OVER (ORDER BY f.value_date, f.id) AS line_position, count(*) OVER () AS fetched_count
        FROM fetched f
    ), kept AS (
        SELECT r.*, sum(r.signed) OVER (ORDER BY r.value_date, r.id) AS cumulative,
               sum(r.signed) OVER () AS net
        FROM ranked r
        -- Forward, the first wanted lines; backward, the wanted lines nearest the key.
        WHERE CASE WHEN backward THEN r.line_position > r.fetched_count - wanted ELSE r.line_position <= wanted END
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object(
               'entryId', k.id, 'transactionId', k.transaction_id, 'reference', t.reference, 'type', t.type,
               'valueDate', k.value_date, 'postedAt', corebank_internal.iso_utc(t.posted_at),
               'description', t.description, 'narrative', k.narrative,
               'side', CASE k.side WHEN 'D' THEN 'DEBIT' ELSE 'CREDIT' END, 'amountMinor', k.amount_minor,
               'amount', corebank_internal.money_text(k.amount_minor, a.currency),
               'balanceMinor', base + k.cumulative - CASE WHEN backward THEN k.net ELSE 0 END,
               'balance', corebank_internal.money_text(
                   (base + k.cumulative - CASE WHEN backward THEN k.net ELSE 0 END)::bigint, a.currency))
               ORDER BY k.value_date, k.id), '[]'::jsonb),
           count(*), coalesce(max(k.net), 0)::bigint, coalesce(bool_or(k.fetched_count > wanted), false),
           (array_agg(k.value_date ORDER BY k.value_date, k.id))[1], (array_agg(k.id ORDER BY k.value_date, k.id))[1],
           (array_agg(k.value_date ORDER BY k.value_date DESC, k.id DESC))[1],
           (array_agg(k.id ORDER BY k.value_date DESC, k.id DESC))[1]
    INTO lines, line_count, page_net, overflow, first_date, first_id, last_date, last_id
    -- A lookup per kept line (LIMIT keeps the planner from turning it into a
    -- join that could read every transaction when its statistics are thin).
    FROM kept k
    CROSS JOIN LATERAL (SELECT x.reference, x.type, x.posted_at, x.description FROM corebank.transactions x
                        WHERE x.id = k.transaction_id LIMIT 1) t;

    page_opening := CASE WHEN backward THEN base - page_net ELSE base END;
    page_closing := page_opening + page_net;
    -- The far side of the page was fetched one line long; the near side is
    -- one probe of the index (ORDER BY ... LIMIT 1 in the index's order: as
    -- a plain EXISTS the planner may scan the whole journal for a busy
    -- account). An empty page has no cursor either way.
    IF line_count = 0 THEN
        more_before := false;
        more_after := false;
    ELSIF backward THEN
        more_before := overflow;
        more_after := coalesce((SELECT true FROM corebank.journal_entries e
                                WHERE e.ledger_account_id = account_id AND (e.value_date, e.id) > (last_date, last_id)
                                  AND e.value_date <= last_day
                                ORDER BY e.value_date, e.id LIMIT 1), false);
    ELSE
        more_after := overflow;
        more_before := coalesce((SELECT true FROM corebank.journal_entries e
                                 WHERE e.ledger_account_id = account_id AND (e.value_date, e.id) < (first_date, first_id)
                                   AND e.value_date >= first_day
                                 ORDER BY e.value_date DESC, e.id DESC LIMIT 1), false);
    END IF;

    RETURN jsonb_build_object(
        'accountId', a.id, 'accountNumber', a.account_number, 'currency', a.currency, 'from', first_day,
        'to', last_day, 'openingBalanceMinor', opening, 'openingBalance', corebank_internal.money_text(opening, a.currency),
        'closingBalanceMinor', opening + credits - debits,
        'closingBalance', corebank_internal.money_text(opening + credits - debits, a.currency),
        'totalDebitsMinor', debits, 'totalCreditsMinor', credits,
        'limit', wanted,
        'pageOpeningBalanceMinor', page_opening,
        'pageOpeningBalance', corebank_internal.money_text(page_opening, a.currency),
        'pageClosingBalanceMinor', page_closing,
        'pageClosingBalance', corebank_internal.money_text(page_closing, a.currency),
        'nextCursor', CASE WHEN more_after THEN jsonb_build_object(
            'direction', 'next', 'valueDate', last_date, 'entryId', last_id, 'balanceMinor', page_closing) END,
        'previousCursor', CASE WHEN more_before THEN jsonb_build_object(
            'direction', 'previous', 'valueDate', first_date, 'entryId', first_id, 'balanceMinor', page_opening) END,
        'lines', lines);
END
$fn$;

-- The statement as it was called before 1.8: now its first page of 100
-- lines (reads must not grow with history); the next pages follow with the
-- eight-argument form and the result's nextCursor.
CREATE OR REPLACE FUNCTION corebank.core_statement(account_id uuid, from_date date, to_date date) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank.core_statement(account_id, from_date, to_date, NULL, NULL, NULL, NULL, NULL)
$fn$;
