"""bench/batch/bench.py: batch postings against a plain INSERT of the same journal entries.

Issue 7, "Batch postings": POST /v1/transfers/batch (up to 8,000 transfers in
one request, docs/design/batch-transfers.md) should reach at least 0.3 of the
rate of a plain multi-row INSERT of the same journal entries, and at least
10 times the single-transfer rate (the latter is measured by run.sh with wrk).

run.sh starts the cluster and corebankd, opens the accounts, then runs this
with a list of phases, in order, each "KIND:SIZE:CLIENTS:ACCOUNTS:SECONDS":
  batch:8000:4:shared:15   CLIENTS threads post batches of SIZE transfers to
                           POST /v1/transfers/batch for SECONDS; each batch is
                           one request (a unique Idempotency-Key, X-API-Key,
                           the teller's token, keep-alive) and its latency is
                           that of the request; every item must be POSTED.
                           ACCOUNTS shared: every client draws from all the
                           accounts (every batch then touches, and locks, most
                           of them, so the batches of the clients serialise);
                           disjoint: client i draws from its own slice.
  plain:8000:4:-:15        CLIENTS psycopg2 connections run, for SECONDS, one
                           multi-row INSERT (autocommit: one statement, one
                           commit) of the same journal entries, 2 rows per
                           transfer, into bench_plain_entries: the columns,
                           types, defaults and indexes of
                           corebank.journal_entries, no triggers, no foreign
                           keys, no checks.
The transfers of both kinds come from the same templates (random ordered pairs
of different accounts, amount 1): TEMPLATES per (size, account set); each use
of a template gets a fresh Idempotency-Key (batch) or fresh transaction ids
(plain). A phase ends when its time is up and every client has its last
answer; its rate is the transfers posted (inserted) over that wall time.

Output, one line per phase, for run.sh:
  PHASE <kind> <size> <clients> <accounts> <seconds> <transfers> <transfers/s>
        <p50 ms> <p99 ms> <requests> <errors> <failed items>
and a last line "ACKED <posted transfers acknowledged by 200 answers>".
Errors (non-200 answers, socket errors) are counted and the first few are
written to stderr; they do not stop the run. Only the standard library and
python3-psycopg2 are used.
"""

import argparse
import http.client
import json
import random
import sys
import threading
import time
import urllib.parse

import psycopg2

RUN_TOKEN = "@@RUN@@"  # replaced by 8 hex digits in the transaction ids of the plain rows
TEMPLATES = 4


def percentile(ordered, fraction):
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, int(round(len(ordered) * fraction + 0.5)) - 1))]


def sql_literal(value):
    return "'" + value.replace("'", "''") + "'"


class Templates:
    """Random transfer pairs per (size, account set), their HTTP bodies and INSERT statements."""

    def __init__(self, accounts, info, operator, seed):
        self.accounts = accounts
        self.info = info              # account id -> (ledger id, gl id, currency, branch id, number)
        self.operator = operator
        self.rng = random.Random(seed)
        self.cache = {}

    def pairs(self, size, pool):
        out = []
        n = len(pool)
        for _ in range(size):
            i = self.rng.randrange(n)
            j = self.rng.randrange(n - 1)
            if j >= i:
                j += 1
            out.append((pool[i], pool[j]))
        return out

    def get(self, size, pool_key, pool):
        key = (size, pool_key)
        if key not in self.cache:
            made = []
            for _ in range(TEMPLATES):
                pairs = self.pairs(size, pool)
                body = json.dumps({"transfers": [{"fromAccountId": f, "toAccountId": t, "amountMinor": 1}
                                                 for f, t in pairs]}, separators=(",", ":")).encode()
                made.append((pairs, body))
            self.cache[key] = made
        return self.cache[key]

    def statement(self, pairs):
        # Transaction ids: random leading groups fixed per template (so they
        # land all over the unique index, like the v4 ids of real postings),
        # made unique per use by the run number and the index at the end.
        rows = []
        for index, (f, t) in enumerate(pairs):
            r = self.rng.getrandbits(64)
            tx = sql_literal(f"{r >> 32:08x}-{(r >> 16) & 0xffff:04x}-4{(r >> 4) & 0xfff:03x}-8{r & 0xf:x}00-"
                             f"{RUN_TOKEN}{index:04x}")
            fl, fg, fc, fb, fnum = self.info[f]
            tl, tg, tc, _tb, tnum = self.info[t]
            narrative = sql_literal(f"Transfer {fnum} to {tnum}")
            common = f"CURRENT_DATE,'BRANCH','{self.operator}',{narrative})"
            rows.append(f"({tx},1,'{fg}','{fl}','{fc}','D',1,'{fb}',{common}")
            rows.append(f"({tx},2,'{tg}','{tl}','{tc}','C',1,'{fb}',{common}")
        return ("INSERT INTO bench_plain_entries (transaction_id, line_no, gl_account_id, ledger_account_id, "
                "currency, side, amount_minor, branch_id, value_date, channel, operator_id, narrative) VALUES "
                + ",".join(rows))


class Counter:
    def __init__(self):
        self.lock = threading.Lock()
        self.n = 0

    def take(self):
        with self.lock:
            self.n += 1
            return self.n


class Phase:
    def __init__(self):
        self.lock = threading.Lock()
        self.latencies = []
        self.transfers = 0
        self.requests = 0
        self.errors = 0
        self.failed_items = 0
        self.messages = []

    def note(self, message):
        with self.lock:
            if len(self.messages) < 3:
                self.messages.append(message)


def batch_client(args, templates, sequence, deadline, phase, key_prefix):
    u = urllib.parse.urlsplit(args.core_url)
    conn = None
    headers = {"Content-Type": "application/json", "Connection": "keep-alive",
               "X-API-Key": args.key, "Authorization": f"Bearer {args.token}"}
    while time.monotonic() < deadline:
        n = sequence.take()
        _, body = templates[n % len(templates)]
        h = dict(headers)
        h["Idempotency-Key"] = f"{key_prefix}-{n}"
        started = time.monotonic()
        try:
            if conn is None:
                conn = http.client.HTTPConnection(u.hostname, u.port, timeout=args.timeout)
            conn.request("POST", "/v1/transfers/batch", body=body, headers=h)
            response = conn.getresponse()
            data = response.read()
            elapsed = time.monotonic() - started
            if response.status != 200:
                with phase.lock:
                    phase.requests += 1
                    phase.errors += 1
                phase.note(f"HTTP {response.status} after {elapsed:.2f} s: {data[:300]!r}")
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = None
                if response.status == 404:
                    time.sleep(0.2)  # the endpoint is not there: do not spin
                continue
            result = json.loads(data)
            posted, failed = result["postedCount"], result["failedCount"]
            if failed:
                bad = next(r for r in result["results"] if r.get("status") != "POSTED")
                phase.note(f"{failed} failed items, e.g. {json.dumps(bad)[:300]}")
            with phase.lock:
                phase.requests += 1
                phase.latencies.append(elapsed)
                phase.transfers += posted
                phase.failed_items += failed
        except Exception as error:  # noqa: BLE001 - counted and reported
            with phase.lock:
                phase.requests += 1
                phase.errors += 1
            phase.note(f"{type(error).__name__}: {error}"[:300])
            if conn is not None:
                conn.close()
                conn = None
            time.sleep(0.2)
    if conn is not None:
        conn.close()


def plain_client(args, statements, sequence, deadline, phase, size):
    conn = psycopg2.connect(args.database_url)
    conn.autocommit = True
    cur = conn.cursor()
    try:
        while time.monotonic() < deadline:
            n = sequence.take()
            statement = statements[n % len(statements)].replace(RUN_TOKEN, "%08x" % n, size * 2)
            started = time.monotonic()
            cur.execute(statement)
            elapsed = time.monotonic() - started
            with phase.lock:
                phase.requests += 1
                phase.latencies.append(elapsed)
                phase.transfers += cur.rowcount // 2
    except Exception as error:  # noqa: BLE001
        with phase.lock:
            phase.errors += 1
        phase.note(f"{type(error).__name__}: {error}"[:300])
    finally:
        conn.close()


def run_phase(args, spec, templates, sequences, acked):
    kind, size, clients, pool_kind, seconds = spec.split(":")
    size, clients, seconds = int(size), int(clients), float(seconds)
    accounts = templates.accounts
    if pool_kind == "disjoint":
        pools = [(f"d{clients}-{c}", accounts[c::clients]) for c in range(clients)]
    else:
        pools = [("all", accounts)] * clients
    per_client = [templates.get(size, key, pool) for key, pool in pools]
    if kind == "plain":
        # Build the statements before the clock starts (a few hundred ms of Python each).
        per_client = [[templates.statement(pairs) for pairs, _ in made] for made in per_client]
    phase = Phase()
    started = time.monotonic()
    deadline = started + seconds
    threads = []
    for c in range(clients):
        if kind == "batch":
            target = batch_client
            targs = (args, per_client[c], sequences["batch"], deadline, phase, f"{args.key_prefix}-{spec}-{c}")
        else:
            target = plain_client
            targs = (args, per_client[c], sequences["plain"], deadline, phase, size)
        threads.append(threading.Thread(target=target, args=targs))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.monotonic() - started
    ordered = sorted(phase.latencies)
    rate = phase.transfers / wall if wall > 0 else 0.0
    for message in phase.messages:
        print(f"  {kind} {size} x{clients} {pool_kind}: {message}", file=sys.stderr, flush=True)
    if kind == "batch":
        acked[0] += phase.transfers
    print(f"PHASE {kind} {size} {clients} {pool_kind} {wall:.1f} {phase.transfers} {rate:.1f} "
          f"{percentile(ordered, 0.50) * 1000:.1f} {percentile(ordered, 0.99) * 1000:.1f} "
          f"{phase.requests} {phase.errors} {phase.failed_items}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--core-url", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--database-url", required=True, help="libpq string of the same database, as a superuser")
    parser.add_argument("--accounts-file", required=True)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--key-prefix", default=f"bb{int(time.time())}")
    parser.add_argument("phases", nargs="+", help="KIND:SIZE:CLIENTS:ACCOUNTS:SECONDS")
    args = parser.parse_args()

    with open(args.accounts_file) as f:
        accounts = [line.strip() for line in f if line.strip()]
    conn = psycopg2.connect(args.database_url)
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("SELECT id::text, id::text, gl_account_id::text, currency, branch_id::text, account_number "
                "FROM corebank.ledger_accounts WHERE id = ANY(%s::uuid[])", (accounts,))
    info = {row[0]: row[1:] for row in cur.fetchall()}
    missing = [a for a in accounts if a not in info]
    if missing:
        raise SystemExit(f"bench.py: account {missing[0]} is not a ledger account")
    # The operator of the plain rows: any staff member (the type is what matters).
    cur.execute("SELECT gen_random_uuid()::text")
    operator = cur.fetchone()[0]
    cur.execute("DROP TABLE IF EXISTS bench_plain_entries; DROP SEQUENCE IF EXISTS bench_plain_entries_id_seq; "
                "CREATE TABLE bench_plain_entries (LIKE corebank.journal_entries INCLUDING DEFAULTS INCLUDING INDEXES); "
                "CREATE SEQUENCE bench_plain_entries_id_seq OWNED BY bench_plain_entries.id; "
                "ALTER TABLE bench_plain_entries ALTER id SET DEFAULT nextval('bench_plain_entries_id_seq')")
    conn.close()

    templates = Templates(accounts, info, operator, args.seed)
    sequences = {"batch": Counter(), "plain": Counter()}
    acked = [0]
    for spec in args.phases:
        run_phase(args, spec, templates, sequences, acked)
    print(f"ACKED {acked[0]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
