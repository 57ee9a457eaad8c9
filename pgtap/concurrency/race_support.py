"""race_support: what the two-session race scripts of pgtap/concurrency share.

Each race holds one transaction open after its first statement, submits a
second statement from another session, checks that the second is still
waiting after WAIT_S (so it could not see the first's uncommitted work and
must have queued behind a lock or a unique index), commits the first and
reads how the second ended. The scripts (api_key_last_admin_race.sh,
contact_claim_race.sh, kyc_link_race.sh) say what each race proves; this
module only runs the sessions and counts the checks, printing one
"ok"/"NOT OK" line each and PASS or FAIL last.
"""
import base64
import hashlib
import sys
import threading
import time

import psycopg2

WAIT_S = 2.0          # the waiting side must still be waiting after this long
JOIN_S = 30.0         # how long the second session may take once the first committed


def sha256_bytea(text):
    """SHA-256 of text as a bytea parameter (the hashes the API functions store)."""
    return psycopg2.Binary(hashlib.sha256(text.encode()).digest())


def proof(seed):
    """The raw 32 bytes the tier would send as the password proof of phc(seed) (docs/architecture.md)."""
    return psycopg2.Binary(hashlib.sha256(f"race {seed}".encode()).digest())


def phc(seed):
    """A well-formed argon2id PHC string whose hash part is proof(seed) (no real password behind it)."""
    raw = hashlib.sha256(f"race {seed}".encode()).digest()
    return "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$" + base64.b64encode(raw).decode().rstrip("=")


class Race:
    def __init__(self, conninfo):
        self.conninfo = conninfo
        self.failed = False

    def check(self, description, have, want):
        if have == want:
            print(f"ok      {description}")
        else:
            print(f"NOT OK  {description}: have {have!r}, want {want!r}")
            self.failed = True

    def connect(self, autocommit=True):
        conn = psycopg2.connect(self.conninfo)
        conn.autocommit = autocommit
        return conn

    @staticmethod
    def one(conn, sql, args=()):
        with conn.cursor() as cur:
            cur.execute(sql, args)
            return cur.fetchone()[0]

    def held_then_second(self, first_sql, first_args, second_sql, second_args):
        """Runs first_sql in a transaction left open, second_sql from another session meanwhile, then commits
        the first. Returns {first, waited, result, error, error_code, after_commit}: the first statement's value,
        whether the second was still waiting after WAIT_S, its value or its error (repr and SQLSTATE), and whether
        it ended after the first committed."""
        holder = self.connect(autocommit=False)
        ended = {"first": self.one(holder, first_sql, first_args)}

        def second():
            conn = self.connect()
            try:
                ended["result"] = self.one(conn, second_sql, second_args)
            except psycopg2.Error as error:
                ended["error"], ended["error_code"] = repr(error), error.pgcode
            finally:
                ended["done_at"] = time.monotonic()
                conn.close()

        worker = threading.Thread(target=second)
        worker.start()
        time.sleep(WAIT_S)
        waited = "done_at" not in ended
        committed_at = time.monotonic()
        holder.commit()
        holder.close()
        worker.join(JOIN_S)
        return {"first": ended["first"], "waited": waited, "result": ended.get("result"),
                "error": ended.get("error"), "error_code": ended.get("error_code"),
                "after_commit": ended.get("done_at", 0) >= committed_at}

    def run(self, body):
        """Runs body(), reports an exception as a failed check, prints PASS or FAIL and exits."""
        try:
            body()
        except Exception as error:  # reported as a failed check
            print(f"NOT OK  the race could not run: {error!r}")
            self.failed = True
        print("FAIL" if self.failed else "PASS")
        sys.exit(1 if self.failed else 0)
