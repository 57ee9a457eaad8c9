"""API key rotation, change and revocation without a UI (issue 15).

POST /v1/api-keys/{id}/rotate (a successor shown once; the old key valid for
its overlap), PUT /v1/api-keys/{id} (name, rate limit, expiry), the 422s
(an expiry not in the future; the last admin key, whose race is
pgtap/concurrency/api_key_last_admin_race.sh, since every e2e module shares
the suite's admin keys), bad input on every new endpoint (4xx, nothing
written) and `corebankd key-list | key-rotate | key-revoke`.
docs/core-banking.md, "API keys".
"""
import json
import os
import subprocess
import threading
import time
import unittest
from datetime import datetime, timedelta, timezone

import cbclient as cb
import corebanking as C

THREADS = 4
PATH = "/v1/branches"
# The usage flush runs once a second (HotPath::flush_interval_ms); the cache lives 2 s.
EXPIRED_WITHIN_S = 1.5


def setUpModule():
    C.require_core()


def key_state(key_id):
    """Everything a refused request must leave as it was: counts and the key's row."""
    return (C.count("api_keys"), C.count("api_key_events"),
            C.db().scalar("SELECT md5(k::text) FROM corebank.api_keys k WHERE id = %s::uuid", (key_id,)))


def events_of(key_id):
    return [r["event"] for r in C.db().rows(
        "SELECT event FROM corebank.api_key_events WHERE api_key_id = %s::uuid ORDER BY id", (key_id,))]


class RotationTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.admin = C.Core(C.admin_key())

    def rotate(self, key_id, body=None, api=None):
        path = f"/v1/api-keys/{key_id}/rotate"
        if body is None:  # no body at all: the default overlap
            return (api or self.admin).post(path)
        return (api or self.admin).post(path, json_body=body)

    def test_rotation_under_load_loses_no_request(self):
        """4 threads send with the old key, switch to the new one after the rotation, and the old is revoked: 0 failures."""
        old = C.new_key(["write"], rate=1_000_000)
        current = {"key": old["key"]}
        stop = threading.Event()
        results = {"ok_old": 0, "ok_new": 0, "failed": []}
        lock = threading.Lock()

        def client():
            api = C.Core(None, keepalive=True, validate=False)
            try:
                while not stop.is_set():
                    key = current["key"]
                    resp = api.get(PATH, key=key)
                    with lock:
                        if resp.status == 200:
                            results["ok_old" if key == old["key"] else "ok_new"] += 1
                        else:
                            results["failed"].append((resp.status, key == old["key"], resp.body[:200]))
            finally:
                api.http.close()

        threads = [threading.Thread(target=client) for _ in range(THREADS)]
        for t in threads:
            t.start()
        try:
            time.sleep(0.5)
            rotated = C.ok(self.rotate(old["id"], {"overlapSeconds": 3600}), 201)
            time.sleep(0.5)  # the clients keep the old key a while after the rotation
            current["key"] = rotated["key"]
            time.sleep(0.5)
            C.ok(self.admin.delete(f"/v1/api-keys/{old['id']}"))
            time.sleep(0.5)
        finally:
            stop.set()
            for t in threads:
                t.join(30)
        self.assertEqual(results["failed"], [], "no request may fail during a rotation")
        self.assertGreater(results["ok_old"], THREADS, "the old key was used")
        self.assertGreater(results["ok_new"], THREADS, "the new key was used")
        cb.assert_error(C.Core(old["key"]).get(PATH), 401, "UNAUTHORIZED")
        C.ok(C.Core(rotated["key"]).get(PATH))
        self.assertEqual(events_of(old["id"]), ["CREATED", "ROTATED", "REVOKED"])

    def test_rotate_answers_the_successor_once(self):
        """The successor: same name, scopes and limit, rotatedFrom, its key once; the old key's expiry is the overlap."""
        old = C.new_key(["read", "write"], rate=777)
        rotated = C.ok(self.rotate(old["id"]), 201)
        self.assertRegex(rotated["key"], r"^cb_core_[A-Za-z0-9_-]{43}$")
        self.assertEqual((rotated["name"], rotated["scopes"], rotated["rateLimitPerMinute"], rotated["rotatedFrom"]),
                         (old["name"], old["scopes"], 777, old["id"]))
        self.assertEqual(rotated["previous"]["id"], old["id"])
        self.assertIsNotNone(rotated["previous"]["expiresAt"], "the default overlap of 24 hours")
        listing = C.ok(self.admin.get("/v1/api-keys"))
        self.assertNotIn(rotated["key"], json.dumps(listing))
        both = {k["id"]: k for k in listing if k["id"] in (old["id"], rotated["id"])}
        self.assertEqual(both[old["id"]]["status"], "ACTIVE")
        self.assertEqual(both[old["id"]]["expiresAt"], rotated["previous"]["expiresAt"])
        for key in (old["key"], rotated["key"]):
            C.ok(C.Core(key).get(PATH))

    def test_overlap_zero_stops_the_old_key_at_once(self):
        """overlapSeconds 0: the old key is EXPIRED and refused on the next request."""
        old = C.new_key(["read"])
        C.ok(C.Core(old["key"]).get(PATH))  # cached by this process
        rotated = C.ok(self.rotate(old["id"], {"overlapSeconds": 0}), 201)
        self.assertEqual(rotated["previous"]["status"], "EXPIRED")
        cb.assert_error(C.Core(old["key"]).get(PATH), 401, "UNAUTHORIZED")
        C.ok(C.Core(rotated["key"]).get(PATH))

    def test_rotation_refusals_write_nothing(self):
        """Bad input and wrong states on POST .../rotate: 4xx, no key and no audit row written."""
        key = C.new_key(["read"])
        revoked = C.new_key(["read"])
        C.ok(self.admin.delete(f"/v1/api-keys/{revoked['id']}"))
        reader = C.Core(C.new_key(["read"])["key"])
        cases = [
            ("not a uuid", "/v1/api-keys/not-a-uuid/rotate", b"{}", 400, "BAD_REQUEST"),
            ("unknown id", "/v1/api-keys/00000000-0000-4000-8000-000000000000/rotate", b"{}", 404, "NOT_FOUND"),
            ("negative overlap", f"/v1/api-keys/{key['id']}/rotate", b'{"overlapSeconds": -1}', 400, "VALIDATION_ERROR"),
            ("overlap over 30 days", f"/v1/api-keys/{key['id']}/rotate", b'{"overlapSeconds": 2592001}', 400, "VALIDATION_ERROR"),
            ("overlap as text", f"/v1/api-keys/{key['id']}/rotate", b'{"overlapSeconds": "60"}', 400, "VALIDATION_ERROR"),
            ("overlap as a fraction", f"/v1/api-keys/{key['id']}/rotate", b'{"overlapSeconds": 1.5}', 400, "VALIDATION_ERROR"),
            ("unknown field", f"/v1/api-keys/{key['id']}/rotate", b'{"scopes": ["admin"]}', 400, "VALIDATION_ERROR"),
            ("not JSON", f"/v1/api-keys/{key['id']}/rotate", b'{"overlapSeconds":', 400, "BAD_REQUEST"),
            ("an array", f"/v1/api-keys/{key['id']}/rotate", b'[]', 400, "BAD_REQUEST"),
            ("revoked key", f"/v1/api-keys/{revoked['id']}/rotate", b"{}", 409, "CONFLICT"),
        ]
        for name, path, body, status, code in cases:
            with self.subTest(name):
                before = key_state(key["id"])
                resp = self.admin.post(path, body=body, headers={"Content-Type": "application/json"})
                cb.assert_error(resp, status, code)
                self.assertEqual(key_state(key["id"]), before)
        before = key_state(key["id"])
        cb.assert_error(reader.post(f"/v1/api-keys/{key['id']}/rotate", json_body={}), 403, "FORBIDDEN")
        self.assertEqual(key_state(key["id"]), before, "a read key rotates nothing")
        C.ok(self.rotate(key["id"], {"overlapSeconds": 60}), 201)
        before = key_state(key["id"])
        cb.assert_error(self.rotate(key["id"]), 409, "CONFLICT",
                        "API key has already been rotated: rotate its successor instead")
        self.assertEqual(key_state(key["id"]), before, "a second rotation during the overlap writes nothing")


class UpdateTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.admin = C.Core(C.admin_key())

    def test_put_changes_name_limit_and_expiry(self):
        """PUT sets name (trimmed), rate limit and expiry, null removes it; audited; the key keeps working."""
        key = C.new_key(["read"])
        changed = C.ok(self.admin.put(f"/v1/api-keys/{key['id']}", json_body={
            "name": "  renamed  ", "rateLimitPerMinute": 1234, "expiresAt": "2030-01-31T12:00:00Z"}))
        self.assertEqual((changed["name"], changed["rateLimitPerMinute"]), ("renamed", 1234))
        self.assertEqual(datetime.fromisoformat(changed["expiresAt"].replace("Z", "+00:00")),
                         datetime(2030, 1, 31, 12, 0, tzinfo=timezone.utc))
        cleared = C.ok(self.admin.put(f"/v1/api-keys/{key['id']}", json_body={"expiresAt": None}))
        self.assertIsNone(cleared["expiresAt"])
        self.assertEqual(cleared["name"], "renamed")
        C.ok(C.Core(key["key"]).get(PATH))
        self.assertEqual(events_of(key["id"]), ["CREATED", "UPDATED", "UPDATED"])

    def test_a_lowered_limit_acts_on_the_next_requests(self):
        """A key that made 5 requests this minute, lowered to 2 per minute, is answered 429 at once."""
        key = C.new_key(["read"], rate=1000)
        api = C.Core(key["key"])
        for _ in range(5):
            C.ok(api.get(PATH))
        C.ok(self.admin.put(f"/v1/api-keys/{key['id']}", json_body={"rateLimitPerMinute": 2}))
        statuses = [api.get(PATH).status for _ in range(3)]
        self.assertIn(429, statuses, f"the new limit was not applied: {statuses}")

    def test_put_refusals_write_nothing(self):
        """Bad input and wrong states on PUT: 4xx, the key's row and the audit unchanged."""
        key = C.new_key(["read"])
        revoked = C.new_key(["read"])
        C.ok(self.admin.delete(f"/v1/api-keys/{revoked['id']}"))
        path = f"/v1/api-keys/{key['id']}"
        cases = [
            ("empty object", path, b"{}", 400, "VALIDATION_ERROR"),
            ("blank name", path, b'{"name": "   "}', 400, "VALIDATION_ERROR"),
            ("long name", path, json.dumps({"name": "x" * 101}).encode(), 400, "VALIDATION_ERROR"),
            ("limit 0", path, b'{"rateLimitPerMinute": 0}', 400, "VALIDATION_ERROR"),
            ("limit too high", path, b'{"rateLimitPerMinute": 1000001}', 400, "VALIDATION_ERROR"),
            ("expiry not a date", path, b'{"expiresAt": "tomorrow"}', 400, "VALIDATION_ERROR"),
            ("expiry without zone", path, b'{"expiresAt": "2030-01-31T12:00:00"}', 400, "VALIDATION_ERROR"),
            ("expiry as a number", path, b'{"expiresAt": 1900000000}', 400, "VALIDATION_ERROR"),
            ("30 February", path, b'{"expiresAt": "2030-02-30T12:00:00Z"}', 400, None),
            ("expiry past 10 years", path, b'{"expiresAt": "2099-01-01T00:00:00Z"}', 400, "VALIDATION_ERROR"),
            ("unknown field", path, b'{"scopes": ["admin"]}', 400, "VALIDATION_ERROR"),
            ("not JSON", path, b'{"name": ', 400, "BAD_REQUEST"),
            ("no body", path, b'', 400, "BAD_REQUEST"),
            ("not a uuid", "/v1/api-keys/xyz", b'{"name": "a"}', 400, "BAD_REQUEST"),
            ("unknown id", "/v1/api-keys/00000000-0000-4000-8000-000000000000", b'{"name": "a"}', 404, "NOT_FOUND"),
            ("revoked key", f"/v1/api-keys/{revoked['id']}", b'{"name": "a"}', 409, "CONFLICT"),
            ("expiry in the past", path, b'{"expiresAt": "2020-01-01T00:00:00Z"}', 422, "UNPROCESSABLE"),
        ]
        for name, target, body, status, code in cases:
            with self.subTest(name):
                before = key_state(key["id"])
                resp = self.admin.put(target, body=body, headers={"Content-Type": "application/json"})
                if code:
                    cb.assert_error(resp, status, code)
                else:
                    cb.assert_error(resp, status, ("BAD_REQUEST", "VALIDATION_ERROR"))
                self.assertEqual(key_state(key["id"]), before)

    def test_an_expiry_reached_by_the_clock_acts_within_about_a_second(self):
        """A key cached just before its expiresAt is refused about a second after it, not a cache lifetime (2 s) later."""
        key = C.new_key(["read"], rate=1_000_000)
        api = C.Core(key["key"], validate=False)
        expires = datetime.now(timezone.utc) + timedelta(seconds=3)
        C.ok(self.admin.put(f"/v1/api-keys/{key['id']}",
                            json_body={"expiresAt": expires.strftime("%Y-%m-%dT%H:%M:%S.%fZ")}))
        while datetime.now(timezone.utc) < expires - timedelta(seconds=0.1):
            time.sleep(0.02)
        C.ok(api.get(PATH))  # the answer is cached now, for up to auth_cache_ttl_ms (2 s)
        while True:
            status = api.get(PATH).status
            late = (datetime.now(timezone.utc) - expires).total_seconds()
            if status == 401:
                break
            self.assertEqual(status, 200)
            self.assertLess(late, 3.0, "the expired key is still accepted")
            time.sleep(0.05)
        self.assertLessEqual(late, EXPIRED_WITHIN_S,
                             f"refused {late:.2f} s after expiresAt; the usage flush announces an expired key")

    def test_an_expired_key_is_refused_and_stays_expired(self):
        """A key past its expiry is 401 like a revoked one, listed EXPIRED, and PUT cannot revive it (409)."""
        key = C.new_key(["read"])
        C.ok(C.Core(key["key"]).get(PATH))
        C.ok(self.admin.post(f"/v1/api-keys/{key['id']}/rotate", json_body={"overlapSeconds": 0}), 201)
        cb.assert_error(C.Core(key["key"]).get(PATH), 401, "UNAUTHORIZED")
        listed = [k for k in C.ok(self.admin.get("/v1/api-keys")) if k["id"] == key["id"]]
        self.assertEqual(listed[0]["status"], "EXPIRED")
        cb.assert_error(self.admin.put(f"/v1/api-keys/{key['id']}", json_body={"expiresAt": None}), 409, "CONFLICT",
                        "API key has expired")


class CliTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.admin = C.Core(C.admin_key())

    def test_key_list_rotate_revoke(self):
        """key-list shows the key without its secret, key-rotate prints one working key, key-revoke revokes."""
        key = C.new_key(["read"])
        listing = json.loads(cb.cli("key-list", "--service", "core"))
        self.assertIn(key["id"], [k["id"] for k in listing])
        self.assertNotIn(key["key"], json.dumps(listing))
        out = cb.cli("key-rotate", "--id", key["id"], "--overlap-seconds", "120").strip()
        self.assertRegex(out, r"^cb_core_[A-Za-z0-9_-]{43}$", "key-rotate prints the key and nothing else")
        C.ok(C.Core(out).get(PATH))
        C.ok(C.Core(key["key"]).get(PATH))  # the overlap
        revoked = json.loads(cb.cli("key-revoke", "--id", key["id"]))
        self.assertEqual(revoked["status"], "REVOKED")
        cb.assert_error(C.Core(key["key"]).get(PATH), 401, "UNAUTHORIZED")
        self.assertEqual(events_of(key["id"]), ["CREATED", "ROTATED", "REVOKED"])

    def test_cli_refusals(self):
        """The CLI refuses bad ids, overlaps and states with the database's message, exit 2, nothing written."""
        key = C.new_key(["read"])
        C.ok(self.admin.delete(f"/v1/api-keys/{key['id']}"))
        cases = [
            (["key-rotate", "--id", "nope"], "--id must be a UUID"),
            (["key-rotate", "--id", key["id"], "--overlap-seconds", "-5"], "--overlap-seconds must be 0 to 2592000"),
            (["key-rotate", "--id", key["id"], "--service", "mail"], "--service must be core, events or verify"),
            (["key-rotate", "--id", key["id"]], "API key is revoked: create a new key instead"),
            (["key-revoke", "--id", key["id"]], "API key is already revoked"),
            (["key-revoke"], "usage: key-revoke --id ID"),
            (["key-list", "--service", "mail"], "--service must be core, events or verify"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                before = key_state(key["id"])
                done = subprocess.run([cb.CLI, *args], env=dict(os.environ, DATABASE_URL=cb.DATABASE_URL),
                                      capture_output=True, text=True, timeout=60)
                self.assertEqual(done.returncode, 2, done.stderr)
                self.assertIn(message, done.stderr)
                self.assertEqual(done.stdout, "")
                self.assertEqual(key_state(key["id"]), before)


if __name__ == "__main__":
    unittest.main()
