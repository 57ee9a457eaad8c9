# shellcheck shell=bash
# tests/harness/suite.sh: `./corebank test`, every test against throwaway
# resources.
#
# Sourced by the `corebank` script, whose helpers (log, die, sql, cluster_*,
# build_all, ...) it uses. It never touches var/ or the ports of a running
# `./corebank up`: the cluster lives in a mktemp directory on a free port in
# 24000-24999 (below the kernel's ephemeral range, so no outgoing connection
# can hold one), and corebankd gets four other free ports there. In order:
#   sql sources sql/tools/sqlsrc.py check: released scripts unchanged, latest = newest snapshot
#   docs map    docs/check_map.py: every path, function, route and test docs/map.md names exists
#   build      configure, build and install the extension
#   ctest      the GoogleTest binaries registered with ctest
#   fuzz       the libFuzzer targets of tests/fuzz, a few seconds each (build-fuzz)
#   install    CREATE EXTENSION corebank in a fresh database, apply migrations/
#   pgtap      pg_prove pgtap/*.sql in that database
#   concurrency pgtap/concurrency/*.sh, each on a database of its own
#   upgrade    for every older version: install it, ALTER EXTENSION UPDATE,
#              compare the catalog with the fresh install, pg_prove again
#   e2e        corebankd against its own database, tests/e2e/test_*.py
#   faults     tests/faults/run.sh: kill -9 and restarts, on a database of its own
#   replica    a streaming hot standby of the throwaway cluster: a posting
#              becomes visible there, writes fail with 25006 (tests/replica/)
# The EXIT trap tears everything down. The last line printed is always
# "N passed, N failed"; the exit status is non-zero when anything failed.

# shellcheck source=tests/harness/parse.sh
source "$ROOT/tests/harness/parse.sh"
# shellcheck source=tests/replica/replica.sh
source "$ROOT/tests/replica/replica.sh"

readonly TEST_PORT_MIN=24000
readonly TEST_PORT_MAX=24999
readonly SERVER_LOG_LINES=50

# Every runner has a time limit, so that a hung test cannot hang CI. The
# runners run under `timeout --foreground`, which keeps them in this process
# group, so that a Ctrl-C reaches them and not only this script.
readonly CTEST_TIMEOUT_S=300    # per GoogleTest binary
readonly PROVE_TIMEOUT_S=600    # per pg_prove run
readonly E2E_TIMEOUT_S=1200     # the whole Python suite
E2E_PATTERN='test_*.py'         # the modules of the e2e step (fuzz-http: the campaign alone)

# Durability is pointless in a cluster that is deleted afterwards. pgaudit is
# loaded as ./corebank up loads it (PG_AUDIT_SETTINGS), so that the fault tests
# can find a DBA's statement in this cluster's log (tests/faults/test_pgaudit.py).
readonly TEST_PG_SETTINGS="-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100 $PG_AUDIT_SETTINGS"

TEST_TMP=""          # the mktemp directory holding everything below
TEST_PG_DATA=""
TEST_SOCK=""
TEST_PORT=""
TEST_TIER_PID=""     # corebankd of the e2e step while it runs
PROVE_PASSED=0       # counts of the last run_prove
PROVE_FAILED=0
FRESH_CATALOG=""     # catalog fingerprint of the fresh install, if taken
TEARDOWN_DONE=0
SUMMARY_DONE=0
RESULTS=()           # "name<TAB>status<TAB>passed<TAB>failed<TAB>note"

# record NAME STATUS PASSED FAILED NOTE: STATUS is PASS, FAIL or SKIP.
record() {
    RESULTS+=("$1"$'\t'"$2"$'\t'"$3"$'\t'"$4"$'\t'"${5:-}")
}

# record_counts NAME PASSED FAILED NOTE: PASS or FAIL from the counts.
record_counts() {
    local status=PASS
    (($3 > 0)) && status=FAIL
    record "$1" "$status" "$2" "$3" "${4:-}"
}

print_summary() {
    local line name status passed failed note total_passed=0 total_failed=0
    printf '\n==== summary ====\n'
    for line in "${RESULTS[@]}"; do
        IFS=$'\t' read -r name status passed failed note <<<"$line"
        if [[ $status == SKIP ]]; then
            printf '%-26s SKIPPED  %s\n' "$name" "$note"
            continue
        fi
        printf '%-26s %-8s %4d passed %4d failed%s\n' "$name" "$status" "$passed" "$failed" \
            "${note:+  ($note)}"
        total_passed=$((total_passed + passed))
        total_failed=$((total_failed + failed))
    done
    ((total_passed + total_failed > 0)) || printf 'warning: no test ran at all\n'
    printf '%d passed, %d failed\n' "$total_passed" "$total_failed"
    SUMMARY_DONE=1
    ((total_failed == 0))
}

# exit_if_interrupted RC: a runner under `timeout --foreground` that got
# Ctrl-C returns 130 normally, so bash does not run its INT trap; stop the
# whole run here instead of going on with the next step.
exit_if_interrupted() {
    (($1 == 130)) && exit 130
    return 0
}

# --- ports ---------------------------------------------------------------------------

listening_ports() {
    ss -Htln | awk '{ n = split($4, part, ":"); print part[n] }' | sort -un
}

# pick_free_ports COUNT [EXCLUDED...]: COUNT consecutive TCP ports in
# 24000-24999 on which nothing listens, from a random start so that parallel
# runs rarely collide. Prints them separated by spaces.
pick_free_ports() {
    local count=$1
    shift
    local -A taken=()
    local port span=$((TEST_PORT_MAX - TEST_PORT_MIN + 1)) offset start candidate i ok
    for port in $(listening_ports) "$@"; do taken[$port]=1; done
    start=$((RANDOM % span))
    for ((offset = 0; offset < span; offset++)); do
        candidate=$((TEST_PORT_MIN + (start + offset) % span))
        ((candidate + count - 1 <= TEST_PORT_MAX)) || continue
        ok=1
        for ((i = 0; i < count; i++)); do
            [[ -z ${taken[$((candidate + i))]:-} ]] || { ok=0; break; }
        done
        if ((ok)); then
            seq -s ' ' "$candidate" "$((candidate + count - 1))"
            return 0
        fi
    done
    warn "no $count consecutive free ports in $TEST_PORT_MIN-$TEST_PORT_MAX"
    return 1
}

# --- throwaway cluster -----------------------------------------------------------------

test_url() { conninfo "$TEST_SOCK" "$TEST_PORT" "$1" "${2:-postgres}"; }

# test_cluster_start: initdb in TEST_TMP and start on a free port; retries
# with another port if one was taken in the meantime.
test_cluster_start() {
    TEST_PG_DATA=$TEST_TMP/pg
    TEST_SOCK=$TEST_TMP/sock
    make_pg_dir 755 "$TEST_SOCK" "$TEST_TMP/log"
    check_socket_path "$TEST_SOCK" "$TEST_PORT_MAX"
    cluster_init "$TEST_PG_DATA"
    local attempt
    for attempt in 1 2 3; do
        TEST_PORT=$(pick_free_ports 1) || return 1
        log "starting the throwaway cluster on port $TEST_PORT (attempt $attempt)"
        if cluster_start "$TEST_PG_DATA" "$TEST_SOCK" "$TEST_PORT" "$TEST_TMP/log/postgresql.log" \
            "$TEST_PG_SETTINGS"; then
            # The root key that seals the signing keys, outside the data directory.
            root_key_setup "$(test_url postgres)" "$TEST_TMP/root-key" && return 0
            warn "the throwaway cluster has no root key (corebank.root_key_file)"
            return 1
        fi
    done
    tail -n 20 "$TEST_TMP/log/postgresql.log" >&2 || true
    return 1
}

# test_db_create NAME WITH_PGTAP [VERSION]: a new database holding the
# extension (VERSION, then updated to the default) and the institution's data
# of migrations/ (./corebank migrate; its list goes to migrate.log).
test_db_create() {
    local name=$1 with_pgtap=$2 version=${3:-} url
    url=$(test_url "$name")
    sql "$(test_url postgres)" -v name="$name" <<'SQL' || return 1
DROP DATABASE IF EXISTS :"name";
CREATE DATABASE :"name";
SQL
    if [[ $with_pgtap == pgtap ]]; then
        sql "$url" <<<'CREATE EXTENSION pgtap;' || return 1
    fi
    if [[ -n $version ]]; then
        log "installing extension corebank $version in $name, then updating it"
        sql "$url" -v version="$version" <<'SQL' || return 1
CREATE EXTENSION corebank VERSION :'version';
ALTER EXTENSION corebank UPDATE;
SQL
    else
        log "installing extension corebank in $name"
        sql "$url" <<<'CREATE EXTENSION corebank;' || return 1
    fi
    migrate "$url" >>"$TEST_TMP/migrate.log"
}

# catalog_fingerprint DB OUT: see tests/harness/catalog.sql.
catalog_fingerprint() {
    sql "$(test_url "$1")" -tA -f "$ROOT/tests/harness/catalog.sql" >"$2"
}

# --- version discovery -----------------------------------------------------------------------

# control_default_version: default_version of the repository's control file,
# or of the installed one when the repository has none.
control_default_version() {
    local control=$ROOT/extension/corebank.control
    [[ -r $control ]] || control=$("$PG_CONFIG" --sharedir)/extension/corebank.control
    [[ -r $control ]] || return 0
    sed -nE "s/^[[:space:]]*default_version[[:space:]]*=[[:space:]]*'?([^'[:space:]]+)'?.*/\1/p" \
        "$control" | head -n 1
}

# older_versions DEFAULT: every version named by sql/corebank--*.sql or the
# release templates sql/releases/corebank--*.sql.in (install scripts and both
# ends of update scripts) that sorts before DEFAULT.
older_versions() {
    local default=$1 file name version
    for file in "$ROOT"/sql/corebank--*.sql "$ROOT"/sql/releases/corebank--*.sql.in; do
        [[ -e $file ]] || continue
        name=${file##*/corebank--}
        name=${name%.in}
        name=${name%.sql}
        printf '%s\n' "${name%%--*}"
        [[ $name == *--* ]] && printf '%s\n' "${name#*--}"
    done | sort -uV | while IFS= read -r version; do
        [[ $version == "$default" ]] && continue
        [[ $(printf '%s\n%s\n' "$version" "$default" | sort -V | head -n 1) == "$version" ]] &&
            printf '%s\n' "$version"
    done
}

# --- steps ---------------------------------------------------------------------------------------

# step_sql_sources: sql/tools/sqlsrc.py check (docs/design/sql-layout.md):
# every released script assembles to its recorded sha256, every latest.sql
# equals its newest snapshot, every include names a snapshot that exists;
# then the tool's own tests (sql/tools/test_sqlsrc.py), one failure if any fails.
step_sql_sources() {
    local out=$TEST_TMP/sql-sources.log passed="" failed="" ran=""
    log "checking the SQL sources (sql/tools/sqlsrc.py check, sql/tools/test_sqlsrc.py)"
    python3 "$ROOT/sql/tools/sqlsrc.py" check >"$out" 2>&1 || true
    grep -v '^sqlsrc check:' "$out" >&2 || true
    read -r passed failed < <(sed -nE 's/^sqlsrc check: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$out") || true
    if [[ -z $passed ]]; then
        record "sql sources" FAIL 0 1 "sql/tools/sqlsrc.py check did not finish: $(tail -n 1 "$out")"
        return 0
    fi
    if python3 "$ROOT/sql/tools/test_sqlsrc.py" >"$out" 2>&1; then
        ran=$(sed -nE 's/^Ran ([0-9]+) tests? in .*/\1/p' "$out")
        passed=$((passed + ${ran:-0}))
    else
        cat "$out" >&2
        failed=$((failed + 1))
    fi
    record_counts "sql sources" "$passed" "$failed" "sqlsrc.py check and test_sqlsrc.py"
}

# step_docs_map: docs/check_map.py, so that docs/map.md cannot name a file,
# function, route or test that no longer exists (one row, one failure).
step_docs_map() {
    local out=$TEST_TMP/docs-map.log
    log "checking docs/map.md against the tree (docs/check_map.py)"
    if python3 "$ROOT/docs/check_map.py" >"$out" 2>&1; then
        record "docs map" PASS 1 0 "every path, function, route and test it names exists"
    else
        cat "$out" >&2
        record "docs map" FAIL 0 1 "$(tail -n 1 "$out")"
    fi
}

step_build() {
    if build_all "$TEST_TMP/build.log" -DCOREBANK_BUILD_TESTS=ON &&
        install_extension "$TEST_TMP/build.log"; then
        record build PASS 0 0 "built and installed"
        return 0
    fi
    record build FAIL 0 1 "see the build output above"
    return 1
}

step_ctest() {
    if [[ ! -f $BUILD_DIR/CTestTestfile.cmake ]]; then
        record ctest SKIP 0 0 "no tests registered with ctest"
        return 0
    fi
    log "running GoogleTest (ctest)"
    local out=$TEST_TMP/ctest.log rc=0 passed failed skipped
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" --timeout "$CTEST_TIMEOUT_S" \
        2>&1 | tee "$out" || rc=$?
    read -r passed failed skipped < <(parse_ctest "$out" "$rc")
    if ((passed + failed + skipped == 0)); then
        record ctest SKIP 0 0 "ctest found no tests"
        return 0
    fi
    local note=""
    ((skipped)) && note="$skipped skipped"
    record_counts ctest "$passed" "$failed" "$note"
}

# step_fuzz: the libFuzzer targets of tests/fuzz (issue 7), built with clang
# in build-fuzz (only they and the code under test, with ASan and UBSan), then
# each run for FUZZ_SECONDS over a scratch corpus seeded from
# tests/fuzz/corpus/<target> (new inputs go to the scratch copy, never into
# the repository). A crash, leak, sanitizer report or timeout fails the
# target; its reproducer is printed in base64 (CB_KEEP_TMP keeps the file).
readonly FUZZ_BUILD_DIR=$ROOT/build-fuzz
readonly FUZZ_SECONDS=6
step_fuzz() {
    local log_file=$TEST_TMP/fuzz-build.log dir=$TEST_TMP/fuzz target passed=0 failed=0 note=""
    local -a targets=() failures=()
    log "building the fuzz targets (log: $log_file)"
    if ! { CC=clang CXX=clang++ run_logged "$log_file" cmake -S "$ROOT" -B "$FUZZ_BUILD_DIR" \
                -DCMAKE_BUILD_TYPE=Fuzz -DCOREBANK_BUILD_FUZZERS=ON -DCOREBANK_BUILD_TESTS=OFF &&
            run_logged "$log_file" cmake --build "$FUZZ_BUILD_DIR" --target corebank_fuzzers -j "$(nproc)"; }; then
        record fuzz FAIL 0 1 "the fuzz targets did not build: $log_file"
        return 0
    fi
    for target in "$ROOT"/tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$target" .cpp)"); done
    mkdir -p "$dir"
    log "fuzzing ${#targets[@]} targets for ${FUZZ_SECONDS}s each"
    # At most nproc at once; each writes its status next to its log.
    local running=0
    for target in "${targets[@]}"; do
        mkdir -p "$dir/$target"
        (
            rc=0
            timeout --kill-after=5 $((FUZZ_SECONDS + 30)) "$FUZZ_BUILD_DIR/tests/fuzz/$target" \
                -max_total_time="$FUZZ_SECONDS" -timeout=10 -print_final_stats=1 \
                -artifact_prefix="$dir/$target-" "$dir/$target" "$ROOT/tests/fuzz/corpus/$target" \
                >"$dir/$target.log" 2>&1 || rc=$?
            echo "$rc" >"$dir/$target.rc"
        ) &
        running=$((running + 1))
        if ((running >= $(nproc))); then
            wait -n || true
            running=$((running - 1))
        fi
    done
    wait
    for target in "${targets[@]}"; do
        if [[ $(cat "$dir/$target.rc" 2>/dev/null) == 0 ]]; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            failures+=("$target")
            warn "fuzz target $target failed (log: $dir/$target.log):"
            grep -E 'ERROR|SUMMARY|runtime error|fuzz property|Test unit written|^Base64' "$dir/$target.log" | head -n 20 >&2 || true
        fi
    done
    ((failed)) && note="failed: ${failures[*]}"
    record_counts fuzz "$passed" "$failed" "$note"
}

# run_prove DB LABEL: pg_prove pgtap/*.sql in DB; sets PROVE_PASSED and
# PROVE_FAILED.
run_prove() {
    local db=$1 label=$2 out rc=0 skipped
    out=$TEST_TMP/prove-$label.log
    local -a files=(pgtap/*.sql)
    log "running pgTAP in $db (${#files[@]} files)"
    # pgaudit would log every statement of the run (about 80 MB per run);
    # the harness is no DBA to audit, and tests/faults/test_pgaudit.py checks
    # the auditing itself on connections that keep the cluster's setting.
    PGOPTIONS="-c client_min_messages=warning -c pgaudit.log=none" timeout --foreground --kill-after=10 "$PROVE_TIMEOUT_S" \
        pg_prove -h "$TEST_SOCK" -p "$TEST_PORT" -U postgres -d "$db" --failures "${files[@]}" \
        2>&1 | tee "$out" || rc=$?
    exit_if_interrupted "$rc"
    read -r PROVE_PASSED PROVE_FAILED skipped < <(parse_prove "$out" "$rc")
}

have_pgtap_files() { compgen -G 'pgtap/*.sql' >/dev/null; }

step_fresh_install() {
    if ! test_db_create corebank_test pgtap; then
        record install FAIL 0 1 "CREATE EXTENSION corebank or the data migrations failed"
        return 1
    fi
    record install PASS 1 0 "fresh CREATE EXTENSION and data migrations"
    FRESH_CATALOG=$TEST_TMP/fresh.catalog
    catalog_fingerprint corebank_test "$FRESH_CATALOG" || {
        warn "could not take the catalog fingerprint of the fresh install"
        FRESH_CATALOG=""
    }
}

step_pgtap() {
    local install_ok=$1
    if ! have_pgtap_files; then
        record pgtap SKIP 0 0 "no pgtap/*.sql files"
        return 0
    fi
    if ((!install_ok)); then
        record pgtap SKIP 0 0 "not run: the fresh install failed"
        return 0
    fi
    run_prove corebank_test fresh
    record_counts pgtap "$PROVE_PASSED" "$PROVE_FAILED"
    step_concurrency
}

# step_concurrency: the standalone concurrency scripts of pgtap/concurrency/
# (parallel sessions, so they cannot run inside pg_prove's transaction), each
# against a database of its own, as the tier's role.
step_concurrency() {
    local script name db passed=0 failed=0
    for script in "$ROOT"/pgtap/concurrency/*.sh; do
        [[ -f $script ]] || continue
        name=$(basename "$script" .sh)
        db="conc_${name}"
        if ! test_db_create "$db" nopgtap >/dev/null; then
            failed=$((failed + 1))
            continue
        fi
        log "running pgtap/concurrency/$name.sh"
        if timeout --foreground "$PROVE_TIMEOUT_S" bash "$script" \
            "host=$TEST_SOCK port=$TEST_PORT dbname=$db user=corebank_app" 8 100 >"$TEST_TMP/$name.log" 2>&1; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            tail -n 20 "$TEST_TMP/$name.log" >&2 || true
        fi
    done
    if ((passed + failed > 0)); then
        record_counts concurrency "$passed" "$failed" "pgtap/concurrency/*.sh"
    fi
}

# upgrade_from VERSION DEFAULT: one upgrade path, counted as one row:
# reaching DEFAULT, matching the fresh catalog, and the pgTAP results.
upgrade_from() {
    local version=$1 default=$2 db=corebank_upgrade passed=0 failed=0 note="" actual
    local name="upgrade $version->$default"
    if ! test_db_create "$db" pgtap "$version"; then
        record "$name" FAIL 0 1 "install of $version plus ALTER EXTENSION UPDATE failed"
        return 0
    fi
    actual=$(sql "$(test_url "$db")" -tA <<<"SELECT extversion FROM pg_extension WHERE extname = 'corebank';")
    if [[ $actual == "$default" ]]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        note="ended at version $actual"
    fi
    if [[ -n $FRESH_CATALOG ]]; then
        local upgraded=$TEST_TMP/upgrade-$version.catalog
        if catalog_fingerprint "$db" "$upgraded" && diff -q "$FRESH_CATALOG" "$upgraded" >/dev/null; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            note="${note:+$note; }catalog differs from a fresh install"
            warn "catalog after upgrade from $version differs from a fresh install (- fresh, + upgraded):"
            diff -u "$FRESH_CATALOG" "$upgraded" | tail -n +3 | grep '^[-+]' | head -n 60 >&2 || true
        fi
    fi
    if have_pgtap_files; then
        run_prove "$db" "upgrade-$version"
        passed=$((passed + PROVE_PASSED))
        failed=$((failed + PROVE_FAILED))
    fi
    record_counts "$name" "$passed" "$failed" "$note"
}

step_upgrade() {
    local default version
    local -a older
    default=$(control_default_version)
    if [[ -z $default ]]; then
        record upgrade SKIP 0 0 "no default_version in extension/corebank.control"
        return 0
    fi
    mapfile -t older < <(older_versions "$default")
    if ((${#older[@]} == 0)); then
        record upgrade SKIP 0 0 "only version $default exists"
        return 0
    fi
    for version in "${older[@]}"; do
        upgrade_from "$version" "$default"
    done
}

# e2e_server_start PORTS...: corebankd on the four ports, against corebank_e2e.
# Its end-of-day runner is off: the tests move the business date back and
# forth, and a runner waking on its own would post interest between their
# steps. test_core_jobs.py drives it with POST /v1/jobs/run; the faults tests
# start processes whose timer runs. Webhooks may go to private addresses:
# the tests' receivers listen on loopback (checked at every delivery, issue 13).
# The password lane's per-process throttles are lifted: every test speaks
# from 127.0.0.1, and the modules' lockout and concurrency tests make bursts
# of logins that the throttle would answer 429 (it is tested on its own in
# tests/faults/test_login_flood.py).
e2e_server_start() {
    local core=$1 identity=$2 verify=$3 events=$4
    env DATABASE_URL="$(test_url corebank_e2e corebank_app)" \
        CORE_LISTEN=127.0.0.1 CORE_CORE_PORT="$core" CORE_IDENTITY_PORT="$identity" \
        CORE_VERIFY_PORT="$verify" CORE_EVENTS_PORT="$events" \
        CORE_MAIL_DIR="$TEST_TMP/mail" CORE_DATA_KEY_FILE="$TEST_TMP/secrets/data.key" \
        CORE_ISSUER="http://127.0.0.1:$identity" CORE_TRUSTED_PROXIES=127.0.0.1 \
        CORE_RESET_LINK_BASE="http://127.0.0.1:$identity/auth/password/reset-form" \
        CORE_EOD_RUNNER_INTERVAL_S=0 CORE_VERIFY_WEBHOOK_ALLOW_PRIVATE=true \
        CORE_PASSWORD_ATTEMPTS_PER_S=100000 CORE_PASSWORD_ATTEMPTS_PER_IP_PER_S=100000 \
        "$COREBANKD" serve --config "$CONF_FILE" >"$TEST_TMP/corebankd.log" 2>&1 &
    TEST_TIER_PID=$!
    wait_healthy "http://127.0.0.1:$identity/health" "$TEST_TIER_PID" "$TEST_TMP/corebankd.log"
}

# e2e_server_stop: SIGTERM must stop corebankd cleanly (status 0) in time.
e2e_server_stop() {
    local pid=$TEST_TIER_PID rc=0
    TEST_TIER_PID=""
    if ! kill -0 "$pid" 2>/dev/null; then
        wait "$pid" 2>/dev/null || rc=$?
        record "e2e shutdown" FAIL 0 1 "corebankd had already exited (status $rc)"
        return 0
    fi
    stop_process "$pid"
    wait "$pid" 2>/dev/null || rc=$?
    if ((rc == 0)); then
        record "e2e shutdown" PASS 1 0 "clean exit on SIGTERM"
    else
        record "e2e shutdown" FAIL 0 1 "exit status $rc after SIGTERM"
    fi
}

step_e2e() {
    if ! compgen -G "tests/e2e/$E2E_PATTERN" >/dev/null; then
        record e2e SKIP 0 0 "no tests/e2e/$E2E_PATTERN files"
        return 0
    fi
    if [[ ! -x $COREBANKD ]]; then
        record e2e FAIL 0 1 "$COREBANKD was not built"
        return 0
    fi
    if ! test_db_create corebank_e2e none; then
        record e2e FAIL 0 1 "could not create database corebank_e2e"
        return 0
    fi
    local -a ports
    read -r -a ports < <(pick_free_ports 4 "$TEST_PORT") || true
    if ((${#ports[@]} != 4)); then
        record e2e FAIL 0 1 "no four free ports"
        return 0
    fi
    mkdir -p "$TEST_TMP/mail"
    install -d -m 700 "$TEST_TMP/secrets"
    data_key_ensure "$TEST_TMP/secrets/data.key"
    log "starting corebankd on ports ${ports[*]}"
    if ! e2e_server_start "${ports[@]}"; then
        record e2e FAIL 0 1 "corebankd did not become healthy"
        return 0
    fi
    # DATABASE_URL and the CORE_ paths are for the tests' own corebankd
    # admin calls (CB_CLI), so that they use this run's database and key.
    log "running the end-to-end suite"
    local out=$TEST_TMP/e2e.log rc=0 passed failed skipped note=""
    CB_CORE_URL="http://127.0.0.1:${ports[0]}" CB_ID_URL="http://127.0.0.1:${ports[1]}" \
        CB_VERIFY_URL="http://127.0.0.1:${ports[2]}" CB_EVENTS_URL="http://127.0.0.1:${ports[3]}" \
        CB_DATABASE_URL="$(test_url corebank_e2e)" DATABASE_URL="$(test_url corebank_e2e)" \
        CB_MAIL_DIR="$TEST_TMP/mail" CB_CLI="$COREBANKD" CB_DATA_KEY_FILE="$TEST_TMP/secrets/data.key" \
        CB_ROOT="$ROOT" PYTHONDONTWRITEBYTECODE=1 \
        CORE_DATA_KEY_FILE="$TEST_TMP/secrets/data.key" CORE_MAIL_DIR="$TEST_TMP/mail" \
        timeout --foreground --kill-after=10 "$E2E_TIMEOUT_S" /usr/bin/python3 -m unittest discover -s tests/e2e -p "$E2E_PATTERN" -v \
        2>&1 | tee "$out" || rc=$?
    exit_if_interrupted "$rc"
    read -r passed failed skipped < <(parse_unittest "$out" "$rc")
    ((skipped)) && note="$skipped skipped"
    ((rc == 124)) && note="${note:+$note; }timed out after ${E2E_TIMEOUT_S}s"
    if ((failed)); then
        warn "last $SERVER_LOG_LINES lines of the corebankd log:"
        tail -n "$SERVER_LOG_LINES" "$TEST_TMP/corebankd.log" >&2 || true
    fi
    record_counts e2e "$passed" "$failed" "$note"
    e2e_server_stop
}

# step_replica: tests/replica/replica.sh, one summary row.
step_replica() {
    replica_check || true
    record_counts replica "$REPLICA_PASSED" "$REPLICA_FAILED" "$REPLICA_NOTE"
}

# step_faults: tests/faults/run.sh (kill -9 of corebankd and of PostgreSQL,
# database restarts, two corebankd processes) against a database of its own.
# It stops and restarts the cluster, so it runs after every other step.
step_faults() {
    if ! compgen -G 'tests/faults/test_*.py' >/dev/null || [[ ! -x tests/faults/run.sh ]]; then
        record faults SKIP 0 0 "no tests/faults/test_*.py files"
        return 0
    fi
    if [[ ! -x $COREBANKD ]]; then
        record faults FAIL 0 1 "$COREBANKD was not built"
        return 0
    fi
    if ! test_db_create corebank_faults none; then
        record faults FAIL 0 1 "could not create database corebank_faults"
        return 0
    fi
    local -a ports
    read -r -a ports < <(pick_free_ports 8 "$TEST_PORT") || true
    if ((${#ports[@]} != 8)); then
        record faults FAIL 0 1 "no eight free ports"
        return 0
    fi
    mkdir -p "$TEST_TMP/mail" "$TEST_TMP/faults"
    install -d -m 700 "$TEST_TMP/secrets"
    data_key_ensure "$TEST_TMP/secrets/data.key"
    log "running the fault tests"
    local out=$TEST_TMP/faults.log rc=0 passed failed skipped note="" pidfile
    CB_DATABASE_URL="$(test_url corebank_faults)" DATABASE_URL="$(test_url corebank_faults)" \
        FAULT_APP_URL="$(test_url corebank_faults corebank_app)" FAULT_PORTS="${ports[*]}" \
        FAULT_PG_BIN="$PG_BIN" FAULT_PG_DATA="$TEST_PG_DATA" FAULT_PG_SOCK="$TEST_SOCK" \
        FAULT_PG_PORT="$TEST_PORT" FAULT_PG_LOG="$TEST_TMP/log/postgresql.log" \
        FAULT_PG_SETTINGS="$TEST_PG_SETTINGS" FAULT_TMP="$TEST_TMP/faults" \
        CB_CLI="$COREBANKD" FAULT_CONF_FILE="$CONF_FILE" CB_MAIL_DIR="$TEST_TMP/mail" \
        CB_DATA_KEY_FILE="$TEST_TMP/secrets/data.key" CB_ROOT="$ROOT" \
        CORE_DATA_KEY_FILE="$TEST_TMP/secrets/data.key" CORE_MAIL_DIR="$TEST_TMP/mail" \
        FAULT_TIMEOUT_S=180 bash tests/faults/run.sh 2>&1 | tee "$out" || rc=$?
    exit_if_interrupted "$rc"
    # A killed run may leave a corebankd of its own behind (own session).
    for pidfile in "$TEST_TMP"/faults/*.pid; do
        [[ -f $pidfile ]] || continue
        kill -9 "$(cat "$pidfile")" 2>/dev/null || true
    done
    cluster_running "$TEST_PG_DATA" ||
        cluster_start "$TEST_PG_DATA" "$TEST_SOCK" "$TEST_PORT" "$TEST_TMP/log/postgresql.log" \
            "$TEST_PG_SETTINGS" || warn "the cluster did not come back after the fault tests"
    read -r passed failed skipped < <(parse_unittest "$out" "$rc")
    ((skipped)) && note="$skipped skipped"
    ((rc == 124)) && note="${note:+$note; }timed out"
    if ((failed)); then
        warn "last $SERVER_LOG_LINES lines of the fault tests' corebankd logs:"
        tail -n "$SERVER_LOG_LINES" "$TEST_TMP"/faults/*.log >&2 || true
    fi
    record_counts faults "$passed" "$failed" "$note"
}

# --- teardown -----------------------------------------------------------------------------------

suite_teardown() {
    ((TEARDOWN_DONE)) && return 0
    TEARDOWN_DONE=1
    if [[ -n $TEST_TIER_PID ]]; then
        stop_process "$TEST_TIER_PID" || true
        TEST_TIER_PID=""
    fi
    replica_teardown || true
    if [[ -n $TEST_PG_DATA ]]; then
        cluster_stop "$TEST_PG_DATA" immediate || warn "the throwaway cluster did not stop"
    fi
    if [[ -n $TEST_TMP && -d $TEST_TMP ]]; then
        if [[ -n ${CB_KEEP_TMP:-} ]]; then
            warn "keeping $TEST_TMP (CB_KEEP_TMP is set)"
        else
            rm -rf "$TEST_TMP"
        fi
    fi
}

# suite_on_exit: the EXIT trap. After an abort (a die, an unexpected error,
# Ctrl-C) it still tears down and ends with the summary line.
suite_on_exit() {
    local rc=$?
    set +e
    trap - EXIT
    suite_teardown
    if ((!SUMMARY_DONE)); then
        record harness FAIL 0 1 "aborted with status $rc before all steps ran"
        print_summary
        ((rc == 0)) && rc=1
    fi
    exit "$rc"
}

# suite_scrub_environment: the run must not depend on the caller's
# configuration, so CORE_* and DATABASE_URL are dropped.
suite_scrub_environment() {
    local name
    [[ -n ${DATABASE_URL:-} ]] && warn "ignoring DATABASE_URL: tests always use a throwaway cluster"
    unset DATABASE_URL
    while IFS= read -r name; do
        unset "$name"
    done < <(compgen -e | grep '^CORE_' || true)
}

# suite_campaign_main CASES SECONDS: ./corebank fuzz-http, the generated
# bad-input campaign (tests/e2e/test_bad_input_campaign.py) alone, with its own
# budget, against a throwaway cluster and corebankd as the e2e step runs them.
suite_campaign_main() {
    cd "$ROOT" || die "cannot enter $ROOT"
    suite_scrub_environment
    trap suite_on_exit EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    ensure_packages
    TEST_TMP=$(mktemp -d -p /tmp)
    chmod 755 "$TEST_TMP"
    export CB_CAMPAIGN_CASES=$1 CB_CAMPAIGN_SECONDS=$2
    E2E_PATTERN=test_bad_input_campaign.py
    if step_build; then
        if test_cluster_start; then
            step_e2e
        else
            record cluster FAIL 0 1 "the throwaway PostgreSQL cluster did not start"
        fi
    fi
    suite_teardown
    local rc=0
    print_summary || rc=1
    exit "$rc"
}

suite_main() {
    [[ $# -eq 0 ]] || die "test takes no arguments"
    cd "$ROOT" || die "cannot enter $ROOT"
    suite_scrub_environment
    trap suite_on_exit EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    ensure_packages
    # In /tmp whatever TMPDIR says: the cluster user must be able to enter it.
    TEST_TMP=$(mktemp -d -p /tmp)
    chmod 755 "$TEST_TMP"
    step_sql_sources
    step_docs_map
    if step_build; then
        step_ctest
        step_fuzz
        if test_cluster_start; then
            local install_ok=1
            step_fresh_install || install_ok=0
            step_pgtap "$install_ok"
            step_upgrade
            step_e2e
            step_replica
            step_faults
        else
            record cluster FAIL 0 1 "the throwaway PostgreSQL cluster did not start"
        fi
    fi
    suite_teardown
    local rc=0
    print_summary || rc=1
    exit "$rc"
}
