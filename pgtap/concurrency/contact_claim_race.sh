#!/usr/bin/env bash
# pgtap/concurrency/contact_claim_race.sh: two users confirm claims of one
# email at the same moment; exactly one wins (issue 14, part 1;
# docs/identity.md, "The current user and contact claims").
#
# Usage: contact_claim_race.sh CONNINFO [ignored...]
#   CONNINFO  a libpq connection string to a THROWAWAY database where the
#             corebank extension (1.8+) is installed; any role that may
#             EXECUTE the corebank API (corebank_app, a superuser).
#
# Goal: neither confirmation can see the other's uncommitted change, so the
# ownership check each makes first passes for both; the unique index of
# auth_users.email must then make the second wait for the first and lose.
# Method: two users claim one email; the first confirmation holds its
# transaction open while the second is submitted from another session; the
# second must still be waiting after WAIT_S, then, once the first commits,
# answer outcome "conflict" without an error; the email is the first user's
# and the second user keeps its own.
# Exit status 0 when all hold; the last line is PASS or FAIL.
set -euo pipefail

CONNINFO=${1:?usage: $0 CONNINFO}

PYTHON=python3
python3 -c 'import psycopg2' 2>/dev/null || PYTHON=/usr/bin/python3
exec "$PYTHON" - "$CONNINFO" <<'PY'
import base64
import hashlib
import sys
import threading
import time
import uuid

import psycopg2

CONNINFO = sys.argv[1]
WAIT_S = 2.0
failed = False


def check(description, have, want):
    global failed
    if have == want:
        print(f"ok      {description}")
    else:
        print(f"NOT OK  {description}: have {have!r}, want {want!r}")
        failed = True


def h(text):
    return psycopg2.Binary(hashlib.sha256(text.encode()).digest())


def raw(n):
    return hashlib.sha256(f"claim race {n}".encode()).digest()


def phc(n):
    return "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$" + base64.b64encode(raw(n)).decode().rstrip("=")


def connect():
    conn = psycopg2.connect(CONNINFO)
    conn.autocommit = True
    return conn


def one(conn, sql, args=()):
    with conn.cursor() as cur:
        cur.execute(sql, args)
        return cur.fetchone()[0]


def register(conn, address):
    block = one(conn, "SELECT corebank.auth_register(%s, NULL, %s, NULL, NULL, NULL, 'web', '10.0.0.1', 'race', %s)",
                (address, phc(address), h("refresh-" + address)))
    return block["user"]["id"]


CONFIRM = "SELECT corebank.auth_contact_claim_confirm(%s, 'email', %s)"

try:
    setup = connect()
    tag = uuid.uuid4().hex[:8]
    prize = f"prize-{tag}@race.example"
    addresses = (f"first-{tag}@race.example", f"second-{tag}@race.example")
    first, second = (register(setup, address) for address in addresses)
    for user, address in zip((first, second), addresses):
        # The re-entered password's proof is the raw hash of phc(address).
        one(setup, "SELECT corebank.auth_contact_claim_start(%s, 'email', %s, %s, %s, NULL, '10.0.0.1')",
            (user, prize, h(user + "code"), psycopg2.Binary(raw(address))))

    holder = psycopg2.connect(CONNINFO)
    holder.autocommit = False
    with holder.cursor() as cur:
        cur.execute(CONFIRM, (first, h(first + "code")))
        check("the first confirmation succeeds in its open transaction", cur.fetchone()[0]["outcome"], "confirmed")
    outcome = {}

    def confirm_second():
        conn = connect()
        try:
            outcome["result"] = one(conn, CONFIRM, (second, h(second + "code")))
            outcome["done_at"] = time.monotonic()
        except Exception as error:  # reported below as a failed check
            outcome["error"] = repr(error)
        finally:
            conn.close()

    worker = threading.Thread(target=confirm_second)
    worker.start()
    time.sleep(WAIT_S)
    check("the second confirmation waits for the first", "done_at" in outcome, False)
    committed_at = time.monotonic()
    holder.commit()
    holder.close()
    worker.join(30)
    check("the second confirmation ends without an error", outcome.get("error"), None)
    check("the second confirmation loses", (outcome.get("result") or {}).get("outcome"), "conflict")
    check("it ended after the first committed", outcome.get("done_at", 0) >= committed_at, True)
    check("the email is the first user's",
          one(setup, "SELECT corebank.auth_me(%s) ->> 'email'", (first,)), prize)
    check("the second user keeps its email",
          one(setup, "SELECT corebank.auth_me(%s) ->> 'email'", (second,)), f"second-{tag}@race.example")
    setup.close()
except Exception as error:
    print(f"NOT OK  the race could not run: {error!r}")
    failed = True
print("FAIL" if failed else "PASS")
sys.exit(1 if failed else 0)
PY
