# shellcheck shell=bash
# tests/soak/run.sh: `./corebank soak [--cycles N] [--seed S] [--build-dir DIR]`,
# the soak test of crashes (issue 12, part 6; docs/testing.md, "Soak test of
# crashes"). Not part of `./corebank test`, which keeps the single-cycle fault
# tests of tests/faults/.
#
# Sourced by the `corebank` script (cmd_soak), whose helpers (log, die, sql,
# cluster_*, data_key_ensure, ...) it uses, like tests/harness/suite.sh, whose
# throwaway cluster (test_cluster_start, test_db_create, pick_free_ports) it
# reuses: a cluster in a mktemp directory on a free port in 24000-24999, one
# database holding the extension and the data migrations, four free ports for
# corebankd. It builds and installs nothing: it runs the corebankd of the
# build directory (default build/, the one `./corebank up` and `test` build)
# against the extension installed in PostgreSQL, and refuses to start when
# either is missing. tests/soak/soak.py then drives the load and the kills
# and prints the report; its exit status is this command's.

readonly SOAK_DEFAULT_CYCLES=50
# A cycle takes a few seconds; the limit only stops a run that hangs.
readonly SOAK_SETUP_LIMIT_S=180
readonly SOAK_CYCLE_LIMIT_S=30

soak_usage() {
    cat <<'EOF'
Usage: ./corebank soak [--cycles N] [--seed S] [--build-dir DIR]

  --cycles N       kill -9 cycles, alternately corebankd and the postmaster (default 50)
  --seed S         seed of the random kill moments and of the load (default: random, printed)
  --build-dir DIR  the build whose httpd/corebankd runs (default build/); the extension
                   must already be installed from the same build (./corebank up or test)
EOF
}

soak_teardown() {
    local rc=$? pidfile
    set +e
    trap - EXIT
    # soak.py starts corebankd in a session of its own: stop it by its pid.
    for pidfile in "$TEST_TMP"/soak/*.pid; do
        [[ -f $pidfile ]] || continue
        kill -9 "$(cat "$pidfile")" 2>/dev/null
    done
    [[ -n $TEST_PG_DATA ]] && cluster_stop "$TEST_PG_DATA" immediate
    if [[ -n $TEST_TMP && -d $TEST_TMP ]]; then
        if [[ -n ${CB_KEEP_TMP:-} || $rc -ne 0 ]]; then
            warn "kept $TEST_TMP (logs of corebankd and PostgreSQL)"
        else
            rm -rf "$TEST_TMP"
        fi
    fi
    exit "$rc"
}

soak_main() {
    # shellcheck disable=SC2153 # BUILD_DIR is the corebank script's build/
    local cycles=$SOAK_DEFAULT_CYCLES seed=${RANDOM}${RANDOM} build_dir=$BUILD_DIR
    while (($#)); do
        case $1 in
            --cycles) cycles=${2:-}; shift 2 || shift $# ;;
            --seed) seed=${2:-}; shift 2 || shift $# ;;
            --build-dir) build_dir=${2:-}; shift 2 || shift $# ;;
            -h | --help) soak_usage; return 0 ;;
            *) soak_usage >&2; die "soak: unknown argument $1" ;;
        esac
    done
    [[ $cycles =~ ^[1-9][0-9]{0,4}$ ]] || die "soak: --cycles takes a whole number from 1 to 99999"
    [[ $seed =~ ^[0-9]{1,18}$ ]] || die "soak: --seed takes a whole number"
    build_dir=$(readlink -f "$build_dir")
    local corebankd=$build_dir/httpd/corebankd
    [[ -x $corebankd ]] || die "soak: $corebankd is not built: run ./corebank up (or test) first"
    [[ -f $("$PG_CONFIG" --sharedir)/extension/corebank.control ]] ||
        die "soak: the extension is not installed: run ./corebank up (or test) first"
    /usr/bin/python3 -c 'import psycopg2' 2>/dev/null || die "soak: python3-psycopg2 is missing"

    # shellcheck source=tests/harness/suite.sh
    source "$ROOT/tests/harness/suite.sh"
    suite_scrub_environment
    cd "$ROOT" || die "cannot enter $ROOT"
    TEST_TMP=$(mktemp -d -p /tmp)
    chmod 755 "$TEST_TMP"
    trap soak_teardown EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    mkdir -p "$TEST_TMP/soak" "$TEST_TMP/mail"
    test_cluster_start || die "soak: the throwaway PostgreSQL cluster did not start"
    test_db_create corebank_soak none || die "soak: could not create database corebank_soak"
    local -a ports
    read -r -a ports < <(pick_free_ports 4 "$TEST_PORT") || true
    ((${#ports[@]} == 4)) || die "soak: no four free ports"
    install -d -m 700 "$TEST_TMP/secrets"
    data_key_ensure "$TEST_TMP/secrets/data.key"

    # The environment of tests/faults/run.sh (see step_faults): soak.py reuses
    # its kill -9 and restart of the postmaster and of corebankd.
    log "soak: $cycles cycles, seed $seed, corebankd $corebankd"
    local rc=0
    CB_DATABASE_URL="$(test_url corebank_soak)" DATABASE_URL="$(test_url corebank_soak)" \
        FAULT_APP_URL="$(test_url corebank_soak corebank_app)" FAULT_PORTS="${ports[*]}" \
        FAULT_PG_BIN="$PG_BIN" FAULT_PG_DATA="$TEST_PG_DATA" FAULT_PG_SOCK="$TEST_SOCK" \
        FAULT_PG_PORT="$TEST_PORT" FAULT_PG_LOG="$TEST_TMP/log/postgresql.log" \
        FAULT_PG_SETTINGS="$TEST_PG_SETTINGS" FAULT_TMP="$TEST_TMP/soak" \
        CB_CLI="$corebankd" FAULT_CONF_FILE="$CONF_FILE" CB_ROOT="$ROOT" PYTHONDONTWRITEBYTECODE=1 \
        CORE_DATA_KEY_FILE="$TEST_TMP/secrets/data.key" CORE_MAIL_DIR="$TEST_TMP/mail" \
        SOAK_CYCLES="$cycles" SOAK_SEED="$seed" \
        timeout --foreground --kill-after=10 $((SOAK_SETUP_LIMIT_S + cycles * SOAK_CYCLE_LIMIT_S)) \
        /usr/bin/python3 "$ROOT/tests/soak/soak.py" || rc=$?
    ((rc == 124)) && warn "soak: stopped after $((SOAK_SETUP_LIMIT_S + cycles * SOAK_CYCLE_LIMIT_S)) s (hung)"
    return "$rc"
}
