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
exec "$PYTHON" - "$CONNINFO" "$(dirname "$0")" <<'PY'
import sys

sys.path.insert(0, sys.argv[2])
import hashlib
import uuid

import psycopg2

from race_support import Race

race = Race(sys.argv[1])


def admin_key(conn, tag):
    digest = hashlib.sha256(f"last admin race {tag} {uuid.uuid4()}".encode()).digest()
    return race.one(conn, "SELECT corebank.core_api_key_create('core', %s, ARRAY['admin'], NULL, NULL, %s, "
                          "'cbk_race', NULL) ->> 'id'", (f"race {tag}", psycopg2.Binary(digest)))


def status(conn, key_id):
    return race.one(conn, "SELECT e ->> 'status' FROM jsonb_array_elements(corebank.core_api_keys_list('core')) e "
                          "WHERE e ->> 'id' = %s", (key_id,))


def round_of(round_name, second_sql):
    setup = race.connect()
    key1, key2 = admin_key(setup, "one"), admin_key(setup, "two")
    # Every other valid core key goes, through the API (allowed: key 1 and
    # key 2 remain), so that these two are the last admin keys.
    with setup.cursor() as cur:
        cur.execute("SELECT corebank.core_api_key_revoke((e ->> 'id')::uuid, NULL) "
                    "FROM jsonb_array_elements(corebank.core_api_keys_list('core')) e "
                    "WHERE e ->> 'status' = 'ACTIVE' AND e ->> 'id' NOT IN (%s, %s)", (key1, key2))
    ended = race.held_then_second("SELECT corebank.core_api_key_revoke(%s, NULL) ->> 'status'", (key1,),
                                  second_sql, (key2,))
    race.check(f"{round_name}: A revokes key 1 (one other admin key is valid)", ended["first"], "REVOKED")
    race.check(f"{round_name}: B waits while A's revocation is open", ended["waited"], True)
    race.check(f"{round_name}: B is refused 422 once A has committed", (ended["result"], ended["error_code"]),
               (None, "CB422"))
    race.check(f"{round_name}: key 2 is still ACTIVE", status(setup, key2), "ACTIVE")
    race.check(f"{round_name}: key 1 is REVOKED", status(setup, key1), "REVOKED")
    setup.close()


def rounds():
    round_of("revoke vs revoke", "SELECT corebank.core_api_key_revoke(%s, NULL) ->> 'status'")
    round_of("revoke vs shortened expiry",
             "SELECT corebank.core_api_key_update(%s, 'core', NULL, NULL, true, now() + interval '1 hour', NULL) "
             "->> 'status'")


race.run(rounds)
PY
