#!/usr/bin/env python3
"""sqlsrc: corebank's SQL sources by domain (docs/design/sql-layout.md).

  sqlsrc.py assemble --out-dir DIR TEMPLATE...   build: write the assembled scripts, refusing any
                                                 whose sha256 differs from SHA256SUMS
  sqlsrc.py check                                ./corebank test: the layout and the shipped sums
  sqlsrc.py split SCRIPT [--freeze]              a plain script -> template + snapshots + latest.sql
  sqlsrc.py freeze NAME                          record the sha256 of a release as it ships
"""

import argparse
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sqlsource.assemble import AssembleError, expand, output_name  # noqa: E402
from sqlsource.check import run_check  # noqa: E402
from sqlsource.layout import Tree, sha256  # noqa: E402
from sqlsource.split import SplitError, plan_split, record_sum, write_plan  # noqa: E402

SQL_DIR = Path(__file__).resolve().parent.parent


def command_assemble(tree: Tree, arguments: argparse.Namespace) -> int:
    sums = tree.read_sums()
    arguments.out_dir.mkdir(parents=True, exist_ok=True)
    for template in arguments.templates:
        name = output_name(template)
        data = expand(tree, template)
        if name in sums and sha256(data) != sums[name]:
            print(f"sqlsrc: {name} assembles to sha256 {sha256(data)}, but it shipped as {sums[name]} "
                  f"(sql/releases/SHA256SUMS): a released script never changes", file=sys.stderr)
            return 1
        # Written even when unchanged: the build compares its timestamp with the inputs'.
        (arguments.out_dir / name).write_bytes(data)
    return 0


def command_check(tree: Tree, _: argparse.Namespace) -> int:
    report = run_check(tree)
    for failure in report.failures:
        print(f"FAIL {failure}")
    print(f"sqlsrc check: {report.passed} passed, {len(report.failures)} failed")
    return 1 if report.failures else 0


def command_split(tree: Tree, arguments: argparse.Namespace) -> int:
    overrides = dict(item.split("=", 1) for item in arguments.domain)
    script = arguments.script.resolve()
    plan = plan_split(tree, script, overrides)
    for warning in plan.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    snapshots = [path for path in plan.files if path.name != "latest.sql"]
    print(f"{script.name}: {len(snapshots)} snapshots, template {plan.template.relative_to(tree.root)}")
    if arguments.dry_run:
        for path in sorted(snapshots):
            print(f"  {path.relative_to(tree.root)}")
        return 0
    write_plan(plan)
    if arguments.freeze:
        record_sum(tree, script.name, plan.original)
    if script.parent == tree.root and not arguments.keep_plain:
        script.unlink()
        print(f"removed {script.name}: the template assembles to the same bytes")
    return 0


def command_freeze(tree: Tree, arguments: argparse.Namespace) -> int:
    template = tree.releases / (arguments.name + ".in")
    record_sum(tree, arguments.name, expand(tree, template))
    print(f"recorded {arguments.name} in {tree.sums_path.relative_to(tree.root)}")
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    top.add_argument("--sql-dir", type=Path, default=SQL_DIR, help="the sql/ directory (default: this checkout's)")
    commands = top.add_subparsers(dest="command", required=True)
    assemble = commands.add_parser("assemble", help="write assembled scripts")
    assemble.add_argument("--out-dir", type=Path, required=True)
    assemble.add_argument("templates", type=Path, nargs="+")
    assemble.set_defaults(run=command_assemble)
    commands.add_parser("check", help="check the layout and the shipped sums").set_defaults(run=command_check)
    split = commands.add_parser("split", help="split a plain script into template and snapshots")
    split.add_argument("script", type=Path)
    split.add_argument("--domain", action="append", default=[], metavar="NAME=DOMAIN",
                       help="the domain of a new object no rule places (repeatable)")
    split.add_argument("--freeze", action="store_true", help="also record its sha256: the release ships")
    split.add_argument("--keep-plain", action="store_true", help="do not delete the plain script")
    split.add_argument("--dry-run", action="store_true", help="print what would be written")
    split.set_defaults(run=command_split)
    freeze = commands.add_parser("freeze", help="record a template's assembled sha256 in SHA256SUMS")
    freeze.add_argument("name", help="e.g. corebank--1.5--1.6.sql")
    freeze.set_defaults(run=command_freeze)
    return top


def main() -> int:
    arguments = parser().parse_args()
    tree = Tree(arguments.sql_dir.resolve())
    try:
        return arguments.run(tree, arguments)
    except (AssembleError, SplitError, ValueError, OSError) as error:
        print(f"sqlsrc: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
