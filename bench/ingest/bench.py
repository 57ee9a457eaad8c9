"""bench/ingest/bench.py: ingest throughput against a plain INSERT of the same rows.

Goal: show that POST /v1/events (dedupe, one savepoint per event, type
registry, identity resolution, all in one database round trip per batch)
keeps at least 25% of the rate of a plain multi-row INSERT of the same rows
into a scratch table on the same cluster, in the same run.

Method (run.sh starts the cluster and corebankd, then runs this):
  1. Build TEMPLATES batch templates of 500 events over a pool of CUSTOMERS
     customers (six platforms, userId + phone + email, some sessionIds; a
     mix of page views, orders, payments, bill payments, notifications and
     consents). Each use of a template gets fresh event ids, so every event
     of the run is new and is accepted.
  2. Warm-up: post every template once, so the customers exist (steady
     state: most events name customers the graph already knows).
  3. Ingest phase: CLIENTS threads post batches for SECONDS; per batch
     latency is recorded; every result must be "accepted".
  4. Plain phase: CLIENTS threads run, for SECONDS, one multi-row INSERT
     of the same rows (the same templates, the same order, with the same
     fresh event ids) into bench_scratch, a table with the columns and
     indexes of corebank.events, through psycopg2 on the same cluster.
  5. Print events/s and p50/p99 batch latency for both, and on the last
     line the ratio ingest/plain.
The ingest phase is split in two rounds of half its length, each after a
"norollup" round of the same length with corebank_internal.events_rollup_batch
replaced by an empty body (the cluster is throwaway; the definition is
restored for each ingest round): the ingest rate before and after the parity
rollup (docs/events.md, "Benchmark"), against the same plain INSERT baseline.
--occurred hour puts every event's occurredAt in one hour (every batch then
updates the same parity rows: the contended case of a live producer); the
default spreads them over the year 2026.
Only the standard library and python3-psycopg2 are used.
"""

import argparse
import http.client
import json
import random
import statistics
import sys
import threading
import time

import psycopg2

BATCH = 500
ROUNDS = 2
PLATFORMS = ["web", "android", "ios", "ussd", "whatsapp", "pos"]
ID_TOKEN = "@@RUN@@"


def make_event(rng, template, index, customers, occurred_mode):
    customer = rng.randrange(customers)
    identity = {
        "platform": rng.choice(PLATFORMS),
        "userId": f"user-{customer}",
        "phone": "07%08d" % customer,
        "email": f"Customer.{customer}@Example.com",
        "displayName": f"Customer {customer}",
    }
    if rng.random() < 0.3:
        identity["sessionId"] = f"sess-{customer}"
    money = "%d.%02d" % (rng.randrange(1, 500), rng.randrange(100))
    kind = rng.random()
    if kind < 0.40:
        event_type, payload = "page.viewed", {"path": f"/product/{rng.randrange(1000)}", "referrer": "search"}
    elif kind < 0.55:
        event_type, payload = "order.paid", {"orderId": f"o-{template}-{index}", "subtotal": money, "total": money,
                                             "currency": rng.choice(["USD", "ZWG"]), "merchantId": "m-1"}
    elif kind < 0.70:
        event_type, payload = "payment.completed", {"paymentId": f"p-{template}-{index}", "amount": money,
                                                    "currency": "USD"}
    elif kind < 0.80:
        event_type, payload = "billpay.completed", {"transactionId": f"t-{template}-{index}", "amount": money,
                                                    "total": money, "currency": "USD", "channel": "electricity"}
    elif kind < 0.90:
        event_type, payload = "notification.sent", {"messageId": f"m-{template}-{index}", "channel": "sms"}
    elif kind < 0.99:
        event_type, payload = "order.created", {"orderId": f"o-{template}-{index}", "total": money,
                                                "currency": "USD",
                                                "items": [{"productId": "sku-1", "name": "Bread", "quantity": 2,
                                                           "unitPrice": "1.25"}]}
    else:
        event_type, payload = "consent.updated", {"purpose": "marketing",
                                                  "status": rng.choice(["granted", "revoked"])}
    return {
        "eventId": f"bench-{ID_TOKEN}-{template}-{index}",
        "type": event_type,
        "occurredAt": ("2026-%02d-%02dT%02d:%02d:%02dZ" % (rng.randrange(1, 13), rng.randrange(1, 29),
                                                           rng.randrange(24), rng.randrange(60), rng.randrange(60))
                       if occurred_mode == "year"
                       else "2026-11-21T10:%02d:%02dZ" % (rng.randrange(60), rng.randrange(60))),
        "identity": identity,
        "payload": payload,
    }


def sql_literal(value):
    return "'" + value.replace("'", "''") + "'"


def make_templates(count, customers, seed, occurred_mode):
    """(http body, INSERT statement) pairs, both holding ID_TOKEN in every event id."""
    rng = random.Random(seed)
    templates = []
    for template in range(count):
        events = [make_event(rng, template, index, customers, occurred_mode) for index in range(BATCH)]
        body = json.dumps({"events": events}, separators=(",", ":"))
        rows = ",".join(
            "(%s,%s,%s,1,%s,%s,%s,%s)" % (
                "'bench'", sql_literal(e["eventId"]), sql_literal(e["type"]), sql_literal(e["occurredAt"]),
                sql_literal(e["identity"]["platform"]), sql_literal(json.dumps(e["identity"])),
                sql_literal(json.dumps(e["payload"])))
            for e in events)
        statement = ("INSERT INTO bench_scratch (source, event_id, type, schema_version, occurred_at, platform, "
                     "identity, payload) VALUES " + rows)
        templates.append((body, statement))
    return templates


class Sequence:
    """Hands out (run number, template) in one global order, shared by both phases."""

    def __init__(self, templates, first_run):
        self.templates = templates
        self.lock = threading.Lock()
        self.next = 0
        self.first_run = first_run

    def take(self):
        with self.lock:
            n = self.next
            self.next += 1
        return self.first_run + n, self.templates[n % len(self.templates)]


def post_batch(conn, key, body):
    conn.request("POST", "/v1/events", body=body.encode(),
                 headers={"X-API-Key": key, "Content-Type": "application/json", "Connection": "keep-alive"})
    response = conn.getresponse()
    data = response.read()
    if response.status != 200:
        raise RuntimeError(f"POST /v1/events: HTTP {response.status}: {data[:300]!r}")
    return json.loads(data)["data"]


def run_ingest(args, sequence, deadline, latencies, totals, errors):
    host, port = args.events_url.split("//")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        while time.monotonic() < deadline:
            run, (body, _) = sequence.take()
            started = time.monotonic()
            data = post_batch(conn, args.key, body.replace(ID_TOKEN, str(run)))
            latencies.append(time.monotonic() - started)
            with totals["lock"]:
                totals["accepted"] += data["accepted"]
                totals["other"] += data["duplicates"] + data["invalid"]
    except Exception as error:  # reported by the main thread
        errors.append(repr(error))
    finally:
        conn.close()


def run_plain(args, sequence, deadline, latencies, totals, errors):
    conn = psycopg2.connect(args.database_url)
    conn.autocommit = True
    cur = conn.cursor()
    try:
        while time.monotonic() < deadline:
            run, (_, statement) = sequence.take()
            started = time.monotonic()
            cur.execute(statement.replace(ID_TOKEN, str(run)))
            latencies.append(time.monotonic() - started)
            with totals["lock"]:
                totals["accepted"] += cur.rowcount
    except Exception as error:
        errors.append(repr(error))
    finally:
        conn.close()


def phase(name, worker, args, sequence):
    latencies, errors = [], []
    totals = {"lock": threading.Lock(), "accepted": 0, "other": 0}
    started = time.monotonic()
    deadline = started + args.seconds
    threads = [threading.Thread(target=worker, args=(args, sequence, deadline, latencies, totals, errors))
               for _ in range(args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    if errors:
        raise SystemExit(f"{name} phase failed: {errors[0]}")
    if totals["other"]:
        raise SystemExit(f"{name} phase: {totals['other']} events were not accepted")
    rate = totals["accepted"] / elapsed
    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    print(f"{name:<7} {totals['accepted']:>8} events in {elapsed:5.1f} s  {rate:>9.0f} events/s  "
          f"batch p50 {p50:7.1f} ms  p99 {p99:7.1f} ms  ({len(ordered)} batches, {args.clients} clients)",
          flush=True)
    return rate


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events-url", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--database-url", required=True, help="libpq URL of the same database, as a superuser")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--customers", type=int, default=20000)
    parser.add_argument("--templates", type=int, default=48)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--occurred", choices=["year", "hour"], default="year")
    args = parser.parse_args()

    print(f"building {args.templates} batch templates of {BATCH} events over {args.customers} customers",
          flush=True)
    templates = make_templates(args.templates, args.customers, args.seed, args.occurred)

    conn = psycopg2.connect(args.database_url)
    conn.autocommit = True
    conn.cursor().execute("DROP TABLE IF EXISTS bench_scratch; "
                          "CREATE TABLE bench_scratch (LIKE corebank.events INCLUDING DEFAULTS INCLUDING INDEXES)")
    conn.close()

    print("warm-up: every template once (creates the customers)", flush=True)
    warm = Sequence(templates, 0)
    host, port = args.events_url.split("//")[1].split(":")
    http_conn = http.client.HTTPConnection(host, int(port), timeout=120)
    for _ in templates:
        run, (body, _) = warm.take()
        post_batch(http_conn, args.key, body.replace(ID_TOKEN, f"warm{run}"))
    http_conn.close()

    # Before and after the rollup: the same ingest with events_rollup_batch
    # emptied, then with its definition, alternating in ROUNDS rounds of half
    # a phase each so that neither side always runs on the larger table (all
    # with fresh run numbers, so every event is new).
    conn = psycopg2.connect(args.database_url)
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("SELECT pg_get_functiondef('corebank_internal.events_rollup_batch(bigint[])'::regprocedure)")
    definition = cur.fetchone()[0]
    half = argparse.Namespace(**dict(vars(args), seconds=args.seconds / 2))
    bare_rates, ingest_rates = [], []
    for round_ in range(ROUNDS):
        cur.execute("CREATE OR REPLACE FUNCTION corebank_internal.events_rollup_batch(row_ids bigint[]) "
                    "RETURNS void LANGUAGE plpgsql AS $fn$ BEGIN END $fn$")
        try:
            bare_rates.append(phase("norollup", run_ingest, half, Sequence(templates, 100001 + 20000 * round_)))
        finally:
            cur.execute(definition)
        ingest_rates.append(phase("ingest", run_ingest, half, Sequence(templates, 1 + 20000 * round_)))
    conn.close()
    bare_rate = statistics.mean(bare_rates)
    ingest_rate = statistics.mean(ingest_rates)
    plain_rate = phase("plain", run_plain, args, Sequence(templates, 1))
    bare_ratio = bare_rate / plain_rate if plain_rate else 0.0
    ratio = ingest_rate / plain_rate if plain_rate else 0.0
    verdict = "meets" if ratio >= 0.25 else "BELOW"
    print(f"rollups: ingest {ingest_rate:.0f} events/s with, {bare_rate:.0f} without "
          f"(ratio to plain {ratio:.3f} with, {bare_ratio:.3f} without; "
          f"{(ingest_rate / bare_rate - 1) * 100 if bare_rate else 0:+.1f}%)")
    print(f"ratio {ratio:.3f} (ingest {ingest_rate:.0f} / plain INSERT {plain_rate:.0f} events/s; "
          f"target >= 0.25: {verdict})")
    return 0 if ratio >= 0.25 else 1


if __name__ == "__main__":
    sys.exit(main())
