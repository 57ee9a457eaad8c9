#!/usr/bin/env bash
# shellcheck disable=SC2034,SC2154 # variables shared with bench/lib.sh (sourced)
# bench/batch/run.sh: batch postings against a plain INSERT of the same journal
# entries and against single transfers (issue 7, "Batch postings": goal
# batch >= 0.3 x plain INSERT and >= 10 x single transfers).
#
# Starts its own throwaway cluster and corebankd (bench/lib.sh), opens ACCOUNTS
# savings accounts through HTTP (bench/postings/setup.py), then, on that one
# cluster:
#   1. single: wrk, 8 connections (bench/postings' default), POST /v1/transfers
#      between two random accounts (bench/postings/transfer.lua) for SINGLE s
#      after a 2 s warm-up: the single-transfer baseline;
#   2. batch / plain, interleaved, for each client count of CLIENTS (e.g. 2,4),
#      SECONDS each (bench/batch/bench.py): CLIENTS threads post batches of
#      8,000 transfers (amount 1, random pairs among all the accounts, a
#      unique Idempotency-Key each) to POST /v1/transfers/batch; then CLIENTS
#      connections run one multi-row INSERT per batch of the same journal
#      entries (2 rows per transfer) into a plain table with the columns,
#      defaults and indexes of corebank.journal_entries but no triggers;
#   3. the same at the largest client count with each client on its own slice
#      of the accounts (disjoint: batches that do not lock the same rows), and
#      with batches of 1,000 transfers.
# Then it checks the ledger (bench/batch/check.sql, the checks of
# bench/postings/check.sql: hash chain, balances against entries, trial
# balance), counts the TRANSFER transactions against the
# acknowledged ones, and prints transfers/s and p50/p99 per request (a batch or
# a single transfer) and, on the last line, the ratios of the batch (8,000
# transfers, largest client count, shared accounts) to the plain INSERT of the
# same size and client count, and to the single transfers.
#
# Usage: bench/batch/run.sh [--seconds N] [--single-seconds N] [--clients LIST]
#                           [--accounts N] [--statement-timeout-ms N]
#                           [--build-dir DIR] [--no-install] [--keep]
#   --seconds N        length of each batch and plain phase (default 12)
#   --single-seconds N length of the single-transfer phase (default 10)
#   --clients LIST     comma-separated client counts of the batch phases (default 2,4)
#   --accounts N       accounts opened (default 200)
#   --statement-timeout-ms N  corebankd's statement_timeout_ms for the run
#                      (default: that of corebank.conf, 5000; a batch that
#                      waits on the account locks of others can exceed it: 503)
# Exit status: 0 when the run completed (whatever the ratios), 1 on an error.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
readonly ROOT
export BENCH_DIR=$ROOT/bench

phase_s=12
single_s=10
single_clients=8
client_list=2,4
accounts=200
stmt_timeout=""
build_dir=$ROOT/build
install=1
keep=0
while (($#)); do
    case $1 in
        --seconds) phase_s=$2; shift 2 ;;
        --single-seconds) single_s=$2; shift 2 ;;
        --clients) client_list=$2; shift 2 ;;
        --accounts) accounts=$2; shift 2 ;;
        --statement-timeout-ms) stmt_timeout=$2; shift 2 ;;
        --build-dir) build_dir=$2; shift 2 ;;
        --no-install) install=0; shift ;;
        --keep) keep=1; shift ;;
        -h | --help) sed -n '3,41p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ $phase_s =~ ^[0-9]+$ ]] && ((phase_s >= 1 && phase_s <= 60)) || { echo "--seconds must be 1..60" >&2; exit 2; }
[[ $single_s =~ ^[0-9]+$ ]] && ((single_s >= 1 && single_s <= 60)) || { echo "--single-seconds must be 1..60" >&2; exit 2; }
[[ $client_list =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "--clients must be a list like 2,4" >&2; exit 2; }
IFS=, read -r -a clients <<<"$client_list"
for c in "${clients[@]}"; do ((c >= 1 && c <= 16)) || { echo "--clients: each count must be 1..16" >&2; exit 2; }; done
max_clients=$(printf '%s\n' "${clients[@]}" | sort -n | tail -n 1)
[[ -z $stmt_timeout || $stmt_timeout =~ ^[0-9]+$ ]] || { echo "--statement-timeout-ms must be a number" >&2; exit 2; }
[[ $accounts =~ ^[0-9]+$ ]] && ((accounts >= 2 * max_clients && accounts <= 5000)) ||
    { echo "--accounts must be $((2 * max_clients))..5000" >&2; exit 2; }

# shellcheck source=../lib.sh
source "$ROOT/bench/lib.sh"
/usr/bin/python3 -c 'import psycopg2' 2>/dev/null || die "python3-psycopg2 is required (apt-get install python3-psycopg2)"
started=$SECONDS
bench_build "$build_dir" "$install"
bench_start_cluster
tier_env=()
[[ -z $stmt_timeout ]] || tier_env+=("CORE_STATEMENT_TIMEOUT_MS=$stmt_timeout")
bench_start_tier
key=$(cli key-create --service core --scopes admin --name bench-batch --caller bench --rate-limit 1000000)
bench_staff teller

log "opening $accounts accounts"
t0=$SECONDS
python3 "$ROOT/bench/postings/setup.py" --core-url "$core_url" --key "$key" --token "$staff_token" \
    --count "$accounts" --out "$tmp/accounts.txt"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
log "opened in $((SECONDS - t0)) s; load average $load_start"

# 1. The single-transfer baseline (bench/postings' wrk script, 8 connections).
run_wrk() { # NAME SECONDS
    wrk -t 2 -c "$single_clients" -d "${2}s" --timeout 10s -s "$ROOT/bench/postings/transfer.lua" "$core_url/v1/transfers" \
        -- "$key" "$staff_token" "$tmp/accounts.txt" many >"$tmp/log/wrk-$1.txt" 2>"$tmp/log/wrk-$1.err" ||
        die "wrk failed: $(cat "$tmp/log/wrk-$1.err")"
    if [[ -s $tmp/log/wrk-$1.err ]]; then sed 's/^/  /' "$tmp/log/wrk-$1.err" | head -n 3 >&2; fi
    wrk_summary "$tmp/log/wrk-$1.txt"
}
log "single transfers: warm-up (2 s), then $single_clients clients, ${single_s} s"
run_wrk warmup 2 >/dev/null
read -r single_tps single_p50 single_p99 single_n single_err < <(run_wrk single "$single_s")

# 2-3. Batch and plain phases (bench.py), a short warm-up of each first.
phases=("batch:8000:${clients[0]}:shared:3" "plain:8000:${clients[0]}:-:2")
for c in "${clients[@]}"; do phases+=("batch:8000:$c:shared:$phase_s" "plain:8000:$c:-:$phase_s"); done
phases+=("batch:8000:$max_clients:disjoint:$phase_s"
    "batch:1000:$max_clients:shared:$phase_s" "plain:1000:$max_clients:-:$phase_s")
log "batch phases: ${phases[*]}"
/usr/bin/python3 "$ROOT/bench/batch/bench.py" --core-url "$core_url" --key "$key" --token "$staff_token" \
    --database-url "$admin_url" --accounts-file "$tmp/accounts.txt" "${phases[@]}" \
    >"$tmp/log/bench.txt" 2> >(tee "$tmp/log/bench.err" >&2) || die "bench.py failed: $(tail -n 3 "$tmp/log/bench.txt")"
batch_acked=$(awk '/^ACKED / { print $2 }' "$tmp/log/bench.txt")

load_end=$(cut -d' ' -f1-3 /proc/loadavg)
log "checking the ledger; load average $load_end"
# The tables grew by hundreds of thousands of rows in a minute and autovacuum
# may not have analysed them yet; the checks' plans depend on fresh
# statistics (while every extension statement was forced to a generic plan,
# ledger_verify_chain() took 59 s instead of 3.7 s here), so analyse first
# (timed).
t0=$SECONDS
psql -X -q "$admin_url" -c "ANALYZE corebank.transactions, corebank.journal_entries" >/dev/null ||
    log "ANALYZE failed"
analyze_s=$((SECONDS - t0))
t0=$SECONDS
check=$(psql -X -At -v ON_ERROR_STOP=1 "$admin_url" -f "$ROOT/bench/batch/check.sql" 2>&1) || check="check failed: $(tr '\n' ' ' <<<"${check:-}")|?|?|"
check_s=$((SECONDS - t0))
IFS='|' read -r ledger_report posted entries check_times <<<"$check"
single_acked=$(($(wrk_summary "$tmp/log/wrk-warmup.txt" | awk '{ print $4 - $5 }') + single_n - single_err))
tier_errors=$(grep -ciE 'error|exception|fatal' "$tmp/log/corebankd.log" || true)
pg_errors=$(grep -cE 'ERROR|FATAL|PANIC' "$tmp/log/postgresql.log" || true)

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
printf '\n'
printf 'batch postings benchmark: %s accounts, batch/plain phases %s s, single %s s; %s cores (clients, corebankd and PostgreSQL share them)\n' \
    "$accounts" "$phase_s" "$single_s" "$(nproc)"
printf 'load average (1, 5, 15 min): %s before the load, %s after it\n' "$load_start" "$load_end"
fmt='%-50s %10s %9s %9s %8s %6s %8s %8s\n'
# shellcheck disable=SC2059 # the format is a variable on purpose
printf "$fmt" "workload" "transf/s" "p50 ms" "p99 ms" "requests" "errors" "x plain" "x single"
# shellcheck disable=SC2059
printf "$fmt" "HTTP single transfers, $single_clients clients" "$single_tps" "$single_p50" "$single_p99" "$single_n" "$single_err" "" ""
declare -A rate=()
mapfile -t lines < <(grep '^PHASE ' "$tmp/log/bench.txt" | tail -n +3) # the first two are the warm-ups
for line in "${lines[@]}"; do
    read -r _ kind size cl pool _ _ tps _ <<<"$line"
    rate[$kind:$size:$cl:$pool]=$tps
done
for line in "${lines[@]}"; do
    read -r _ kind size cl pool _ _ tps p50 p99 reqs errs failed <<<"$line"
    if [[ $kind == batch ]]; then
        label="HTTP batch of $size, $cl clients, $pool accounts"
        vs_plain=$(ratio "$tps" "${rate[plain:$size:$cl:-]:-0}")
        vs_single=$(ratio "$tps" "$single_tps")
    else
        label="plain INSERT of $size (x2 rows), $cl clients"
        vs_plain="" vs_single=""
    fi
    # shellcheck disable=SC2059
    printf "$fmt" "$label" "$tps" "$p50" "$p99" "$reqs" "$errs" "$vs_plain" "$vs_single"
    ((failed == 0)) || printf '  (%s items of that phase FAILED)\n' "$failed"
done
printf 'ledger after the run: %s (ANALYZE %s s, check %s s: %s)\n' "$ledger_report" "$analyze_s" "$check_s" "$check_times"
printf 'TRANSFER transactions %s (journal entries %s), acknowledged: %s batch items + %s single requests (+ up to %s in flight per wrk run)\n' \
    "$posted" "$entries" "$batch_acked" "$single_acked" "$single_clients"
printf 'log lines: corebankd error/exception %s, postgresql ERROR/FATAL %s\n' "$tier_errors" "$pg_errors"
printf 'time: %s s in all\n' "$((SECONDS - started))"
b=${rate[batch:8000:$max_clients:shared]:-0}
p=${rate[plain:8000:$max_clients:-]:-0}
printf 'ratios: batch/plain-insert = %s (goal >= 0.3), batch/single = %s (goal >= 10)\n' \
    "$(ratio "$b" "$p")" "$(ratio "$b" "$single_tps")"
