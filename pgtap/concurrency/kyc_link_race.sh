#!/usr/bin/env bash
# pgtap/concurrency/kyc_link_race.sh: a core customer linked to an identity
# user while that user's verification session is being decided gets the
# session as its identity-document check, whichever commits first (issue 14,
# part 5; docs/identity.md, "KYC tiers").
#
# Usage: kyc_link_race.sh CONNINFO [ignored...]
#   CONNINFO  a libpq connection string to a THROWAWAY database where the
#             corebank extension (1.8+) is installed; any role that may
#             EXECUTE the corebank API (corebank_app, a superuser).
#
# Goal: the approval of customer.identity_user.link and the decision that
# raises the user to STANDARD run in two transactions at once; each alone
# would miss the other's uncommitted write (the link would see no STANDARD
# yet, the decision no linked customer), so the customer's kyc_checks row
# would never be written. Method: two sessions; in round A the link's
# approval holds its transaction open while the session's decision is
# submitted from the other session, then commits; round B the other way
# round. After each, the customer must be kycStatus VERIFIED (it is only
# with the session's check, as no document was verified) and the user
# STANDARD. Fails if the second transaction does not wait for the first
# (it would then not see it) or if either errors.
# Exit status 0 when all hold; the last line is PASS or FAIL.
set -euo pipefail

CONNINFO=${1:?usage: $0 CONNINFO}

PYTHON=python3
python3 -c 'import psycopg2' 2>/dev/null || PYTHON=/usr/bin/python3
exec "$PYTHON" - "$CONNINFO" "$(dirname "$0")" <<'PY'
import sys

sys.path.insert(0, sys.argv[2])
import hashlib
import json
import uuid

import psycopg2

from race_support import Race, phc, sha256_bytea as h

race = Race(sys.argv[1])
one = race.one


def sealed(text):
    return psycopg2.Binary(b"\x01" + hashlib.sha256(text.encode()).digest())


def staff(conn, tag, role):
    return one(conn, "SELECT corebank.auth_staff_create(%s, NULL, %s, 'Race', 'Staff', %s, NULL)::text",
               (f"{tag}.{role}@race.example", phc(tag + role), [role]))


def session_ready(conn, tag):
    """A user with a started session, consented and captured, submitted: only the decision is left."""
    block = one(conn, "SELECT corebank.auth_register(%s, NULL, %s, 'Rudo', 'Moyo', NULL, 'web', '10.0.0.1', 'race', %s)",
                (f"{tag}@race.example", phc(tag), h("refresh-" + tag)))
    user = block["user"]["id"]
    token = "vct_race_" + tag
    started = one(conn, "SELECT corebank.auth_kyc_session_start(%s, %s, %s, %s, NULL, %s, %s, 3600, 900)",
                  (user, "kyc-" + tag, h("kyc.session"), str(uuid.uuid4()), h(token), sealed(token)))
    session = started["body"]["sessionId"]
    one(conn, "SELECT corebank.verify_hosted_consent(%s, %s, %s, %s, true, 'v1', %s, '10.0.0.1', 'race')",
        (session, h(token), "consent-" + tag, h("consent"), h("text")))
    for kind in ("selfie", "document"):
        one(conn, "SELECT corebank.verify_hosted_capture(%s, %s, %s, %s, %s, %s, 'png', 640, 480, 12345, %s)",
            (session, h(token), f"{kind}-{tag}", h(kind), kind, sealed(kind + tag), h(kind + tag)))
    one(conn, "SELECT corebank.verify_hosted_submit_begin(%s, %s, %s, %s)",
        (session, h(token), "submit-" + tag, h("submit")))
    return user, session, token


FINISH = ("SELECT corebank.verify_hosted_submit_finish(%s, %s, %s, 'offline', %s)")
CHECKS = json.dumps([{"type": "liveness", "status": "pass", "score": 0.9},
                     {"type": "facematch", "status": "pass", "similarity": 0.9},
                     {"type": "document", "status": "pass", "score": 0.9}])


def round_of(round_name, link_first):
    setup = race.connect()
    tag = f"{round_name.replace(' ', '-')}-{uuid.uuid4().hex[:8]}"
    teller, supervisor = staff(setup, tag, "teller"), staff(setup, tag, "supervisor")
    user, session, token = session_ready(setup, tag)
    customer = one(setup, "SELECT corebank.core_customers_create(%s, %s) ->> 'id'",
                   (json.dumps({"type": "INDIVIDUAL", "firstName": "Rudo", "lastName": "Moyo" + tag[-8:],
                                "dateOfBirth": "1990-04-02", "nationalId": "N-" + tag}), teller))
    change = one(setup, "SELECT corebank.core_customers_kyc_identity_link_request(%s, %s, %s) ->> 'id'",
                 (customer, json.dumps({"userId": user}), teller))
    link = ("SELECT corebank.core_approval_approve(%s, %s, NULL)", (change, supervisor))
    finish = (FINISH, (session, h(token), "submit-" + tag, CHECKS))
    first, second = (link, finish) if link_first else (finish, link)
    ended = race.held_then_second(*first, *second)
    race.check(f"{round_name}: the second transaction waits for the first", ended["waited"], True)
    race.check(f"{round_name}: the second transaction finished without error", ended["error"], None)
    race.check(f"{round_name}: the second transaction finished after the first committed", ended["after_commit"], True)
    race.check(f"{round_name}: the user is STANDARD",
               one(setup, "SELECT corebank.auth_kyc_get(%s) ->> 'kycTier'", (user,)), "STANDARD")
    race.check(f"{round_name}: the customer is VERIFIED by the session's check",
               one(setup, "SELECT corebank.core_customers_get(%s) ->> 'kycStatus'", (customer,)), "VERIFIED")
    setup.close()


def rounds():
    round_of("link first", True)
    round_of("decision first", False)


race.run(rounds)
PY
