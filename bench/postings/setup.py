#!/usr/bin/env python3
"""bench/postings/setup.py: opens COUNT savings accounts through HTTP (one
customer each, POST /v1/customers then POST /v1/accounts with an initial
deposit) and writes their ids, one a line, to OUT. Four threads, keep-alive."""
import argparse
import http.client
import json
import threading
import urllib.parse
import uuid


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--core-url", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--token", required=True)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--initial", type=int, default=1_000_000_000)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    u = urllib.parse.urlsplit(a.core_url)
    headers = {"Content-Type": "application/json", "Connection": "keep-alive",
               "X-API-Key": a.key, "Authorization": f"Bearer {a.token}"}
    ids, lock, errors = [], threading.Lock(), []

    def post(conn, path, body):
        conn.request("POST", path, body=json.dumps(body), headers=headers)
        r = conn.getresponse()
        data = r.read()
        if r.status not in (200, 201):
            raise RuntimeError(f"POST {path}: {r.status} {data[:300]!r}")
        return json.loads(data)

    def worker(n):
        conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
        try:
            for _ in range(n):
                tag = uuid.uuid4().hex[:12]
                cust = post(conn, "/v1/customers", {
                    "type": "INDIVIDUAL", "firstName": "Bench", "lastName": f"Load{tag}",
                    "dateOfBirth": "1990-04-01", "nationalId": f"63-{tag}", "nationality": "ZW"})
                acct = post(conn, "/v1/accounts", {"customerId": cust["id"], "productCode": "SAV-STD",
                                                   "initialDeposit": {"amountMinor": a.initial}})
                with lock:
                    ids.append(acct["id"])
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(str(e))

    per = [a.count // 4 + (1 if i < a.count % 4 else 0) for i in range(4)]
    ts = [threading.Thread(target=worker, args=(n,)) for n in per]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if errors:
        raise SystemExit(f"setup.py: {errors[0]}")
    with open(a.out, "w") as f:
        f.write("\n".join(ids) + "\n")


if __name__ == "__main__":
    main()
