# shellcheck shell=bash
# tests/replica/replica.sh: the harness's replica step (docs/scale-out.md).
#
# Sourced by tests/harness/suite.sh, whose throwaway cluster and helpers
# (test_url, pick_free_ports, replica_create, replica_url, sql, ...) it uses.
# On a database of its own it:
#   1. makes a streaming hot-standby replica of the throwaway cluster with
#      replica_create (the code behind `./corebank replica start`) on another
#      free port in 24000-24999;
#   2. posts a cash deposit on the primary through corebank.ledger_post (the
#      pgTAP ledger helpers, committed);
#   3. polls the replica, connected as corebank_reporting, until the
#      transaction, its two journal entries and the new balance are visible
#      (at most REPLICA_VISIBLE_TIMEOUT_S);
#   4. checks that the replica refuses writes: DDL and ledger_post itself fail
#      with SQLSTATE 25006 (read_only_sql_transaction);
#   5. stops the replica and deletes it.
# replica_check prints nothing on stdout and sets REPLICA_PASSED,
# REPLICA_FAILED and REPLICA_NOTE.

readonly REPLICA_DB=corebank_replica
readonly REPLICA_VISIBLE_TIMEOUT_S=10

TEST_REPLICA_DATA=""   # the replica's data directory while it exists
REPLICA_PASSED=0
REPLICA_FAILED=0
REPLICA_NOTE=""

replica_ok() {
    REPLICA_PASSED=$((REPLICA_PASSED + 1))
    log "replica: ok - $1"
}
replica_not_ok() {
    REPLICA_FAILED=$((REPLICA_FAILED + 1))
    REPLICA_NOTE=${REPLICA_NOTE:+$REPLICA_NOTE; }$1
    warn "replica: not ok - $1"
}

# replica_sqlstate URL SQL: the SQLSTATE the statement fails with, or "none".
replica_sqlstate() {
    local out
    if out=$(PGOPTIONS="-c client_min_messages=warning" psql -X -q -d "$1" \
        -v ON_ERROR_STOP=1 -v VERBOSITY=verbose -c '\set VERBOSITY verbose' -c "$2" 2>&1); then
        printf 'none\n'
        return 0
    fi
    sed -nE 's/^ERROR: +([0-9A-Z]{5}):.*/\1/p' <<<"$out" | head -n 1
}

# replica_teardown: stop the replica (immediate: nothing in it to keep).
replica_teardown() {
    [[ -n $TEST_REPLICA_DATA ]] || return 0
    cluster_stop "$TEST_REPLICA_DATA" immediate || warn "the replica did not stop"
    rm -rf "$TEST_REPLICA_DATA"
    TEST_REPLICA_DATA=""
}

replica_check() {
    local started=$SECONDS port primary replica_admin reporting tx account deadline seen state
    REPLICA_PASSED=0 REPLICA_FAILED=0 REPLICA_NOTE=""
    if ! test_db_create "$REPLICA_DB" no >/dev/null; then
        replica_not_ok "could not create database $REPLICA_DB"
        return 1
    fi
    primary=$(test_url "$REPLICA_DB")

    port=$(pick_free_ports 1 "$TEST_PORT") || { replica_not_ok "no free port"; return 1; }
    TEST_REPLICA_DATA=$TEST_TMP/replica
    log "replica: pg_basebackup -R and a hot standby on port $port"
    if ! replica_create "$TEST_SOCK" "$TEST_PORT" "$TEST_REPLICA_DATA" "$TEST_SOCK" "$port" \
            "$TEST_TMP/log/replica.log" "$TEST_PG_SETTINGS"; then
        tail -n 20 "$TEST_TMP/log/replica.log" >&2 2>/dev/null || true
        replica_not_ok "the replica did not start"
        replica_teardown
        return 1
    fi
    replica_admin=$(conninfo "$TEST_SOCK" "$port" "$REPLICA_DB" postgres)
    reporting=$(replica_url "$TEST_SOCK" "$port" "$REPLICA_DB")
    if [[ $(sql "$replica_admin" -tA <<<'SELECT pg_is_in_recovery();' 2>/dev/null) == t ]] &&
        [[ $(sql "$primary" -tA <<<"SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming';" 2>/dev/null) -ge 1 ]]; then
        replica_ok "the replica is a hot standby streaming from the primary"
    else
        replica_not_ok "the replica is not a streaming hot standby"
    fi

    # A posting on the primary, committed, through ledger_post.
    read -r tx account < <(sql "$primary" -tA -F ' ' 2>>"$TEST_TMP/log/replica-post.log" <<SQL
\\ir $ROOT/pgtap/helpers/ledger.sql
CREATE TEMP TABLE acct AS SELECT pg_temp.open_account('2000', 0) AS id;
SELECT (pg_temp.deposit((SELECT id FROM acct), 4321, 'REPLICA-1') ->> 'id'), (SELECT id FROM acct);
SQL
    ) || true
    if [[ -z ${tx:-} || -z ${account:-} ]]; then
        cat "$TEST_TMP/log/replica-post.log" >&2 2>/dev/null || true
        replica_not_ok "the deposit on the primary failed"
        replica_teardown
        return 1
    fi
    replica_ok "posted deposit $tx on the primary"

    # Visible on the replica, read as corebank_reporting.
    local t0
    t0=$(date +%s%N)
    deadline=$((SECONDS + REPLICA_VISIBLE_TIMEOUT_S))
    seen=""
    while ((SECONDS < deadline)); do
        state=$(sql "$reporting" -tA -v tx="$tx" -v account="$account" 2>/dev/null <<'SQL' || true
SELECT t.status || ' ' || (SELECT count(*) FROM corebank.journal_entries e WHERE e.transaction_id = t.id)
       || ' ' || (SELECT a.balance_minor FROM corebank.ledger_accounts a WHERE a.id = :'account')
FROM corebank.transactions t WHERE t.id = :'tx';
SQL
        )
        if [[ $state == "POSTED 2 4321" ]]; then
            seen=$((($(date +%s%N) - t0) / 1000000))
            break
        fi
        sleep 0.1
    done
    if [[ -n $seen ]]; then
        replica_ok "the posting (transaction, 2 entries, balance 43.21) is visible on the replica as corebank_reporting"
    else
        replica_not_ok "the posting was not visible on the replica within ${REPLICA_VISIBLE_TIMEOUT_S}s (last: '${state:-}')"
    fi

    # The replica refuses writes, as the superuser too.
    state=$(replica_sqlstate "$replica_admin" 'CREATE TABLE replica_probe (i int)')
    if [[ $state == 25006 ]]; then
        replica_ok "CREATE TABLE on the replica fails with 25006"
    else
        replica_not_ok "CREATE TABLE on the replica gave SQLSTATE '$state', not 25006"
    fi
    state=$(replica_sqlstate "$replica_admin" \
        "SELECT corebank.ledger_post(jsonb_build_object('type', 'TRANSFER', 'reference', 'REPLICA-2',
            'branchId', (SELECT id FROM corebank.branches WHERE code = 'HO'), 'channel', 'TEST',
            'operatorId', '00000000-0000-4000-8000-000000000003',
            'lines', jsonb_build_array(
                jsonb_build_object('glAccountId', (SELECT id FROM corebank.gl_accounts WHERE code = '1000' AND currency = 'USD'),
                                   'side', 'D', 'amountMinor', 1, 'currency', 'USD'),
                jsonb_build_object('accountId', '$account', 'side', 'C', 'amountMinor', 1, 'currency', 'USD'))))")
    if [[ $state == 25006 ]]; then
        replica_ok "ledger_post on the replica fails with 25006"
    else
        replica_not_ok "ledger_post on the replica gave SQLSTATE '$state', not 25006"
    fi

    replica_teardown
    REPLICA_NOTE=${REPLICA_NOTE:-"visible after ${seen}ms; $((SECONDS - started))s in all"}
    ((REPLICA_FAILED == 0))
}
