#!/usr/bin/env bash
# pgtap/concurrency/ledger_hot_account.sh: concurrent postings on a hot account.
#
# Usage: ledger_hot_account.sh CONNINFO [WORKERS] [POSTINGS_PER_WORKER]
#   CONNINFO  a libpq connection string to a THROWAWAY database where the
#             corebank extension (1.1+) is installed; the script posts real
#             transactions into it. Any role that may EXECUTE the corebank
#             API works (corebank_app, a superuser).
#
# Goal: the posting engine's fixed lock order and striping hold under
# concurrency. Method: WORKERS (8) parallel psql sessions each post
# POSTINGS_PER_WORKER (200) transactions, one per autocommit statement, among
# three customer accounts: HOT takes part in every posting, as debit or as
# credit, against WARM, COLD or the cash GL account. Every 10th posting of a
# worker carries an idempotency key that the next worker also sends, so the
# same request races in two sessions. The expected balances are computed
# here, independently of the database. Then:
#   - no session saw an error (in particular no deadlock);
#   - each account's balance equals the expected one;
#   - the transaction count equals the postings minus the duplicates;
#   - the trial balance is zero per currency;
#   - ledger_verify_chain() and ledger_check_balances() return no rows.
# Exit status 0 when all hold; the last line is PASS or FAIL.
set -euo pipefail

CONNINFO=${1:?usage: $0 CONNINFO [WORKERS] [POSTINGS_PER_WORKER]}
WORKERS=${2:-8}
PER_WORKER=${3:-200}
readonly INITIAL=100000000   # minor units funded into each account
readonly OPERATOR=00000000-0000-4000-8000-0000000c0c0c

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

q() { psql "$CONNINFO" -X -q -v ON_ERROR_STOP=1 -tA "$@"; }

# Setup: three accounts on control account 2000, each funded from cash.
RUN=$(date +%s%N)
BRANCH=$(q -c "SELECT b->>'id' FROM jsonb_array_elements(corebank.core_branches_list()) b WHERE b->>'code' = 'HO'")
CASH=$(q -c "SELECT g->>'id' FROM jsonb_array_elements(corebank.core_gl_accounts_list('{\"code\":\"1000\",\"currency\":\"USD\"}')) g")
declare -A ACCOUNT EXPECTED
for name in HOT WARM COLD; do
    ACCOUNT[$name]=$(q -c "SELECT corebank.ledger_account_open('{\"glAccountCode\":\"2000\",\"accountNumber\":\"C$RUN-$name\"}')->>'id'")
    q -c "SELECT corebank.ledger_post('{\"type\":\"DEPOSIT\",\"reference\":\"FUND-$name\",\"branchId\":\"$BRANCH\",
          \"channel\":\"TEST\",\"operatorId\":\"$OPERATOR\",\"lines\":[
          {\"glAccountId\":\"$CASH\",\"side\":\"D\",\"amountMinor\":$INITIAL,\"currency\":\"USD\"},
          {\"accountId\":\"${ACCOUNT[$name]}\",\"side\":\"C\",\"amountMinor\":$INITIAL,\"currency\":\"USD\"}]}')" >/dev/null
    EXPECTED[$name]=$INITIAL
done
TX_BEFORE=$(q -c "SELECT (corebank.core_transaction_search('{\"size\":1}'))->>'totalElements'")

# line JSON: account_line NAME SIDE AMOUNT / cash_line SIDE AMOUNT
account_line() { printf '{"accountId":"%s","side":"%s","amountMinor":%d,"currency":"USD"}' "${ACCOUNT[$1]}" "$2" "$3"; }
cash_line() { printf '{"glAccountId":"%s","side":"%s","amountMinor":%d,"currency":"USD"}' "$CASH" "$1" "$2"; }

# posting W I: the deterministic posting I of worker W. Prints the SQL and
# updates EXPECTED (the caller decides whether it counts).
DUPLICATES=0
statement() {
    local worker=$1 index=$2 key=$3 amount lines other
    amount=$(( 1 + (worker * 7919 + index * 104729) % 5000 ))
    case $(( index % 4 )) in
        0) lines="$(cash_line D "$amount"),$(account_line HOT C "$amount")"
           EXPECTED[HOT]=$(( EXPECTED[HOT] + amount )) ;;
        1) other=WARM; (( index % 8 == 1 )) && other=COLD
           lines="$(account_line HOT D "$amount"),$(account_line "$other" C "$amount")"
           EXPECTED[HOT]=$(( EXPECTED[HOT] - amount )); EXPECTED[$other]=$(( EXPECTED[$other] + amount )) ;;
        2) other=COLD; (( index % 8 == 2 )) && other=WARM
           lines="$(account_line "$other" D "$amount"),$(account_line HOT C "$amount")"
           EXPECTED[HOT]=$(( EXPECTED[HOT] + amount )); EXPECTED[$other]=$(( EXPECTED[$other] - amount )) ;;
        3) lines="$(account_line HOT D "$amount"),$(cash_line C "$amount")"
           EXPECTED[HOT]=$(( EXPECTED[HOT] - amount )) ;;
    esac
    printf "SELECT corebank.ledger_post('{\"type\":\"TRANSFER\",\"reference\":\"R%s-%s\",\"branchId\":\"%s\",\"channel\":\"TEST\",\"operatorId\":\"%s\"%s,\"lines\":[%s]}') IS NOT NULL;\n" \
        "$worker" "$index" "$BRANCH" "$OPERATOR" "$key" "$lines"
}

# Worker W's script. Every 10th posting (index % 10 == 0) is keyed
# K<run>-<W>-<index>, and worker W also sends worker W-1's keyed posting
# (the same request), which must not post twice.
for ((worker = 0; worker < WORKERS; worker++)); do
    : >"$WORK/w$worker.sql"
done
for ((worker = 0; worker < WORKERS; worker++)); do
    next=$(( (worker + 1) % WORKERS ))
    for ((index = 0; index < PER_WORKER; index++)); do
        if (( index % 10 == 0 )); then
            key=",\"idempotencyKey\":\"K$RUN-$worker-$index\""
            statement "$worker" "$index" "$key" >>"$WORK/w$worker.sql"
            # The duplicate: same text, other session; EXPECTED must not move twice.
            saved=$(declare -p EXPECTED)
            statement "$worker" "$index" "$key" >>"$WORK/w$next.sql"
            eval "${saved/declare -A/declare -gA}"
            DUPLICATES=$(( DUPLICATES + 1 ))
        else
            statement "$worker" "$index" "" >>"$WORK/w$worker.sql"
        fi
    done
done

START=$(date +%s.%N)
for ((worker = 0; worker < WORKERS; worker++)); do
    psql "$CONNINFO" -X -q -tA -v ON_ERROR_STOP=0 -f "$WORK/w$worker.sql" >"$WORK/w$worker.out" 2>"$WORK/w$worker.err" &
done
wait
ELAPSED=$(echo "$(date +%s.%N) - $START" | bc)

FAILED=0
check() {  # check DESCRIPTION HAVE WANT
    if [[ $2 == "$3" ]]; then
        printf 'ok      %s\n' "$1"
    else
        printf 'NOT OK  %s: have %s, want %s\n' "$1" "$2" "$3"
        FAILED=1
    fi
}

STATEMENTS=$(( WORKERS * PER_WORKER + DUPLICATES ))
check "no session error (deadlocks included)" "$(cat "$WORK"/w*.err | grep -c ERROR || true)" 0
grep -h ERROR "$WORK"/w*.err | sort | uniq -c | head -5 || true
check "every statement answered" "$(cat "$WORK"/w*.out | grep -c '^t$' || true)" "$STATEMENTS"
for name in HOT WARM COLD; do
    # The statement's closing balance comes from the journal; that the stored
    # balance equals the journal is ledger_check_balances' job (below).
    check "balance of $name" \
          "$(q -c "SELECT s.balance_minor FROM corebank.account_statement('${ACCOUNT[$name]}',
                     corebank.business_today(), corebank.business_today()) s ORDER BY s.entry_id DESC LIMIT 1")" \
          "${EXPECTED[$name]}"
done
check "transactions posted (duplicates once)" \
      "$(q -c "SELECT (corebank.core_transaction_search('{\"size\":1}'))->>'totalElements'")" \
      "$(( TX_BEFORE + WORKERS * PER_WORKER ))"
check "trial balance zero per currency" \
      "$(q -c "SELECT count(*) FROM (SELECT currency FROM corebank.trial_balance_as_of(corebank.business_today())
                GROUP BY currency HAVING sum(debit_minor) <> sum(credit_minor)) x")" 0
check "ledger_verify_chain() is empty" "$(q -c 'SELECT count(*) FROM corebank.ledger_verify_chain()')" 0
check "ledger_check_balances() is empty" "$(q -c 'SELECT count(*) FROM corebank.ledger_check_balances()')" 0

printf '%d sessions x %d postings (+%d concurrent duplicates) in %.1f s: %.0f postings/s\n' \
    "$WORKERS" "$PER_WORKER" "$DUPLICATES" "$ELAPSED" "$(echo "$STATEMENTS / $ELAPSED" | bc -l)"
if (( FAILED )); then
    echo FAIL
    exit 1
fi
echo PASS
