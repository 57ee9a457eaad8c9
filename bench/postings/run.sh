#!/usr/bin/env bash
# shellcheck disable=SC2034,SC2154 # variables shared with bench/lib.sh (sourced)
# bench/postings/run.sh: single transfers through HTTP against pgbench tpcb-like
# (issue 7, "Benchmarks" 1).
#
# Starts its own throwaway cluster and corebankd (bench/lib.sh, the way of
# bench/ingest/run.sh), opens ACCOUNTS savings accounts through HTTP,
# initialises pgbench (scale 10, a database of its own), then runs ROUNDS
# rounds (default 5) of three phases of SECONDS (default 6) each:
#   1. many: wrk with CLIENTS connections posts POST /v1/transfers between two
#      random accounts (amount 1, a unique Idempotency-Key each);
#   2. hot:  the same, but every transfer credits one account (its balance row
#      is the point of contention);
#   3. pgbench -b tpcb-like -c CLIENTS -j 2 on the same cluster.
# Rounds, not one long phase each: this machine's speed drifts by several per
# cent within a minute (it is a virtual machine sharing its host), and a
# ratio of two phases run far apart measures the drift as much as the code.
# Each round's ratios compare phases run back to back; the figures reported
# are the medians over the rounds. Then it checks the ledger (hash chain,
# balances against entries, trial balance) and prints each round, the
# medians and, on the last line, the median ratios to pgbench (issue 12's
# goals: many >= 0.5, hot >= 0.4). Everything is removed afterwards.
#
# Usage: bench/postings/run.sh [--seconds N] [--rounds N] [--clients N] [--accounts N]
#                              [--build-dir DIR] [--no-install] [--keep]
# Exit status: 0 when the run completed (whatever the ratio), 1 on an error.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
readonly ROOT
export BENCH_DIR=$ROOT/bench

phase_s=6
rounds=5
clients=8
accounts=200
build_dir=$ROOT/build
install=1
keep=0
while (($#)); do
    case $1 in
        --seconds) phase_s=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --clients) clients=$2; shift 2 ;;
        --accounts) accounts=$2; shift 2 ;;
        --build-dir) build_dir=$2; shift 2 ;;
        --no-install) install=0; shift ;;
        --keep) keep=1; shift ;;
        -h | --help) sed -n '3,27p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ $phase_s =~ ^[0-9]+$ ]] && ((phase_s >= 1 && phase_s <= 60)) || { echo "--seconds must be 1..60" >&2; exit 2; }
[[ $rounds =~ ^[0-9]+$ ]] && ((rounds >= 1 && rounds <= 9)) || { echo "--rounds must be 1..9" >&2; exit 2; }
[[ $clients =~ ^[0-9]+$ ]] && ((clients >= 2 && clients <= 64)) || { echo "--clients must be 2..64" >&2; exit 2; }
[[ $accounts =~ ^[0-9]+$ ]] && ((accounts >= 3 && accounts <= 5000)) || { echo "--accounts must be 3..5000" >&2; exit 2; }

# shellcheck source=../lib.sh
source "$ROOT/bench/lib.sh"
started=$SECONDS
bench_build "$build_dir" "$install"
bench_start_cluster
bench_start_tier
key=$(cli key-create --service core --scopes admin --name bench-postings --caller bench --rate-limit 1000000)
bench_staff teller

log "opening $accounts accounts"
t0=$SECONDS
python3 "$ROOT/bench/postings/setup.py" --core-url "$core_url" --key "$key" --token "$staff_token" \
    --count "$accounts" --out "$tmp/accounts.txt"
log "opened in $((SECONDS - t0)) s"

run_wrk() { # NAME MODE SECONDS
    wrk -t 2 -c "$clients" -d "${3}s" --timeout 10s -s "$ROOT/bench/postings/transfer.lua" "$core_url/v1/transfers" \
        -- "$key" "$staff_token" "$tmp/accounts.txt" "$2" >"$tmp/log/wrk-$1.txt" 2>"$tmp/log/wrk-$1.err" ||
        die "wrk failed: $(cat "$tmp/log/wrk-$1.err")"
    if [[ -s $tmp/log/wrk-$1.err ]]; then sed 's/^/  /' "$tmp/log/wrk-$1.err" | head -n 3 >&2; fi
    wrk_summary "$tmp/log/wrk-$1.txt"
}
log "pgbench: initialising scale 10 in database pgbench"
pg_conn=(-h "$sock" -p "$pg_port" -U postgres)
psql -X -q "${pg_conn[@]}" -d postgres -c "CREATE DATABASE pgbench" >/dev/null
t0=$SECONDS
pgbench "${pg_conn[@]}" -i -s 10 -q pgbench >"$tmp/log/pgbench-init.txt" 2>&1 || die "pgbench -i failed"
log "initialised in $((SECONDS - t0)) s"

run_pgbench() { # ROUND -> tps p50 p99 transactions failed
    local dir=$tmp/log/pgbench-$1
    mkdir -p "$dir"
    (cd "$dir" && pgbench "${pg_conn[@]}" -b tpcb-like -c "$clients" -j 2 -T "$phase_s" -l --log-prefix=pgb pgbench \
        >"$dir/pgbench.txt" 2>&1) || die "pgbench failed: $(tail -n 5 "$dir/pgbench.txt")"
    local tps fail
    tps=$(awk '/^tps = / { print $3; exit }' "$dir/pgbench.txt")
    fail=$(awk -F': ' '/number of failed/ { split($2, f, " "); print f[1]; exit }' "$dir/pgbench.txt")
    cat "$dir"/pgb.* | awk '{ print $3 }' | sort -n |
        awk -v tps="$tps" -v fail="${fail:-0}" '{ v[NR] = $1 } END { i50 = int(NR * 0.50); if (i50 < 1) i50 = 1;
             i99 = int(NR * 0.99); if (i99 < 1) i99 = 1;
             printf "%.1f %.3f %.3f %d %d\n", tps, v[i50] / 1000, v[i99] / 1000, NR, fail }'
}

log "warm-up (3 s)"
run_wrk warmup many 3 >/dev/null
acked=$(wrk_summary "$tmp/log/wrk-warmup.txt" | awk '{ print $4 - $5 }')
declare -a many_rows=() hot_rows=() pgb_rows=()
for ((round = 1; round <= rounds; round++)); do
    log "round $round of $rounds: many accounts, one hot account, pgbench tpcb-like; $clients clients, ${phase_s} s each"
    many_rows+=("$(run_wrk "many-$round" many "$phase_s")")
    hot_rows+=("$(run_wrk "hot-$round" hot "$phase_s")")
    pgb_rows+=("$(run_pgbench "$round")")
    for row in "${many_rows[-1]}" "${hot_rows[-1]}"; do
        acked=$((acked + $(awk '{ print $4 - $5 }' <<<"$row")))
    done
done

log "checking the ledger"
ledger_report=$(psql -X -At "$admin_url" -f "$ROOT/bench/postings/check.sql" 2>&1) || ledger_report="check failed: ${ledger_report:-}"

# Every acknowledged transfer posted exactly once (idempotency keys are unique per request).
posted=$(psql -X -At "$admin_url" -c "SELECT count(*) FROM corebank.transactions WHERE type = 'TRANSFER'" 2>/dev/null || echo "?")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
field() { awk -v f="$2" '{ print $f }' <<<"$1"; }
row() { # LABEL "tps p50 p99 requests errors"
    printf '%-34s %10s %9s %9s %9s %7s\n' "$1" "$(field "$2" 1)" "$(field "$2" 2)" "$(field "$2" 3)" "$(field "$2" 4)" "$(field "$2" 5)"
}
printf '\n'
printf 'postings benchmark: %s clients, %s accounts, %s rounds of %s s per phase, %s cores (wrk, corebankd and PostgreSQL share them)\n' \
    "$clients" "$accounts" "$rounds" "$phase_s" "$(nproc)"
printf '%-34s %10s %9s %9s %9s %7s\n' "workload" "tps" "p50 ms" "p99 ms" "requests" "errors"
declare -a many_ratios=() hot_ratios=() many_tps=() hot_tps=() pgb_tps=()
for ((i = 0; i < rounds; i++)); do
    printf 'round %d\n' "$((i + 1))"
    row "  HTTP transfers, many accounts" "${many_rows[i]}"
    row "  HTTP transfers, one hot account" "${hot_rows[i]}"
    row "  pgbench tpcb-like (scale 10)" "${pgb_rows[i]}"
    many_tps+=("$(field "${many_rows[i]}" 1)")
    hot_tps+=("$(field "${hot_rows[i]}" 1)")
    pgb_tps+=("$(field "${pgb_rows[i]}" 1)")
    many_ratios+=("$(ratio "${many_tps[-1]}" "${pgb_tps[-1]}")")
    hot_ratios+=("$(ratio "${hot_tps[-1]}" "${pgb_tps[-1]}")")
    printf '  ratios: many/pgbench = %s, hot/pgbench = %s\n' "${many_ratios[-1]}" "${hot_ratios[-1]}"
done
printf 'medians over %s rounds: many %s tps, hot %s tps, pgbench %s tps\n' "$rounds" \
    "$(median "${many_tps[@]}")" "$(median "${hot_tps[@]}")" "$(median "${pgb_tps[@]}")"
printf 'ledger after the run: %s; TRANSFER transactions %s, acknowledged requests %s\n' "$ledger_report" "$posted" "$acked"
printf 'time: %s s in all\n' "$((SECONDS - started))"
printf 'ratios (median of the rounds): many/pgbench = %s (goal >= 0.5), hot/pgbench = %s (goal >= 0.4)\n' \
    "$(median "${many_ratios[@]}")" "$(median "${hot_ratios[@]}")"
