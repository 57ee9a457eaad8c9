# shellcheck shell=bash disable=SC2034,SC2154 # variables shared with the scripts that source it
# bench/lib.sh: shared by the benchmarks (sourced). The way of starting a
# throwaway cluster and corebankd is the one of bench/ingest/run.sh: a mktemp
# directory, free ports in 24000-24999, a cluster with the settings ./corebank
# up ships (deploy/cluster-settings.sh: durable commits, pgaudit), CREATE
# EXTENSION corebank, the role policy, corebankd on four free ports with
# corebank.conf's defaults, the request log included (issue 12 part 5: "with
# the settings ./corebank up ships, request log included"). bench_teardown
# removes it all.
readonly PG_BIN=/usr/lib/postgresql/15/bin
readonly PORT_MIN=24000
readonly PORT_MAX=24999
readonly HEALTH_TIMEOUT_S=30
# shellcheck source=../deploy/cluster-settings.sh
source "$ROOT/deploy/cluster-settings.sh"
# BENCH_EXTRA_PG: server settings added after the shipped ones, for an
# experiment (a setting tried before it is shipped, pg_stat_statements
# loaded to profile a run); every figure docs/performance.md records was
# taken without it.
readonly PG_SETTINGS="$PG_EMBEDDED_SETTINGS ${BENCH_EXTRA_PG:-}"

log() { printf '==> %s\n' "$*" >&2; }
die() { printf '%s: error: %s\n' "${0##*/}" "$*" >&2; exit 1; }
as_postgres() { if ((EUID == 0)); then (cd /tmp && runuser -u postgres -- "$@"); else (cd /tmp && "$@"); fi; }

tmp=""
pg_data=""
tier_pid=""
keep=${keep:-0}
bench_teardown() {
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
trap bench_teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

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

# bench_build BUILD_DIR INSTALL(0|1)
bench_build() {
    corebankd=$1/httpd/corebankd
    if [[ ! -x $corebankd || ! -f $1/extension/corebank.so ]]; then
        log "building into $1 (a first build takes a few minutes)"
        cmake -S "$ROOT" -B "$1" -DCMAKE_BUILD_TYPE=Release >/dev/null
        cmake --build "$1" -j "$(nproc)" >/dev/null
    fi
    if (($2)); then log "installing the extension"; cmake --install "$1" >/dev/null; fi
    command -v wrk >/dev/null || die "wrk is required (apt-get install wrk)"
}

# bench_start_cluster: sets tmp, pg_port, sock, admin_url (database corebank_bench).
bench_start_cluster() {
    tmp=$(mktemp -d -p /tmp corebank-bench.XXXXXX)
    chmod 755 "$tmp"
    pg_data=$tmp/pg
    if ((EUID == 0)); then
        install -d -o postgres -g postgres -m 700 "$pg_data"
        install -d -o postgres -g postgres -m 755 "$tmp/sock" "$tmp/log"
    else
        install -d -m 700 "$pg_data"; install -d -m 755 "$tmp/sock" "$tmp/log"
    fi
    as_postgres "$PG_BIN/initdb" -D "$pg_data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-instructions >/dev/null
    pg_port=$(free_ports 1) || die "no free port for PostgreSQL"
    sock=$tmp/sock
    log "starting a throwaway cluster on port $pg_port"
    as_postgres "$PG_BIN/pg_ctl" start -D "$pg_data" -l "$tmp/log/postgresql.log" -w -t 60 \
        -o "-p $pg_port -k $tmp/sock -c listen_addresses=127.0.0.1 $PG_SETTINGS" >/dev/null
    admin_url="host=$tmp/sock port=$pg_port dbname=corebank_bench user=postgres"
    # The root key that seals the signing keys (issue 13, docs/security.md), outside the
    # data directory, as ./corebank's root_key_setup makes it: without it the identity
    # service cannot sign a token and every login answers 503.
    if ((EUID == 0)); then install -d -o postgres -g postgres -m 700 "$tmp/root-key"; else install -d -m 700 "$tmp/root-key"; fi
    as_postgres sh -c 'umask 077 && openssl rand -out "$1" 32' sh "$tmp/root-key/root.key"
    psql -X -q -v ON_ERROR_STOP=1 -v file="$tmp/root-key/root.key" "host=$tmp/sock port=$pg_port dbname=postgres user=postgres" \
        <<<"LOAD 'corebank'; ALTER SYSTEM SET corebank.root_key_file = :'file'; SELECT pg_reload_conf() \\g /dev/null" >/dev/null
    # The baselines (pgbench, the plain INSERTs) run as postgres. pgaudit logs
    # every statement of a superuser, and not one of corebank_app, whose
    # pgaudit.log the extension sets to 'none': the baselines get the same, so
    # that audit lines slow neither side of a ratio.
    psql -X -q -v ON_ERROR_STOP=1 "host=$tmp/sock port=$pg_port dbname=postgres user=postgres" \
        -c "ALTER ROLE postgres SET pgaudit.log = 'none'" -c "CREATE DATABASE corebank_bench" >/dev/null
    psql -X -q -v ON_ERROR_STOP=1 "$admin_url" -c "CREATE EXTENSION corebank" >/dev/null
    # The institution's data (chart, products, banks, role policy), as ./corebank up does.
    DATABASE_URL="$admin_url" "$ROOT/corebank" migrate >/dev/null
}

# cli ARGS...: corebankd's CLI against the bench database.
cli() { DATABASE_URL="$admin_url" "$corebankd" "$@" --config "$ROOT/corebank.conf"; }

# bench_start_tier: sets ports (core identity verify events), core_url, id_url;
# extra VAR=value settings for corebankd in the array tier_env.
bench_start_tier() {
    read -r -a ports < <(free_ports 4) || die "no four free ports for corebankd"
    install -d -m 700 "$tmp/secrets"
    head -c 32 /dev/urandom | base64 >"$tmp/secrets/data.key"
    chmod 600 "$tmp/secrets/data.key"
    log "starting corebankd (core ${ports[0]}, identity ${ports[1]})"
    env DATABASE_URL="host=$tmp/sock port=$pg_port dbname=corebank_bench user=corebank_app" \
        CORE_LISTEN=127.0.0.1 CORE_CORE_PORT="${ports[0]}" CORE_IDENTITY_PORT="${ports[1]}" \
        CORE_VERIFY_PORT="${ports[2]}" CORE_EVENTS_PORT="${ports[3]}" \
        CORE_MAIL_DIR="$tmp/mail" CORE_DATA_KEY_FILE="$tmp/secrets/data.key" ${tier_env[@]+"${tier_env[@]}"} \
        "$corebankd" serve --config "$ROOT/corebank.conf" >"$tmp/log/corebankd.log" 2>&1 &
    tier_pid=$!
    core_url="http://127.0.0.1:${ports[0]}"
    id_url="http://127.0.0.1:${ports[1]}"
    local deadline=$((SECONDS + HEALTH_TIMEOUT_S)) p
    for p in "$core_url/actuator/health" "$id_url/health"; do
        until curl -fs -o /dev/null --max-time 2 "$p"; do
            kill -0 "$tier_pid" 2>/dev/null || { tail -n 20 "$tmp/log/corebankd.log" >&2; die "corebankd exited"; }
            ((SECONDS < deadline)) || die "corebankd did not answer within ${HEALTH_TIMEOUT_S}s"
            sleep 0.2
        done
    done
}

# bench_staff ROLES [BRANCH]: creates a staff member (of branch code BRANCH, else
# head office) and signs in once; sets staff_email, staff_password, staff_token
# (access) and staff_refresh.
bench_staff() {
    staff_email="bench-$RANDOM$RANDOM@example.com"
    # Random, and drawn again in the rare case the password quality check
    # (cracklib) still finds it too easy to guess.
    local tries=0
    until staff_password="Cb-$(openssl rand -base64 12 | tr -dc 'A-Za-z0-9')-7q" &&
        cli staff-create --email "$staff_email" --password "$staff_password" --roles "$1" ${2:+--branch "$2"} \
            >/dev/null 2>"$tmp/staff-create.err"; do
        grep -q 'too easy to guess' "$tmp/staff-create.err" && ((++tries < 5)) || { cat "$tmp/staff-create.err" >&2; die "staff-create failed"; }
    done
    read -r staff_token staff_refresh < <(curl -fsS -H 'Content-Type: application/json' \
        -d "{\"email\":\"$staff_email\",\"password\":\"$staff_password\"}" "$id_url/auth/login" |
        python3 -c 'import json,sys; b = json.load(sys.stdin); print(b["accessToken"], b["refreshToken"])')
    [[ -n $staff_refresh ]] || die "staff login failed"
}

# wrk_json FILE: wrk's summary (from a wrk run whose done() printed the JSON line) as "rps p50_ms p99_ms requests errors".
wrk_summary() { grep '^BENCH ' "$1" | tail -n 1 | cut -d' ' -f2-; }
