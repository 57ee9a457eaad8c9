#!/usr/bin/env bash
# bench/profile/run.sh: where the time of one single transfer goes, in the
# database (issue 12, part 5: "a profile of where the remaining time goes").
#
# Starts a throwaway cluster (bench/lib.sh) with pg_stat_statements tracking
# nested statements and track_functions on, opens 20 savings accounts with
# the pgTAP helpers, then posts N transfers between them through
# corebank.core_transfer in one session and one transaction (so the figures
# are the CPU of the function, without HTTP and without commits), and prints:
#   - statements per transfer (nested ones included),
#   - the statements that run at least once per transfer, by total time,
#   - the functions by self time (track_functions).
# It measures shares, not a rate: compare runs on the same machine only.
#
# With --batch, the same for the batch path instead: the transfers go
# through corebank.core_transfer_batch, 8,000 a call among 200 accounts
# (statements are then listed by total time whatever their call count).
# With --group G, through corebank.core_postings, G single transfer
# requests a call among 200 accounts (what the tier sends for G concurrent
# POST /v1/transfers), listed the same way.
#
# Usage: bench/profile/run.sh [--transfers N] [--batch | --group G] [--build-dir DIR] [--no-install] [--keep]
#   --transfers N   transfers to post (default 1000, 100..100000)
#   --batch         through core_transfer_batch (default N 16000)
#   --group G       through core_postings, G (1..256) a call
#   --build-dir DIR the CMake build to use (default ./build; built if missing)
#   --no-install    do not install the extension (it is already installed)
#   --keep          keep the temporary directory (logs) for inspection
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
readonly ROOT
transfers=
batch=0
group=0
build_dir=$ROOT/build
install=1
keep=0
while (($#)); do
    case $1 in
        --transfers) transfers=$2; shift 2 ;;
        --batch) batch=1; shift ;;
        --group) group=$2; shift 2 ;;
        --build-dir) build_dir=$2; shift 2 ;;
        --no-install) install=0; shift ;;
        --keep) keep=1; shift ;;
        -h | --help) sed -n '2,20p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
if ! [[ $group =~ ^[0-9]+$ ]] || ((group > 256 || (group > 0 && batch))); then
    echo "--group must be 1..256, without --batch" >&2
    exit 2
fi
if [[ -z $transfers ]]; then transfers=$((batch ? 16000 : 1000)); fi
if ! [[ $transfers =~ ^[0-9]+$ ]] || ((transfers < 100 || transfers > 100000)); then
    echo "--transfers must be 100..100000" >&2
    exit 2
fi

# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
trap bench_teardown EXIT
bench_build "$build_dir" "$install"
bench_start_cluster

# pg_stat_statements must be preloaded: restart with the same options and it
# beside pgaudit (a later -c wins over the one in PG_SETTINGS). Its `track`
# and track_functions are set in the profiling session.
as_postgres "$PG_BIN/pg_ctl" restart -D "$pg_data" -l "$tmp/log/postgresql.log" -w -t 60 -m fast \
    -o "-p $pg_port -k $tmp/sock -c listen_addresses=127.0.0.1 $PG_SETTINGS -c shared_preload_libraries=pgaudit,pg_stat_statements" >/dev/null
psql -X -q -v ON_ERROR_STOP=1 "$admin_url" -c "CREATE EXTENSION pg_stat_statements" >/dev/null

function_name=core_transfer
((batch)) && function_name=core_transfer_batch
((group)) && function_name="core_postings (groups of $group)"
log "posting $transfers transfers through corebank.$function_name in one session"
# The helpers (customers, accounts, the operator) are the pgTAP tests' own.
(cd "$ROOT/pgtap" && psql -X -q -v ON_ERROR_STOP=1 -v transfers="$transfers" -v batch="$batch" -v group_size="$group" "$admin_url") <<'SQL'
SET pg_stat_statements.track = 'all';
SET track_functions = 'all';
\ir helpers/deposits.sql
CREATE TEMP TABLE profile_settings AS
SELECT :transfers::int AS transfers, :batch::int = 1 OR :group_size::int > 0 AS batch, :group_size::int AS group_size;
CREATE TEMP TABLE profile_accounts AS
SELECT pg_temp.open(pg_temp.customer('Profile' || g, 'PROFILE-' || g), 'SAV-STD', 100000000) AS id, g
FROM generate_series(1, CASE WHEN (SELECT batch FROM profile_settings) THEN 200 ELSE 20 END) g;
SELECT pg_stat_statements_reset(), pg_stat_reset() \gset
DO $$
DECLARE
    accounts uuid[] := ARRAY(SELECT id FROM profile_accounts ORDER BY g);
    n int := (SELECT transfers FROM profile_settings);
    size int;
    g int := (SELECT group_size FROM profile_settings);
BEGIN
    IF g > 0 THEN
        FOR start IN 0..n - 1 BY g LOOP
            size := least(g, n - start);
            PERFORM corebank.core_postings(
                (SELECT jsonb_agg(jsonb_build_object('operation', 'transfer', 'request', jsonb_build_object(
                    'fromAccountId', accounts[1 + i % 200], 'toAccountId', accounts[1 + (i + 7) % 200],
                    'amountMinor', 1, 'idempotencyKey', 'profile-' || i))) FROM generate_series(start, start + size - 1) i),
                array_fill(pg_temp.operator(), ARRAY[size]));
        END LOOP;
        RETURN;
    END IF;
    IF (SELECT batch FROM profile_settings) THEN
        FOR start IN 0..n - 1 BY 8000 LOOP
            size := least(8000, n - start);
            PERFORM corebank.core_transfer_batch(
                jsonb_build_object('transfers', (SELECT jsonb_agg(jsonb_build_object(
                    'fromAccountId', accounts[1 + i % 200], 'toAccountId', accounts[1 + (i + 7) % 200],
                    'amountMinor', 1)) FROM generate_series(start, start + size - 1) i)),
                pg_temp.operator());
        END LOOP;
        RETURN;
    END IF;
    FOR i IN 1..n LOOP
        PERFORM corebank.core_transfer(jsonb_build_object('fromAccountId', accounts[1 + i % 20],
                                                          'toAccountId', accounts[1 + (i + 7) % 20],
                                                          'amountMinor', 100), pg_temp.operator());
    END LOOP;
END $$;
\echo
\echo '== statements per transfer (nested ones included)'
SELECT round(sum(s.calls)::numeric / p.transfers, 1) AS statements_per_transfer
FROM pg_stat_statements s, profile_settings p
WHERE s.query NOT LIKE 'DO %' AND s.query NOT LIKE 'SELECT pg_stat_statements_reset%'
GROUP BY p.transfers;
\echo '== statements run at least once per transfer (any, with --batch), by total time'
SELECT s.calls, round((s.total_exec_time / p.transfers)::numeric, 4) AS ms_per_transfer,
       left(regexp_replace(s.query, '\s+', ' ', 'g'), 120) AS query
FROM pg_stat_statements s, profile_settings p
WHERE (s.calls >= p.transfers OR p.batch) AND s.query NOT LIKE 'DO %'
ORDER BY s.total_exec_time DESC LIMIT 40;
\echo '== functions by self time'
SELECT f.funcname, f.calls, round((f.self_time / p.transfers)::numeric, 4) AS self_ms_per_transfer,
       round((f.total_time / p.transfers)::numeric, 4) AS total_ms_per_transfer
FROM pg_stat_user_functions f, profile_settings p
ORDER BY f.self_time DESC LIMIT 25;
SQL
