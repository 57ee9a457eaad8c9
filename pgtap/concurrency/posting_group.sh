#!/usr/bin/env bash
# pgtap/concurrency/posting_group.sh: grouped single transfers
# (corebank.core_postings, issue 12 part 1) racing each other, their own
# requests posted alone, and a group that holds a hot account.
#
# Usage: posting_group.sh CONNINFO [WORKERS] [GROUPS_PER_WORKER]
#   CONNINFO  a libpq connection string to a THROWAWAY database where the
#             corebank extension (1.8+) and the data migrations are
#             installed; the script opens a customer and accounts and posts
#             real transactions into it. It uses the API as the tier's role
#             (corebank_app) does. Two checks read tables that role may not
#             (corebank.idempotency_keys, corebank.account_credit_stripes):
#             through POSTING_GROUP_ADMIN_CONNINFO, or CONNINFO as user
#             postgres (the throwaway clusters of cbq and the suite); the
#             claims check says skip when neither connects.
#
# Goal: a group decides and writes its requests as the single path would,
# under concurrency: groups lock their accounts as single postings do, so they
# never deadlock with each other; a request the group does not post leaves
# nothing behind, and posted alone (as the tier posts it) is answered once;
# idempotency keys sent by several sessions at once post once; a credit to a
# held account goes through a credit stripe and a debit never overdraws.
# Method (pgtap/concurrency/posting_group.py, python3-psycopg2): one customer,
# 20 current accounts opened with 2,000.00 and HOT opened with 200.00.
# WORKERS (8) sessions each make GROUPS_PER_WORKER (100) core_postings calls of
# 8 transfers, generated up front from fixed seeds: transfers between random
# accounts (some larger than an account holds, so refused as ALONE), credits
# into HOT from random accounts, debits from HOT (even workers; odd ones only
# credit it, so they meet a held HOT), and two keyed requests per group that
# the other worker of the pair sends in the opposite order, a third session
# every third round (the same key, the same request bytes); the two workers
# of a pair start each round together, so they claim those keys at the same
# moment, as two tier processes serving one client's retries would. Every ALONE
# request is then posted with core_transfer, as the tier does, and its
# transaction id or SQLSTATE is recorded; a failed group call posts every
# member alone. A holder session meanwhile keeps a group that debits HOT open
# 0.1 s at a time. The expected balances are computed from the answers. Then:
#   - no group call raised (no 40P01, 40001, XX000, 23505) and requests posted
#     alone failed only with CB422 (insufficient funds, minimum balance);
#   - every sender of a key that got a transaction got the same one, and it is
#     in the journal once (searched by its reference, the key);
#   - the TRANSFER transactions of the journal are exactly the acknowledged
#     ones (POSTED or posted alone), each moving its request's amount between
#     its request's accounts, and the search counts that many;
#   - each account's balance (and statement close) is opening + acknowledged
#     credits - acknowledged debits, money is conserved, HOT's balance and
#     every running balance of its statement are >= 0;
#   - ledger_check_balances() and ledger_verify_chain() return no rows and
#     the trial balance is zero per currency, before and after
#     core_maintenance() folds the stripes, which were used (stripe rows or
#     folds; a run that used none says so in a note instead of failing);
#   - no core.money idempotency key claim is left without a transaction, and
#     each acknowledged key stores the transaction its senders got.
# Exit status 0 when all hold; the last line is PASS or FAIL.
set -euo pipefail

CONNINFO=${1:?usage: $0 CONNINFO [WORKERS] [GROUPS_PER_WORKER]}
WORKERS=${2:-8}
PER_WORKER=${3:-100}

# The Debian python3-psycopg2 belongs to /usr/bin/python3; a python3 earlier
# on PATH (pyenv) may not have it.
PYTHON=python3
python3 -c 'import psycopg2' 2>/dev/null || PYTHON=/usr/bin/python3
exec "$PYTHON" "$(dirname "$0")/posting_group.py" "$CONNINFO" "$WORKERS" "$PER_WORKER"
