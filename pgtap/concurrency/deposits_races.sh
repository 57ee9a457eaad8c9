#!/usr/bin/env bash
# pgtap/concurrency/deposits_races.sh: the deposits rules under concurrency.
#
# Usage: deposits_races.sh CONNINFO [WORKERS]
#   CONNINFO  a libpq connection string to a THROWAWAY database where the
#             corebank extension (1.8+) is installed; the script opens
#             customers and accounts and posts real transactions into it.
#             It uses the API only, so the tier's role (corebank_app) works.
#
# Goal: the rules that hold one at a time also hold when sessions race.
# Method: WORKERS (8) parallel psql sessions, started together, each:
#   1. execute the standing orders for today: one payment, whatever the race
#      (the unique execution per order and date);
#   2. send the same deposit under one idempotency key: one posting, every
#      session gets its transaction;
#   3. withdraw from one SAV-STD account that can pay only some of them: the
#      winners are exactly what the balance allows above the minimum, the
#      others are refused with CB422, nobody deadlocks;
#   4. run the interest for today: one accrual per account and day;
#   5. (1.8) deposit into a DORMANT account (the owner's doing: each one
#      reactivates it) while another customer's transfer into it is held
#      open: the deposits share the held row and credit stripes, the account
#      is reactivated once, nobody deadlocks.
#      (This moves the business date 200 days on, so it runs last.)
# Then ledger_check_balances() and ledger_verify_chain() return no rows.
# Exit status 0 when all hold; the last line is PASS or FAIL.
set -euo pipefail

CONNINFO=${1:?usage: $0 CONNINFO [WORKERS]}
# (the harness passes a third argument, for the ledger script; unused here)
WORKERS=${2:-8}
readonly ACTOR=00000000-0000-4000-8000-0000000d0d0d
readonly WITHDRAWAL=10000     # each session's withdrawal
readonly PAYABLE=3            # withdrawals the funded balance allows

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
q() { psql "$CONNINFO" -X -q -v ON_ERROR_STOP=1 -tA "$@"; }

FAILURES=0
check() {  # check NAME HAVE WANT
    if [[ "$2" == "$3" ]]; then
        printf 'ok - %s\n' "$1"
    else
        printf 'not ok - %s (have %s, want %s)\n' "$1" "$2" "$3"
        FAILURES=$((FAILURES + 1))
    fi
}

# race NAME SQL: WORKERS sessions run SQL at once; outputs in $WORK/NAME.*
race() {
    local name=$1 sql=$2 worker
    for ((worker = 0; worker < WORKERS; worker++)); do
        psql "$CONNINFO" -X -q -tA -c "$sql" >"$WORK/$name.$worker.out" 2>"$WORK/$name.$worker.err" &
    done
    wait || true
}

balance() { q -c "SELECT corebank.core_accounts_get('$1')->>'balanceMinor'"; }

RUN=$(date +%s%N)
TODAY=$(q -c "SELECT corebank.business_today()")
CUSTOMER=$(q -c "SELECT corebank.core_customers_create('{\"type\":\"INDIVIDUAL\",\"firstName\":\"Race\",\"lastName\":\"R$RUN\",
                 \"dateOfBirth\":\"1980-01-01\"}', '$ACTOR')->>'id'")
open() { q -c "SELECT corebank.core_accounts_open('{\"customerId\":\"$CUSTOMER\",\"productCode\":\"$1\"$2}', '$ACTOR')->>'id'"; }
SOURCE=$(open CUR-STD ',"initialDeposit":{"amountMinor":100000}')
TARGET=$(open CUR-STD '')
# SAV-STD keeps 10.00: fund 10.00 + PAYABLE withdrawals.
SAVINGS=$(open SAV-STD ",\"initialDeposit\":{\"amountMinor\":$((1000 + PAYABLE * WITHDRAWAL))}")
ORDER=$(q -c "SELECT corebank.core_standing_orders_create('{\"sourceAccountId\":\"$SOURCE\",\"targetAccountId\":\"$TARGET\",
              \"amountMinor\":2500,\"frequency\":\"MONTHLY\",\"startDate\":\"$TODAY\"}', '$ACTOR')->>'id'")

# 1. Standing orders: one payment per order and date.
race orders "SELECT corebank.core_standing_orders_execute('$TODAY', '$ACTOR')"
check "no session failed executing standing orders" "$(cat "$WORK"/orders.*.err | grep -c ERROR || true)" 0
check "one session paid the order" "$(cat "$WORK"/orders.*.out | grep -o '"outcome": "SUCCEEDED"' | wc -l)" 1
check "the others saw it executed" "$(cat "$WORK"/orders.*.out | grep -o '"outcome": "ALREADY_EXECUTED"' | wc -l)" $((WORKERS - 1))
check "the target received one payment" "$(balance "$TARGET")" 2500
check "the order moved past today" "$(q -c "SELECT corebank.core_standing_orders_get('$ORDER')->>'lastRunDate'")" "$TODAY"

# 2. One idempotency key, many sessions: one posting.
race deposit "SELECT corebank.core_deposit('{\"accountId\":\"$TARGET\",\"amountMinor\":700,\"idempotencyKey\":\"race-$RUN\"}', '$ACTOR')->>'id'"
check "no session failed the keyed deposit" "$(cat "$WORK"/deposit.*.err | grep -c ERROR || true)" 0
check "every session got the same transaction" "$(sort -u "$WORK"/deposit.*.out | wc -l)" 1
check "the deposit posted once" "$(balance "$TARGET")" 3200

# 3. Withdrawals racing the minimum balance.
race withdraw "SELECT corebank.core_withdraw('{\"accountId\":\"$SAVINGS\",\"amountMinor\":$WITHDRAWAL}', '$ACTOR')->>'status'"
check "exactly the payable withdrawals posted" "$(cat "$WORK"/withdraw.*.out | grep -c POSTED || true)" "$PAYABLE"
check "the others were refused by the minimum balance" \
      "$(cat "$WORK"/withdraw.*.err | grep -c 'below its minimum balance' || true)" $((WORKERS - PAYABLE))
check "no deadlock" "$(cat "$WORK"/*.err | grep -ci deadlock || true)" 0
check "the savings account kept its minimum" "$(balance "$SAVINGS")" 1000

# 4. Interest runs racing: one accrual per account and day.
race interest "SELECT corebank.core_interest_run('$TODAY', '$ACTOR')"
check "no session failed the interest run" "$(cat "$WORK"/interest.*.err | grep -c ERROR || true)" 0
check "one accrual for the day" "$(q -c "SELECT jsonb_array_length(corebank.core_interest_accruals_list('$SAVINGS', '$TODAY', '$TODAY'))")" 1

# 5. Owners' deposits racing into a DORMANT account that a transfer holds
#    (1.8: the deposits credit it through stripes, sharing its row): it is
#    reactivated once, nobody deadlocks, every deposit posts.
DORMANT=$(open CUR-STD ',"initialDeposit":{"amountMinor":100}')
# Another customer's account: its transfer into DORMANT is not the owner's
# doing, so it holds the row without reactivating the account.
OTHER_CUSTOMER=$(q -c "SELECT corebank.core_customers_create('{\"type\":\"INDIVIDUAL\",\"firstName\":\"Other\",
                 \"lastName\":\"O$RUN\",\"dateOfBirth\":\"1980-01-01\"}', '$ACTOR')->>'id'")
OTHER=$(q -c "SELECT corebank.core_accounts_open('{\"customerId\":\"$OTHER_CUSTOMER\",\"productCode\":\"CUR-STD\",
              \"initialDeposit\":{\"amountMinor\":100000}}', '$ACTOR')->>'id'")
LATER=$(q -c "SELECT (corebank.business_today() + 200)::text")
q -c "SELECT corebank.core_platform_config_update('{\"todayOverride\":\"$LATER\"}', '$ACTOR')" >/dev/null
q -c "SELECT corebank.core_dormancy_run('$LATER', '$ACTOR')" >/dev/null
check "the account went dormant" "$(q -c "SELECT corebank.core_accounts_get('$DORMANT')->>'status'")" DORMANT
psql "$CONNINFO" -X -q -tA -c "BEGIN" \
     -c "SELECT corebank.core_transfer('{\"fromAccountId\":\"$OTHER\",\"toAccountId\":\"$DORMANT\",\"amountMinor\":100}',
                                       '$ACTOR')->>'status'" \
     -c "SELECT pg_sleep(1.5)" -c "COMMIT" >"$WORK/holder.out" 2>"$WORK/holder.err" &
sleep 0.3
race revive "SELECT corebank.core_deposit('{\"accountId\":\"$DORMANT\",\"amountMinor\":100}', '$ACTOR')->>'status'"
wait
check "no session failed a reviving deposit" "$(cat "$WORK"/revive.*.err "$WORK/holder.err" | grep -c ERROR || true)" 0
check "every reviving deposit posted" "$(cat "$WORK"/revive.*.out "$WORK/holder.out" | grep -c POSTED || true)" $((WORKERS + 1))
check "the account is active" "$(q -c "SELECT corebank.core_accounts_get('$DORMANT')->>'status'")" ACTIVE
check "it was reactivated once" \
      "$(q -c "SELECT count(*) FROM jsonb_array_elements(corebank.core_accounts_status_history('$DORMANT')) h
               WHERE h->>'toStatus' = 'ACTIVE' AND h->>'fromStatus' = 'DORMANT'")" 1
check "its balance has every deposit" "$(balance "$DORMANT")" $((100 * (WORKERS + 2)))

check "balances match the journal" "$(q -c "SELECT count(*) FROM corebank.ledger_check_balances()")" 0
check "the hash chains are intact" "$(q -c "SELECT count(*) FROM corebank.ledger_verify_chain()")" 0

if ((FAILURES == 0)); then echo PASS; else echo FAIL; exit 1; fi
