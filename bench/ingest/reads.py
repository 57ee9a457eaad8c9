"""bench/ingest/reads.py: the cost of the parity and insight reads at two history sizes.

Goal: GET /v1/parity reads the rollup ingest keeps and GET
/v1/customers/{id}/insights one index range of the customer's events, so
their cost follows the range asked for, not the history (docs/events.md,
"Parity", "Insights", "Benchmark"). Shown by timing the same reads over the
same probe data with a small and a large history behind it: half of the
history is the probe customer's own (in 2025, outside the windows read).

Method (run.sh starts the cluster and corebankd; a key of source "bench"):
  1. Probe data through POST /v1/events: --probe-events events of source
     "bench" for one probe customer on 2026-12-01 (all hours, several types,
     money in two currencies).
  2. History: events of the same source and customer (and of others) on
     days of 2025, written straight into corebank.events with SQL and rolled
     up with corebank_internal.events_rollup_batch in chunks (the function
     ingest calls), to --small and then --large events in all.
  3. At each size: --repeat calls of parity by hour for the probe day, parity
     by day for 31 days, and insights of the probe customer for 31 days;
     print the median and p95 latency of each (HTTP, one client).
"""

import argparse
import http.client
import json
import statistics
import sys
import time
import urllib.parse

import psycopg2

PROBE_DAY = "2026-12-01"
CHUNK = 20000


def request(conn, key, path, body=None):
    method = "POST" if body is not None else "GET"
    conn.request(method, path, body=body, headers={"X-API-Key": key, "Content-Type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    if response.status != 200:
        raise RuntimeError(f"{method} {path}: HTTP {response.status}: {data[:300]!r}")
    return json.loads(data)["data"]


def add_history(cur, target, customer):
    """Grows corebank.events of source bench to `target` rows with 2025 history, rolled up."""
    cur.execute("SELECT count(*) FROM corebank.events")
    have = cur.fetchone()[0]
    while have < target:
        n = min(CHUNK, target - have)
        cur.execute(
            """
            WITH others AS (
                SELECT array_agg(c.id) AS ids FROM (SELECT id FROM corebank.customers_graph LIMIT 1000) AS c
            ), ins AS (
                INSERT INTO corebank.events (source, event_id, type, schema_version, occurred_at, platform,
                                             customer_id, identity, payload)
                SELECT 'bench', 'hist-' || (%(have)s + g),
                       (ARRAY['page.viewed', 'order.paid', 'payment.completed', 'notification.sent'])[1 + g %% 4],
                       1, timestamptz '2025-01-01T00:00:00Z' + ((%(have)s + g) %% 31536000) * interval '1 second',
                       'web',
                       CASE WHEN g %% 2 = 0 THEN %(customer)s::uuid
                            ELSE others.ids[1 + g %% cardinality(others.ids)] END,
                       '{"platform": "web"}',
                       jsonb_build_object('path', '/', 'orderId', 'o', 'paymentId', 'p', 'messageId', 'm',
                                          'channel', 'sms', 'subtotal', '1.50', 'total', '1.50', 'amount', '2.25',
                                          'currency', CASE WHEN g %% 3 = 0 THEN 'ZWG' ELSE 'USD' END)
                FROM generate_series(1, %(n)s) AS g, others
                RETURNING id)
            SELECT corebank_internal.events_rollup_batch(ARRAY(SELECT id FROM ins))
            """, {"have": have, "n": n, "customer": customer})
        have += n
    return have


def timed(conn, key, path, repeat):
    samples = []
    for _ in range(repeat):
        started = time.monotonic()
        request(conn, key, path)
        samples.append((time.monotonic() - started) * 1000)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.95))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events-url", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--database-url", required=True, help="libpq URL of the same database, as a superuser")
    parser.add_argument("--small", type=int, default=10000)
    parser.add_argument("--large", type=int, default=1000000)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--probe-events", type=int, default=2000)
    args = parser.parse_args()

    host, port = args.events_url.split("//")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    types = ["page.viewed", "order.paid", "payment.completed", "notification.sent"]
    payloads = {"page.viewed": {"path": "/"}, "notification.sent": {"messageId": "m", "channel": "sms"},
                "order.paid": {"orderId": "o", "subtotal": "1.50", "total": "1.50", "currency": "USD"},
                "payment.completed": {"paymentId": "p", "amount": "2.25", "currency": "ZWG"}}
    for start in range(0, args.probe_events, 500):
        events = [{"eventId": f"probe-{i}", "type": types[i % 4],
                   "occurredAt": f"{PROBE_DAY}T{i % 24:02d}:{i % 60:02d}:00Z",
                   "identity": {"platform": "web", "userId": "probe-customer"}, "payload": payloads[types[i % 4]]}
                  for i in range(start, min(start + 500, args.probe_events))]
        request(conn, args.key, "/v1/events", json.dumps({"events": events}))
    customer_id = request(conn, args.key, "/v1/customers/lookup?userId=probe-customer&platform=web")["customerId"]

    db = psycopg2.connect(args.database_url)
    db.autocommit = True
    cur = db.cursor()
    cur.execute("SELECT id FROM corebank.customers_graph WHERE public_id = %s", (customer_id,))
    customer = cur.fetchone()[0]

    reads = [
        ("parity hour, 1 day", "/v1/parity?" + urllib.parse.urlencode(
            {"from": f"{PROBE_DAY}T00:00:00Z", "to": "2026-12-02T00:00:00Z"})),
        ("parity day, 31 days", "/v1/parity?" + urllib.parse.urlencode(
            {"from": "2026-11-15T00:00:00Z", "to": "2026-12-16T00:00:00Z", "granularity": "day"})),
        ("insights, 31 days", f"/v1/customers/{customer_id}/insights?from=2026-11-15&to=2026-12-15"),
    ]
    results = {}
    for size in (args.small, args.large):
        started = time.monotonic()
        total = add_history(cur, size, customer)
        cur.execute("ANALYZE corebank.events, corebank.event_parity_hourly")
        print(f"history: {total} events ({time.monotonic() - started:.0f} s to write and roll up)", flush=True)
        for name, path in reads:
            request(conn, args.key, path)  # warm
            p50, p95 = timed(conn, args.key, path, args.repeat)
            results[(name, size)] = p50
            print(f"  {name:<22} p50 {p50:6.2f} ms  p95 {p95:6.2f} ms  ({args.repeat} calls)", flush=True)
    for name, _ in reads:
        ratio = results[(name, args.large)] / results[(name, args.small)]
        print(f"{name:<22} {args.large} vs {args.small} events: p50 x{ratio:.2f}")
    db.close()
    conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
