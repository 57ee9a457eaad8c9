#!/usr/bin/env bash
# shellcheck disable=SC2034,SC2154 # variables shared with bench/lib.sh (sourced)
# bench/identity/run.sh: the identity benchmark (issue 7, "Benchmarks" 4).
#
# Starts its own throwaway cluster and corebankd (bench/lib.sh; the login rate
# limit is raised for the run so that it does not cut the load), makes one
# staff user, then with wrk and CLIENTS connections for SECONDS each:
#   1. logins:        POST /auth/login (one argon2id verify each)
#   2. refreshes:     POST /auth/token/refresh (single-use tokens, rotated)
#   3. verifications: GET /auth/me with a valid access token
# beside baselines measured in the same run on the same machine: the argon2id
# hash and verify time with the tier's parameters (bench/identity/hash_time.c,
# hence the login ceiling cores x 1000 / verify ms), RS256 verify/s of OpenSSL
# on one core, and pgbench simple-update with the same clients on the same
# cluster (a database write transaction, for refreshes). Prints a table and,
# on the last line, the ratios.
#
# Usage: bench/identity/run.sh [--seconds N] [--clients N] [--build-dir DIR] [--no-install] [--keep]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
readonly ROOT
export BENCH_DIR=$ROOT/bench

phase_s=10
clients=8
build_dir=$ROOT/build
install=1
keep=0
while (($#)); do
    case $1 in
        --seconds) phase_s=$2; shift 2 ;;
        --clients) clients=$2; shift 2 ;;
        --build-dir) build_dir=$2; shift 2 ;;
        --no-install) install=0; shift ;;
        --keep) keep=1; shift ;;
        -h | --help) sed -n '3,18p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ $phase_s =~ ^[0-9]+$ ]] && ((phase_s >= 1 && phase_s <= 60)) || { echo "--seconds must be 1..60" >&2; exit 2; }
[[ $clients =~ ^[0-9]+$ ]] && ((clients >= 2 && clients <= 64)) || { echo "--clients must be 2..64" >&2; exit 2; }

# shellcheck source=../lib.sh
source "$ROOT/bench/lib.sh"
started=$SECONDS
bench_build "$build_dir" "$install"
command -v gcc >/dev/null || die "gcc is required"
bench_start_cluster
# The GUC corebank.login_rate_limit allows at most 100000. Only a superuser
# sets it (docs/architecture.md, "Trust boundary"): into the database with
# `corebankd settings apply`, and into the tier's own configuration.
# The password lane's throttles (per process) are lifted too, so that the
# login phase measures argon2id's ceiling rather than the throttle.
tier_env=(CORE_LOGIN_RATE_LIMIT=100000 CORE_PASSWORD_ATTEMPTS_PER_S=100000 CORE_PASSWORD_ATTEMPTS_PER_IP_PER_S=100000)
env "${tier_env[@]}" DATABASE_URL="$admin_url" "$corebankd" settings apply --config "$ROOT/corebank.conf" >/dev/null ||
    die "corebankd settings apply failed"
bench_start_tier
# Three kinds of users: at most 3 live sessions per user (a 4th login revokes
# the oldest), so the login load has its own user, the token verification
# another, and every refresh connection one of its own.
bench_staff teller
me_token=$staff_token
bench_staff teller
login_email=$staff_email login_password=$staff_password
: >"$tmp/refresh.txt"
for ((i = 0; i < clients + 2; i++)); do bench_staff teller; echo "$staff_refresh" >>"$tmp/refresh.txt"; done

log "argon2id hash time (tier parameters, 1 thread)"
gcc -O2 -o "$tmp/hash_time" "$ROOT/bench/identity/hash_time.c" -largon2 || die "cannot build hash_time.c (libargon2-dev)"
read -r _ hash_ms verify_ms < <("$tmp/hash_time")

run_wrk() { # NAME SCRIPT SECONDS PATH ARGS...
    local name=$1 script=$2 secs=$3 path=$4; shift 4
    wrk -t 2 -c "$clients" -d "${secs}s" --timeout 10s -s "$ROOT/bench/identity/$script" "$id_url$path" -- "$@" \
        >"$tmp/log/wrk-$name.txt" 2>"$tmp/log/wrk-$name.err" || die "wrk failed: $(cat "$tmp/log/wrk-$name.err")"
    if [[ -s $tmp/log/wrk-$name.err ]]; then sed 's/^/  /' "$tmp/log/wrk-$name.err" | head -n 3 >&2; fi
    wrk_summary "$tmp/log/wrk-$name.txt"
}

log "logins: $clients clients, ${phase_s} s"
read -r login_rps login_p50 login_p99 login_n login_err < <(run_wrk login login.lua "$phase_s" /auth/login "$login_email" "$login_password")

log "refreshes: $clients clients (one user each), ${phase_s} s"
read -r refresh_rps refresh_p50 refresh_p99 refresh_n refresh_err < <(run_wrk refresh refresh.lua "$phase_s" /auth/token/refresh "$tmp/refresh.txt" 2)

log "token verifications (GET /auth/me): $clients clients, ${phase_s} s"
read -r me_rps me_p50 me_p99 me_n me_err < <(run_wrk me me.lua "$phase_s" /auth/me "$me_token")

log "baseline: pgbench simple-update, scale 1, -c $clients -j 2 -T $phase_s"
pg_conn=(-h "$sock" -p "$pg_port" -U postgres)
psql -X -q "${pg_conn[@]}" -d postgres -c "CREATE DATABASE pgbench" >/dev/null
pgbench "${pg_conn[@]}" -i -s 1 -q pgbench >"$tmp/log/pgbench-init.txt" 2>&1 || die "pgbench -i failed"
(cd "$tmp/log" && pgbench "${pg_conn[@]}" -b simple-update -c "$clients" -j 2 -T "$phase_s" -l --log-prefix=pgb pgbench \
    >"$tmp/log/pgbench.txt" 2>&1) || die "pgbench failed: $(tail -n 5 "$tmp/log/pgbench.txt")"
pgb_tps=$(awk '/^tps = / { printf "%.1f", $3; exit }' "$tmp/log/pgbench.txt")
read -r pgb_p50 pgb_p99 pgb_n < <(cat "$tmp"/log/pgb.* | awk '{ print $3 }' | sort -n |
    awk '{ v[NR] = $1 } END { i50 = int(NR * 0.50); if (i50 < 1) i50 = 1; i99 = int(NR * 0.99); if (i99 < 1) i99 = 1;
         printf "%.3f %.3f %d\n", v[i50] / 1000, v[i99] / 1000, NR }')

log "baseline: openssl speed rsa2048 (1 process, 2 s)"
rsa_verify=$(openssl speed -seconds 2 rsa2048 2>/dev/null | awk '/^rsa 2048 bits/ { print $NF; exit }')

ncores=$(nproc)
login_ceiling=$(awk -v c="$ncores" -v v="$verify_ms" 'BEGIN { printf "%.1f", c * 1000 / v }')
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
row() { printf '%-46s %10s %9s %9s %9s %7s\n' "$@"; }
printf '\n'
printf 'identity benchmark: %s clients, %s s per phase, %s cores (wrk, corebankd and PostgreSQL share them)\n' "$clients" "$phase_s" "$ncores"
row "workload" "per s" "p50 ms" "p99 ms" "requests" "errors"
row "POST /auth/login" "$login_rps" "$login_p50" "$login_p99" "$login_n" "$login_err"
row "POST /auth/token/refresh" "$refresh_rps" "$refresh_p50" "$refresh_p99" "$refresh_n" "$refresh_err"
row "GET /auth/me (token verification)" "$me_rps" "$me_p50" "$me_p99" "$me_n" "$me_err"
row "baseline: argon2id ceiling ($ncores x 1000/verify)" "$login_ceiling" "-" "-" "-" "-"
row "baseline: pgbench simple-update (scale 1)" "$pgb_tps" "$pgb_p50" "$pgb_p99" "$pgb_n" "-"
row "baseline: OpenSSL RS256 verify, 1 core" "${rsa_verify:-?}" "-" "-" "-" "-"
printf 'argon2id (t=2, m=19456 KiB, p=1), 1 thread: hash %s ms, verify %s ms\n' "$hash_ms" "$verify_ms"
printf 'time: %s s in all\n' "$((SECONDS - started))"
printf 'ratios: login/argon2 ceiling = %s, refresh/pgbench simple-update = %s, me/pgbench simple-update = %s, me/RS256 verify = %s\n' \
    "$(ratio "$login_rps" "$login_ceiling")" "$(ratio "$refresh_rps" "$pgb_tps")" "$(ratio "$me_rps" "$pgb_tps")" \
    "$(ratio "$me_rps" "${rsa_verify:-0}")"
