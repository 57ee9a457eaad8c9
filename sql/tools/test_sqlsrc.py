#!/usr/bin/env python3
"""Tests of sqlsrc (docs/design/sql-layout.md), run by `./corebank test`.

Goal: the lead converts the next release with `sqlsrc.py split`, and the
build trusts `assemble` to reproduce shipped bytes, so both are tested on
scripts made to be hard: ';' inside bodies, strings, identifiers and
comments, overloads, drops, section headers. Method: a throwaway sql/ tree
per test, the tool's own functions, and the bytes compared.
"""

import sys
import tempfile
import unittest
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sqlsource.assemble import AssembleError, expand  # noqa: E402
from sqlsource.check import run_check  # noqa: E402
from sqlsource.layout import Tree  # noqa: E402
from sqlsource.scanner import statements  # noqa: E402
from sqlsource.split import SplitError, plan_split, record_sum, write_plan  # noqa: E402

HEADER = '/* sql/corebank--1.0.sql */\n\n\\echo Use "CREATE EXTENSION corebank" to load this file. \\quit\n\n'

RELEASE_1_0 = HEADER + """-- == section: tables ==
--
-- Why the section exists.

CREATE TABLE corebank.t (id int);

-- The first overload; its ';' inside the body is not an end.
CREATE FUNCTION corebank.ledger_echo(a int) RETURNS int
    LANGUAGE sql IMMUTABLE
    AS $fn$ SELECT a; -- a comment with $x$ and ';'
$fn$;

-- The second overload, with an E'' string and a quoted ";".
CREATE FUNCTION corebank.ledger_echo(a text) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $$ SELECT E'\\'; ' || a AS "x;y" $$;
COMMENT ON FUNCTION corebank.ledger_echo(text) IS E'stays in the template; it\\'s; ok';

/* a block comment; /* nested; */ still a comment */
CREATE VIEW corebank.ledger_view AS SELECT 1 AS one;

CREATE FUNCTION corebank_internal.auth_old() RETURNS int LANGUAGE sql AS 'SELECT 1';
"""

RELEASE_1_1 = HEADER.replace("1.0.sql", "1.0--1.1.sql") + """-- == section: changes ==
-- Section text that is not the function's.
--
-- Now returns the argument plus one.
CREATE OR REPLACE FUNCTION corebank.ledger_echo(a int) RETURNS int
    LANGUAGE sql IMMUTABLE
    AS $fn$ SELECT a + 1 $fn$;
CREATE OR REPLACE FUNCTION corebank.ledger_echo(a text) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $fn$ SELECT a $fn$;

-- auth_old is gone.
DROP FUNCTION corebank_internal.auth_old();

DROP VIEW corebank.ledger_view;
CREATE VIEW corebank.ledger_view AS SELECT 2 AS two;
ALTER FUNCTION corebank.ledger_echo(int) SET search_path = pg_catalog;
"""


class SqlsrcTest(unittest.TestCase):
    def setUp(self) -> None:
        self.directory = tempfile.TemporaryDirectory()
        self.root = Path(self.directory.name)
        (self.root / "sql").mkdir()
        (self.root / "extension").mkdir()
        (self.root / "extension" / "corebank.control").write_text("default_version = '1.1'\n")
        self.tree = Tree(self.root / "sql")

    def tearDown(self) -> None:
        self.directory.cleanup()

    def split(self, name: str, text: str, freeze: bool = True) -> list[str]:
        script = self.tree.root / name
        script.write_bytes(text.encode("utf-8"))
        plan = plan_split(self.tree, script, {})
        write_plan(plan)
        if freeze:
            record_sum(self.tree, name, plan.original)
        script.unlink()
        return plan.warnings

    def read(self, relative: str) -> str:
        return (self.tree.root / relative).read_text(encoding="utf-8")

    def test_scanner_finds_statement_ends_outside_quotes_and_bodies(self) -> None:
        found = statements(RELEASE_1_0)
        self.assertEqual([item.text.split()[0] for item in found],
                         ["\\echo", "CREATE", "CREATE", "CREATE", "COMMENT", "CREATE", "CREATE"])
        self.assertTrue(found[2].text.endswith("$fn$;"))
        self.assertIn('"x;y"', found[3].text)

    def test_split_assembles_to_the_same_bytes(self) -> None:
        self.split("corebank--1.0.sql", RELEASE_1_0)
        self.assertEqual(expand(self.tree, self.tree.releases / "corebank--1.0.sql.in"),
                         RELEASE_1_0.encode("utf-8"))
        overloads = self.read("ledger/ledger_echo/1.0.sql")
        self.assertTrue(overloads.startswith("-- The first overload"))
        self.assertIn("(a text)", overloads)
        self.assertEqual(overloads, self.read("ledger/ledger_echo/latest.sql"))
        self.assertIn("CREATE TABLE corebank.t", self.read("releases/corebank--1.0.sql.in"))
        self.assertIn("COMMENT ON FUNCTION", self.read("releases/corebank--1.0.sql.in"))

    def test_next_release_updates_latest_and_keeps_older_snapshots(self) -> None:
        self.split("corebank--1.0.sql", RELEASE_1_0)
        warnings = self.split("corebank--1.0--1.1.sql", RELEASE_1_1)
        latest = self.read("ledger/ledger_echo/latest.sql")
        self.assertTrue(latest.startswith("-- Now returns the argument plus one."), latest)
        self.assertNotIn("Section text", latest)
        self.assertIn("SELECT a + 1", latest)
        self.assertIn("SELECT a; --", self.read("ledger/ledger_echo/1.0.sql"))
        self.assertEqual(self.read("auth/auth_old/latest.sql"), "DROP FUNCTION corebank_internal.auth_old();\n")
        template = self.read("releases/corebank--1.0--1.1.sql.in")
        self.assertIn("DROP VIEW corebank.ledger_view;", template)  # before its re-CREATE: stays
        self.assertIn("-- auth_old is gone.\n#include", template)
        self.assertEqual(len(warnings), 1)
        self.assertIn("ALTER FUNCTION", warnings[0])
        report = run_check(self.tree)
        self.assertEqual(report.failures, [])

    def test_check_fails_on_a_changed_release_and_a_drifting_latest(self) -> None:
        self.split("corebank--1.0.sql", RELEASE_1_0)
        self.split("corebank--1.0--1.1.sql", RELEASE_1_1)
        snapshot = self.tree.root / "ledger/ledger_echo/1.0.sql"
        snapshot.write_text(snapshot.read_text() + "-- edited\n")
        (self.tree.root / "ledger/ledger_view/latest.sql").write_text("CREATE VIEW corebank.ledger_view AS SELECT 3;\n")
        failures = "\n".join(run_check(self.tree).failures)
        self.assertIn("corebank--1.0.sql: assembled sha256", failures)
        self.assertIn("ledger/ledger_view: latest.sql differs from 1.1.sql", failures)

    def test_check_fails_on_a_missing_include_and_a_missing_latest(self) -> None:
        self.split("corebank--1.0.sql", RELEASE_1_0)
        (self.tree.root / "ledger/ledger_view/1.0.sql").unlink()
        (self.tree.root / "ledger/ledger_echo/latest.sql").unlink()
        failures = "\n".join(run_check(self.tree).failures)
        self.assertIn('#include "ledger/ledger_view/1.0.sql": no such file', failures)
        self.assertIn("ledger/ledger_echo: has no latest.sql", failures)
        with self.assertRaises(AssembleError):
            expand(self.tree, self.tree.releases / "corebank--1.0.sql.in")

    def test_released_template_without_a_recorded_sum_fails(self) -> None:
        self.split("corebank--1.0.sql", RELEASE_1_0, freeze=False)
        failures = "\n".join(run_check(self.tree).failures)
        self.assertIn("corebank--1.0.sql: version 1.0 is released", failures)

    def test_a_comment_above_a_run_of_definitions_is_flagged(self) -> None:
        run = HEADER + ("-- The limits below, read from C++.\n"
                        "CREATE FUNCTION corebank_internal.limit_a() RETURNS int LANGUAGE sql AS 'SELECT 1';\n"
                        "CREATE FUNCTION corebank_internal.limit_b() RETURNS int LANGUAGE sql AS 'SELECT 2';\n")
        warnings = self.split("corebank--1.0.sql", run)
        self.assertEqual(len(warnings), 1)
        self.assertIn("the comment above limit_a", warnings[0])
        self.assertTrue(self.read("platform/limit_a/1.0.sql").startswith("-- The limits below"))

    def test_split_refuses_what_it_cannot_place(self) -> None:
        with self.assertRaisesRegex(SplitError, "no domain rule places it"):  # 1.5 mixed domains
            self.split("corebank--1.4--1.5.sql", HEADER + "CREATE FUNCTION corebank.mystery() RETURNS int "
                                                     "LANGUAGE sql AS 'SELECT 1';\n")
        apart = HEADER + ("CREATE FUNCTION corebank.ledger_a(int) RETURNS int LANGUAGE sql AS 'SELECT 1';\n"
                          "CREATE TABLE corebank.u (id int);\n"
                          "CREATE FUNCTION corebank.ledger_a(text) RETURNS int LANGUAGE sql AS 'SELECT 1';\n")
        with self.assertRaisesRegex(SplitError, "defined in two places"):
            self.split("corebank--1.0.sql", apart)


if __name__ == "__main__":
    unittest.main()
