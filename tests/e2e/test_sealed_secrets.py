"""Signing keys at rest (issue 13): a copied row cannot sign without the root key.

The RS256 private keys are stored only sealed under the root key, a 32-byte
file outside the data directory that corebank.root_key_file names
(docs/security.md, "Sealed secrets and the root key"). What a dump, a backup
or a replica's files give an attacker is the row; this test takes the service
database's active key row to a second, throwaway cluster and tries to sign
with it there:
  - with no root key configured, signing fails with F0000, saying so;
  - with another root key, the sealed key does not open (XX001);
  - with the service's own root key file, it signs (a restore is possible
    for whoever holds the key, and only for them).
It also checks the file rules of extension/pg/root_key.cpp (a key file with
group or other permissions, or inside the data directory, is refused) and the
1.8 upgrade: a 1.7 database's plaintext key is retired and its PEM dropped.
Needs CB_DATABASE_URL (superuser) and the PostgreSQL 15 server binaries; when
run as root, the second cluster runs as the postgres user.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402

PG_BIN = "/usr/lib/postgresql/15/bin"
PORT = 5432          # unix socket only, in a directory of its own: any port number will do
TIMEOUT_S = 120


def as_postgres(*args, check=True):
    cmd = list(args)
    if os.geteuid() == 0:
        cmd = ["runuser", "-u", "postgres", "--"] + cmd
    done = subprocess.run(cmd, cwd="/tmp", capture_output=True, text=True, timeout=TIMEOUT_S)
    if check and done.returncode != 0:
        raise AssertionError(f"{' '.join(args)} failed ({done.returncode}): {done.stdout}{done.stderr}")
    return done


class CopiedKeyTest(unittest.TestCase):
    """The active signing key's row, copied into another cluster."""

    @classmethod
    def setUpClass(cls):
        import psycopg2
        cls.psycopg2 = psycopg2
        db = cb.db()
        db.one("SELECT corebank.auth_ensure_signing_key()")
        cls.row = db.one("SELECT kid, public_jwk::text AS jwk, private_key_sealed AS sealed "
                         "FROM corebank.auth_signing_keys WHERE retired_at IS NULL")
        cls.service_key_file = db.one("SELECT current_setting('corebank.root_key_file') AS f")["f"]
        if not os.path.isfile(os.path.join(PG_BIN, "initdb")):
            raise unittest.SkipTest(f"no PostgreSQL 15 server binaries in {PG_BIN}")
        cls.tmp = tempfile.mkdtemp(prefix="cb-sealed-", dir="/tmp")
        os.chmod(cls.tmp, 0o755)
        cls.data = os.path.join(cls.tmp, "pg")
        cls.sock = os.path.join(cls.tmp, "sock")
        cls.keys = os.path.join(cls.tmp, "keys")
        for path in (cls.data, cls.sock, cls.keys):
            os.mkdir(path, 0o700)
            if os.geteuid() == 0:
                shutil.chown(path, "postgres", "postgres")
        as_postgres(f"{PG_BIN}/initdb", "-D", cls.data, "-U", "postgres", "-A", "trust", "-E", "UTF8",
                    "--locale=C.UTF-8", "--no-instructions")
        as_postgres(f"{PG_BIN}/pg_ctl", "start", "-D", cls.data, "-l", os.path.join(cls.sock, "log"), "-w",
                    "-t", "60", "-o", f"-p {PORT} -k {cls.sock} -c listen_addresses='' -c fsync=off")
        cls.started = True
        cls.sql("CREATE EXTENSION corebank")
        cls.sql("INSERT INTO corebank.auth_signing_keys (kid, public_jwk, private_key_sealed) "
                "VALUES (%s, %s::jsonb, %s)", (cls.row["kid"], cls.row["jwk"], cls.row["sealed"]))

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "started", False):
            as_postgres(f"{PG_BIN}/pg_ctl", "stop", "-D", cls.data, "-m", "immediate", "-w", check=False)
        if getattr(cls, "tmp", None):
            shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def sql(cls, statement, params=()):
        """Runs one statement in a new session (so a reloaded setting applies); its first value."""
        conn = cls.psycopg2.connect(host=cls.sock, port=PORT, dbname="postgres", user="postgres")
        conn.autocommit = True
        try:
            with conn.cursor() as cur:
                cur.execute(statement, params)
                return cur.fetchone()[0] if cur.description else None
        finally:
            conn.close()

    def use_key_file(self, path):
        conn = self.psycopg2.connect(host=self.sock, port=PORT, dbname="postgres", user="postgres")
        conn.autocommit = True
        try:
            with conn.cursor() as cur:
                cur.execute("LOAD 'corebank'")
                cur.execute("ALTER SYSTEM SET corebank.root_key_file = %s", (path,))
                cur.execute("SELECT pg_reload_conf()")
        finally:
            conn.close()
        for _ in range(100):   # a reload is asynchronous: up to 5 s
            if self.sql("SELECT current_setting('corebank.root_key_file')") == path:
                return
            time.sleep(0.05)
        self.fail(f"the second cluster did not take corebank.root_key_file = {path}")

    def new_key_file(self, name, mode=0o600, directory=None):
        path = os.path.join(directory or self.keys, name)
        as_postgres("sh", "-c", f"umask 077 && openssl rand -out '{path}' 32 && chmod {mode:o} '{path}'")
        return path

    def sign_error(self):
        with self.assertRaises(self.psycopg2.Error) as raised:
            self.sql("SELECT corebank_internal.sign_jwt('{\"sub\": \"x\"}')")
        return raised.exception

    def test_1_the_copied_row_holds_no_pem(self):
        """The row a dump would carry holds sealed bytes, never a PEM."""
        self.assertNotIn(b"-----BEGIN", bytes(self.row["sealed"]))
        self.assertNotIn(b"PRIVATE KEY", bytes(self.row["sealed"]))

    def test_2_without_a_root_key_it_cannot_sign_and_says_so(self):
        """No corebank.root_key_file: F0000, naming the setting; auth_root_key_problem says the same."""
        self.assertIn("corebank.root_key_file is not set",
                      self.sql("SELECT corebank_internal.auth_root_key_problem()"))
        error = self.sign_error()
        self.assertEqual(error.pgcode, "F0000", str(error))
        self.assertIn("corebank.root_key_file is not set", str(error))

    def test_2b_corebank_status_says_so(self):
        """`./corebank status` on that server prints the root key's problem and exits 3."""
        env = dict(os.environ, DATABASE_URL=f"host={self.sock} port={PORT} dbname=postgres user=postgres")
        done = subprocess.run([os.path.join(cb.ROOT, "corebank"), "status"], env=env, capture_output=True,
                              text=True, timeout=TIMEOUT_S)
        self.assertEqual(done.returncode, 3, done.stdout + done.stderr)
        self.assertIn("root key   not loaded: corebank.root_key_file is not set", done.stdout)

    def test_3_under_another_root_key_it_does_not_open(self):
        """A root key of its own: the copied sealed key does not open (XX001)."""
        self.use_key_file(self.new_key_file("other.key"))
        self.assertIsNone(self.sql("SELECT corebank_internal.auth_root_key_problem()"))
        error = self.sign_error()
        self.assertEqual(error.pgcode, "XX001", str(error))
        self.assertIn("does not open", str(error))

    def test_4_a_key_file_others_may_read_is_refused(self):
        """Mode 0644: refused, naming the mode and the chmod."""
        self.use_key_file(self.new_key_file("readable.key", mode=0o644))
        problem = self.sql("SELECT corebank_internal.auth_root_key_problem()")
        self.assertIn("has mode 0644", problem or "")
        self.assertEqual(self.sign_error().pgcode, "F0000")

    def test_5_a_key_file_inside_the_data_directory_is_refused(self):
        """A key kept with the data would be in every backup: refused."""
        self.use_key_file(self.new_key_file("root.key", directory=self.data))
        self.assertIn("inside the data directory", self.sql("SELECT corebank_internal.auth_root_key_problem()") or "")
        self.assertEqual(self.sign_error().pgcode, "F0000")

    def test_6_with_the_service_root_key_the_copy_signs(self):
        """Whoever holds the root key can restore: the same row signs under the service's key file."""
        if not self.service_key_file:
            self.skipTest("the service database names no root key file")
        self.use_key_file(self.service_key_file)
        token = self.sql("SELECT corebank_internal.sign_jwt('{\"sub\": \"x\"}')")
        header, claims, _, _ = cb.jwt_parts(token)
        self.assertEqual(header["kid"], self.row["kid"])
        self.assertEqual(claims, {"sub": "x"})
        _, _, signing_input, signature = cb.jwt_parts(token)
        self.assertTrue(cb.verify_rs256(signing_input, signature, cb.jwk_public_key(json.loads(self.row["jwk"]))),
                        "the signature verifies with the copied key's public JWK")

    def test_7_the_upgrade_to_1_8_retires_plaintext_keys(self):
        """A 1.7 database's plaintext key: retired by the upgrade, its PEM gone; the next signature seals a new key."""
        if not self.service_key_file:
            self.skipTest("the service database names no root key file")
        self.use_key_file(self.service_key_file)
        self.sql("CREATE DATABASE upgraded")
        conn = self.psycopg2.connect(host=self.sock, port=PORT, dbname="upgraded", user="postgres")
        conn.autocommit = True
        try:
            with conn.cursor() as cur:
                cur.execute("CREATE EXTENSION corebank VERSION '1.7'")
                cur.execute("INSERT INTO corebank.auth_signing_keys (kid, public_jwk, private_key_pem) "
                            "SELECT kid, public_jwk, private_key_pem FROM corebank_internal.generate_rsa_key() "
                            "RETURNING kid")
                old_kid = cur.fetchone()[0]
                cur.execute("ALTER EXTENSION corebank UPDATE TO '1.8'")
                cur.execute("SELECT count(*) FROM corebank.auth_signing_keys t "
                            "WHERE strpos(t::text, '-----BEGIN') > 0 OR strpos(t::text, %s) > 0",
                            ("-----BEGIN".encode().hex(),))
                self.assertEqual(cur.fetchone()[0], 0, "no PEM is left in auth_signing_keys")
                cur.execute("SELECT retired_at IS NOT NULL, private_key_sealed IS NULL "
                            "FROM corebank.auth_signing_keys WHERE kid = %s", (old_kid,))
                self.assertEqual(cur.fetchone(), (True, True), "the plaintext key is retired, with nothing to sign with")
                cur.execute("SELECT corebank_internal.sign_jwt('{\"sub\": \"x\"}')")
                header = cb.jwt_parts(cur.fetchone()[0])[0]
                self.assertNotEqual(header["kid"], old_kid)
                cur.execute("SELECT substring(private_key_sealed FROM 1 FOR 1) FROM corebank.auth_signing_keys "
                            "WHERE kid = %s AND retired_at IS NULL", (header["kid"],))
                self.assertEqual(bytes(cur.fetchone()[0]), b"\x01", "the new key is sealed")
        finally:
            conn.close()


if __name__ == "__main__":
    unittest.main()
