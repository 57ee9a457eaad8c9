"""The README's first core banking session runs as it is written.

Goal: the `curl` lines a newcomer copies from README.md work: a key, a teller,
a customer with two accounts, a deposit, a transfer and the statement.
Method: take the fenced `sh` block of README.md that posts to
`$CORE/v1/transfers` and run it, byte for byte, with bash. Only the block's
own variables point it at the suite's servers: CORE, IDENTITY, a unique
EMAIL, and CLI, a two-line wrapper that turns `./corebank`'s two-word
commands (`key create`) into corebankd's (`key-create`, $CB_CLI), as
`./corebank` itself does. Then check what it printed: the teller's id, the
two postings (POSTED, the teller as operator) and a statement that shows the
deposit and the transfer with the closing balance they leave.
"""
import json
import os
import re
import stat
import subprocess
import tempfile
import unittest

import cbclient as cb
import corebanking as C

FENCE = re.compile(r"^```sh\n(.*?)^```$", re.MULTILINE | re.DOTALL)
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

# ./corebank dispatches `NOUN VERB` to `corebankd NOUN-VERB` (two_word in the script).
CLI_WRAPPER = """#!/usr/bin/env bash
noun=$1 verb=$2; shift 2
exec "$CB_CLI" "$noun-$verb" "$@"
"""


def setUpModule():
    C.require_core()


def readme_core_session():
    with open(os.path.join(cb.ROOT, "README.md"), encoding="utf-8") as readme:
        blocks = [b for b in FENCE.findall(readme.read()) if "$CORE/v1/transfers" in b]
    if len(blocks) != 1:
        raise AssertionError(f"README.md has {len(blocks)} sh blocks posting to $CORE/v1/transfers, not one")
    return blocks[0]


class ReadmeSessionTest(unittest.TestCase):
    def test_the_readme_core_banking_session(self):
        """README.md's core banking block runs as written and its statement shows the deposit and the transfer."""
        block = readme_core_session()
        with tempfile.TemporaryDirectory() as scratch:
            cli = os.path.join(scratch, "corebank")
            with open(cli, "w", encoding="utf-8") as wrapper:
                wrapper.write(CLI_WRAPPER)
            os.chmod(cli, stat.S_IRWXU)
            email = cb.unique_email("readme-teller")
            env = dict(os.environ, CORE=C.CORE_URL, IDENTITY=C.ID_URL, CLI=cli, EMAIL=email,
                       CB_CLI=cb.CLI, DATABASE_URL=cb.DATABASE_URL)
            done = subprocess.run(["bash", "-euo", "pipefail", "-c", block], env=env, cwd=scratch,
                                  capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, f"the block failed:\n{done.stdout}\n{done.stderr}")
        lines = done.stdout.strip().splitlines()

        teller_id = cb.db().scalar("SELECT id::text FROM corebank.auth_users WHERE email = %s", (email,))
        self.assertIsNotNone(teller_id, "staff create made no user")
        self.assertIn(teller_id, UUID.findall(lines[0]), "staff create did not print the teller's id")

        deposit, transfer, statement = (json.loads(line) for line in lines[-3:])
        for posting, type_ in ((deposit, "DEPOSIT"), (transfer, "TRANSFER")):
            with self.subTest(posting=type_):
                self.assertEqual((posting["type"], posting["status"]), (type_, "POSTED"), posting)
                self.assertEqual(posting["operatorId"], teller_id)
        self.assertEqual([(l["type"], l["side"], l["amountMinor"]) for l in statement["lines"]],
                         [("DEPOSIT", "CREDIT", 10_000), ("TRANSFER", "DEBIT", 2_500)])
        self.assertEqual([l["transactionId"] for l in statement["lines"]], [deposit["id"], transfer["id"]])
        self.assertEqual((statement["openingBalanceMinor"], statement["closingBalanceMinor"]), (0, 7_500))
        self.assertEqual(statement["closingBalance"], "75.00")


if __name__ == "__main__":
    unittest.main()
