"""The soak test of crashes (issue 12, part 6): `./corebank soak [--cycles N]`.

tests/soak/run.sh starts a throwaway cluster and database and sets the
environment of tests/faults/run.sh; this module reuses the fault tests' kill -9
and restart of the postmaster and of corebankd (tests/faults/test_faults.py:
Tier, pg_kill9, pg_start, http_request), so both restart a process exactly as
the harness started it.

Load: THREADS client threads send a mix of single postings (POST
/v1/transfers, /v1/deposits, /v1/withdrawals) and batches (POST
/v1/transfers/batch) among the soak's savings accounts. Every request carries
an Idempotency-Key of its own and every posting a unique reference. A request
that got no answer (connection refused or cut, a timeout) or a 5xx is sent
again with the same key and body until it is answered 200; then it counts as
acknowledged. One acknowledged request in REPLAY_ONE_IN is sent once more on
purpose, and must answer the same transaction ids.

Crashes: SOAK_CYCLES cycles; each waits until the tier serves, lets the load
run for a random moment, then kill -9s corebankd (the 1st, 3rd, ... cycle)
or the postmaster with its backends (the 2nd, 4th, ...) and restarts it.

At the end the load stops (each thread finishes its request) and the checks
run; the report goes to stdout and the exit status is 1 when any check fails:
  1. every acknowledged posting is in the journal exactly once, with the id
     the client was given, POSTED, and nothing the clients did not get
     acknowledged is there;
  2. nothing is half-written: every transaction of the whole journal has
     entries and its entries balance per currency;
  3. money is conserved: each soak account's balance is its opening balance
     plus its acknowledged postings, their sum moved by exactly the
     acknowledged deposits less withdrawals, and so did the cash GL account
     1000 and the savings control account 2000;
  4. the trial balance is zero in every currency;
  5. corebank.ledger_check_balances() and corebank.ledger_verify_chain()
     return no rows;
  6. every request was answered within the fault tests' limit and only with
     200 or 503 (no other status, no 503 without the error body), every
     replay answered the same transactions, and every cycle acknowledged
     postings before its kill (so that every kill hit a live load).
"""
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid

import psycopg2

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("CB_ROOT") or os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "faults"))
import test_faults as F  # noqa: E402 (reads the FAULT_ environment at import)
import cbclient  # noqa: E402 (tests/e2e, on the path through test_faults: unique_password)

CYCLES = int(os.environ.get("SOAK_CYCLES", "50"))
SEED = int(os.environ.get("SOAK_SEED", "1"))
CLI = os.environ["CB_CLI"]
SUPER_URL = os.environ["CB_DATABASE_URL"]

THREADS = 4
ACCOUNTS = 8
OPENING = 100_000_000           # minor units opened into each account
AMOUNT_MAX = 500                # per posting: the accounts can never run dry
BATCH_SIZE = (4, 16)            # transfers per batch request
KIND_WEIGHTS = (("transfer", 45), ("deposit", 15), ("withdrawal", 15), ("batch", 25))
KILL_AFTER_S = (0.5, 4.0)       # the random moment, after the tier serves again
REPLAY_ONE_IN = 25
REQUEST_DEADLINE_S = 60         # a request not acknowledged by then is a failure
TOKEN_RENEW_S = 600             # staff access tokens live 900 s
CASH_GL, SAVINGS_GL = "1000", "2000"
KEY_RATE_LIMIT = 1_000_000      # requests per minute: the load is not throttled


# ---------------------------------------------------------------- helpers

def sql_rows(query, params=()):
    """Rows as tuples, as the superuser (the checks read the journal directly)."""
    conn = psycopg2.connect(SUPER_URL, connect_timeout=10)
    conn.autocommit = True
    try:
        with conn.cursor() as cur:
            cur.execute(query, params)
            return cur.fetchall() if cur.description else []
    finally:
        conn.close()


def sql_value(query, params=()):
    return sql_rows(query, params)[0][0]


def cli(*args):
    done = subprocess.run([CLI, *args], env=dict(os.environ, DATABASE_URL=SUPER_URL),
                          capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise SystemExit(f"soak: {CLI} {args[0]} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout.strip()


def call(port, method, path, body=None, headers=None):
    """A setup request that must answer 200."""
    status, parsed, raw = F.http_request(port, method, path, body, headers)
    if status != 200:
        raise SystemExit(f"soak: setup {method} {path} answered {status}: {raw[:300]!r}")
    return parsed


class StaffToken:
    """A teller's access token, renewed by logging in again before it expires."""

    def __init__(self, identity_port, email, password):
        self.port, self.email, self.password = identity_port, email, password
        self.lock = threading.Lock()
        self.token, self.at = None, 0.0
        self.renew(force=True)

    def renew(self, force=False):
        try:
            status, parsed, _ = F.http_request(self.port, "POST", "/auth/login",
                                               {"email": self.email, "password": self.password})
        except OSError:
            status, parsed = None, None
        if status == 200:
            self.token, self.at = parsed["accessToken"], time.monotonic()
        elif force:
            raise SystemExit(f"soak: the teller could not log in ({status})")

    def get(self):
        with self.lock:
            if time.monotonic() - self.at > TOKEN_RENEW_S:
                self.renew()    # while the tier is down, the old token serves on
            return self.token


# ---------------------------------------------------------------- the load

class Load:
    """Client threads posting until stopped; every request is retried under its key until answered 200."""

    def __init__(self, tier, accounts, write_key, staff, tag):
        self.tier, self.accounts, self.write_key, self.staff, self.tag = tier, accounts, write_key, staff, tag
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.postings = {}          # reference -> (transaction id, kind, {account: delta})
        self.acked = {kind: 0 for kind, _ in KIND_WEIGHTS}
        self.batch_transfers = 0
        self.refused_items = []     # batch items answered FAILED (none are expected)
        self.sent = self.retried = self.noanswer = self.unavailable = 0
        self.replays = 0
        self.answered_on_retry = []  # (a reference it posted, wall time the answered retry was sent)
        self.bad = []               # hangs, statuses other than 200 and 503, replays that differ
        self.max_latency = 0.0

    def acked_requests(self):
        with self.lock:
            return sum(self.acked.values())

    # ------------------------------------------------------------ requests

    def new_request(self, rng, thread, n):
        kind = rng.choices([k for k, _ in KIND_WEIGHTS], [w for _, w in KIND_WEIGHTS])[0]
        key = f"soak-{self.tag}-{thread}-{n}"
        ref = f"SK-{self.tag}-{thread}-{n}"
        amount = rng.randint(1, AMOUNT_MAX)
        one, other = rng.sample(self.accounts, 2)
        if kind == "transfer":
            body = {"fromAccountId": one, "toAccountId": other, "amountMinor": amount, "reference": ref}
            return kind, "/v1/transfers", key, body, [(ref, {one: -amount, other: amount})]
        if kind in ("deposit", "withdrawal"):
            sign = 1 if kind == "deposit" else -1
            body = {"accountId": one, "amountMinor": amount, "reference": ref}
            return kind, f"/v1/{kind}s", key, body, [(ref, {one: sign * amount})]
        items, effects = [], []
        for i in range(rng.randint(*BATCH_SIZE)):
            one, other = rng.sample(self.accounts, 2)
            amount = rng.randint(1, AMOUNT_MAX)
            items.append({"fromAccountId": one, "toAccountId": other, "amountMinor": amount,
                          "reference": f"{ref}-{i}"})
            effects.append((f"{ref}-{i}", {one: -amount, other: amount}))
        return kind, "/v1/transfers/batch", key, {"channel": "API", "transfers": items}, effects

    def send_until_acked(self, path, key, body):
        """(the 200 body, or None after a refusal or REQUEST_DEADLINE_S without an answer;
        the wall-clock time the answered attempt was sent when it was a retry, else None)."""
        deadline = time.monotonic() + REQUEST_DEADLINE_S
        attempt = 0
        while time.monotonic() < deadline:
            headers = {"X-API-Key": self.write_key, "Authorization": f"Bearer {self.staff.get()}",
                       "Idempotency-Key": key}
            with self.lock:
                self.sent += 1
                self.retried += attempt > 0
            attempt += 1
            started, sent_at = time.monotonic(), time.time()
            try:
                status, parsed, raw = F.http_request(self.tier.core, "POST", path, body, headers)
            except OSError as exc:
                with self.lock:
                    self.noanswer += 1
                    if "timed out" in repr(exc):
                        self.bad.append(f"{key}: no answer within {F.RESPONSE_LIMIT_S} s (hang)")
                time.sleep(0.1)
                continue
            with self.lock:
                self.max_latency = max(self.max_latency, time.monotonic() - started)
            if status == 200:
                return parsed, (sent_at if attempt > 1 else None)
            text = raw[:300].decode("utf-8", "replace")
            if status == 503:
                with self.lock:
                    self.unavailable += 1
                    if not (isinstance(parsed, dict) and parsed.get("error") == "SERVICE_UNAVAILABLE"):
                        self.bad.append(f"{key}: 503 without the error body: {text}")
                time.sleep(0.2)
                continue
            with self.lock:
                self.bad.append(f"{key}: {status} {text}")
            if status < 500:
                return None, None     # refused: not acknowledged, so it must not be in the journal
            time.sleep(0.2)     # a 5xx is a failure, but the posting is still settled by retrying
        with self.lock:
            self.bad.append(f"{key}: not acknowledged within {REQUEST_DEADLINE_S} s")
        return None, None

    def posted_ids(self, kind, answer, effects):
        """[(reference, transaction id)] of what the answer says was posted."""
        if kind != "batch":
            return [(effects[0][0], answer.get("id"))]
        posted = []
        for result, (ref, _) in zip(answer.get("results", []), effects):
            if result.get("status") == "POSTED" and result.get("reference") == ref:
                posted.append((ref, result.get("transactionId")))
            else:
                with self.lock:
                    self.refused_items.append((ref, result))
        return posted

    def worker(self, thread):
        rng = random.Random(SEED * 1000 + thread)
        n = 0
        try:
            while not self.stop.is_set():
                kind, path, key, body, effects = self.new_request(rng, thread, n)
                n += 1
                answer, retried_at = self.send_until_acked(path, key, body)
                if answer is None:
                    continue
                posted = self.posted_ids(kind, answer, effects)
                moves = dict(effects)
                with self.lock:
                    self.acked[kind] += 1
                    if retried_at is not None and posted:
                        self.answered_on_retry.append((posted[0][0], retried_at))
                    self.batch_transfers += len(posted) if kind == "batch" else 0
                    for ref, tx in posted:
                        self.postings[ref] = (tx, kind, moves[ref])
                if rng.randrange(REPLAY_ONE_IN) == 0:
                    again, _ = self.send_until_acked(path, key, body)
                    with self.lock:
                        self.replays += 1
                    if again is not None and self.posted_ids(kind, again, effects) != posted:
                        with self.lock:
                            self.bad.append(f"{key}: the replay answered other transactions")
        except BaseException as exc:  # a client bug must fail the run, not hang it
            with self.lock:
                self.bad.append(f"client thread {thread}: {exc!r}")

    def start(self):
        self.threads = [threading.Thread(target=self.worker, args=(i,), daemon=True) for i in range(THREADS)]
        for t in self.threads:
            t.start()

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join(REQUEST_DEADLINE_S * 3)
            if t.is_alive():
                self.bad.append("a client thread did not finish")


# ---------------------------------------------------------------- the soak

class Soak:
    def __init__(self):
        self.rng = random.Random(SEED)
        self.tag = f"{SEED % 100000}{uuid.uuid4().hex[:6]}"
        self.tier = F.Tier(F.PORTS[0:4], "soak")
        self.kills = {"corebankd": 0, "postgres": 0}
        self.idle_cycles = []
        self.checks = []            # (passed, title, numbers)

    def setup(self):
        # kill -9 of the postmaster must not lose an acknowledged commit: the
        # harness's cluster runs with synchronous_commit=off (as the fault tests).
        db = sql_value("SELECT current_database()")
        sql_rows(f'ALTER DATABASE "{db}" SET synchronous_commit = on')
        self.tier.start()
        self.admin_key = cli("key-create", "--service", "core", "--scopes", "admin", "--name",
                             f"soak-admin-{self.tag}", "--rate-limit", str(KEY_RATE_LIMIT))
        self.write_key = cli("key-create", "--service", "core", "--scopes", "write", "--name",
                             f"soak-load-{self.tag}", "--rate-limit", str(KEY_RATE_LIMIT))
        admin = {"X-API-Key": self.admin_key}
        # Drawn until cracklib accepts it, as the tier's quality check would refuse
        # now and then a random string ("too simplistic/systematic") and fail the soak.
        email, password = f"soak-{self.tag}@soak.corebank.test", cbclient.unique_password()
        cli("staff-create", "--email", email, "--password", password, "--roles", "teller")
        self.staff = StaffToken(self.tier.identity, email, password)
        teller = dict(admin, Authorization=f"Bearer {self.staff.get()}")
        self.accounts = []
        for i in range(ACCOUNTS):
            customer = call(self.tier.core, "POST", "/v1/customers", {
                "type": "INDIVIDUAL", "firstName": "Soak", "lastName": f"Test{self.tag}{i}",
                "dateOfBirth": "1990-04-01", "nationalId": f"63-{self.tag}{i}", "nationality": "ZW"}, teller)
            account = call(self.tier.core, "POST", "/v1/accounts", {
                "customerId": customer["id"], "productCode": "SAV-TIER",
                "initialDeposit": {"amountMinor": OPENING}}, teller)
            self.accounts.append(account["id"])
        self.opening = self.balances()
        self.gl_opening = self.gl_balances()

    def balances(self):
        admin = {"X-API-Key": self.admin_key}
        return {a: call(self.tier.core, "GET", f"/v1/accounts/{a}", headers=admin)["balanceMinor"]
                for a in self.accounts}

    def gl_balances(self):
        return {code: int(sql_value("SELECT coalesce(sum(balance_minor), 0) FROM corebank.gl_balances_as_of("
                                "corebank.business_today()) WHERE code = %s AND currency = 'USD'", (code,)))
                for code in (CASH_GL, SAVINGS_GL)}

    def wait_serving(self, limit_s=60):
        """Until a read through the tier answers 200 (after a restart, or the tier's reconnect)."""
        deadline = time.monotonic() + limit_s
        last = None
        while time.monotonic() < deadline:
            try:
                last = F.http_request(self.tier.core, "GET", f"/v1/accounts/{self.accounts[0]}",
                                      headers={"X-API-Key": self.admin_key})
                if last[0] == 200:
                    return
            except OSError as exc:
                last = exc
            time.sleep(0.1)
        raise SystemExit(f"soak: the tier did not serve again within {limit_s} s: {last!r}")

    def crash_cycles(self, load):
        started = time.monotonic()
        for cycle in range(CYCLES):
            self.wait_serving()
            before = load.acked_requests()
            time.sleep(self.rng.uniform(*KILL_AFTER_S))
            if load.acked_requests() == before:
                self.idle_cycles.append(cycle)
            victim = "corebankd" if cycle % 2 == 0 else "postgres"
            if victim == "corebankd":
                self.tier.kill9()
                self.tier.start()
            else:
                F.pg_kill9()
                F.pg_start()
            self.kills[victim] += 1
            print(f"  {time.monotonic() - started:6.1f} s  cycle {cycle + 1}/{CYCLES}: killed {victim};"
                  f" {load.acked_requests()} requests acknowledged so far", file=sys.stderr, flush=True)
        self.wait_serving()

    # ------------------------------------------------------------ the checks

    def check(self, passed, title, numbers):
        self.checks.append((passed, title, numbers))

    def check_exactly_once(self, load):
        rows = sql_rows("SELECT reference, id::text, status FROM corebank.transactions WHERE reference LIKE %s",
                        (f"SK-{load.tag}-%",))
        found = {}
        for ref, tx, status in rows:
            found.setdefault(ref, []).append((tx, status))
        acked = load.postings
        missing = [r for r in acked if r not in found]
        twice = [r for r, v in found.items() if len(v) > 1]
        other_id = [r for r, (tx, _, _) in acked.items() if r in found and found[r][0][0] != tx]
        not_posted = [r for r in acked if r in found and found[r][0][1] != "POSTED"]
        unacked = [r for r in found if r not in acked]
        # A transaction older than the retry that was answered was posted by an
        # attempt whose answer the crash cut off: the retry replayed it.
        created = dict(sql_rows("SELECT reference, extract(epoch FROM created_at)::float8 FROM corebank.transactions"
                                " WHERE reference = ANY(%s)", ([ref for ref, _ in load.answered_on_retry],)))
        replayed = sum(1 for ref, sent_at in load.answered_on_retry if ref in created and created[ref] < sent_at)
        self.check(not (missing or twice or other_id or not_posted or unacked) and acked,
                   "every acknowledged posting is in the journal exactly once",
                   f"{len(acked)} acknowledged postings, {len(rows)} soak transactions in the journal;"
                   f" {len(missing)} missing, {len(twice)} more than once, {len(other_id)} under another id,"
                   f" {len(not_posted)} not POSTED, {len(unacked)} never acknowledged;"
                   f" {len(load.answered_on_retry)} requests answered only on a retry, {replayed} of them"
                   f" posted by an attempt whose answer was lost and answered again by the retry"
                   + (f"; e.g. {(missing + twice + other_id + not_posted + unacked)[:3]}"
                      if missing or twice or other_id or not_posted or unacked else ""))

    def check_whole(self, load):
        transactions, entries = sql_rows("SELECT (SELECT count(*) FROM corebank.transactions),"
                                         " (SELECT count(*) FROM corebank.journal_entries)")[0]
        empty = sql_value("SELECT count(*) FROM corebank.transactions t WHERE NOT EXISTS"
                          " (SELECT FROM corebank.journal_entries e WHERE e.transaction_id = t.id)")
        unbalanced = sql_value(
            "SELECT count(*) FROM (SELECT transaction_id, currency FROM corebank.journal_entries GROUP BY 1, 2"
            " HAVING sum(CASE side WHEN 'D' THEN amount_minor ELSE -amount_minor END) <> 0) x")
        not_two = sql_value(
            "SELECT count(*) FROM (SELECT t.id FROM corebank.transactions t JOIN corebank.journal_entries e"
            " ON e.transaction_id = t.id WHERE t.reference LIKE %s GROUP BY t.id HAVING count(*) <> 2) x",
            (f"SK-{load.tag}-%",))
        self.check(empty == 0 and unbalanced == 0 and not_two == 0 and transactions > 0,
                   "nothing is half-written",
                   f"{transactions} transactions, {entries} entries; {empty} transactions without entries,"
                   f" {unbalanced} (transaction, currency) pairs that do not balance,"
                   f" {not_two} soak postings without exactly their 2 entries")

    def check_money(self, load):
        expected = dict(self.opening)
        cash = 0
        for _, kind, moves in load.postings.values():
            for account, delta in moves.items():
                expected[account] += delta
            if kind in ("deposit", "withdrawal"):
                cash += sum(moves.values())
        actual = self.balances()
        wrong = {a: (actual[a], expected[a]) for a in self.accounts if actual[a] != expected[a]}
        total_before, total_after = sum(self.opening.values()), sum(actual.values())
        gl = self.gl_balances()
        moved = {code: gl[code] - self.gl_opening[code] for code in gl}
        self.check(not wrong and total_after - total_before == cash and all(m == cash for m in moved.values()),
                   "money is conserved",
                   f"customer balances {total_before} -> {total_after} ({total_after - total_before:+d}),"
                   f" acknowledged deposits less withdrawals {cash:+d}; cash GL {CASH_GL} moved"
                   f" {moved[CASH_GL]:+d}, savings control GL {SAVINGS_GL} moved {moved[SAVINGS_GL]:+d};"
                   f" {len(wrong)} of {len(self.accounts)} accounts off their expected balance"
                   + (f" {wrong}" if wrong else ""))

    def check_ledger(self):
        sums = {}
        for currency, debit, credit in sql_rows("SELECT currency, debit_minor, credit_minor"
                                                " FROM corebank.trial_balance_as_of(corebank.business_today())"):
            pair = sums.setdefault(currency, [0, 0])
            pair[0] += debit
            pair[1] += credit
        self.check(bool(sums) and all(d == c for d, c in sums.values()), "the trial balance is zero",
                   "; ".join(f"{cur} debits {d} credits {c}" for cur, (d, c) in sorted(sums.items())))
        for function in ("ledger_check_balances", "ledger_verify_chain"):
            problems = sql_rows(f"SELECT * FROM corebank.{function}()")
            self.check(not problems, f"corebank.{function}() is clean",
                       f"{len(problems)} rows" + (f": {problems[:3]}" if problems else ""))

    def check_answers(self, load):
        self.check(not load.bad and not load.refused_items,
                   "every request answered 200 or 503 in time, every replay the same",
                   f"{len(load.bad)} failures, {len(load.refused_items)} batch transfers refused,"
                   f" {load.replays} replays, slowest answer {load.max_latency:.2f} s"
                   + (f"; e.g. {(load.bad + load.refused_items)[:3]}" if load.bad or load.refused_items else ""))
        self.check(not self.idle_cycles, "every kill hit a live load",
                   f"{CYCLES - len(self.idle_cycles)} of {CYCLES} cycles acknowledged requests before the kill"
                   + (f"; idle: {self.idle_cycles[:10]}" if self.idle_cycles else ""))

    # ------------------------------------------------------------ the run

    def run(self):
        started = time.monotonic()
        self.setup()
        load = Load(self.tier, self.accounts, self.write_key, self.staff, self.tag)
        load.start()
        self.crash_cycles(load)     # on failure the client threads (daemons) end with the process
        load.finish()
        self.wait_serving()
        elapsed = time.monotonic() - started
        self.check_exactly_once(load)
        self.check_whole(load)
        self.check_money(load)
        self.check_ledger()
        self.check_answers(load)
        self.tier.stop()
        self.report(load, elapsed)
        return all(passed for passed, _, _ in self.checks)

    def report(self, load, elapsed):
        acked = sum(load.acked.values())
        print(f"soak: {CYCLES} cycles in {elapsed:.0f} s (seed {SEED}, {THREADS} client threads,"
              f" {ACCOUNTS} accounts)")
        print(f"kills: corebankd {self.kills['corebankd']}, postgres {self.kills['postgres']}")
        print(f"requests: {load.sent} sent, {acked} acknowledged ({load.acked['transfer']} transfers,"
              f" {load.acked['deposit']} deposits, {load.acked['withdrawal']} withdrawals,"
              f" {load.acked['batch']} batches of {load.batch_transfers} transfers),"
              f" {load.retried} retried ({load.noanswer} unanswered, {load.unavailable} answered 503),"
              f" {load.replays} replayed on purpose")
        print("checks:")
        for passed, title, numbers in self.checks:
            print(f"  {'PASS' if passed else 'FAIL'}  {title}: {numbers}")
        failed = sum(not passed for passed, _, _ in self.checks)
        print(f"{len(self.checks) - failed} passed, {failed} failed")


def main():
    soak = Soak()
    code = 1
    try:
        code = 0 if soak.run() else 1
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)    # a second Ctrl-C must not cut the clean-up short
        print("soak: interrupted", file=sys.stderr)
        code = 130
    finally:
        soak.tier.stop()
    sys.exit(code)


if __name__ == "__main__":
    main()
