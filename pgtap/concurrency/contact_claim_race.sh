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
exec "$PYTHON" - "$CONNINFO" "$(dirname "$0")" <<'PY'
import sys

sys.path.insert(0, sys.argv[2])
import uuid

from race_support import Race, phc, proof, sha256_bytea as h

race = Race(sys.argv[1])
CONFIRM = "SELECT corebank.auth_contact_claim_confirm(%s, 'email', %s)"


def register(conn, address):
    block = race.one(conn, "SELECT corebank.auth_register(%s, NULL, %s, NULL, NULL, NULL, 'web', '10.0.0.1', 'race', %s)",
                     (address, phc(address), h("refresh-" + address)))
    return block["user"]["id"]


def claim_race():
    setup = race.connect()
    tag = uuid.uuid4().hex[:8]
    prize = f"prize-{tag}@race.example"
    addresses = (f"first-{tag}@race.example", f"second-{tag}@race.example")
    first, second = (register(setup, address) for address in addresses)
    for user, address in zip((first, second), addresses):
        # The re-entered password's proof: the raw hash of phc(address).
        race.one(setup, "SELECT corebank.auth_contact_claim_start(%s, 'email', %s, %s, %s, NULL, '10.0.0.1')",
                 (user, prize, h(user + "code"), proof(address)))
    ended = race.held_then_second(CONFIRM, (first, h(first + "code")), CONFIRM, (second, h(second + "code")))
    race.check("the first confirmation succeeds in its open transaction", ended["first"]["outcome"], "confirmed")
    race.check("the second confirmation waits for the first", ended["waited"], True)
    race.check("the second confirmation ends without an error", ended["error"], None)
    race.check("the second confirmation loses", (ended["result"] or {}).get("outcome"), "conflict")
    race.check("it ended after the first committed", ended["after_commit"], True)
    race.check("the email is the first user's", race.one(setup, "SELECT corebank.auth_me(%s) ->> 'email'", (first,)), prize)
    race.check("the second user keeps its email",
               race.one(setup, "SELECT corebank.auth_me(%s) ->> 'email'", (second,)), f"second-{tag}@race.example")
    setup.close()


race.run(claim_race)
PY
