#!/usr/bin/env bash
# shellcheck disable=SC2034,SC2154 # variables shared with bench/lib.sh (sourced)
# bench/postings/run.sh: single transfers through HTTP against pgbench tpcb-like
# (issue 7, "Benchmarks" 1).
#
# Starts its own throwaway cluster and corebankd (bench/lib.sh, the way of
# bench/ingest/run.sh), opens ACCOUNTS savings accounts through HTTP, then
#   1. many: wrk with CLIENTS connections posts POST /v1/transfers between two
#      random accounts (amount 1, a unique Idempotency-Key each) for SECONDS;
#   2. hot:  the same, but every transfer credits one account (its balance row
#      is the point of contention);
#   3. pgbench -b tpcb-like -c CLIENTS -j 2 -T SECONDS on the same cluster,
#      scale 10, initialised in a separate database (pgbench).
# Then it checks the ledger (hash chain, balances against entries, trial
# balance) and prints tps, p50/p99 and, on the last line, the ratios to
# pgbench (issue 12's goals: many >= 0.5, hot >= 0.4). Everything is removed afterwards.
#
# Usage: bench/postings/run.sh [--seconds N] [--clients N] [--accounts N]
#                              [--build-dir DIR] [--no-install] [--keep]
# Exit status: 0 when the run completed (whatever the ratio), 1 on an error.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
readonly ROOT
export BENCH_DIR=$ROOT/bench

phase_s=20
clients=8
accounts=200
build_dir=$ROOT/build
install=1
keep=0
while (($#)); do
    case $1 in
        --seconds) phase_s=$2; shift 2 ;;
        --clients) clients=$2; shift 2 ;;
        --accounts) accounts=$2; shift 2 ;;
        --build-dir) build_dir=$2; shift 2 ;;
        --no-install) install=0; shift ;;
        --keep) keep=1; shift ;;
        -h | --help) sed -n '3,20p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ $phase_s =~ ^[0-9]+$ ]] && ((phase_s >= 1 && phase_s <= 60)) || { echo "--seconds must be 1..60" >&2; exit 2; }
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
log "warm-up (3 s)"
run_wrk warmup many 3 >/dev/null
log "many accounts: $clients clients, ${phase_s} s"
read -r many_tps many_p50 many_p99 many_n many_err < <(run_wrk many many "$phase_s")
log "hot account: $clients clients, ${phase_s} s"
read -r hot_tps hot_p50 hot_p99 hot_n hot_err < <(run_wrk hot hot "$phase_s")

log "pgbench: initialising scale 10 in database pgbench"
pg_conn=(-h "$sock" -p "$pg_port" -U postgres)
psql -X -q "${pg_conn[@]}" -d postgres -c "CREATE DATABASE pgbench" >/dev/null
t0=$SECONDS
pgbench "${pg_conn[@]}" -i -s 10 -q pgbench >"$tmp/log/pgbench-init.txt" 2>&1 || die "pgbench -i failed"
log "initialised in $((SECONDS - t0)) s; pgbench tpcb-like -c $clients -j 2 -T $phase_s"
(cd "$tmp/log" && pgbench "${pg_conn[@]}" -b tpcb-like -c "$clients" -j 2 -T "$phase_s" -l --log-prefix=pgb pgbench \
    >"$tmp/log/pgbench.txt" 2>&1) || die "pgbench failed: $(tail -n 5 "$tmp/log/pgbench.txt")"
pgb_tps=$(awk '/^tps = / { print $3; exit }' "$tmp/log/pgbench.txt")
read -r pgb_p50 pgb_p99 pgb_n < <(cat "$tmp"/log/pgb.* | awk '{ print $3 }' | sort -n |
    awk '{ v[NR] = $1 } END { i50 = int(NR * 0.50); if (i50 < 1) i50 = 1; i99 = int(NR * 0.99); if (i99 < 1) i99 = 1;
         printf "%.3f %.3f %d\n", v[i50] / 1000, v[i99] / 1000, NR }')
pgb_fail=$(awk -F': ' '/number of failed/ { split($2, f, " "); print f[1]; exit }' "$tmp/log/pgbench.txt")

log "checking the ledger"
ledger_report=$(psql -X -At "$admin_url" -f "$ROOT/bench/postings/check.sql" 2>&1) || ledger_report="check failed: ${ledger_report:-}"

# Every acknowledged transfer posted exactly once (idempotency keys are unique per request).
posted=$(psql -X -At "$admin_url" -c "SELECT count(*) FROM corebank.transactions WHERE type = 'TRANSFER'" 2>/dev/null || echo "?")
acked=$(($(wrk_summary "$tmp/log/wrk-warmup.txt" | awk '{ print $4 - $5 }') + many_n - many_err + hot_n - hot_err))

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
printf '\n'
printf 'postings benchmark: %s clients, %s accounts, %s s per phase, %s cores (wrk, corebankd and PostgreSQL share them)\n' \
    "$clients" "$accounts" "$phase_s" "$(nproc)"
printf '%-34s %10s %9s %9s %9s %7s\n' "workload" "tps" "p50 ms" "p99 ms" "requests" "errors"
printf '%-34s %10s %9s %9s %9s %7s\n' "HTTP transfers, many accounts" "$many_tps" "$many_p50" "$many_p99" "$many_n" "$many_err"
printf '%-34s %10s %9s %9s %9s %7s\n' "HTTP transfers, one hot account" "$hot_tps" "$hot_p50" "$hot_p99" "$hot_n" "$hot_err"
printf '%-34s %10.1f %9s %9s %9s %7s\n' "pgbench tpcb-like (scale 10)" "$pgb_tps" "$pgb_p50" "$pgb_p99" "$pgb_n" "${pgb_fail:-0}"
printf 'ledger after the run: %s; TRANSFER transactions %s, acknowledged requests %s\n' "$ledger_report" "$posted" "$acked"
printf 'time: %s s in all\n' "$((SECONDS - started))"
printf 'ratios: many/pgbench = %s (goal >= 0.5), hot/pgbench = %s (goal >= 0.4)\n' "$(ratio "$many_tps" "$pgb_tps")" "$(ratio "$hot_tps" "$pgb_tps")"
