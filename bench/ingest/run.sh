#!/usr/bin/env bash
# bench/ingest/run.sh: the event ingestion benchmark (issue 5, "Speed").
#
# Starts its own throwaway PostgreSQL 15 cluster and corebankd (as
# tests/harness/suite.sh does: a mktemp directory, free ports in 24000-24999),
# then runs bench.py: several clients post 500-event batches to
# POST /v1/events for a bounded time, then the same rows go into a scratch
# table with a plain multi-row INSERT on the same cluster for the same time.
# It prints events/s and p50/p99 batch latency for both and, on the last line,
# the ratio (target >= 0.25). Everything is removed afterwards.
#
# Usage: bench/ingest/run.sh [--seconds N] [--clients N] [--occurred year|hour] [--reads]
#                            [--build-dir DIR] [--no-install] [--keep]
#   --seconds N     length of each timed phase (default 20)
#   --clients N     concurrent clients in each phase (default 4)
#   --occurred M    occurredAt spread over the year (default) or all in one hour
#   --reads         instead, time the parity and insight reads at 10k and 1M
#                   events of history (reads.py; about a minute)
#   --build-dir DIR the CMake build to use (default ./build; built if missing)
#   --no-install    do not install the extension (it is already installed)
#   --keep          keep the temporary directory (logs) for inspection
# Installing the extension writes to PostgreSQL's directories and needs root,
# like ./corebank test. Exit status: 0 when the ratio meets the target.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
readonly ROOT
readonly PG_BIN=/usr/lib/postgresql/15/bin
readonly PORT_MIN=24000
readonly PORT_MAX=24999
readonly HEALTH_TIMEOUT_S=30
# The embedded cluster's settings (./corebank up, deploy/cluster-settings.sh):
# durable commits and pgaudit, so the numbers are those of a real deployment
# on this machine.
# shellcheck source=../../deploy/cluster-settings.sh
source "$ROOT/deploy/cluster-settings.sh"
readonly PG_SETTINGS=$PG_EMBEDDED_SETTINGS

phase_s=20
clients=4
build_dir=$ROOT/build
install=1
keep=0
occurred=year
reads=0
while (($#)); do
    case $1 in
        --seconds) phase_s=$2; shift 2 ;;
        --clients) clients=$2; shift 2 ;;
        --build-dir) build_dir=$2; shift 2 ;;
        --no-install) install=0; shift ;;
        --keep) keep=1; shift ;;
        --occurred) occurred=$2; shift 2 ;;
        --reads) reads=1; shift ;;
        -h | --help) sed -n '2,25p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ $phase_s =~ ^[0-9]+$ ]] && ((phase_s >= 1 && phase_s <= 120)) || { echo "--seconds must be 1..120" >&2; exit 2; }
[[ $occurred == year || $occurred == hour ]] || { echo "--occurred must be year or hour" >&2; exit 2; }
[[ $clients =~ ^[0-9]+$ ]] && ((clients >= 1 && clients <= 32)) || { echo "--clients must be 1..32" >&2; exit 2; }

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'run.sh: error: %s\n' "$*" >&2; exit 1; }
as_postgres() { if ((EUID == 0)); then (cd /tmp && runuser -u postgres -- "$@"); else (cd /tmp && "$@"); fi; }

tmp=""
pg_data=""
tier_pid=""
teardown() {
    if [[ -n $tier_pid ]] && kill -0 "$tier_pid" 2>/dev/null; then
        kill -TERM "$tier_pid" 2>/dev/null || true
        wait "$tier_pid" 2>/dev/null || true
    fi
    if [[ -n $pg_data && -f $pg_data/postmaster.pid ]]; then
        as_postgres "$PG_BIN/pg_ctl" stop -D "$pg_data" -m immediate -w >/dev/null 2>&1 || true
    fi
    if [[ -n $tmp && -d $tmp ]]; then
        if ((keep)); then log "kept $tmp"; else rm -rf "$tmp"; fi
    fi
}
trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# free_ports COUNT: COUNT consecutive ports on which nothing listens.
free_ports() {
    local count=$1 start candidate i ok
    local -A taken=()
    local port
    for port in $(ss -Htln | awk '{ n = split($4, part, ":"); print part[n] }'); do taken[$port]=1; done
    start=$((RANDOM % (PORT_MAX - PORT_MIN + 1)))
    for ((i = 0; i <= PORT_MAX - PORT_MIN; i++)); do
        candidate=$((PORT_MIN + (start + i) % (PORT_MAX - PORT_MIN + 1)))
        ((candidate + count - 1 <= PORT_MAX)) || continue
        ok=1
        for ((port = candidate; port < candidate + count; port++)); do [[ -z ${taken[$port]:-} ]] || ok=0; done
        if ((ok)); then seq -s ' ' "$candidate" "$((candidate + count - 1))"; return 0; fi
    done
    return 1
}

corebankd=$build_dir/httpd/corebankd
if [[ ! -x $corebankd || ! -f $build_dir/extension/corebank.so ]]; then
    log "building into $build_dir (a first build takes a few minutes)"
    cmake -S "$ROOT" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build_dir" -j "$(nproc)" >/dev/null
fi
if ((install)); then
    log "installing the extension"
    cmake --install "$build_dir" >/dev/null
fi
/usr/bin/python3 -c 'import psycopg2' 2>/dev/null || die "python3-psycopg2 is required (apt-get install python3-psycopg2)"

tmp=$(mktemp -d -p /tmp corebank-bench.XXXXXX)
chmod 755 "$tmp"
pg_data=$tmp/pg
if ((EUID == 0)); then
    install -d -o postgres -g postgres -m 700 "$pg_data"
    install -d -o postgres -g postgres -m 755 "$tmp/sock" "$tmp/log"
else
    install -d -m 700 "$pg_data"
    install -d -m 755 "$tmp/sock" "$tmp/log"
fi
as_postgres "$PG_BIN/initdb" -D "$pg_data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-instructions >/dev/null
pg_port=$(free_ports 1) || die "no free port for PostgreSQL"
log "starting a throwaway cluster on port $pg_port"
as_postgres "$PG_BIN/pg_ctl" start -D "$pg_data" -l "$tmp/log/postgresql.log" -w -t 60 \
    -o "-p $pg_port -k $tmp/sock -c listen_addresses=127.0.0.1 $PG_SETTINGS" >/dev/null

admin_url="host=$tmp/sock port=$pg_port dbname=corebank_bench user=postgres"
# The plain INSERT baseline runs as postgres: without audit lines, as corebank_app
# (whose pgaudit.log the extension sets to 'none'), so that they slow neither side.
psql -X -q -v ON_ERROR_STOP=1 "host=$tmp/sock port=$pg_port dbname=postgres user=postgres" \
    -c "ALTER ROLE postgres SET pgaudit.log = 'none'" -c "CREATE DATABASE corebank_bench" >/dev/null
psql -X -q -v ON_ERROR_STOP=1 "$admin_url" -c "CREATE EXTENSION corebank" >/dev/null
# The institution's data (chart, products, banks, role policy), as ./corebank up does.
DATABASE_URL="$admin_url" "$ROOT/corebank" migrate >/dev/null

read -r -a ports < <(free_ports 4) || die "no four free ports for corebankd"
install -d -m 700 "$tmp/secrets"
head -c 32 /dev/urandom | base64 >"$tmp/secrets/data.key"
chmod 600 "$tmp/secrets/data.key"
key=$(DATABASE_URL="$admin_url" "$corebankd" key-create --service events --scopes ingest,events:read \
    --caller bench --rate-limit 1000000 --config "$ROOT/corebank.conf")

log "starting corebankd (events on port ${ports[3]})"
env DATABASE_URL="host=$tmp/sock port=$pg_port dbname=corebank_bench user=corebank_app" \
    CORE_LISTEN=127.0.0.1 CORE_CORE_PORT="${ports[0]}" CORE_IDENTITY_PORT="${ports[1]}" \
    CORE_VERIFY_PORT="${ports[2]}" CORE_EVENTS_PORT="${ports[3]}" \
    CORE_MAIL_DIR="$tmp/mail" CORE_DATA_KEY_FILE="$tmp/secrets/data.key" \
    "$corebankd" serve --config "$ROOT/corebank.conf" >"$tmp/log/corebankd.log" 2>&1 &
tier_pid=$!
deadline=$((SECONDS + HEALTH_TIMEOUT_S))
until curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:${ports[3]}/health"; do
    kill -0 "$tier_pid" 2>/dev/null || { tail -n 20 "$tmp/log/corebankd.log" >&2; die "corebankd exited"; }
    ((SECONDS < deadline)) || die "corebankd did not answer within ${HEALTH_TIMEOUT_S}s"
    sleep 0.2
done

log "cluster: $PG_SETTINGS; corebankd: corebank.conf defaults (request log on); $(nproc) cores"
if ((reads)); then
    /usr/bin/python3 "$ROOT/bench/ingest/reads.py" --events-url "http://127.0.0.1:${ports[3]}" --key "$key" \
        --database-url "$admin_url"
    exit 0
fi
/usr/bin/python3 "$ROOT/bench/ingest/bench.py" --events-url "http://127.0.0.1:${ports[3]}" --key "$key" \
    --database-url "$admin_url" --seconds "$phase_s" --clients "$clients" --occurred "$occurred"
