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
#   5. starts a corebankd of its own (four more free ports) with
#      CORE_READ_DATABASE_URL pointing at the replica as corebank_app, and
#      over HTTP: with the replica's replay paused, a deposit posted through
#      POST /v1/deposits on the primary is still 404 from
#      GET /v1/transactions/{id} (the read is served by the replica); once
#      replay resumes it becomes visible there (at most
#      REPLICA_VISIBLE_TIMEOUT_S); the statement and the search by reference
#      show it too, with no fallback logged; then, with the replica stopped,
#      the same GET still answers 200 from the primary and the fallback is
#      logged once;
#   6. stops that corebankd, then the replica, and deletes the replica.
# replica_check prints nothing on stdout and sets REPLICA_PASSED,
# REPLICA_FAILED and REPLICA_NOTE.

readonly REPLICA_DB=corebank_replica
readonly REPLICA_VISIBLE_TIMEOUT_S=10

TEST_REPLICA_DATA=""   # the replica's data directory while it exists
REPLICA_TIER_PID=""    # corebankd of step 5 while it runs
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

# replica_teardown: stop step 5's corebankd, then the replica (immediate:
# nothing in it to keep).
replica_teardown() {
    if [[ -n $REPLICA_TIER_PID ]]; then
        stop_process "$REPLICA_TIER_PID" || true
        wait "$REPLICA_TIER_PID" 2>/dev/null || true
        REPLICA_TIER_PID=""
    fi
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

    replica_tier_check "$port" "$replica_admin" || true

    replica_teardown
    REPLICA_NOTE=${REPLICA_NOTE:-"visible after ${seen}ms (SQL), ${REPLICA_TIER_SEEN_MS:-?}ms after resuming replay (HTTP); $((SECONDS - started))s in all"}
    ((REPLICA_FAILED == 0))
}

# --- step 5: corebankd's read pool (read_database_url) ---------------------------

REPLICA_TIER_SEEN_MS=""
RH_STATUS=""           # status and body of the last replica_http
RH_BODY=""

# replica_http METHOD URL [JSON] [KEY] [TOKEN]: one request; sets RH_STATUS
# (000 when nothing answered) and RH_BODY.
replica_http() {
    local method=$1 url=$2 body=${3:-} key=${4:-} token=${5:-} out=$TEST_TMP/replica-http.body
    local -a args=(-s -o "$out" -w '%{http_code}' --max-time 10 -X "$method")
    [[ -n $body ]] && args+=(-H 'Content-Type: application/json' --data-binary "$body")
    [[ -n $key ]] && args+=(-H "X-API-Key: $key")
    [[ -n $token ]] && args+=(-H "Authorization: Bearer $token")
    : >"$out"
    RH_STATUS=$(curl "${args[@]}" "$url" 2>/dev/null) || true
    RH_STATUS=${RH_STATUS:-000}
    RH_BODY=$(<"$out")
}

# replica_json FIELD: FIELD of the JSON object on stdin, or nothing.
replica_json() {
    python3 -c 'import json, sys
print(json.load(sys.stdin)[sys.argv[1]])' "$1" 2>/dev/null || true
}

# replica_fallbacks LOG: how many times corebankd logged a replica outage.
replica_fallbacks() {
    grep -c '"read replica unavailable' "$1" 2>/dev/null || true
}

# replica_tier_check REPLICA_PORT REPLICA_ADMIN_URL: step 5.
replica_tier_check() {
    local port=$1 replica_admin=$2 log=$TEST_TMP/log/replica-corebankd.log core identity
    REPLICA_TIER_SEEN_MS=""
    local -a ports
    read -r -a ports < <(pick_free_ports 4 "$TEST_PORT" "$port") || true
    if ((${#ports[@]} != 4)); then
        replica_not_ok "no four free ports for corebankd"
        return 1
    fi
    core="http://127.0.0.1:${ports[0]}" identity="http://127.0.0.1:${ports[1]}"
    mkdir -p "$TEST_TMP/mail"
    install -d -m 700 "$TEST_TMP/secrets"
    data_key_ensure "$TEST_TMP/secrets/data.key"
    log "replica: corebankd on ports ${ports[*]} with read_database_url at the replica"
    env DATABASE_URL="$(test_url "$REPLICA_DB" corebank_app)"         CORE_READ_DATABASE_URL="$(conninfo "$TEST_SOCK" "$port" "$REPLICA_DB" corebank_app)"         CORE_DB_POOL_SIZE=2 CORE_LISTEN=127.0.0.1 CORE_CORE_PORT="${ports[0]}"         CORE_IDENTITY_PORT="${ports[1]}" CORE_VERIFY_PORT="${ports[2]}" CORE_EVENTS_PORT="${ports[3]}"         CORE_MAIL_DIR="$TEST_TMP/mail" CORE_DATA_KEY_FILE="$TEST_TMP/secrets/data.key"         CORE_ISSUER="$identity" CORE_RESET_LINK_BASE="$identity/auth/password/reset-form"         "$COREBANKD" serve --config "$CONF_FILE" >"$log" 2>&1 &
    REPLICA_TIER_PID=$!
    if ! wait_healthy "$identity/health" "$REPLICA_TIER_PID" "$log"; then
        replica_not_ok "corebankd with read_database_url did not become healthy"
        return 1
    fi

    # An admin key and a teller, as the e2e suite makes them (CLI, then login).
    local admin key email password token customer account tx reference
    admin=$(test_url "$REPLICA_DB")
    email="teller.$RANDOM$RANDOM@replica.corebank.test"
    # A random password cracklib accepts: staff-create refuses weak ones, and "Pw1-replica-<digits>" (a
    # dictionary word inside) was refused in a clean-clone run.
    password="Pw1-$(openssl rand -base64 12 | tr -d '\n+/=')"
    if [[ -x /usr/sbin/cracklib-check ]]; then
        until printf '%s\n' "$password" | /usr/sbin/cracklib-check | grep -q ': OK$'; do
            password="Pw1-$(openssl rand -base64 12 | tr -d '\n+/=')"
        done
    fi
    key=$(DATABASE_URL=$admin CORE_DATA_KEY_FILE="$TEST_TMP/secrets/data.key"         "$COREBANKD" key-create --service core --scopes admin --name replica-read-pool 2>>"$log") || key=""
    if [[ -z $key ]] || ! DATABASE_URL=$admin CORE_DATA_KEY_FILE="$TEST_TMP/secrets/data.key"             "$COREBANKD" staff-create --email "$email" --password "$password" --roles teller >/dev/null 2>>"$log"; then
        replica_not_ok "key-create or staff-create failed (log: $log)"
        return 1
    fi
    replica_http POST "$identity/auth/login" "{\"email\": \"$email\", \"password\": \"$password\"}"
    token=$(replica_json accessToken <<<"$RH_BODY")
    replica_http POST "$core/v1/customers" "{\"type\": \"INDIVIDUAL\", \"firstName\": \"Rudo\",
        \"lastName\": \"Replica\", \"dateOfBirth\": \"1990-04-01\", \"nationalId\": \"63-R$RANDOM$RANDOM\",
        \"nationality\": \"ZW\"}" "$key" "$token"
    customer=$(replica_json id <<<"$RH_BODY")
    replica_http POST "$core/v1/accounts" "{\"customerId\": \"$customer\", \"productCode\": \"SAV-TIER\",
        \"initialDeposit\": {\"amountMinor\": 1000}}" "$key" "$token"
    account=$(replica_json id <<<"$RH_BODY")
    if [[ -z $token || -z $customer || -z $account ]]; then
        replica_not_ok "login, customer or account through the API failed: $RH_STATUS $RH_BODY"
        return 1
    fi

    # Replay paused: the deposit is committed on the primary, not yet on the replica.
    sql "$replica_admin" -tA <<<'SELECT pg_wal_replay_pause();' >/dev/null 2>&1 || true
    reference="REPLICA-API-$RANDOM$RANDOM"
    replica_http POST "$core/v1/deposits" \
        "{\"accountId\": \"$account\", \"amountMinor\": 4321, \"reference\": \"$reference\"}" "$key" "$token"
    tx=$(replica_json id <<<"$RH_BODY")
    if [[ $RH_STATUS != 200 || -z $tx ]]; then
        sql "$replica_admin" -tA <<<'SELECT pg_wal_replay_resume();' >/dev/null 2>&1 || true
        replica_not_ok "POST /v1/deposits on the primary failed: $RH_STATUS $RH_BODY"
        return 1
    fi
    replica_http GET "$core/v1/transactions/$tx" "" "$key"
    if [[ $RH_STATUS == 404 ]]; then
        replica_ok "with replay paused, GET /v1/transactions/{id} of the new deposit is 404: served by the replica"
    else
        replica_not_ok "with replay paused, GET /v1/transactions/{id} gave $RH_STATUS, not 404 (not served by the replica?)"
    fi
    sql "$replica_admin" -tA <<<'SELECT pg_wal_replay_resume();' >/dev/null 2>&1 || true

    local t0 deadline state=""
    t0=$(date +%s%N)
    deadline=$((SECONDS + REPLICA_VISIBLE_TIMEOUT_S))
    while ((SECONDS < deadline)); do
        replica_http GET "$core/v1/transactions/$tx" "" "$key"
        if [[ $RH_STATUS == 200 ]] && [[ $(replica_json status <<<"$RH_BODY") == POSTED ]]; then
            REPLICA_TIER_SEEN_MS=$((($(date +%s%N) - t0) / 1000000))
            break
        fi
        sleep 0.1
    done
    if [[ -n $REPLICA_TIER_SEEN_MS ]]; then
        replica_ok "after replay resumed, GET /v1/transactions/{id} on the replica shows the deposit POSTED (${REPLICA_TIER_SEEN_MS}ms)"
    else
        replica_not_ok "the deposit did not become visible through GET /v1/transactions/{id} within ${REPLICA_VISIBLE_TIMEOUT_S}s (last: $RH_STATUS)"
    fi
    replica_http GET "$core/v1/accounts/$account/statement" "" "$key"
    [[ $RH_STATUS == 200 && $RH_BODY == *"$tx"* ]] && state=ok || state="$RH_STATUS"
    replica_http GET "$core/v1/transactions?reference=$reference" "" "$key"
    [[ $RH_STATUS == 200 && $RH_BODY == *"$tx"* ]] || state="$state, search $RH_STATUS"
    if [[ $state == ok && $(replica_fallbacks "$log") == 0 ]]; then
        replica_ok "the statement and the search by reference show it, read on the replica (no fallback logged)"
    else
        replica_not_ok "statement/search on the replica: $state; fallbacks logged: $(replica_fallbacks "$log")"
    fi

    # The replica goes away: the same reads fall back to the primary.
    cluster_stop "$TEST_REPLICA_DATA" immediate || warn "the replica did not stop"
    local ok=0 _
    for _ in 1 2 3; do
        replica_http GET "$core/v1/transactions/$tx" "" "$key"
        [[ $RH_STATUS == 200 && $(replica_json status <<<"$RH_BODY") == POSTED ]] && ok=$((ok + 1))
    done
    replica_http GET "$core/v1/accounts/$account/statement" "" "$key"
    [[ $RH_STATUS == 200 ]] && ok=$((ok + 1))
    if ((ok == 4)) && [[ $(replica_fallbacks "$log") == 1 ]]; then
        replica_ok "with the replica stopped, GET /v1/transactions/{id} and the statement answer 200 from the primary (fallback logged once)"
    else
        replica_not_ok "with the replica stopped: $ok of 4 reads answered 200; fallbacks logged: $(replica_fallbacks "$log")"
    fi

    stop_process "$REPLICA_TIER_PID" || true
    wait "$REPLICA_TIER_PID" 2>/dev/null || true
    REPLICA_TIER_PID=""
}
