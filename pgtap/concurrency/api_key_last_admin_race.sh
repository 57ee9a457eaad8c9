#!/usr/bin/env bash
# pgtap/concurrency/api_key_last_admin_race.sh: two revocations of the last
# two core admin-scope keys at once cannot both pass (issue 15; docs/
# core-banking.md, API keys: the institution would lock itself out).
#
# Usage: api_key_last_admin_race.sh CONNINFO [ignored...]
#   CONNINFO  a libpq connection string to a THROWAWAY database where the
#             corebank extension (1.8+) is installed; a role that may
#             EXECUTE the corebank API (it revokes every other core key
#             through core_api_key_revoke first).
#
# Goal: each revocation alone sees one other valid admin key and passes;
# the guard (api_key_last_admin_guard) locks every active core admin key
# before counting, so the second waits for the first and, once it commits,
# counts none and is refused 422 (CB422). Method: session A revokes key 1
# and holds its transaction open; session B revokes key 2 and must still
# be waiting after WAIT_S; A commits; B must fail with CB422 and key 2 stay
# ACTIVE. Round 2 does the same with a shortened expiry in B (PUT) instead.
# Exit status 0 when all hold; the last line is PASS or FAIL.
set -euo pipefail

CONNINFO=${1:?usage: $0 CONNINFO}

PYTHON=python3
python3 -c 'import psycopg2' 2>/dev/null || PYTHON=/usr/bin/python3
exec "$PYTHON" - "$CONNINFO" <<'PY'
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


def connect(autocommit=True):
    conn = psycopg2.connect(CONNINFO)
    conn.autocommit = autocommit
    return conn


def admin_key(conn, tag):
    digest = hashlib.sha256(f"last admin race {tag} {uuid.uuid4()}".encode()).digest()
    with conn.cursor() as cur:
        cur.execute("SELECT corebank.core_api_key_create('core', %s, ARRAY['admin'], NULL, NULL, %s, 'cbk_race', NULL) ->> 'id'",
                    (f"race {tag}", psycopg2.Binary(digest)))
        return cur.fetchone()[0]


def status(conn, key_id):
    with conn.cursor() as cur:
        cur.execute("SELECT e ->> 'status' FROM jsonb_array_elements(corebank.core_api_keys_list('core')) e "
                    "WHERE e ->> 'id' = %s", (key_id,))
        return cur.fetchone()[0]


def race(round_name, second_sql):
    setup = connect()
    key1, key2 = admin_key(setup, "one"), admin_key(setup, "two")
    # Every other valid core key goes, through the API (allowed: key 1 and
    # key 2 remain), so that these two are the last admin keys.
    with setup.cursor() as cur:
        cur.execute("SELECT corebank.core_api_key_revoke((e ->> 'id')::uuid, NULL) "
                    "FROM jsonb_array_elements(corebank.core_api_keys_list('core')) e "
                    "WHERE e ->> 'status' = 'ACTIVE' AND e ->> 'id' NOT IN (%s, %s)", (key1, key2))

    a = connect(autocommit=False)
    with a.cursor() as cur:
        cur.execute("SELECT corebank.core_api_key_revoke(%s, NULL) ->> 'status'", (key1,))
        check(f"{round_name}: A revokes key 1 (one other admin key is valid)", cur.fetchone()[0], "REVOKED")

    outcome = {}

    def second():
        b = connect()
        try:
            with b.cursor() as cur:
                cur.execute(second_sql, (key2,))
                outcome["result"] = cur.fetchone()[0]
        except psycopg2.Error as error:
            outcome["error"] = error.pgcode
        finally:
            b.close()

    thread = threading.Thread(target=second)
    thread.start()
    time.sleep(WAIT_S)
    check(f"{round_name}: B waits while A's revocation is open", thread.is_alive(), True)
    a.commit()
    a.close()
    thread.join(30)
    check(f"{round_name}: B is refused 422 once A has committed", outcome, {"error": "CB422"})
    check(f"{round_name}: key 2 is still ACTIVE", status(setup, key2), "ACTIVE")
    check(f"{round_name}: key 1 is REVOKED", status(setup, key1), "REVOKED")
    setup.close()


race("revoke vs revoke", "SELECT corebank.core_api_key_revoke(%s, NULL) ->> 'status'")
race("revoke vs shortened expiry",
     "SELECT corebank.core_api_key_update(%s, 'core', NULL, NULL, true, now() + interval '1 hour', NULL) ->> 'status'")

print("FAIL" if failed else "PASS")
sys.exit(1 if failed else 0)
PY
