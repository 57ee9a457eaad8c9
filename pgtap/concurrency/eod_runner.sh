#!/usr/bin/env bash
# pgtap/concurrency/eod_runner.sh: the end-of-day runner (issue 13, part 1)
# stepped by several sessions at once, as several corebankd processes or
# pg_cron would, after a three-day outage, and one more killed mid-unit.
#
# Usage: eod_runner.sh CONNINFO [SESSIONS] [HALF_THE_ORDERS]
#   CONNINFO  a libpq connection string to a THROWAWAY database where the
#             corebank extension (1.8+) is installed, as the tier's role
#             (corebank_app): the set-up and the runner use the API only
#             (the business date moves through core_platform_config_update,
#             from the runner's first date, the day it was installed). The
#             checks that read the runner's and the executions' tables use
#             EOD_RUNNER_ADMIN_CONNINFO, or CONNINFO as user postgres (the
#             throwaway clusters of cbq and the suite); they say skip when
#             neither connects.
#   SESSIONS  the sessions stepping the runner (8; 2 to 16)
#   HALF_THE_ORDERS  the standing orders are twice this (100: 200 orders)
#
# Goal: a unit is done once whoever steps: (job, date) and (job, unit) are
# claimed in the database, so sessions racing split the work and none pays
# an order twice; a session killed mid-run loses nothing (its unit's payment
# and outcome roll back together and another session does it); the dates
# close one by one, in order.
# Method: one customer, 10 funded source and 10 target current accounts, the
# orders DAILY between them, started on the first date, the day after or the
# day after that (3, 2 or 1 payments in the window). Today moves 3 days on;
# SESSIONS psql sessions each loop `corebank.eod_step('sN')`, committing every
# step, until idle, and so does a victim until it is given a standing order's
# unit: it pays it without committing and is terminated there
# (pg_terminate_backend, as a process killed mid-unit). Then:
#   - the victim was terminated holding a unit; no other session raised and
#     all ended idle;
#   - the runner is caught up: 12 jobs, all SUCCEEDED, lag 0, closed through
#     the day before today; each date's standing_orders job paid the orders
#     due that day, with nothing already executed or failed;
#   - no (order, date) unit was answered SUCCEEDED twice, and more than one
#     session did units;
#   - each target's balance is exactly its orders' amounts times their
#     payments; balances match the journal, the hash chains are intact;
#   - (admin) one SUCCEEDED execution per order and date, one payment
#     transaction each, every unit SUCCEEDED at its first attempt (the
#     victim's too, done by another session: its attempt left nothing), units
#     done by more than one worker, the jobs finished date by date in
#     position order.
# Exit status 0 when all hold; the last line is PASS or FAIL.
set -euo pipefail

CONNINFO=${1:?usage: $0 CONNINFO [SESSIONS] [HALF_THE_ORDERS]}
SESSIONS=${2:-8}
HALF=${3:-100}
((SESSIONS >= 2 && SESSIONS <= 16)) || { echo "SESSIONS: must be from 2 to 16" >&2; exit 2; }
((HALF >= 10 && HALF <= 1000)) || { echo "HALF_THE_ORDERS: must be from 10 to 1000" >&2; exit 2; }
readonly ORDERS=$((2 * HALF))
readonly ACCOUNTS=10
readonly ACTOR=00000000-0000-4000-8000-0000000e0d0d
readonly MAX_STEPS=20000      # per session: a runaway loop ends
ADMIN=${EOD_RUNNER_ADMIN_CONNINFO:-$(sed -E 's/(^| )user=[^ ]*/\1user=postgres/' <<<"$CONNINFO")}

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
q() { psql "$CONNINFO" -X -q -v ON_ERROR_STOP=1 -tA "$@"; }
qa() { psql "$ADMIN" -X -q -v ON_ERROR_STOP=1 -tA "$@"; }

FAILURES=0
check() {  # check NAME HAVE WANT
    if [[ "$2" == "$3" ]]; then
        printf 'ok - %s\n' "$1"
    else
        printf 'not ok - %s (have %s, want %s)\n' "$1" "$2" "$3"
        FAILURES=$((FAILURES + 1))
    fi
}

# session NAME: steps the runner until idle, one transaction per step; each
# committed answer is a NOTICE line "STEP {...}" on stderr.
session() {
    PGAPPNAME="eod_$1" psql "$CONNINFO" -X -q -v ON_ERROR_STOP=1 -tA -c "
DO \$\$
DECLARE
    answer jsonb;
BEGIN
    FOR i IN 1 .. $MAX_STEPS LOOP
        answer := corebank.eod_step('$1');
        COMMIT;
        RAISE NOTICE 'STEP %', answer;
        EXIT WHEN answer ->> 'step' = 'idle';
        IF answer ->> 'step' = 'waiting' THEN
            PERFORM pg_sleep(0.005);
        END IF;
    END LOOP;
END
\$\$" >"$WORK/$1.out" 2>"$WORK/$1.err"
}

RUN=$(date +%s%N)
FIRST=$(q -c "SELECT (corebank.core_jobs_runner() ->> 'firstDate')")
check "a fresh runner is idle, nothing closed" \
      "$(q -c "SELECT (r ->> 'closedThrough')::date = (r ->> 'firstDate')::date - 1 AND r ->> 'lagDays' = '0' FROM corebank.core_jobs_runner() r")" t
CUSTOMER=$(q -c "SELECT corebank.core_customers_create('{\"type\":\"INDIVIDUAL\",\"firstName\":\"Eod\",\"lastName\":\"E$RUN\",
                 \"dateOfBirth\":\"1980-01-01\"}', '$ACTOR')->>'id'")
# Sources with 100,000.00 each, targets empty; ids in $WORK/sources, $WORK/targets.
q -c "SELECT (corebank.core_accounts_open(jsonb_build_object('customerId', '$CUSTOMER', 'productCode', 'CUR-STD',
          'initialDeposit', jsonb_build_object('amountMinor', 10000000)), '$ACTOR') ->> 'id')
      FROM generate_series(1, $ACCOUNTS)" >"$WORK/sources"
q -c "SELECT (corebank.core_accounts_open(jsonb_build_object('customerId', '$CUSTOMER', 'productCode', 'CUR-STD'), '$ACTOR') ->> 'id')
      FROM generate_series(1, $ACCOUNTS)" >"$WORK/targets"
# Order i: source i % 10, target (i / 10) % 10, 1.00 + i/100, DAILY from FIRST + i % 3.
q -c "CREATE TEMP TABLE s AS SELECT row_number() OVER () - 1 AS n, id::uuid FROM unnest(string_to_array('$(paste -sd, "$WORK/sources")', ',')) id;
      CREATE TEMP TABLE t AS SELECT row_number() OVER () - 1 AS n, id::uuid FROM unnest(string_to_array('$(paste -sd, "$WORK/targets")', ',')) id;
      SELECT i || ' ' || t.id || ' ' || (100 + i) || ' ' || (i % 3) || ' ' || (corebank.core_standing_orders_create(jsonb_build_object(
                 'sourceAccountId', s.id, 'targetAccountId', t.id, 'amountMinor', 100 + i, 'frequency', 'DAILY',
                 'startDate', '$FIRST'::date + i % 3), '$ACTOR') ->> 'id')
      FROM generate_series(0, $ORDERS - 1) i JOIN s ON s.n = i % $ACCOUNTS JOIN t ON t.n = (i / $ACCOUNTS) % $ACCOUNTS
      ORDER BY i" >"$WORK/orders"
check "the orders were created" "$(wc -l <"$WORK/orders")" "$ORDERS"

# Three days on: the first date and the two after it are due.
TODAY=$(q -c "SELECT ('$FIRST'::date + 3)::text")
q -c "SELECT corebank.core_platform_config_update('{\"todayOverride\":\"$TODAY\"}', '$ACTOR')" >/dev/null
check "the runner is 3 days behind" "$(q -c "SELECT corebank.core_jobs_runner() ->> 'lagDays'")" 3

# The sessions, started together, and a victim that steps like them,
# committing every step, until it is given a standing order's unit: it does
# it (the payment made, not committed) and sleeps in its transaction, where
# it is terminated, as a process killed mid-unit; the others must do that
# unit once. (Each step in a transaction of its own: a transaction's now()
# is its start, and a unit is due from the now() of the step that listed it.)
for ((n = 1; n <= SESSIONS; n++)); do session "s$n" & done
PGAPPNAME=eod_victim psql "$CONNINFO" -X -q -tA -c "
DO \$\$
DECLARE
    answer jsonb;
BEGIN
    FOR i IN 1 .. $MAX_STEPS LOOP
        answer := corebank.eod_step('victim');
        EXIT WHEN answer ->> 'step' = 'idle' OR (answer ->> 'step' = 'unit' AND answer ->> 'job' = 'standing_orders');
        COMMIT;
        IF answer ->> 'step' = 'waiting' THEN
            PERFORM pg_sleep(0.005);
        END IF;
    END LOOP;
    RAISE NOTICE 'VICTIM %', answer;
    PERFORM pg_sleep(60);
END
\$\$" >"$WORK/victim.out" 2>"$WORK/victim.err" &
for _ in $(seq 1 1000); do grep -q VICTIM "$WORK/victim.err" && break; sleep 0.01; done
# (OFFSET 0: the filter first, or the planner may signal other backends.)
TERMINATED=$(q -c "SELECT count(*) FILTER (WHERE pg_terminate_backend(a.pid))
                   FROM (SELECT x.pid FROM pg_stat_activity x WHERE x.application_name = 'eod_victim' OFFSET 0) a")
wait || true

VICTIM=$(grep -o 'VICTIM {.*' "$WORK/victim.err" || true)
check "the victim was terminated holding a standing order's unit" \
      "$TERMINATED $(grep -o '"step": "[a-z]*"\|"job": "[a-z_]*"\|"state": "[A-Z]*"' <<<"$VICTIM" | paste -sd' ')" \
      '1 "job": "standing_orders" "step": "unit" "state": "SUCCEEDED"'
check "it was told so" "$(grep -c 'terminating connection' "$WORK/victim.err" || true)" 1
VICTIM_UNIT=$(grep -o '"unit": "[^"]*"' <<<"$VICTIM" | cut -d'"' -f4)
VICTIM_DATE=$(grep -o '"businessDate": "[^"]*"' <<<"$VICTIM" | cut -d'"' -f4)
check "no session failed" "$(cat "$WORK"/s*.err | grep -c ERROR || true)" 0
check "every session ended idle" "$(for f in "$WORK"/s*.err; do tail -n 1 "$f"; done | grep -c '"step": "idle"' || true)" "$SESSIONS"

# The runner's own answers.
check "the runner is caught up" \
      "$(q -c "SELECT r ->> 'lagDays' || ' ' || (r ->> 'closedThrough') || ' ' || (r ->> 'runningJobs') || ' ' || (r ->> 'failedJobs')
               FROM corebank.core_jobs_runner() r")" "0 $(q -c "SELECT ('$TODAY'::date - 1)::text") 0 0"
JOBS="corebank.core_jobs_list(NULL, NULL, NULL, 0, 100)"
check "12 jobs (3 dates x 4 kinds)" "$(q -c "SELECT $JOBS ->> 'totalElements'")" 12
check "all SUCCEEDED" "$(q -c "SELECT count(*) FROM jsonb_array_elements($JOBS -> 'content') x WHERE x ->> 'state' = 'SUCCEEDED'")" 12
# Due on day d (0, 1, 2): the orders started on or before it.
DUE=$(for d in 0 1 2; do awk -v d=$d '$4 <= d' "$WORK/orders" | wc -l; done | paste -sd' ')
check "each date's standing orders were paid once each (paid/already/failed per date)" \
      "$(q -c "SELECT string_agg((x -> 'counts' ->> 'paid') || '/' || (x -> 'counts' ->> 'alreadyExecuted') || '/'
                                 || (x -> 'counts' ->> 'paymentsFailed'), ' ' ORDER BY x ->> 'businessDate')
               FROM jsonb_array_elements($JOBS -> 'content') x WHERE x ->> 'job' = 'standing_orders'")" \
      "$(for d in $DUE; do printf '%s/0/0 ' "$d"; done | sed 's/ $//')"

# The sessions' answers: each (order, date) unit SUCCEEDED once, by several sessions.
cat "$WORK"/s*.err | grep -o 'STEP {.*' | grep '"job": "standing_orders"' | grep '"step": "unit"' >"$WORK/units" || true
check "no unit was answered twice" "$(grep -o '"unit": "[^"]*"\|"businessDate": "[^"]*"' "$WORK/units" | paste -d' ' - - | sort | uniq -d | wc -l)" 0
check "every unit answered SUCCEEDED" "$(grep -vc '"state": "SUCCEEDED"' "$WORK/units" || true)" 0
WORKERS=$(for f in "$WORK"/s*.err; do grep -q '"step": "unit"' "$f" && echo "$f"; done | wc -l)
check "more than one session did units" "$((WORKERS > 1))" 1

# The money: each target got exactly its orders' amounts times their payments.
# When the three days cross a month end (they do when the business date, in
# the institution's time zone, is one of the last three of its month), the
# month-end job also charges each current account its maintenance fee; the
# balances are then checked with those fees added back, from the journal, as
# an administrator (below).
WANT=$(awk '{ sum[$2] += $3 * (3 - $4) } END { for (t in sum) print t, sum[t] }' "$WORK/orders" | sort)
MONTH_END=$(q -c "SELECT EXISTS (SELECT FROM generate_series('$FIRST'::date, '$FIRST'::date + 2, '1 day') d
                                 WHERE extract(day FROM d::date + 1) = 1)::text")
if [[ $MONTH_END == false ]]; then
    HAVE=$(while read -r target; do
               echo "$target $(q -c "SELECT corebank.core_accounts_get('$target') ->> 'balanceMinor'")"
           done <"$WORK/targets" | sort)
    check "each target holds exactly its payments" "$HAVE" "$WANT"
else
    echo "skip - balances as corebank_app: the days cross a month end (its fees are checked below)"
fi
check "balances match the journal" "$(q -c "SELECT count(*) FROM corebank.ledger_check_balances()")" 0
check "the hash chains are intact" "$(q -c "SELECT count(*) FROM corebank.ledger_verify_chain()")" 0

# The tables, read as an administrator.
if qa -c "SELECT 1" >/dev/null 2>&1; then
    HAVE=$(while read -r target; do
               echo "$target $(qa -c "SELECT (corebank.core_accounts_get('$target') ->> 'balanceMinor')::bigint
                                             + coalesce(sum(e.amount_minor), 0)
                                      FROM corebank.journal_entries e JOIN corebank.transactions t ON t.id = e.transaction_id
                                      WHERE e.ledger_account_id = '$target' AND e.side = 'D' AND t.type = 'FEE'")"
           done <"$WORK/targets" | sort)
    check "each target holds exactly its payments, month-end fees added back" "$HAVE" "$WANT"
    check "fees fall on month ends only, and only when the days cross one" \
          "$(qa -c "SELECT count(*) FILTER (WHERE t.value_date <> (date_trunc('month', t.value_date) + interval '1 month - 1 day')::date)
                           || ' ' || (count(*) > 0)
                    FROM corebank.transactions t WHERE t.type = 'FEE'")" "0 $MONTH_END"
    check "one SUCCEEDED execution per order and date" \
          "$(qa -c "SELECT count(*) || ' ' || count(DISTINCT (e.standing_order_id, e.execution_date)) || ' '
                           || count(*) FILTER (WHERE e.status = 'SUCCEEDED') || ' ' || count(DISTINCT e.transaction_id)
                    FROM corebank.standing_order_executions e")" \
          "$(awk '{ n += 3 - $4 } END { print n, n, n, n }' "$WORK/orders")"
    check "every unit SUCCEEDED at its first attempt" \
          "$(qa -c "SELECT count(*) FILTER (WHERE state <> 'SUCCEEDED' OR attempts <> 1) FROM corebank.eod_job_units")" 0
    check "the units were done by more than one worker" \
          "$(qa -c "SELECT count(DISTINCT worker) > 1 FROM corebank.eod_job_units")" t
    check "the victim's unit was done once, by another session, at its first attempt" \
          "$(qa -c "SELECT u.state || ' ' || (u.worker <> 'victim') || ' ' || u.attempts || ' ' || (u.result ->> 'paid')
                    FROM corebank.eod_job_units u JOIN corebank.eod_jobs j ON j.id = u.job_id
                    WHERE j.job = 'standing_orders' AND j.business_date = '$VICTIM_DATE' AND u.unit = '$VICTIM_UNIT'")" \
          'SUCCEEDED true 1 1'
    check "every standing-order unit made one payment" \
          "$(qa -c "SELECT count(*) FROM corebank.eod_job_units u JOIN corebank.eod_jobs j ON j.id = u.job_id
                    WHERE j.job = 'standing_orders' AND (u.result ->> 'paid') IS DISTINCT FROM '1'")" 0
    check "the jobs finished date by date, in position order" \
          "$(qa -c "SELECT string_agg(business_date || ':' || job, ' ' ORDER BY finished_at) =
                           string_agg(business_date || ':' || job, ' ' ORDER BY business_date, position)
                    FROM corebank.eod_jobs")" t
else
    echo "skip - the table checks: no administrator connection (set EOD_RUNNER_ADMIN_CONNINFO)"
fi

if ((FAILURES == 0)); then echo PASS; else echo FAIL; exit 1; fi
