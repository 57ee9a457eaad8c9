"""`./corebank migrate`: the institution's data of migrations/ (issue 11, part 5).

Goal: the runner applies every file once, in version order, each in one
transaction with its record; a second run applies nothing; an edited or
removed applied file, a new file below the latest applied version, a misnamed
file and a failing file are refused with a non-zero exit and a message naming
the file, and nothing after the refusal is applied; two runners at once apply
each file once. The runner tests use throwaway databases and temporary copies
of migrations/ (COREBANK_MIGRATIONS_DIR), so the real files are never edited.
On the service's own database: every file of migrations/ is recorded with its
checksum, the role policy in the database is the one the migrations state, and GET /v1/platform/banks serves, byte for
byte, what the tier served from its hard-coded list before 1.6.
docs/migrations.md.
"""
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import unittest
import uuid

import psycopg2
import psycopg2.extensions

import cbclient as cb
import corebanking as C

MIGRATIONS_DIR = os.path.join(cb.ROOT, "migrations")
COREBANK = os.path.join(cb.ROOT, "corebank")
MIGRATE_TIMEOUT_S = 120

# The body of GET /v1/platform/banks as corebankd served it from the list in
# httpd/src/banking/platform_info.cpp before extension 1.6 (captured from that
# build); the list now comes from migrations/0003_banks.sql.
BANKS_BODY_BEFORE_1_6 = (
    b'[{"code":"AFC","name":"AFC Commercial Bank","swiftBic":"AGRZZWHA"},'
    b'{"code":"BANCABC","name":"BancABC Zimbabwe","swiftBic":"FMBZZWHX"},'
    b'{"code":"CABS","name":"CABS","swiftBic":"CABSZWHA"},'
    b'{"code":"CBZ","name":"CBZ Bank","swiftBic":"COBZZWHA"},'
    b'{"code":"ECOBANK","name":"Ecobank Zimbabwe","swiftBic":"ECOCZWHX"},'
    b'{"code":"FBC","name":"FBC Bank","swiftBic":"FBCPZWHA"},'
    b'{"code":"FCB","name":"First Capital Bank","swiftBic":"BARCZWHX"},'
    b'{"code":"METBANK","name":"Metbank","swiftBic":"METBZWHA"},'
    b'{"code":"NEDBANK","name":"Nedbank Zimbabwe","swiftBic":"MBCAZWHX"},'
    b'{"code":"NMB","name":"NMB Bank","swiftBic":"NMBLZWHA"},'
    b'{"code":"POSB","name":"People\'s Own Savings Bank","swiftBic":"POSBZWHA"},'
    b'{"code":"STANBIC","name":"Stanbic Bank Zimbabwe","swiftBic":"SBICZWHX"},'
    b'{"code":"SCB","name":"Standard Chartered Bank Zimbabwe","swiftBic":"SCBLZWHX"},'
    b'{"code":"STEWARD","name":"Steward Bank","swiftBic":"STEWZWHA"},'
    b'{"code":"ZB","name":"ZB Bank","swiftBic":"ZBCOZWHA"}]'
)


def migration_names(folder=MIGRATIONS_DIR):
    return sorted(n for n in os.listdir(folder) if n.endswith(".sql"))


def sha256_of(path):
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def run_migrate(database_url, folder=None):
    """`./corebank migrate` against database_url; the CompletedProcess."""
    env = dict(os.environ, DATABASE_URL=database_url)
    env.pop("COREBANK_MIGRATIONS_DIR", None)
    if folder is not None:
        env["COREBANK_MIGRATIONS_DIR"] = folder
    return subprocess.run([COREBANK, "migrate"], env=env, capture_output=True, text=True,
                          timeout=MIGRATE_TIMEOUT_S)


def with_dbname(url, name):
    """The libpq URL with its database replaced (keyword form or URI)."""
    if url.startswith("postgres"):
        base, _, query = url.partition("?")
        return base.rsplit("/", 1)[0] + "/" + name + ("?" + query if query else "")
    return " ".join([p for p in url.split() if not p.startswith("dbname=")] + [f"dbname={name}"])


def admin_execute(url, *statements):
    conn = psycopg2.connect(url)
    conn.set_isolation_level(psycopg2.extensions.ISOLATION_LEVEL_AUTOCOMMIT)
    try:
        with conn.cursor() as cur:
            for statement in statements:
                cur.execute(statement)
    finally:
        conn.close()


def setUpModule():
    cb.require(cb.DATABASE_URL, "CB_DATABASE_URL")
    # The service's database gets the migrations here too, so that this
    # module also runs against a database made without them (the suite's
    # databases have them already: then this applies nothing).
    done = run_migrate(cb.DATABASE_URL)
    if done.returncode != 0:
        raise AssertionError(f"./corebank migrate failed on the service's database: {done.stderr}")


class ServiceDatabaseTest(unittest.TestCase):
    """The database corebankd runs on."""

    def test_every_file_is_recorded_with_its_checksum(self):
        """Every file of migrations/ is recorded in corebank.data_migrations, in order, with its SHA-256."""
        rows = cb.db().rows("SELECT version, name, sha256 FROM corebank.data_migrations ORDER BY version")
        expected = [{"version": int(n[:4]), "name": n, "sha256": sha256_of(os.path.join(MIGRATIONS_DIR, n))}
                     for n in migration_names()]
        self.assertEqual(rows, expected)

    def test_a_second_run_applies_nothing(self):
        """Running migrate again applies nothing and says so for every file; the records do not change."""
        before = cb.db().rows("SELECT * FROM corebank.data_migrations ORDER BY version")
        done = run_migrate(cb.DATABASE_URL)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.splitlines(), [f"unchanged {n}" for n in migration_names()])
        self.assertEqual(cb.db().rows("SELECT * FROM corebank.data_migrations ORDER BY version"), before)

    def test_role_policy_in_the_database_is_the_one_the_migrations_state(self):
        """The role policy in the database is the one migrations/ states, role for role."""
        readable = cb.stated_role_policy()["roles"]
        expected = {role: {"scopes": sorted(set(d["scopes"])), "staff": d["staff"], "description": d.get("description")}
                    for role, d in readable.items()}
        rows = cb.db().rows("SELECT role, scopes, staff, description FROM corebank.auth_role_scopes")
        actual = {r["role"]: {"scopes": list(r["scopes"]), "staff": r["staff"], "description": r["description"]}
                  for r in rows}
        self.assertEqual(actual, expected)

    def test_banks_endpoint_serves_the_same_bytes_as_before(self):
        """GET /v1/platform/banks, now read from corebank.banks, serves the same bytes as the hard-coded list did."""
        C.require_core()
        resp = C.Core(key=None).get("/v1/platform/banks")
        self.assertEqual(resp.status, 200, resp)
        self.assertEqual(resp.header("Content-Type"), "application/json")
        self.assertEqual(resp.body, BANKS_BODY_BEFORE_1_6)


class RunnerTest(unittest.TestCase):
    """The runner on a throwaway database and a temporary copy of migrations/."""

    def setUp(self):
        self.dbname = f"corebank_migrate_{os.getpid()}_{uuid.uuid4().hex[:8]}"
        admin_execute(cb.DATABASE_URL, f'CREATE DATABASE "{self.dbname}"')
        self.url = with_dbname(cb.DATABASE_URL, self.dbname)
        admin_execute(self.url, "CREATE EXTENSION corebank")
        self.folder = tempfile.mkdtemp(prefix="corebank-migrations-")
        for name in migration_names():
            shutil.copy(os.path.join(MIGRATIONS_DIR, name), self.folder)
        self.db = cb.Db(self.url)

    def tearDown(self):
        conn = getattr(self.db._local, "conn", None)
        if conn is not None:
            conn.close()
        shutil.rmtree(self.folder, ignore_errors=True)
        admin_execute(cb.DATABASE_URL, f'DROP DATABASE IF EXISTS "{self.dbname}" WITH (FORCE)')

    def write(self, name, text):
        with open(os.path.join(self.folder, name), "w", encoding="utf-8") as handle:
            handle.write(text)

    def migrate(self):
        return run_migrate(self.url, self.folder)

    def migrate_ok(self):
        done = self.migrate()
        self.assertEqual(done.returncode, 0, done.stderr)
        return done

    def records(self):
        return self.db.rows("SELECT version, name, sha256, applied_at FROM corebank.data_migrations ORDER BY version")

    def assert_refused(self, done, text):
        self.assertNotEqual(done.returncode, 0, done.stdout)
        self.assertIn(text, done.stderr)

    def test_applies_every_file_once_in_version_order(self):
        """A fresh database gets every file, in version order; a second run applies nothing."""
        names = migration_names(self.folder)
        done = self.migrate_ok()
        self.assertEqual(done.stdout.splitlines(), [f"applied {n}" for n in names])
        records = self.records()
        self.assertEqual([r["name"] for r in records], names)
        self.assertEqual([r["sha256"] for r in records], [sha256_of(os.path.join(self.folder, n)) for n in names])
        self.assertEqual(self.db.scalar("SELECT corebank.core_platform_banks()::text::jsonb = %s::jsonb",
                                        (BANKS_BODY_BEFORE_1_6.decode(),)), True)
        self.assertEqual(self.db.scalar("SELECT count(*) FROM corebank.auth_role_scopes"), 7)
        again = self.migrate_ok()
        self.assertEqual(again.stdout.splitlines(), [f"unchanged {n}" for n in names])
        self.assertEqual(self.records(), records)

    def test_the_first_migrations_change_nothing_the_extension_seeded(self):
        """0001 and 0002 state the seeded chart and products: applying them inserts no row."""
        counts = ("SELECT (SELECT count(*) FROM corebank.gl_accounts) AS gl_accounts,"
                  " (SELECT count(*) FROM corebank.deposit_products) AS products,"
                  " (SELECT count(*) FROM corebank.deposit_product_tiers) AS tiers")
        before = self.db.rows(counts)
        self.migrate_ok()
        self.assertEqual(self.db.rows(counts), before)

    def test_an_edited_applied_file_is_refused(self):
        """An applied file that changed stops the run with a message naming it; later files are not applied."""
        self.migrate_ok()
        before = self.records()
        with open(os.path.join(self.folder, "0003_banks.sql"), "a", encoding="utf-8") as handle:
            handle.write("INSERT INTO corebank.banks (code, name, swift_bic) VALUES ('NEWBANK', 'New Bank', 'NEWBZWHA');\n")
        self.write("0099_after.sql", "INSERT INTO corebank.banks (code, name, swift_bic) VALUES ('LATER', 'Later Bank', 'LATRZWHA');\n")
        done = self.migrate()
        self.assert_refused(done, "migration 0003_banks.sql has changed since it was applied")
        self.assertEqual(self.records(), before)
        self.assertEqual(self.db.scalar("SELECT count(*) FROM corebank.banks WHERE code IN ('NEWBANK', 'LATER')"), 0)

    def test_a_removed_applied_file_is_refused(self):
        """An applied migration missing from the folder is refused, by name."""
        self.migrate_ok()
        os.remove(os.path.join(self.folder, "0004_role_policy.sql"))
        done = self.migrate()
        self.assert_refused(done, "migration 0004_role_policy.sql was applied to this database but is missing")

    def test_a_new_file_below_the_latest_applied_is_refused(self):
        """Migrations apply in order: a new file numbered below an applied one is refused."""
        self.write("0010_later.sql", "SELECT 1;\n")
        self.migrate_ok()
        self.write("0005_between.sql", "SELECT 1;\n")
        done = self.migrate()
        self.assert_refused(done, "migration 0005_between.sql is older than 0010_later.sql")
        self.assertEqual(self.db.scalar("SELECT count(*) FROM corebank.data_migrations WHERE version = 5"), 0)

    def test_a_failing_file_leaves_neither_data_nor_record(self):
        """A file that fails rolls back with its record; once fixed (it was never applied) it applies."""
        self.migrate_ok()
        self.write("0005_broken.sql",
                   "INSERT INTO corebank.banks (code, name, swift_bic) VALUES ('BROKEN', 'Broken Bank', 'BRKNZWHA');\n"
                   "SELECT 1 / 0;\n")
        done = self.migrate()
        self.assert_refused(done, "division by zero")
        self.assertIn("0005_broken.sql", done.stderr)
        self.assertEqual(self.db.scalar("SELECT count(*) FROM corebank.data_migrations WHERE version = 5"), 0)
        self.assertEqual(self.db.scalar("SELECT count(*) FROM corebank.banks WHERE code = 'BROKEN'"), 0)
        self.write("0005_broken.sql",
                   "INSERT INTO corebank.banks (code, name, swift_bic) VALUES ('BROKEN', 'Broken Bank', 'BRKNZWHA');\n")
        done = self.migrate_ok()
        self.assertEqual(done.stdout.splitlines()[-1], "applied 0005_broken.sql")
        self.assertEqual(self.db.scalar("SELECT count(*) FROM corebank.banks WHERE code = 'BROKEN'"), 1)

    def test_a_misnamed_file_is_refused_before_anything_runs(self):
        """A .sql file not named NNNN_name.sql is refused, by name, and nothing is applied."""
        self.write("gl-extra.sql", "SELECT 1;\n")
        done = self.migrate()
        self.assert_refused(done, "gl-extra.sql: a migration is named NNNN_name.sql")
        self.assertEqual(self.records(), [])

    def test_two_runners_at_once_apply_each_file_once(self):
        """Two runners started together: each file is applied by exactly one of them, and both succeed."""
        env = dict(os.environ, DATABASE_URL=self.url, COREBANK_MIGRATIONS_DIR=self.folder)
        runners = [subprocess.Popen([COREBANK, "migrate"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True) for _ in range(2)]
        outputs = [r.communicate(timeout=MIGRATE_TIMEOUT_S) for r in runners]
        for runner, (_, err) in zip(runners, outputs):
            self.assertEqual(runner.returncode, 0, err)
        applied = sorted(line.split(" ", 1)[1] for out, _ in outputs for line in out.splitlines()
                         if line.startswith("applied "))
        self.assertEqual(applied, migration_names(self.folder))
        self.assertEqual(len(self.records()), len(migration_names(self.folder)))


if __name__ == "__main__":
    unittest.main()
