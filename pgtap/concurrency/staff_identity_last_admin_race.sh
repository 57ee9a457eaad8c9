#!/usr/bin/env bash
# pgtap/concurrency/staff_identity_last_admin_race.sh: two demotions (or two
# disablings) of the last two active admins at once cannot both pass
# (issue 15; docs/core-banking.md, "Staff identities": the bank would have
# no admin left to administer staff).
#
# Usage: staff_identity_last_admin_race.sh CONNINFO [ignored...]
#   CONNINFO  a libpq connection string to a THROWAWAY database where the
#             corebank extension (1.8+) is installed; a role that may
#             EXECUTE the corebank API (it disables every other active admin
#             through core_staff_identity_update first).
#
# Goal: each change alone sees one other active admin and passes;
# core_staff_identity_update takes one advisory lock before it counts, so
# the second waits for the first and, once it commits, counts none and is
# refused 422 (CB422). Method: session A demotes admin 2 and holds its
# transaction open; session B demotes admin 1 and must still be waiting
# after WAIT_S; A commits; B must fail with CB422 and admin 1 stay an active
# admin. Round 2 does the same with status DISABLED.
# Exit status 0 when all hold; the last line is PASS or FAIL.
set -euo pipefail

CONNINFO=${1:?usage: $0 CONNINFO}

PYTHON=python3
python3 -c 'import psycopg2' 2>/dev/null || PYTHON=/usr/bin/python3
exec "$PYTHON" - "$CONNINFO" <<'PY'
import json
import sys
import threading
import time
import uuid

import psycopg2

CONNINFO = sys.argv[1]
WAIT_S = 2.0
HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$" + "A" * 43
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


def admin(conn, tag):
    email = f"race-{tag}-{uuid.uuid4().hex[:8]}@example.com"
    with conn.cursor() as cur:
        cur.execute("SELECT corebank.auth_staff_create(%s, NULL, %s, NULL, NULL, ARRAY['admin'], NULL)::text",
                    (email, HASH))
        return cur.fetchone()[0], email


def view(conn, username):
    with conn.cursor() as cur:
        cur.execute("SELECT e FROM jsonb_array_elements(corebank.core_staff_identities_list()) e "
                    "WHERE e ->> 'username' = %s", (username,))
        return cur.fetchone()[0]


def update(conn, username, change, actor):
    with conn.cursor() as cur:
        cur.execute("SELECT corebank.core_staff_identity_update(%s, %s::jsonb, %s)::text",
                    (username, json.dumps(change), actor))
        return json.loads(cur.fetchone()[0])


def race(round_name, change):
    setup = connect()
    (id1, name1), (id2, name2) = admin(setup, "one"), admin(setup, "two")
    # Every other active admin is disabled through the API (allowed: admin 1
    # and admin 2 remain), so that these two are the last active admins.
    for other in view_all(setup):
        if other["status"] == "ACTIVE" and "admin" in other["roles"] and other["id"] not in (id1, id2):
            update(setup, other["username"], {"status": "DISABLED"}, id1)

    a = connect(autocommit=False)
    changed = update(a, name2, change, id1)
    check(f"{round_name}: A changes admin 2 (one other active admin)", changed["id"], id2)

    outcome = {}

    def second():
        b = connect()
        try:
            update(b, name1, change, id2)
            outcome["result"] = "passed"
        except psycopg2.Error as error:
            outcome["error"] = error.pgcode
        finally:
            b.close()

    thread = threading.Thread(target=second)
    thread.start()
    time.sleep(WAIT_S)
    check(f"{round_name}: B waits while A's change is open", thread.is_alive(), True)
    a.commit()
    a.close()
    thread.join(30)
    check(f"{round_name}: B is refused 422 once A has committed", outcome, {"error": "CB422"})
    last = view(setup, name1)
    check(f"{round_name}: admin 1 is still an active admin", (last["status"], "admin" in last["roles"]),
          ("ACTIVE", True))
    setup.close()


def view_all(conn):
    with conn.cursor() as cur:
        cur.execute("SELECT corebank.core_staff_identities_list()")
        return cur.fetchone()[0]


race("demote vs demote", {"roles": ["teller"]})
race("disable vs disable", {"status": "DISABLED"})

print("FAIL" if failed else "PASS")
sys.exit(1 if failed else 0)
PY
