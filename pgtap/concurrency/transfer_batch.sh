#!/usr/bin/env bash
# pgtap/concurrency/transfer_batch.sh: batches of transfers and single
# transfers racing among a few accounts (docs/design/batch-transfers.md).
#
# Usage: transfer_batch.sh CONNINFO [WORKERS] [STATEMENTS_PER_WORKER]
#   CONNINFO  a libpq connection string to a THROWAWAY database where the
#             corebank extension (1.5+) is installed; the script opens a
#             customer and accounts and posts real transactions into it.
#             It uses the API only, so the tier's role (corebank_app) works.
#
# Goal: a batch locks its accounts in the engine's order, so batches and
# single transfers over the same accounts never deadlock, and the set-based
# writes keep every ledger invariant under concurrency. Method: WORKERS (8)
# parallel psql sessions each run STATEMENTS_PER_WORKER (100) statements,
# one per autocommit transaction: mostly core_transfer_batch calls of
# BATCH_SIZE transfers among ACCOUNTS accounts in both directions, and every
# third statement a single core_transfer. Some batches hold a linked chain
# that must fail (its last transfer cannot be paid), a chain that posts, or a
# chain left open at the end; every 10th batch carries an idempotency key
# that the next worker also sends at the same point, so the same request
# races in two sessions. The expected balances and counts are computed here,
# independently of the database. Then:
#   - no session saw an error (in particular no deadlock);
#   - the posted and failed counts of every response are the expected ones;
#   - each account's balance is the expected one and the money is conserved;
#   - the transaction count is the postings, each keyed batch once;
#   - the trial balance is zero per currency;
#   - ledger_verify_chain() and ledger_check_balances() return no rows.
# Exit status 0 when all hold; the last line is PASS or FAIL.
set -euo pipefail

CONNINFO=${1:?usage: $0 CONNINFO [WORKERS] [STATEMENTS_PER_WORKER]}
WORKERS=${2:-8}
PER_WORKER=${3:-100}
readonly ACCOUNTS=4
readonly BATCH_SIZE=20
readonly INITIAL=10000000             # minor units funded into each account
readonly UNPAYABLE=1000000000000000   # 10^15: more than all the accounts hold
readonly ACTOR=00000000-0000-4000-8000-0000000e0e0e

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
q() { psql "$CONNINFO" -X -q -v ON_ERROR_STOP=1 -tA "$@"; }

FAILED=0
check() {  # check DESCRIPTION HAVE WANT
    if [[ $2 == "$3" ]]; then
        printf 'ok      %s\n' "$1"
    else
        printf 'NOT OK  %s: have %s, want %s\n' "$1" "$2" "$3"
        FAILED=1
    fi
}

# Setup: one customer, ACCOUNTS current accounts each opened with INITIAL.
RUN=$(date +%s%N)
CUSTOMER=$(q -c "SELECT corebank.core_customers_create('{\"type\":\"INDIVIDUAL\",\"firstName\":\"Batch\",\"lastName\":\"B$RUN\",
                 \"dateOfBirth\":\"1980-01-01\"}', '$ACTOR')->>'id'")
declare -a ACCOUNT EXPECTED
for ((a = 0; a < ACCOUNTS; a++)); do
    ACCOUNT[a]=$(q -c "SELECT corebank.core_accounts_open('{\"customerId\":\"$CUSTOMER\",\"productCode\":\"CUR-STD\",
                       \"initialDeposit\":{\"amountMinor\":$INITIAL}}', '$ACTOR')->>'id'")
    EXPECTED[a]=$INITIAL
done
TX_BEFORE=$(q -c "SELECT (corebank.core_transaction_search('{\"size\":1}'))->>'totalElements'")

item() {  # item FROM TO AMOUNT [LINKED]
    printf '{"fromAccountId":"%s","toAccountId":"%s","amountMinor":%s%s}' "${ACCOUNT[$1]}" "${ACCOUNT[$2]}" "$3" \
        "${4:+,\"linked\":$4}"
}

# batch W I KEY: prints batch statement I of worker W; sets BATCH_POSTED and
# BATCH_FAILED and the moves of the transfers that post in MOVES.
batch() {
    local worker=$1 index=$2 key=$3 j from to amount linked items="" last=$((BATCH_SIZE - 1))
    BATCH_POSTED=0 BATCH_FAILED=0 MOVES=()
    for ((j = 0; j < BATCH_SIZE; j++)); do
        from=$(( (worker + index + j) % ACCOUNTS ))
        to=$(( (from + 1 + (worker * j + index) % (ACCOUNTS - 1)) % ACCOUNTS ))
        amount=$(( 1 + (worker * 7919 + index * 104729 + j * 31) % 100 ))
        linked=""
        if (( index % 5 == 2 && (j == 5 || j == 6) )); then
            linked=true                               # chain 5..7 fails at 7
        elif (( index % 5 == 2 && j == 7 )); then
            amount=$UNPAYABLE
        elif (( index % 5 == 3 && j == 10 )); then
            linked=true                               # chain 10..11 posts
        elif (( index % 7 == 4 && j == last )); then
            linked=true                               # open at the end
        fi
        items+="${items:+,}$(item "$from" "$to" "$amount" "$linked")"
        if (( (index % 5 == 2 && j >= 5 && j <= 7) || (index % 7 == 4 && j == last) )); then
            BATCH_FAILED=$((BATCH_FAILED + 1))
        else
            BATCH_POSTED=$((BATCH_POSTED + 1))
            MOVES+=("$from $to $amount")
        fi
    done
    printf "SELECT 'B ' || (r->>'postedCount') || '/' || (r->>'failedCount') FROM corebank.core_transfer_batch('{%s\"transfers\":[%s]}', '%s') AS r;\n" \
        "$key" "$items" "$ACTOR"
}

apply_moves() {
    local move from to amount
    for move in "${MOVES[@]}"; do
        read -r from to amount <<<"$move"
        EXPECTED[from]=$(( EXPECTED[from] - amount ))
        EXPECTED[to]=$(( EXPECTED[to] + amount ))
    done
}

# Worker files, in statement order; the duplicate of worker W's keyed batch I
# goes to worker W+1 right after its own statement I, so both run together.
for ((worker = 0; worker < WORKERS; worker++)); do : >"$WORK/w$worker.sql"; done
WANT_OUT=$WORK/expected.txt
: >"$WANT_OUT"
POSTINGS=0
for ((index = 0; index < PER_WORKER; index++)); do
    for ((worker = 0; worker < WORKERS; worker++)); do
        if (( index % 3 == 1 )); then
            # A single transfer, against the batches' direction half the time.
            from=$(( (worker + index) % ACCOUNTS ))
            to=$(( (from + 1 + (worker + index) % (ACCOUNTS - 1)) % ACCOUNTS ))
            (( worker % 2 )) && { tmp=$from; from=$to; to=$tmp; }
            amount=$(( 1 + (worker * 104729 + index * 7919) % 100 ))
            printf "SELECT 'S ' || (corebank.core_transfer('%s', '%s')->>'status');\n" \
                "$(item "$from" "$to" "$amount")" "$ACTOR" >>"$WORK/w$worker.sql"
            echo "S POSTED" >>"$WANT_OUT"
            EXPECTED[from]=$(( EXPECTED[from] - amount ))
            EXPECTED[to]=$(( EXPECTED[to] + amount ))
            POSTINGS=$((POSTINGS + 1))
            continue
        fi
        key=""
        (( index % 10 == 0 )) && key="\"idempotencyKey\":\"K$RUN-$worker-$index\","
        batch "$worker" "$index" "$key" >>"$WORK/w$worker.sql"
        echo "B $BATCH_POSTED/$BATCH_FAILED" >>"$WANT_OUT"
        apply_moves
        POSTINGS=$((POSTINGS + BATCH_POSTED))
        if [[ -n $key ]]; then
            # The same request from the next worker: the same answer, no second posting.
            batch "$worker" "$index" "$key" >>"$WORK/w$(( (worker + 1) % WORKERS )).sql"
            echo "B $BATCH_POSTED/$BATCH_FAILED" >>"$WANT_OUT"
        fi
    done
done

START=$(date +%s.%N)
for ((worker = 0; worker < WORKERS; worker++)); do
    psql "$CONNINFO" -X -q -tA -v ON_ERROR_STOP=0 -f "$WORK/w$worker.sql" >"$WORK/w$worker.out" 2>"$WORK/w$worker.err" &
done
wait
ELAPSED=$(echo "$(date +%s.%N) - $START" | bc)

check "no session error" "$(cat "$WORK"/w*.err | grep -c ERROR || true)" 0
grep -h ERROR "$WORK"/w*.err | sort | uniq -c | head -5 || true
check "no deadlock" "$(cat "$WORK"/w*.err | grep -ci deadlock || true)" 0
cat "$WORK"/w*.out | sort | uniq -c >"$WORK/have.counts"
sort "$WANT_OUT" | uniq -c >"$WORK/want.counts"
check "every statement answered as expected (posted/failed per batch)" \
      "$(md5sum <"$WORK/have.counts")" "$(md5sum <"$WORK/want.counts")"
diff "$WORK/want.counts" "$WORK/have.counts" | head -n 10 || true
TOTAL=0
for ((a = 0; a < ACCOUNTS; a++)); do
    have=$(q -c "SELECT corebank.core_accounts_get('${ACCOUNT[a]}')->>'balanceMinor'")
    check "balance of account $a" "$have" "${EXPECTED[a]}"
    TOTAL=$((TOTAL + have))
done
check "the money is conserved" "$TOTAL" $((ACCOUNTS * INITIAL))
check "transactions posted (keyed batches once)" \
      "$(q -c "SELECT (corebank.core_transaction_search('{\"size\":1}'))->>'totalElements'")" "$((TX_BEFORE + POSTINGS))"
check "trial balance zero per currency" \
      "$(q -c "SELECT count(*) FROM (SELECT currency FROM corebank.trial_balance_as_of(corebank.business_today())
                GROUP BY currency HAVING sum(debit_minor) <> sum(credit_minor)) x")" 0
check "ledger_verify_chain() is empty" "$(q -c 'SELECT count(*) FROM corebank.ledger_verify_chain()')" 0
check "ledger_check_balances() is empty" "$(q -c 'SELECT count(*) FROM corebank.ledger_check_balances()')" 0

printf '%d sessions x %d statements, %d postings in %.1f s: %.0f postings/s\n' \
    "$WORKERS" "$PER_WORKER" "$POSTINGS" "$ELAPSED" "$(echo "$POSTINGS / $ELAPSED" | bc -l)"
if (( FAILED )); then
    echo FAIL
    exit 1
fi
echo PASS
