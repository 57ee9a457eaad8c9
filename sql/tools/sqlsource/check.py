"""The layout check that ./corebank test runs (its row "sql sources").

It fails when:
  - a shipped script, assembled, no longer has the sha256 in SHA256SUMS
    (or a template past the release in development has none recorded);
  - an include names a missing file, latest.sql, or a path outside a folder;
  - an object folder has no latest.sql, or latest.sql differs from the
    newest <version>.sql next to it;
  - a folder holds stray files, a snapshot defines another object than its
    folder's, or one object has two folders;
  - a snapshot is included by no template, or a template's output has the
    name of a plain script too.
"""

import difflib
from pathlib import Path

from .assemble import AssembleError, expand, include_problem, includes, output_name
from .domains import DOMAINS
from .layout import INCLUDE, LATEST, Tree, is_version, object_statements, script_versions, sha256, snapshots
from .scanner import ScanError


class Report:
    def __init__(self) -> None:
        self.passed = 0
        self.failures: list[str] = []

    def expect(self, condition: bool, failure: str) -> bool:
        if condition:
            self.passed += 1
        else:
            self.failures.append(failure)
        return condition


def _diff(latest: Path, newest: Path) -> str:
    lines = difflib.unified_diff(newest.read_text(encoding="utf-8").splitlines(),
                                 latest.read_text(encoding="utf-8").splitlines(),
                                 str(newest), str(latest), lineterm="", n=1)
    return "\n".join(list(lines)[:40])


def _check_snapshot(tree: Tree, folder: Path, snapshot: Path, owners: dict, report: Report) -> None:
    where = snapshot.relative_to(tree.root)
    data = snapshot.read_bytes()
    report.expect(data.endswith(b"\n"), f"{where}: does not end with a newline")
    report.expect(not INCLUDE.search(data.decode("utf-8")), f"{where}: holds an include line (not expanded)")
    try:
        found = object_statements(snapshot)
    except ScanError as error:
        report.expect(False, f"{where}: {error}")
        return
    if not report.expect(any(item.action in ("CREATE", "DROP") for item in found),
                         f"{where}: creates or drops no function, view or type"):
        return
    for item in found:
        report.expect(folder.name in (item.name, f"{item.schema}.{item.name}"),
                      f"{where}: defines {item.schema}.{item.name}, not the object its folder names")
        owner = owners.setdefault(item.qualified, folder)
        report.expect(owner == folder, f"{item.schema}.{item.name}: two folders, {owner.relative_to(tree.root)} "
                                       f"and {folder.relative_to(tree.root)}")


def check_objects(tree: Tree, report: Report) -> set[Path]:
    """The object folders; returns every versioned snapshot found."""
    owners: dict = {}
    found: set[Path] = set()
    for folder in tree.object_dirs():
        where = folder.relative_to(tree.root)
        report.expect(folder.parent.name in DOMAINS,
                      f"{where}: {folder.parent.name} is not a domain of sql/tools/sqlsource/domains.py")
        stray = [path.name for path in folder.iterdir()
                 if path.name != LATEST and not (path.suffix == ".sql" and is_version(path.stem))]
        report.expect(not stray, f"{where}: files that are neither {LATEST} nor <version>.sql: {stray}")
        versioned = snapshots(folder)
        latest = folder / LATEST
        if not report.expect(latest.is_file(), f"{where}: has no {LATEST}"):
            continue
        if not report.expect(bool(versioned), f"{where}: has no <version>.sql snapshot"):
            continue
        newest = versioned[-1]
        report.expect(latest.read_bytes() == newest.read_bytes(),
                      f"{where}: {LATEST} differs from {newest.name}:\n{_diff(latest, newest)}")
        for snapshot in versioned:
            _check_snapshot(tree, folder, snapshot, owners, report)
            found.add(snapshot)
    return found


def check_templates(tree: Tree, found: set[Path], report: Report) -> None:
    included: set[Path] = set()
    plain = {path.name for path in tree.plain_scripts()}
    for template in tree.templates():
        for relative in includes(template.read_bytes().decode("utf-8")):
            problem = include_problem(tree, relative)
            report.expect(problem is None, f"{template.name}: {problem}")
            included.add(tree.root / relative)
        report.expect(output_name(template) not in plain,
                      f"{template.name}: sql/{output_name(template)} exists too; the two would install as one")
    for snapshot in sorted(found - included):
        report.expect(False, f"{snapshot.relative_to(tree.root)}: no template includes it")


def _shipped_bytes(tree: Tree, name: str) -> bytes | None:
    template = tree.releases / (name + ".in")
    if template.is_file():
        return expand(tree, template)
    plain = tree.root / name
    return plain.read_bytes() if plain.is_file() else None


def check_shipped(tree: Tree, report: Report) -> None:
    sums = tree.read_sums()
    for name, recorded in sums.items():
        try:
            data = _shipped_bytes(tree, name)
        except AssembleError as error:
            report.expect(False, str(error))
            continue
        if not report.expect(data is not None, f"{name}: recorded in SHA256SUMS, but neither its template nor "
                                               "the plain script exists"):
            continue
        report.expect(sha256(data) == recorded,
                      f"{name}: assembled sha256 {sha256(data)} differs from the shipped {recorded}; a released "
                      "script never changes (git diff sql/ shows which snapshot or template moved)")
    developing = tree.default_version()
    for template in tree.templates():
        name = output_name(template)
        if name in sums:
            continue
        target, _ = script_versions(name)
        report.expect(target == developing, f"{name}: version {target} is released (the control file says "
                                            f"{developing}) but its sha256 is not recorded: run sqlsrc.py freeze")


def run_check(tree: Tree) -> Report:
    report = Report()
    found = check_objects(tree, report)
    check_templates(tree, found, report)
    check_shipped(tree, report)
    return report
