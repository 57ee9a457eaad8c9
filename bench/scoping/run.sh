#!/usr/bin/env bash
# shellcheck disable=SC2034,SC2154 # variables shared with bench/lib.sh (sourced)
# bench/scoping/run.sh: what branch scoping costs (issue 15, "Branch scoping,
# in the database": "the bench reports postings and reads with scoping on
# against off (the cost must stay within 10 %)").
#
# Starts its own throwaway cluster and corebankd (bench/lib.sh), makes a
# teller of Harare (HRE) and one of Bulawayo (BYO), and opens ACCOUNTS savings
# accounts through HTTP, half by each (bench/postings/setup.py: a customer
# and an account each, in the teller's branch). Then, on that one cluster and
# with the HRE teller's token on every request:
#   1. transfers: wrk, CLIENTS connections, POST /v1/transfers between two
#      random accounts of both branches (bench/postings/transfer.lua);
#   2. account:   GET /v1/accounts/{id} of a random HRE account;
#   3. statement: GET /v1/accounts/{id}/statement (first page) of one;
#   4. customers: GET /v1/customers?page=0&size=20 (bench/scoping/reads.lua);
#   5. the same three reads in the database alone: pgbench -M prepared, 4
#      clients, as corebank_app, the statements the tier sends for a staff
#      token (SELECT corebank.core_x(...) FROM corebank.actor_scope_set(actor),
#      bench/scoping/sql/), so that the database's share of the cost shows
#      without HTTP, token checks and wrk on the same two cores;
#   6. the control, sql-account-bare: the account read's function without
#      actor_scope_set, as the tier called it before issue 15. The flag cannot
#      change it, so its on/off ratio is the run's noise; its throughput
#      against sql-account's is the scope lookup's fixed cost.
# Each workload has a 3 s warm-up, then ROUNDS rounds of one phase with
# scoping off and one with it on (off-on, then on-off, ...: drift on a busy
# machine falls on both sides), SECONDS each. The flag is set between phases
# in SQL (platform_config.branch_scoping, what the approved PUT writes); the
# tier looks the scope up per request, so the next request sees it. After
# each switch a read of a BYO account by the HRE teller must answer 200 when
# off and 404 when on (the run says so when scoping does not hide it: the
# figures would then not measure a scoped read). The HRE teller sees the
# same HRE accounts either way, so each read returns the same rows on and off
# (the customers page holds 20 rows either way: of HRE's, or of everyone's).
# Prints each phase, the mean throughput and p50 of each side, the ledger's
# checks, and last "ratios: <workload>=<on/off throughput> ..." (goal >= 0.90).
#
# Usage: bench/scoping/run.sh [--seconds N] [--rounds N] [--clients N] [--accounts N]
#                             [--only LIST] [--build-dir DIR] [--no-install] [--keep]
#   --seconds N   length of each phase (default 7; 1..60)
#   --rounds N    off/on pairs per workload (default 2; 1..5)
#   --clients N   wrk connections (default 8; 2..64)
#   --accounts N  accounts opened, half per branch (default 200; 4..2000)
#   --only LIST   the workloads to run, comma-separated, of transfers, account,
#                 statement, customers, sql-account, sql-statement, sql-customers,
#                 sql-account-bare
#                 (default all; transfers first gives the reads' accounts entries)
# Exit status: 0 when the run completed (whatever the ratios), 1 on an error.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
readonly ROOT
export BENCH_DIR=$ROOT/bench
readonly HERE=$ROOT/bench/scoping
readonly ALL_WORKLOADS=(transfers account statement customers sql-account sql-statement sql-customers
    sql-account-bare)
readonly SQL_CLIENTS=4

phase_s=7
rounds=2
clients=8
accounts=200
only=
build_dir=$ROOT/build
install=1
keep=0
while (($#)); do
    case $1 in
        --seconds) phase_s=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --clients) clients=$2; shift 2 ;;
        --accounts) accounts=$2; shift 2 ;;
        --only) only=$2; shift 2 ;;
        --build-dir) build_dir=$2; shift 2 ;;
        --no-install) install=0; shift ;;
        --keep) keep=1; shift ;;
        -h | --help) sed -n '3,49p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ $phase_s =~ ^[0-9]+$ ]] && ((phase_s >= 1 && phase_s <= 60)) || { echo "--seconds must be 1..60" >&2; exit 2; }
[[ $rounds =~ ^[0-9]+$ ]] && ((rounds >= 1 && rounds <= 5)) || { echo "--rounds must be 1..5" >&2; exit 2; }
[[ $clients =~ ^[0-9]+$ ]] && ((clients >= 2 && clients <= 64)) || { echo "--clients must be 2..64" >&2; exit 2; }
[[ $accounts =~ ^[0-9]+$ ]] && ((accounts >= 4 && accounts <= 2000)) || { echo "--accounts must be 4..2000" >&2; exit 2; }
WORKLOADS=()
for w in "${ALL_WORKLOADS[@]}"; do
    [[ -z $only || ,$only, == *,$w,* ]] && WORKLOADS+=("$w")
done
for w in ${only//,/ }; do
    [[ " ${ALL_WORKLOADS[*]} " == *" $w "* ]] || { echo "--only: unknown workload $w" >&2; exit 2; }
done
((${#WORKLOADS[@]})) || { echo "--only names no workload" >&2; exit 2; }

# shellcheck source=../lib.sh
source "$ROOT/bench/lib.sh"
started=$SECONDS
bench_build "$build_dir" "$install"
bench_start_cluster
bench_start_tier
key=$(cli key-create --service core --scopes admin --name bench-scoping --caller bench --rate-limit 1000000)
bench_staff teller BYO
byo_token=$staff_token
bench_staff teller HRE
hre_token=$staff_token
hre_actor=$(psql -X -At -v ON_ERROR_STOP=1 -v email="$staff_email" "$admin_url" \
    <<<"SELECT id FROM corebank.auth_users WHERE email = :'email'" 2>&1) || die "staff id: $hre_actor"
[[ $hre_actor =~ ^[0-9a-f-]{36}$ ]] || die "staff id: $hre_actor"

log "opening $accounts accounts, half in HRE, half in BYO"
t0=$SECONDS
python3 "$ROOT/bench/postings/setup.py" --core-url "$core_url" --key "$key" --token "$hre_token" \
    --count "$((accounts / 2))" --out "$tmp/hre.txt"
python3 "$ROOT/bench/postings/setup.py" --core-url "$core_url" --key "$key" --token "$byo_token" \
    --count "$((accounts - accounts / 2))" --out "$tmp/byo.txt"
cat "$tmp/hre.txt" "$tmp/byo.txt" >"$tmp/all.txt"
log "opened in $((SECONDS - t0)) s"
byo_probe=$(head -n 1 "$tmp/byo.txt")

sql() { psql -X -At -v ON_ERROR_STOP=1 "$admin_url" -c "$1"; }
# scoping on|off: the flag, then a BYO read by the HRE teller (200 off, 404 on).
hidden_ok=1
scoping() {
    sql "UPDATE corebank.platform_config SET branch_scoping = $([[ $1 == on ]] && echo true || echo false)" >/dev/null
    local want=200 got
    [[ $1 == on ]] && want=404
    got=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $key" -H "Authorization: Bearer $hre_token" \
        "$core_url/v1/accounts/$byo_probe")
    if [[ $got != "$want" ]]; then
        [[ $1 == on ]] || die "scoping off and the teller cannot read another branch's account ($got)"
        log "scoping on: a BYO account read by the HRE teller answered $got, not $want"
        hidden_ok=0
    fi
    return 0
}

# In the database alone: pgbench as the tier's role. Prints "tps p50 p99 transactions failed".
hre_ids="{$(paste -sd, "$tmp/hre.txt")}"
run_pgbench() { # WORKLOAD PHASE_NAME SECONDS
    local dir=$tmp/log/$2
    mkdir -p "$dir"
    (cd "$dir" && pgbench -h "$sock" -p "$pg_port" -U corebank_app -d corebank_bench -n -M prepared \
        -c "$SQL_CLIENTS" -j 2 -T "$3" -l --log-prefix=tx -f "$HERE/sql/$(tr - _ <<<"${1#sql-}").sql" \
        -D ids="$hre_ids" -D n="$(wc -l <"$tmp/hre.txt")" -D actor="$hre_actor" >"$dir/pgbench.txt" 2>&1) ||
        die "pgbench $1 failed: $(tail -n 5 "$dir/pgbench.txt")"
    local tps failed
    tps=$(awk '/^tps = / { printf "%.1f", $3; exit }' "$dir/pgbench.txt")
    failed=$(awk -F': ' '/number of failed/ { split($2, f, " "); print f[1]; exit }' "$dir/pgbench.txt")
    cat "$dir"/tx.* | awk '{ print $3 }' | sort -n | awk -v tps="$tps" -v failed="${failed:-0}" '
        { v[NR] = $1 } END { i50 = int(NR * 0.50); if (i50 < 1) i50 = 1; i99 = int(NR * 0.99); if (i99 < 1) i99 = 1;
        printf "%s %.3f %.3f %d %d\n", tps, v[i50] / 1000, v[i99] / 1000, NR, failed }'
}

run_wrk() { # WORKLOAD PHASE_NAME SECONDS: prints "rps p50 p99 requests errors"
    local script=$HERE/reads.lua url=$core_url file=$tmp/hre.txt mode=$1
    if [[ $1 == sql-* ]]; then
        run_pgbench "$@"
        return
    fi
    if [[ $1 == transfers ]]; then
        script=$ROOT/bench/postings/transfer.lua url=$core_url/v1/transfers file=$tmp/all.txt mode=many
    fi
    wrk -t 2 -c "$clients" -d "${3}s" --timeout 10s -s "$script" "$url" \
        -- "$key" "$hre_token" "$file" "$mode" >"$tmp/log/wrk-$2.txt" 2>"$tmp/log/wrk-$2.err" ||
        die "wrk failed: $(cat "$tmp/log/wrk-$2.err")"
    if [[ -s $tmp/log/wrk-$2.err ]]; then sed 's/^/  /' "$tmp/log/wrk-$2.err" | head -n 3 >&2; fi
    wrk_summary "$tmp/log/wrk-$2.txt"
}

declare -A sum_rps=() sum_p50=() phases=()
fmt='%-16s %-5s %5s %10s %9s %9s %9s %7s %6s\n'
for w in "${WORKLOADS[@]}"; do
    log "$w: warm-up (3 s), then $rounds x (off, on) of ${phase_s} s, $([[ $w == sql-* ]] && echo "$SQL_CLIENTS pgbench" || echo "$clients wrk") clients"
    scoping off
    run_wrk "$w" "$w-warmup" 3 >/dev/null
    for ((r = 1; r <= rounds; r++)); do
        order=(off on)
        ((r % 2 == 0)) && order=(on off)
        for side in "${order[@]}"; do
            scoping "$side"
            read -r rps p50 p99 n err < <(run_wrk "$w" "$w-$side-$r" "$phase_s")
            phases[$w.$side.$r]="$rps $p50 $p99 $n $err $(cut -d' ' -f1 /proc/loadavg)"
            sum_rps[$w.$side]=$(awk -v a="${sum_rps[$w.$side]:-0}" -v b="$rps" 'BEGIN { print a + b }')
            sum_p50[$w.$side]=$(awk -v a="${sum_p50[$w.$side]:-0}" -v b="$p50" 'BEGIN { print a + b }')
        done
    done
done
scoping off

log "checking the ledger"
ledger_report=$(psql -X -At "$admin_url" -f "$ROOT/bench/postings/check.sql" 2>&1) || ledger_report="check failed: ${ledger_report:-}"
tier_errors=$(grep -c -E '"status":5[0-9][0-9]|ERROR' "$tmp/log/corebankd.log" || true)

mean() { awk -v a="$1" -v n="$rounds" 'BEGIN { printf "%.1f", a / n }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
printf '\n'
printf 'scoping benchmark: %s wrk clients (%s pgbench for sql-*), %s accounts (half HRE, half BYO), %s x %s s per side, %s cores (clients, corebankd and PostgreSQL share them)\n' \
    "$clients" "$SQL_CLIENTS" "$accounts" "$rounds" "$phase_s" "$(nproc)"
printf "$fmt" "workload" "scope" "round" "req/s" "p50 ms" "p99 ms" "requests" "errors" "load"
for w in "${WORKLOADS[@]}"; do
    for ((r = 1; r <= rounds; r++)); do
        for side in off on; do
            read -r rps p50 p99 n err load <<<"${phases[$w.$side.$r]}"
            printf "$fmt" "$w" "$side" "$r" "$rps" "$p50" "$p99" "$n" "$err" "$load"
        done
    done
done
printf '\n%-16s %12s %12s %8s %11s %11s %8s\n' "workload" "off req/s" "on req/s" "on/off" "off p50 ms" "on p50 ms" "on/off"
ratios=()
for w in "${WORKLOADS[@]}"; do
    off=$(mean "${sum_rps[$w.off]}") on=$(mean "${sum_rps[$w.on]}")
    off50=$(awk -v a="${sum_p50[$w.off]}" -v n="$rounds" 'BEGIN { printf "%.3f", a / n }')
    on50=$(awk -v a="${sum_p50[$w.on]}" -v n="$rounds" 'BEGIN { printf "%.3f", a / n }')
    printf '%-16s %12s %12s %8s %11s %11s %8s\n' "$w" "$off" "$on" "$(ratio "$on" "$off")" "$off50" "$on50" "$(ratio "$on50" "$off50")"
    ratios+=("$w=$(ratio "$on" "$off")")
done
((hidden_ok)) || printf 'WARNING: with scoping on, the HRE teller could read a BYO account: accounts are not scoped in this build\n'
printf 'ledger after the run: %s; corebankd log lines with ERROR or a 5xx: %s\n' "$ledger_report" "$tier_errors"
printf 'time: %s s in all\n' "$((SECONDS - started))"
printf 'ratios: %s (on/off throughput, goal >= 0.90)\n' "${ratios[*]}"
