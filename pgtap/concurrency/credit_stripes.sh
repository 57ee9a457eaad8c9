#!/usr/bin/env bash
# pgtap/concurrency/credit_stripes.sh: a hot account's credits do not queue,
# and its debits still never overdraw (issue 12 part 3).
#
# Usage: credit_stripes.sh CONNINFO [WORKERS] [POSTINGS_PER_WORKER]
#   CONNINFO  a libpq connection string to a THROWAWAY database where the
#             corebank extension (1.8+) is installed; any role that may
#             EXECUTE the corebank API (corebank_app, a superuser).
#
# Goal: a credit to an account that another posting holds goes into the
# backend's credit stripe instead of waiting; a debit judges balance_minor
# plus the committed stripes, so it never takes the account below its limit;
# the fold moves the stripes into balance_minor exactly; the balance checks
# count the stripes. Method: a holder session posts a credit to HOT and keeps
# its transaction open (a posting in flight) while WORKERS (6)
# sessions credit HOT from cash, POSTINGS_PER_WORKER (100) each, one posting
# per autocommit statement; a debtor session meanwhile debits HOT to COLD
# (amounts larger than the balance at first: some are refused for
# insufficient funds, never another error); a folder session runs the
# maintenance pass (corebank.core_maintenance, which folds the stripes) in a
# loop. Expected balances are computed here from the credits
# and from the debits that the database acknowledged. Then:
#   - the credits went into stripes (the folds moved some) and did not wait
#     for the holder: every worker off the holder's backend stripe (whose GL
#     stripe rows and chain head it shares, by design) finished while the
#     holder was still open (the script then cancels it, so its own credit
#     never posts; it gives up after 30 s, which fails the test);
#   - no credit and no fold failed; debits failed only for insufficient funds;
#   - HOT's and COLD's balances (from the journal) equal the expected ones,
#     HOT's is >= 0, and ledger_check_balances() (balance_minor plus stripes
#     against the journal) is empty, before and after a last fold, which
#     leaves nothing more to fold;
#   - the trial balance is zero, ledger_check_balances() and
#     ledger_verify_chain() return no rows;
#   - a maintenance pass run (with a 1 s lock_timeout) while a credit in
#     flight holds HOT returns at once without folding it, and later passes
#     fold the rest (the fold never waits for a lock).
# Exit status 0 when all hold; the last line is PASS or FAIL.
set -euo pipefail

CONNINFO=${1:?usage: $0 CONNINFO [WORKERS] [POSTINGS_PER_WORKER]}
WORKERS=${2:-6}
PER_WORKER=${3:-100}
readonly OPERATOR=00000000-0000-4000-8000-0000000c0c0c
readonly CREDIT=100        # minor units per credit
readonly DEBIT=2500        # minor units per debit attempt
readonly DEBITS=120        # debit attempts

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
q() { psql "$CONNINFO" -X -q -v ON_ERROR_STOP=1 -tA "$@"; }

RUN=$(date +%s%N)
BRANCH=$(q -c "SELECT b->>'id' FROM jsonb_array_elements(corebank.core_branches_list()) b WHERE b->>'code' = 'HO'")
CASH=$(q -c "SELECT g->>'id' FROM jsonb_array_elements(corebank.core_gl_accounts_list('{\"code\":\"1000\",\"currency\":\"USD\"}')) g")
declare -A ACCOUNT
for name in HOT COLD; do
    ACCOUNT[$name]=$(q -c "SELECT corebank.ledger_account_open('{\"glAccountCode\":\"2000\",\"accountNumber\":\"S$RUN-$name\"}')->>'id'")
done

post() {  # post REFERENCE LINES: one ledger_post statement
    printf "SELECT corebank.ledger_post('{\"type\":\"TRANSFER\",\"reference\":\"%s\",\"branchId\":\"%s\",\"channel\":\"TEST\",\"operatorId\":\"%s\",\"lines\":[%s]}') IS NOT NULL;\n" \
        "$1" "$BRANCH" "$OPERATOR" "$2"
}
line() { printf '{"%s":"%s","side":"%s","amountMinor":%d,"currency":"USD"}' "$1" "$2" "$3" "$4"; }

for ((worker = 0; worker < WORKERS; worker++)); do
    for ((index = 0; index < PER_WORKER; index++)); do
        post "C$RUN-$worker-$index" "$(line glAccountId "$CASH" D $CREDIT),$(line accountId "${ACCOUNT[HOT]}" C $CREDIT)"
    done >"$WORK/c$worker.sql"
done
for ((index = 0; index < DEBITS; index++)); do
    # \echo marks each attempt, so the output says which debits posted.
    printf '\\echo D%d\n' "$index"
    post "D$RUN-$index" "$(line accountId "${ACCOUNT[HOT]}" D $DEBIT),$(line accountId "${ACCOUNT[COLD]}" C $DEBIT)"
    printf 'SELECT pg_sleep(0.02);\n'
done >"$WORK/debits.sql"
for ((index = 0; index < 40; index++)); do
    printf "SELECT corebank.core_maintenance() ->> 'creditStripesFolded';\nSELECT pg_sleep(0.05);\n"
done >"$WORK/folds.sql"

# A first posting makes the period row and the GL accounts' first posting,
# which a first posting in flight would otherwise hold for everyone.
q -c "$(post "W$RUN" "$(line glAccountId "$CASH" D $CREDIT),$(line accountId "${ACCOUNT[COLD]}" C $CREDIT)")" >/dev/null

# The holder: a credit to HOT in flight, from before the other credits start.
{
    printf 'BEGIN;\n'
    post "H$RUN" "$(line glAccountId "$CASH" D $CREDIT),$(line accountId "${ACCOUNT[HOT]}" C $CREDIT)"
    printf 'SELECT pg_sleep(30);\nCOMMIT;\n'
} >"$WORK/holder.sql"
HOLDER_APP=cb_holder_$RUN
PGAPPNAME=$HOLDER_APP psql "$CONNINFO" -X -q -tA -v ON_ERROR_STOP=1 -f "$WORK/holder.sql" >"$WORK/holder.out" 2>"$WORK/holder.err" &
sleep 0.3
for ((worker = 0; worker < WORKERS; worker++)); do
    PGAPPNAME=cb_credit_${RUN}_$worker psql "$CONNINFO" -X -q -tA -v ON_ERROR_STOP=0 -f "$WORK/c$worker.sql" \
        >"$WORK/c$worker.out" 2>"$WORK/c$worker.err" &
done
psql "$CONNINFO" -X -q -tA -v ON_ERROR_STOP=0 -f "$WORK/debits.sql" >"$WORK/debits.out" 2>"$WORK/debits.err" &
psql "$CONNINFO" -X -q -tA -v ON_ERROR_STOP=0 -f "$WORK/folds.sql" >"$WORK/folds.out" 2>"$WORK/folds.err" &
# A posting shares its backend's stripe (pid % 16) of the GL balances and the
# chain with the holder when their pids agree mod 16, and waits for it there,
# by design. Every other credit worker must finish while the holder is open.
sleep 0.2
HOLDER_STRIPE=$(q -c "SELECT pid % 16 FROM pg_stat_activity WHERE application_name = '$HOLDER_APP'")
OTHERS=$(q -c "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'cb_credit_${RUN}_%' AND pid % 16 <> ${HOLDER_STRIPE:-99}")
for _ in $(seq 1 300); do
    left=$(q -c "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'cb_credit_${RUN}_%' AND pid % 16 <> ${HOLDER_STRIPE:-99}")
    ((left == 0)) && break
    sleep 0.1
done
HOLDER_OPEN=$(q -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = '$HOLDER_APP' AND state = 'active'")
q -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = '$HOLDER_APP'" >/dev/null
wait

FAILED=0
check() {  # check DESCRIPTION HAVE WANT
    if [[ $2 == "$3" ]]; then printf 'ok      %s\n' "$1"; else printf 'NOT OK  %s: have %s, want %s\n' "$1" "$2" "$3"; FAILED=1; fi
}
CREDITS_POSTED=$(cat "$WORK"/c*.out | grep -c '^t$' || true)
DEBITS_POSTED=$(grep -c '^t$' "$WORK/debits.out" || true)
check "no credit failed" "$(cat "$WORK"/c*.err | grep -c ERROR || true)" 0
check "every credit posted" "$CREDITS_POSTED" $(( WORKERS * PER_WORKER ))
check "debits failed only for insufficient funds" \
      "$(grep ERROR "$WORK/debits.err" | grep -vc 'insufficient funds' || true)" 0
check "no fold failed" "$(grep -c ERROR "$WORK/folds.err" || true)" 0
check "the holder's credit was in flight" "$(grep -c '^t$' "$WORK/holder.out" || true)" 1
check "credits did not wait for the holder (the $OTHERS workers off its stripe were done while it was open)" \
      "$(( HOLDER_OPEN == 1 && OTHERS > 0 ))" 1
check "the holder was cancelled, so its credit never posted" "$(grep -c 'canceling statement' "$WORK/holder.err" || true)" 1
FOLDED=$(( $(grep -E '^[0-9]+$' "$WORK/folds.out" | paste -sd+ - || echo 0) + $(q -c "SELECT corebank.core_maintenance() ->> 'creditStripesFolded'") ))
check "credits went into stripes (accounts folded)" "$(( FOLDED > 0 ))" 1
balance() {  # the journal's closing balance of an account today
    q -c "SELECT coalesce((SELECT s.balance_minor FROM corebank.account_statement('$1', corebank.business_today(),
            corebank.business_today()) s ORDER BY s.entry_id DESC LIMIT 1), 0)"
}
HOT_EXPECTED=$(( CREDITS_POSTED * CREDIT - DEBITS_POSTED * DEBIT ))
check "HOT's balance" "$(balance "${ACCOUNT[HOT]}")" "$HOT_EXPECTED"
check "COLD's balance" "$(balance "${ACCOUNT[COLD]}")" $(( CREDIT + DEBITS_POSTED * DEBIT ))
check "HOT never overdrawn" "$(( HOT_EXPECTED >= 0 ))" 1
check "some debits posted, some were refused" "$(( DEBITS_POSTED > 0 && DEBITS_POSTED < DEBITS ))" 1
check "ledger_check_balances() is empty (stripes counted)" \
      "$(q -c 'SELECT count(*) FROM corebank.ledger_check_balances()')" 0
check "a last maintenance pass finds nothing more to fold" \
      "$(q -c "SELECT corebank.core_maintenance() ->> 'creditStripesFolded'")" 0
check "trial balance zero per currency" \
      "$(q -c "SELECT count(*) FROM (SELECT currency FROM corebank.trial_balance_as_of(corebank.business_today())
                GROUP BY currency HAVING sum(debit_minor) <> sum(credit_minor)) x")" 0
check "ledger_verify_chain() is empty" "$(q -c 'SELECT count(*) FROM corebank.ledger_verify_chain()')" 0
check "ledger_check_balances() is empty after the fold" \
      "$(q -c 'SELECT count(*) FROM corebank.ledger_check_balances()')" 0
# The fold never waits for a lock (pg/credit_stripes.cpp): an account a
# posting holds is left to the next pass. A credit to HOT in flight, credited
# in place, holds its row for 4 s; a second credit to HOT meanwhile goes into
# a stripe (or, when its backend shares the holder's stripe, waits for it by
# design and lands in place); a
# maintenance pass with a 1 s lock_timeout returns at once without folding
# HOT. Before the fix it waited for the holder: a deadlock when the holder
# then needed a stripe the pass had zeroed.
{
    printf 'BEGIN;\n'
    post "K$RUN" "$(line glAccountId "$CASH" D $CREDIT),$(line accountId "${ACCOUNT[HOT]}" C $CREDIT)"
    printf 'SELECT pg_sleep(4);\nCOMMIT;\n'
} >"$WORK/skip-holder.sql"
psql "$CONNINFO" -X -q -tA -v ON_ERROR_STOP=1 -f "$WORK/skip-holder.sql" >"$WORK/skip-holder.out" 2>&1 &
SKIP_HOLDER=$!
sleep 1
q -c "$(post "S$RUN-SKIP" "$(line glAccountId "$CASH" D $CREDIT),$(line accountId "${ACCOUNT[HOT]}" C $CREDIT)")" \
    >"$WORK/skip-credit.out" 2>&1 &
SKIP_CREDIT=$!
sleep 0.5
HELD_PASS=$(psql "$CONNINFO" -X -q -tA -c "SET lock_timeout = '1s'" \
    -c "SELECT corebank.core_maintenance() ->> 'creditStripesFolded'" 2>&1 | tail -n 1 || true)
HELD_OPEN=$(kill -0 "$SKIP_HOLDER" 2>/dev/null && echo 1 || echo 0)
wait "$SKIP_HOLDER" "$SKIP_CREDIT"
check "a maintenance pass does not wait for an account a posting holds, and leaves it" "$HELD_PASS/$HELD_OPEN" "0/1"
check "both credits posted" "$(grep -c '^t$' "$WORK/skip-holder.out" "$WORK/skip-credit.out" | paste -sd' ')" \
      "$WORK/skip-holder.out:1 $WORK/skip-credit.out:1"
q -c "SELECT corebank.core_maintenance()" >/dev/null
check "the passes after the holder's commit fold the rest" \
      "$(q -c "SELECT corebank.core_maintenance() ->> 'creditStripesFolded'")" 0
check "ledger_check_balances() is empty after the skipped and the later folds" \
      "$(q -c 'SELECT count(*) FROM corebank.ledger_check_balances()')" 0
printf '%d credits, %d of %d debits posted, %d folds of an account\n' "$CREDITS_POSTED" "$DEBITS_POSTED" "$DEBITS" "$FOLDED"
if ((FAILED)); then echo FAIL; exit 1; fi
echo PASS
