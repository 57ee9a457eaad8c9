#!/usr/bin/env bash
# shellcheck disable=SC2034,SC2154 # variables shared with bench/lib.sh (sourced)
# bench/history/run.sh: reads and writes at a million entries (issue 12,
# part 5: "the first statement page and an as-of balance of an account with
# 1,000,000 entries <= 2 x the same for an account with 100 entries", and
# "single-transfer throughput with 1,000,000 entries already in the journal
# within 10 % of the rate on an empty one").
#
# Starts its own throwaway cluster and corebankd (bench/lib.sh; the request
# log on, as ./corebank up ships it), opens ACCOUNTS savings accounts for the
# writes plus SMALL, BIG and PEERS counterparties (bench/postings/setup.py),
# then, on that one cluster:
#   1. writes, empty journal: wrk, CLIENTS connections, POST /v1/transfers
#      between two random accounts of the ACCOUNTS (bench/postings/transfer.lua,
#      a unique Idempotency-Key each), a 3 s warm-up, then WRITE s;
#   2. SMALL gets SMALL_ENTRIES entries (its opening deposit and transfers
#      with the peers), BIG gets BIG_ENTRIES (its opening deposit and batches
#      of BATCH transfers with the peers, LOAD_CLIENTS psql sessions calling
#      corebank.core_transfer_batch: the real posting path, every rule and
#      trigger on). Batches post at the business date only, so every entry is
#      on one value date: the worst case for the per-day totals;
#   3. VACUUM (ANALYZE) and CHECKPOINT (what autovacuum and the checkpointer
#      do after such a load, done now so that they do not land inside a phase:
#      a journal that grew to a million entries over months is long vacuumed);
#   4. writes, loaded journal: step 1 again, same accounts;
#   5. reads: pgbench -M prepared -c 4 -j 2 -T READ as corebank_app (the
#      tier's role), calling the SQL faces the tier calls:
#      corebank.core_accounts_balance(id, as_of) with as_of yesterday and
#      today, and the first statement page (default limit) once the paged
#      corebank.core_statement exists (else "waiting on paging"), SMALL and BIG;
#   6. ANALYZE, the ledger checks (bench/batch/check.sql: hash chain, balances
#      and day totals against entries, trial balance) and the entry counts.
# Prints a table and, last, "ratios asof=<BIG/SMALL mean latency, worse of
# the two dates> statement=<BIG/SMALL|waiting> writes=<loaded/empty tps>"
# (goals: asof and statement <= 2.0, writes >= 0.9).
#
# Usage: bench/history/run.sh [--big-entries N] [--read-seconds N] [--write-seconds N]
#                             [--build-dir DIR] [--no-install] [--keep]
#   --big-entries N    entries of BIG (default 1000000; 10000..2000000)
#   --read-seconds N   length of each read case (default 10)
#   --write-seconds N  length of each write phase (default 15)
# Exit status: 0 when the run completed (whatever the ratios), 1 on an error.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
readonly ROOT
export BENCH_DIR=$ROOT/bench
readonly HERE=$ROOT/bench/history

big_entries=1000000
readonly SMALL_ENTRIES=100
readonly BATCH=8000
readonly LOAD_CLIENTS=2
readonly PEERS=4
readonly WRITE_CLIENTS=8
readonly READ_CLIENTS=4
readonly ACCOUNTS=200
read_s=10
write_s=15
build_dir=$ROOT/build
install=1
keep=0
while (($#)); do
    case $1 in
        --big-entries) big_entries=$2; shift 2 ;;
        --read-seconds) read_s=$2; shift 2 ;;
        --write-seconds) write_s=$2; shift 2 ;;
        --build-dir) build_dir=$2; shift 2 ;;
        --no-install) install=0; shift ;;
        --keep) keep=1; shift ;;
        -h | --help) sed -n '3,42p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ $big_entries =~ ^[0-9]+$ ]] && ((big_entries >= 10000 && big_entries <= 2000000)) ||
    { echo "--big-entries must be 10000..2000000" >&2; exit 2; }
[[ $read_s =~ ^[0-9]+$ ]] && ((read_s >= 1 && read_s <= 60)) || { echo "--read-seconds must be 1..60" >&2; exit 2; }
[[ $write_s =~ ^[0-9]+$ ]] && ((write_s >= 1 && write_s <= 60)) || { echo "--write-seconds must be 1..60" >&2; exit 2; }

# shellcheck source=../lib.sh
source "$ROOT/bench/lib.sh"
command -v pgbench >/dev/null || die "pgbench is required (postgresql-client-15)"
started=$SECONDS
bench_build "$build_dir" "$install"
bench_start_cluster
bench_start_tier
key=$(cli key-create --service core --scopes admin --name bench-history --caller bench --rate-limit 1000000)
bench_staff teller
actor=$(psql -X -At -v ON_ERROR_STOP=1 -v email="$staff_email" "$admin_url" \
    <<<"SELECT id FROM corebank.auth_users WHERE email = :'email'" 2>&1) || die "staff id: $actor"
[[ $actor =~ ^[0-9a-f-]{36}$ ]] || die "staff id: $actor"

log "opening $ACCOUNTS accounts for the writes and $((PEERS + 2)) for the history"
t0=$SECONDS
python3 "$ROOT/bench/postings/setup.py" --core-url "$core_url" --key "$key" --token "$staff_token" \
    --count "$ACCOUNTS" --out "$tmp/accounts.txt"
python3 "$ROOT/bench/postings/setup.py" --core-url "$core_url" --key "$key" --token "$staff_token" \
    --count "$((PEERS + 2))" --out "$tmp/history.txt"
mapfile -t history_ids <"$tmp/history.txt"
small=${history_ids[0]}
big=${history_ids[1]}
peers="{$(IFS=,; echo "${history_ids[*]:2}")}"
log "opened in $((SECONDS - t0)) s; SMALL $small, BIG $big"

# Writes: bench/postings' wrk script on random pairs of the ACCOUNTS.
run_wrk() { # NAME SECONDS
    wrk -t 2 -c "$WRITE_CLIENTS" -d "${2}s" --timeout 10s -s "$ROOT/bench/postings/transfer.lua" "$core_url/v1/transfers" \
        -- "$key" "$staff_token" "$tmp/accounts.txt" many >"$tmp/log/wrk-$1.txt" 2>"$tmp/log/wrk-$1.err" ||
        die "wrk failed: $(cat "$tmp/log/wrk-$1.err")"
    if [[ -s $tmp/log/wrk-$1.err ]]; then sed 's/^/  /' "$tmp/log/wrk-$1.err" | head -n 3 >&2; fi
    wrk_summary "$tmp/log/wrk-$1.txt"
}
acked_wrk() { wrk_summary "$tmp/log/wrk-$1.txt" | awk '{ print $4 - $5 }'; }
log "writes on the empty journal: warm-up (3 s), then $WRITE_CLIENTS clients, ${write_s} s"
run_wrk warmup-empty 3 >/dev/null
read -r empty_tps empty_p50 empty_p99 empty_n empty_err < <(run_wrk empty "$write_s")
# Other work on the machine moves single runs by tens of per cent: the load
# average at the end of each write phase says how busy it was.
load_empty=$(cut -d' ' -f1 /proc/loadavg)

# The history: SMALL in one batch, BIG in LOAD_CLIENTS sessions of batches.
# Each account already has one entry, its opening deposit.
load_batch() { # ACCOUNT N: one batch; prints "posted failed"
    psql -X -At -F ' ' -v ON_ERROR_STOP=1 -v big="$1" -v peers="$peers" -v actor="$actor" -v n="$2" \
        "$admin_url" -f "$HERE/load.sql"
}
load_session() { # ACCOUNT TRANSFERS OUT: batches of BATCH until TRANSFERS are posted
    local left=$2 n
    while ((left > 0)); do
        n=$((left < BATCH ? left : BATCH))
        load_batch "$1" "$n" >>"$3" || return 1
        left=$((left - n))
    done
}
log "SMALL: $((SMALL_ENTRIES - 1)) transfers"
load_batch "$small" "$((SMALL_ENTRIES - 1))" >"$tmp/log/load-small.txt" || die "loading SMALL failed"
big_transfers=$((big_entries - 1))
log "BIG: $big_transfers transfers in batches of $BATCH, $LOAD_CLIENTS sessions"
t0=$SECONDS
pids=()
for ((c = 0; c < LOAD_CLIENTS; c++)); do
    share=$((big_transfers / LOAD_CLIENTS + (c < big_transfers % LOAD_CLIENTS ? 1 : 0)))
    load_session "$big" "$share" "$tmp/log/load-big-$c.txt" &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || die "loading BIG failed (see $tmp/log/load-big-*.txt)"; done
load_s=$((SECONDS - t0))
read -r loaded load_failed < <(cat "$tmp/log/load-small.txt" "$tmp"/log/load-big-*.txt |
    awk '{ p += $1; f += $2 } END { print p + 0, f + 0 }')
((load_failed == 0 && loaded == big_transfers + SMALL_ENTRIES - 1)) ||
    die "the load posted $loaded transfers with $load_failed failed items, not $((big_transfers + SMALL_ENTRIES - 1))"
log "loaded $loaded transfers in $load_s s; VACUUM (ANALYZE) and CHECKPOINT"
t0=$SECONDS
psql -X -q -v ON_ERROR_STOP=1 "$admin_url" -c "VACUUM (ANALYZE)" -c "CHECKPOINT" >/dev/null || die "VACUUM/CHECKPOINT failed"
settle_s=$((SECONDS - t0))

log "writes on the loaded journal: warm-up (3 s), then $WRITE_CLIENTS clients, ${write_s} s"
run_wrk warmup-loaded 3 >/dev/null
read -r loaded_tps loaded_p50 loaded_p99 loaded_n loaded_err < <(run_wrk loaded "$write_s")
load_loaded=$(cut -d' ' -f1 /proc/loadavg)

# Reads: pgbench as the tier's role. Prints "tps mean_ms p99_ms transactions failed".
read_conn=(-h "$sock" -p "$pg_port" -U corebank_app -d corebank_bench)
run_read() { # NAME SCRIPT VAR=VALUE...
    local name=$1 script=$2 defs=() d
    shift 2
    for d in "$@"; do defs+=(-D "$d"); done
    mkdir -p "$tmp/log/$name"
    (cd "$tmp/log/$name" && pgbench "${read_conn[@]}" -n -M prepared -c "$READ_CLIENTS" -j 2 -T "$read_s" \
        -l --log-prefix=tx -f "$script" "${defs[@]}" >"$tmp/log/pgbench-$name.txt" 2>&1) ||
        die "pgbench $name failed: $(tail -n 5 "$tmp/log/pgbench-$name.txt")"
    local tps mean failed p99
    tps=$(awk '/^tps = / { printf "%.1f", $3; exit }' "$tmp/log/pgbench-$name.txt")
    mean=$(awk '/^latency average = / { print $4; exit }' "$tmp/log/pgbench-$name.txt")
    failed=$(awk -F': ' '/number of failed/ { split($2, f, " "); print f[1]; exit }' "$tmp/log/pgbench-$name.txt")
    read -r p99 n < <(cat "$tmp/log/$name"/tx.* | awk '{ print $3 }' | sort -n |
        awk '{ v[NR] = $1 } END { i = int(NR * 0.99); if (i < 1) i = 1; printf "%.3f %d\n", v[i] / 1000, NR }')
    echo "$tps $mean $p99 $n ${failed:-0}"
}
today=$(psql -X -At -v ON_ERROR_STOP=1 "$admin_url" -c "SELECT corebank_internal.business_today()") || die "business date"
yesterday=$(date -d "$today - 1 day" +%F)
declare -A read_result=()
for acct_name in SMALL BIG; do
    acct=$small; [[ $acct_name == BIG ]] && acct=$big
    for day in yesterday today; do
        as_of=$today; [[ $day == yesterday ]] && as_of=$yesterday
        log "reads: as-of balance of $acct_name at $day ($as_of), $READ_CLIENTS clients, ${read_s} s"
        read_result[asof:$day:$acct_name]=$(run_read "asof-$day-$acct_name" "$HERE/balance.sql" "acct=$acct" "asof=$as_of")
    done
done
# The paged statement (issue 12 part 4, the signature statement.sql calls)
# has a limit; the unpaged one returns every line of the period: a million
# lines for BIG, which is not a read worth timing.
statement_paged=$(psql -X -At -v ON_ERROR_STOP=1 "$admin_url" -c \
    "SELECT count(*) FROM pg_proc
      WHERE oid = to_regprocedure('corebank.core_statement(uuid, date, date, integer, text, date, bigint, bigint)')") ||
    die "reading the catalogue failed"
if ((statement_paged > 0)) && [[ -f $HERE/statement.sql ]]; then
    for acct_name in SMALL BIG; do
        acct=$small; [[ $acct_name == BIG ]] && acct=$big
        log "reads: first statement page of $acct_name, $READ_CLIENTS clients, ${read_s} s"
        read_result[statement:$acct_name]=$(run_read "statement-$acct_name" "$HERE/statement.sql" "acct=$acct")
    done
else
    log "reads: the statement is not paged yet (corebank.core_statement has no limit): waiting on paging"
fi

log "checking the ledger"
t0=$SECONDS
psql -X -q "$admin_url" -c "ANALYZE corebank.transactions, corebank.journal_entries" >/dev/null || log "ANALYZE failed"
check=$(psql -X -At -v ON_ERROR_STOP=1 "$admin_url" -f "$ROOT/bench/batch/check.sql" 2>&1) ||
    check="check failed: $(tr '\n' ' ' <<<"${check:-}")|?|?|"
IFS='|' read -r ledger_report posted entries check_times <<<"$check"
counts=$(psql -X -At -F ' ' -v ON_ERROR_STOP=1 -v small="$small" -v big="$big" "$admin_url" <<'SQL'
SELECT (SELECT count(*) FROM corebank.journal_entries WHERE ledger_account_id = :'small'),
       (SELECT count(*) FROM corebank.journal_entries WHERE ledger_account_id = :'big'),
       (SELECT count(*) FROM corebank.journal_entries),
       (SELECT count(DISTINCT value_date) FROM corebank.journal_entries WHERE ledger_account_id = :'big');
SQL
) || counts="? ? ? ?"
read -r small_count big_count journal_count big_days <<<"$counts"
check_s=$((SECONDS - t0))
acked=$(($(acked_wrk warmup-empty) + $(acked_wrk empty) + $(acked_wrk warmup-loaded) + $(acked_wrk loaded) + loaded))
tier_errors=$(grep -cE '"level":"(error|fatal)"|"status":5[0-9][0-9]' "$tmp/log/corebankd.log" || true)
pg_errors=$(grep -cE 'ERROR|FATAL|PANIC' "$tmp/log/postgresql.log" || true)

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
max_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "n/a" || b == "n/a") ? "n/a" : (a + 0 > b + 0 ? a : b) }'; }
printf '\n'
printf 'history benchmark: SMALL %s entries, BIG %s entries (%s value date(s)), journal %s entries; %s cores (clients, corebankd and PostgreSQL share them)\n' \
    "$small_count" "$big_count" "$big_days" "$journal_count" "$(nproc)"
printf 'load: %s transfers through corebank.core_transfer_batch in %s s (%s transfers/s); VACUUM (ANALYZE) + CHECKPOINT %s s\n' \
    "$loaded" "$load_s" "$(awk -v a="$loaded" -v b="$load_s" 'BEGIN { printf "%.0f", (b > 0 ? a / b : 0) }')" "$settle_s"
fmt='%-52s %10s %9s %9s %9s %6s %9s\n'
# shellcheck disable=SC2059 # the format is a variable on purpose
printf "$fmt" "reads (pgbench -M prepared, $READ_CLIENTS clients, ${read_s} s)" "tps" "mean ms" "p99 ms" "calls" "failed" "BIG/SMALL"
asof_ratios=()
for day in yesterday today; do
    for acct_name in SMALL BIG; do
        read -r tps mean p99 n failed <<<"${read_result[asof:$day:$acct_name]}"
        r=""
        if [[ $acct_name == BIG ]]; then
            r=$(ratio "$mean" "$(cut -d' ' -f2 <<<"${read_result[asof:$day:SMALL]}")")
            asof_ratios+=("$r")
        fi
        # shellcheck disable=SC2059
        printf "$fmt" "as-of balance, $day, $acct_name" "$tps" "$mean" "$p99" "$n" "$failed" "$r"
    done
done
statement_ratio=waiting
if [[ -n ${read_result[statement:SMALL]:-} ]]; then
    for acct_name in SMALL BIG; do
        read -r tps mean p99 n failed <<<"${read_result[statement:$acct_name]}"
        r=""
        if [[ $acct_name == BIG ]]; then
            r=$(ratio "$mean" "$(cut -d' ' -f2 <<<"${read_result[statement:SMALL]}")")
            statement_ratio=$r
        fi
        # shellcheck disable=SC2059
        printf "$fmt" "first statement page, $acct_name" "$tps" "$mean" "$p99" "$n" "$failed" "$r"
    done
else
    printf '%-52s waiting on paging (corebank.core_statement is not paged yet)\n' "first statement page, SMALL and BIG"
fi
fmt='%-52s %10s %9s %9s %9s %6s %9s\n'
# shellcheck disable=SC2059
printf "$fmt" "writes (wrk, $WRITE_CLIENTS clients, ${write_s} s, $ACCOUNTS accounts)" "tps" "p50 ms" "p99 ms" "requests" "errors" "x empty"
# shellcheck disable=SC2059
printf "$fmt" "HTTP transfers, empty journal" "$empty_tps" "$empty_p50" "$empty_p99" "$empty_n" "$empty_err" ""
# shellcheck disable=SC2059
printf "$fmt" "HTTP transfers, $journal_count entries in the journal" "$loaded_tps" "$loaded_p50" "$loaded_p99" "$loaded_n" "$loaded_err" \
    "$(ratio "$loaded_tps" "$empty_tps")"
printf 'load average (1 min) at the end of the write phases: %s empty, %s loaded\n' "$load_empty" "$load_loaded"
printf 'ledger after the run: %s (%s)\n' "$ledger_report" "$check_times"
printf 'TRANSFER transactions %s, acknowledged %s (+ up to %s in flight per wrk run); checks and counts %s s\n' \
    "$posted" "$acked" "$WRITE_CLIENTS" "$check_s"
printf 'log lines: corebankd errors and 5xx answers %s, postgresql ERROR/FATAL %s\n' "$tier_errors" "$pg_errors"
printf 'time: %s s in all\n' "$((SECONDS - started))"
printf 'ratios asof=%s statement=%s writes=%s\n' "$(max_ratio "${asof_ratios[0]}" "${asof_ratios[1]}")" \
    "$statement_ratio" "$(ratio "$loaded_tps" "$empty_tps")"
