#!/usr/bin/env python3
"""pgtap/concurrency/posting_group.py: the driver of posting_group.sh (read
its header for the goal, the method and the checks).

Usage: posting_group.py CONNINFO [WORKERS] [GROUPS_PER_WORKER]

Every worker is a thread with its own connection (psycopg2 releases the GIL
while a statement runs). The workload is generated up front from fixed
seeds, so a run is the same requests in the same groups every time; only the
interleaving differs. The expected balances are computed here from what the
database acknowledged, independently of its bookkeeping.
"""
import collections
import json
import os
import random
import re
import sys
import threading
import time
import traceback

import psycopg2

ACTOR = "00000000-0000-4000-8000-0000000f0f0f"
ACCOUNTS = 20                 # funded current accounts besides HOT
OPENING = 200_000             # minor units each of them is opened with
HOT_OPENING = 20_000          # HOT's opening deposit
GROUP_SIZE = 8                # requests per core_postings call
OVERSIZED = 250_000           # an oversized debit: more than OPENING, so mostly refused
HOLD_S = 0.1                  # how long the holder keeps its group on HOT open
HOLD_PAUSE_S = 0.1            # and the pause between its groups
PAIR_WAIT_S = 60              # a pair's worker waits this long for the other (one that died breaks the run)
# The errors a request posted alone may end with: CB422 (insufficient funds,
# the minimum balance). Anything else, and any error of a group call, fails.
EXPECTED_ALONE_ERRORS = {"CB422"}


class Checks:
    def __init__(self):
        self.failed = False

    def check(self, description, have, want):
        if have == want:
            print(f"ok      {description}")
        else:
            print(f"NOT OK  {description}: have {have}, want {want}")
            self.failed = True

    def skip(self, description, why):
        print(f"skip    {description}: {why}")


def connect(conninfo):
    conn = psycopg2.connect(conninfo)
    conn.autocommit = True
    return conn


def scalar(conn, sql, args=None):
    with conn.cursor() as cur:
        cur.execute(sql, args)
        return cur.fetchone()[0]


def rows(conn, sql, args=None):
    with conn.cursor() as cur:
        cur.execute(sql, args)
        return cur.fetchall()


def jsonb(value):
    return json.dumps(value, separators=(",", ":"))


# --- setup ------------------------------------------------------------------------------------

def open_accounts(conn, run):
    """One customer; ACCOUNTS current accounts and HOT, opened with deposits."""
    customer = scalar(conn, "SELECT corebank.core_customers_create(%s, %s)->>'id'",
                      (jsonb({"type": "INDIVIDUAL", "firstName": "Group", "lastName": f"G{run}",
                              "dateOfBirth": "1980-01-01"}), ACTOR))
    accounts = []
    for index in range(ACCOUNTS + 1):
        amount = HOT_OPENING if index == ACCOUNTS else OPENING
        accounts.append(scalar(conn, "SELECT corebank.core_accounts_open(%s, %s)->>'id'",
                               (jsonb({"customerId": customer, "productCode": "CUR-STD",
                                       "initialDeposit": {"amountMinor": amount}}), ACTOR)))
    return accounts[:ACCOUNTS], accounts[ACCOUNTS]


# --- workload ---------------------------------------------------------------------------------

def transfer(source, target, amount, **extra):
    request = {"fromAccountId": source, "toAccountId": target, "amountMinor": amount}
    request.update(extra)
    return request


def keyed_request(run, round_, pair, which, accounts, hot):
    """The one request of key (round, pair, which): every sender sends these same bytes."""
    rng = random.Random(f"key-{round_}-{pair}-{which}")
    key = f"K{run}-{round_}-{pair}-{which}"
    if rng.random() < 0.3:
        # Into HOT: keyed credits race the holder too.
        source, target = rng.choice(accounts), hot
    else:
        source, target = rng.sample(accounts, 2)
    # The reference is the key, so the journal can be searched for it.
    return transfer(source, target, rng.randint(100, 3_000), idempotencyKey=key, reference=key)


def group_requests(run, worker, workers, round_, accounts, hot):
    """Group `round_` of `worker`: GROUP_SIZE transfer requests.

    Workers pair up (0-1, 2-3, ...): both workers of a pair send the pair's
    two keyed requests A and B in opposite order, and on every third round
    the next pair's first worker sends A as well (three senders). Even
    workers debit HOT (and hold it while their group runs); odd ones only
    credit it, so their credits meet a held HOT and go through a stripe.
    """
    rng = random.Random(f"group-{worker}-{round_}")
    pair = worker // 2
    pairs = (workers + 1) // 2
    keyed = [keyed_request(run, round_, pair, "A", accounts, hot),
             keyed_request(run, round_, pair, "B", accounts, hot)]
    if worker % 2 == 1:
        keyed.reverse()
    if worker % 2 == 0 and pairs > 1 and round_ % 3 == 0:
        keyed.append(keyed_request(run, round_, (pair - 1) % pairs, "A", accounts, hot))
    plain = []
    if worker % 2 == 0:
        # HOT's debits ask for about twice what the credits bring in, so HOT
        # runs near zero and many are refused.
        plain.append(transfer(hot, rng.choice(accounts), rng.randint(2_000, 12_000)))
        plain.append(transfer(hot, rng.choice(accounts), rng.randint(2_000, 12_000)))
        plain.append(transfer(rng.choice(accounts), hot, rng.randint(200, 2_500)))
    else:
        for _ in range(3):
            plain.append(transfer(rng.choice(accounts), hot, rng.randint(200, 2_500)))
    while len(plain) + len(keyed) < GROUP_SIZE:
        source, target = rng.sample(accounts, 2)
        amount = rng.randint(1, 20_000)
        if rng.random() < 0.15:
            amount = OVERSIZED + rng.randint(0, 150_000)
        plain.append(transfer(source, target, amount))
    # The keyed ones keep their relative order (the pair's opposite orders); the rest is shuffled around them.
    rng.shuffle(plain)
    requests = plain
    for request in keyed:
        requests.insert(rng.randint(0, len(requests)), request)
    return requests


# --- the sessions -----------------------------------------------------------------------------

class Outcomes:
    """What every session was answered, shared by the threads (under a lock)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.acknowledged = {}           # transaction id -> (request, first sender)
        self.posted_with = collections.defaultdict(list)  # transaction id -> [request] (every answer)
        self.key_answers = collections.defaultdict(list)  # key -> [transaction id or SQLSTATE]
        self.group_errors = collections.Counter()         # SQLSTATE of a group call
        self.group_error_samples = {}
        self.alone_errors = collections.Counter()         # SQLSTATE of a request posted alone
        self.alone_error_samples = {}
        self.alone_reasons = collections.Counter()
        self.posted_in_group = 0
        self.posted_alone = 0
        self.groups = 0
        self.groups_of_two_or_more = 0   # calls that posted two or more requests together

    def answered(self, request, transaction_id, sender):
        with self.lock:
            self.acknowledged.setdefault(transaction_id, (request, sender))
            self.posted_with[transaction_id].append(request)
            if "idempotencyKey" in request:
                self.key_answers[request["idempotencyKey"]].append(transaction_id)

    def refused(self, request, code, message):
        with self.lock:
            self.alone_errors[code] += 1
            self.alone_error_samples.setdefault(code, message)
            if "idempotencyKey" in request:
                self.key_answers[request["idempotencyKey"]].append(code)


def sqlstate(error):
    return getattr(error, "pgcode", None) or type(error).__name__


def post_alone(conn, request, outcomes, sender):
    """The tier's way with an ALONE member: the single function, its own transaction."""
    try:
        transaction_id = scalar(conn, "SELECT corebank.core_transfer(%s, %s)->>'id'", (jsonb(request), ACTOR))
    except psycopg2.Error as error:
        outcomes.refused(request, sqlstate(error), (error.pgerror or str(error)).strip().splitlines()[0])
        return
    with outcomes.lock:
        outcomes.posted_alone += 1
    outcomes.answered(request, transaction_id, sender)


def post_group(conn, requests, outcomes, sender, hold_s=0.0):
    """One core_postings call (kept open hold_s seconds), then its ALONE members alone."""
    elements = [{"operation": "transfer", "request": r} for r in requests]
    try:
        with conn.cursor() as cur:
            if hold_s:
                cur.execute("BEGIN")
            cur.execute("SELECT corebank.core_postings(%s, %s::uuid[])", (jsonb(elements), [ACTOR] * len(requests)))
            answers = cur.fetchone()[0]
            if hold_s:
                cur.execute("SELECT pg_sleep(%s)", (hold_s,))
                cur.execute("COMMIT")
    except psycopg2.Error as error:
        if hold_s:
            with conn.cursor() as cur:
                cur.execute("ROLLBACK")
        # The tier's way with a failed group: every member posts alone.
        with outcomes.lock:
            outcomes.group_errors[sqlstate(error)] += 1
            outcomes.group_error_samples.setdefault(sqlstate(error), " ".join((error.pgerror or str(error)).split()))
            outcomes.groups += 1
        for request in requests:
            post_alone(conn, request, outcomes, sender)
        return
    assert len(answers) == len(requests), answers
    posted = 0
    for request, answer in zip(requests, answers):
        if answer["status"] == "POSTED":
            posted += 1
            outcomes.answered(request, answer["response"]["id"], sender)
        else:
            assert answer["status"] == "ALONE", answer
            # The reason without the varying detail (amounts, numbers).
            reason = re.sub(r"[0-9a-f-]{36}|\d+", "#", answer["reason"])
            with outcomes.lock:
                outcomes.alone_reasons[reason] += 1
            post_alone(conn, request, outcomes, sender)
    with outcomes.lock:
        outcomes.groups += 1
        outcomes.posted_in_group += posted
        outcomes.groups_of_two_or_more += posted >= 2


def worker_run(conninfo, groups, outcomes, name, start, pair, errors):
    try:
        conn = connect(conninfo)
        start.wait()
        for requests in groups:
            # The two workers of a pair start each round together, so their
            # shared keys (in opposite orders) are claimed at the same moment.
            pair.wait(PAIR_WAIT_S)
            post_group(conn, requests, outcomes, name)
        conn.close()
    except Exception as error:  # noqa: BLE001 - reported as a failed check
        errors.append(f"{name}: {error!r}")


def holder_run(conninfo, hot, target, outcomes, start, stop, errors):
    """A long-ish group on HOT: it debits HOT (so holds its row) and stays open HOLD_S."""
    try:
        conn = connect(conninfo)
        start.wait()
        while not stop.is_set():
            post_group(conn, [transfer(hot, target, 1)], outcomes, "holder", HOLD_S)
            stop.wait(HOLD_PAUSE_S)
        conn.close()
    except Exception as error:  # noqa: BLE001 - reported as a failed check
        errors.append(f"holder: {error!r}")


# --- the books --------------------------------------------------------------------------------

def statements(conn, accounts):
    """Every account's journal entries: account -> [(entry, transaction, type, side, amount, running)]."""
    result = {}
    for account in accounts:
        result[account] = rows(conn, """
            SELECT s.entry_id, s.transaction_id::text, s.type, s.side, s.amount_minor, s.balance_minor
            FROM corebank.account_statement(%s, corebank.business_today() - 7, corebank.business_today()) s
            ORDER BY s.entry_id""", (account,))
    return result


def balances(conn, accounts):
    return {a: int(scalar(conn, "SELECT corebank.core_accounts_get(%s)->>'balanceMinor'", (a,))) for a in accounts}


def books_checks(checks, conn, when):
    checks.check(f"ledger_check_balances() is empty ({when})",
                 scalar(conn, "SELECT count(*) FROM corebank.ledger_check_balances()"), 0)
    checks.check(f"ledger_verify_chain() is empty ({when})",
                 scalar(conn, "SELECT count(*) FROM corebank.ledger_verify_chain()"), 0)
    checks.check(f"trial balance zero per currency ({when})", scalar(conn, """
        SELECT count(*) FROM (SELECT currency FROM corebank.trial_balance_as_of(corebank.business_today())
                              GROUP BY currency HAVING sum(debit_minor) <> sum(credit_minor)) x"""), 0)


def admin_connection(conninfo):
    """A connection that may read the engine's tables (the idempotency keys, the
    stripes), which the tier's role may not: POSTING_GROUP_ADMIN_CONNINFO, or
    CONNINFO as user postgres (the throwaway clusters of cbq and the suite).
    None when neither connects."""
    admin = os.environ.get("POSTING_GROUP_ADMIN_CONNINFO") or re.sub(r"\buser=\S+", "user=postgres", conninfo)
    try:
        conn = connect(admin)
        scalar(conn, "SELECT count(*) FROM corebank.idempotency_keys WHERE false")
        return conn
    except psycopg2.Error:
        return None


def main():
    if len(sys.argv) < 2:
        sys.exit(f"usage: {sys.argv[0]} CONNINFO [WORKERS] [GROUPS_PER_WORKER]")
    conninfo = sys.argv[1]
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    per_worker = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    checks = Checks()
    run = time.time_ns()
    conn = connect(conninfo)
    admin = admin_connection(conninfo)

    accounts, hot = open_accounts(conn, run)
    everyone = accounts + [hot]
    opening = balances(conn, everyone)
    transfers_before = int(scalar(conn, "SELECT corebank.core_transaction_search(%s)->>'totalElements'",
                                  (jsonb({"type": "TRANSFER", "size": 1}),)))

    plan = [[group_requests(run, w, workers, g, accounts, hot) for g in range(per_worker)] for w in range(workers)]
    requests_sent = sum(len(r) for groups in plan for r in groups)
    outcomes = Outcomes()
    start, stop = threading.Barrier(workers + 2), threading.Event()
    errors = []
    pairs = [threading.Barrier(min(2, workers - p)) for p in range(0, workers, 2)]
    threads = [threading.Thread(target=worker_run,
                                args=(conninfo, plan[w], outcomes, f"w{w}", start, pairs[w // 2], errors))
               for w in range(workers)]
    holder = threading.Thread(target=holder_run, args=(conninfo, hot, accounts[0], outcomes, start, stop, errors))
    for thread in threads + [holder]:
        thread.start()
    start.wait()
    began = time.monotonic()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    stop.set()
    holder.join()

    # Errors.
    checks.check("no session failed outside the database", errors, [])
    checks.check("no group call raised an error (deadlock, serialization, internal, unique)",
                 dict(outcomes.group_errors), {})
    for code, message in outcomes.group_error_samples.items():
        print(f"        {code}: {message}")
    unexpected = {code: n for code, n in outcomes.alone_errors.items() if code not in EXPECTED_ALONE_ERRORS}
    checks.check("requests posted alone failed only with CB422 (insufficient funds, minimum balance)",
                 unexpected, {})
    for code, message in outcomes.alone_error_samples.items():
        if code not in EXPECTED_ALONE_ERRORS:
            print(f"        {code}: {message}")
    checks.check("some requests were refused (ALONE, then CB422), some posted",
                 outcomes.alone_errors["CB422"] > 0 and len(outcomes.acknowledged) > 0, True)

    # Keys: every sender that got a transaction got the same one, posted once.
    split = {k: v for k, v in outcomes.key_answers.items() if len({a for a in v if len(a) == 36}) > 1}
    checks.check("every sender of a key that got a transaction got the same one", len(split), 0)
    for key, answers in list(split.items())[:5]:
        print(f"        {key}: {answers}")
    posted_keys = {k for k, v in outcomes.key_answers.items() if any(len(a) == 36 for a in v)}
    multiple = sum(1 for v in outcomes.key_answers.values() if len(v) > 1)
    checks.check(f"keys sent by two or three sessions ({multiple}) of {len(outcomes.key_answers)} keys",
                 multiple > 0, True)
    found = {}
    for key in outcomes.key_answers:
        found[key] = int(scalar(conn, "SELECT corebank.core_transaction_search(%s)->>'totalElements'",
                                (jsonb({"type": "TRANSFER", "reference": key}),)))
    checks.check("every acknowledged key's transaction is in the journal exactly once",
                 sorted({found[k] for k in posted_keys}), [1] if posted_keys else [])
    checks.check("a key nobody was acknowledged is not in the journal",
                 sum(found[k] for k in outcomes.key_answers if k not in posted_keys), 0)

    # The journal against the acknowledgements.
    journal = statements(conn, everyone)
    entries = collections.defaultdict(list)   # transaction -> [(account, side, amount)]
    for account, lines in journal.items():
        for _entry, transaction, kind, side, amount, _running in lines:
            if kind == "TRANSFER":
                entries[transaction].append((account, side, amount))
    acknowledged = outcomes.acknowledged
    checks.check("the TRANSFER transactions in the journal are exactly the acknowledged ones",
                 (len(set(entries) - set(acknowledged)), len(set(acknowledged) - set(entries))), (0, 0))
    checks.check("TRANSFER transactions counted by the search: the acknowledged ones",
                 int(scalar(conn, "SELECT corebank.core_transaction_search(%s)->>'totalElements'",
                            (jsonb({"type": "TRANSFER", "size": 1}),))) - transfers_before, len(acknowledged))
    wrong = [t for t, (r, _) in acknowledged.items()
             if sorted(entries.get(t, [])) != sorted([(r["fromAccountId"], "DEBIT", r["amountMinor"]),
                                                      (r["toAccountId"], "CREDIT", r["amountMinor"])])]
    checks.check("each acknowledged transaction moved its request's amount between its request's accounts",
                 len(wrong), 0)
    differing = [t for t, sent in outcomes.posted_with.items() if any(r != sent[0] for r in sent)]
    checks.check("no transaction id answered two different requests", len(differing), 0)

    # Balances.
    expected = dict(opening)
    for request, _sender in acknowledged.values():
        expected[request["fromAccountId"]] -= request["amountMinor"]
        expected[request["toAccountId"]] += request["amountMinor"]
    have = balances(conn, everyone)
    checks.check("each account's balance is opening + acknowledged credits - acknowledged debits",
                 [a for a in everyone if have[a] != expected[a]], [])
    checks.check("each account's statement closes at that balance",
                 [a for a in everyone if (journal[a][-1][5] if journal[a] else 0) != expected[a]], [])
    checks.check("money is conserved (the accounts' sum is unchanged)", sum(have.values()), sum(opening.values()))
    hot_debits = sum(1 for r, _ in acknowledged.values() if r["fromAccountId"] == hot)
    hot_credits = sum(1 for r, _ in acknowledged.values() if r["toAccountId"] == hot)
    checks.check(f"HOT's balance is not below zero ({have[hot]})", have[hot] >= 0, True)
    hot_low = min(line[5] for line in journal[hot])
    checks.check(f"HOT's running balance never went below zero in its statement (lowest {hot_low})",
                 hot_low >= 0, True)

    # The books, the stripes and the fold.
    books_checks(checks, conn, "stripes unfolded")
    stripes = None
    if admin is not None:
        stripes = scalar(admin, "SELECT count(*) FROM corebank.account_credit_stripes")
    folded = int(scalar(conn, "SELECT corebank.core_maintenance()->>'creditStripesFolded'"))
    if (stripes or 0) > 0 or folded > 0:
        checks.check(f"credits went through stripes ({stripes} stripe rows, {folded} accounts folded)", True, True)
    else:
        print(f"note    no credit stripe was used in this run ({stripes} stripe rows, {folded} accounts folded): "
              "no credit met a held account")
    books_checks(checks, conn, "after the fold")
    checks.check("balances unchanged by the fold", balances(conn, everyone) == expected, True)
    checks.check("a last maintenance pass finds nothing more to fold",
                 int(scalar(conn, "SELECT corebank.core_maintenance()->>'creditStripesFolded'")), 0)

    # Key claims.
    if admin is None:
        checks.skip("no idempotency key claim is left without a transaction",
                    "no connection may read corebank.idempotency_keys (set POSTING_GROUP_ADMIN_CONNINFO)")
    else:
        checks.check("no idempotency key claim is left without a transaction", scalar(admin, """
            SELECT count(*) FROM corebank.idempotency_keys k
            WHERE k.scope = 'core.money' AND k.transaction_id IS NULL"""), 0)
        stored = dict(rows(admin, """SELECT k.key, k.transaction_id::text FROM corebank.idempotency_keys k
                                     WHERE k.scope = 'core.money' AND k.key = ANY (%s)""",
                           (list(outcomes.key_answers),)))
        agreed = {k: next(a for a in v if len(a) == 36) for k, v in outcomes.key_answers.items() if k in posted_keys}
        checks.check("each acknowledged key stores the transaction its senders got", stored, agreed)

    reasons = ", ".join(f"{n} {r}" for r, n in outcomes.alone_reasons.most_common())
    print(f"{workers} sessions x {per_worker} groups of {GROUP_SIZE}: {requests_sent} requests in {elapsed:.1f} s; "
          f"{outcomes.posted_in_group} posted in groups ({outcomes.groups_of_two_or_more} of {outcomes.groups} calls "
          f"posted two or more), {outcomes.posted_alone} posted alone, "
          f"{sum(outcomes.alone_errors.values())} refused alone; HOT {hot_credits} credits, {hot_debits} debits")
    print(f"ALONE reasons: {reasons or 'none'}")
    if checks.failed:
        print("FAIL")
        sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    try:
        main()
    except Exception:  # noqa: BLE001 - the last line is still PASS or FAIL
        traceback.print_exc()
        print("FAIL")
        sys.exit(1)
