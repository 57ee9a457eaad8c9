"""Split a plain script into a release template plus object snapshots.

Every CREATE of a function, procedure, aggregate, view, type or domain,
with the '--' comment lines directly above it (its doc comment, up to a bare
'--' line or a '-- ==' section marker), moves to
sql/<domain>/<object>/<version>.sql and leaves one include line behind;
latest.sql becomes the newest snapshot. A DROP of a known object moves too
when the script does not create that object again (latest.sql then says the
object is gone); a DROP before a re-CREATE is upgrade mechanics and stays.
The split is refused unless the template assembles back to the very same
bytes.
"""

from dataclasses import dataclass, field
from pathlib import Path

from .assemble import expand_text
from .domains import domain_of
from .layout import INCLUDE, LATEST, TEMPLATE_SUFFIX, Tree, object_index, object_statements, \
    script_versions, sha256, snapshots, version_key
from .objects import ObjectStatement, classify
from .scanner import statements

class SplitError(ValueError):
    """The script cannot be split as it is; the message says why and where."""


@dataclass
class Piece:
    """One run of text that moves to a snapshot: doc comments and statements of one object."""
    start: int
    end: int
    key: tuple[str, str]
    found: list[ObjectStatement] = field(default_factory=list)


@dataclass
class Plan:
    template: Path
    template_text: str
    files: dict[Path, bytes]   # snapshots and latest.sql files to write
    warnings: list[str]
    original: bytes


def _line_of(script: str, offset: int) -> int:
    return script.count("\n", 0, offset) + 1


def _is_doc_comment_line(line: str) -> bool:
    """A '--' line that belongs to the statement below it.

    A bare '--' (a paragraph break) or a '-- ==' section marker ends the
    doc comment: what is above it introduces the section, not the object.
    """
    text = line.rstrip("\r\n")
    return text.startswith("--") and text.rstrip() != "--" and not text.startswith("-- ==")


def _span(script: str, found: ObjectStatement, name: str) -> tuple[int, int]:
    """The statement's lines, widened upward over its doc comment."""
    statement = found.statement
    line_start = script.rfind("\n", 0, statement.start) + 1
    where = f"{name}:{_line_of(script, statement.start)}"
    if script[line_start:statement.start].strip():
        raise SplitError(f"{where}: {found.name} does not open its line")
    newline = script.find("\n", statement.end)
    if newline < 0 or script[statement.end:newline].strip():
        raise SplitError(f"{where}: {found.name}: text follows its ';' on the same line, or no newline ends it")
    start = line_start
    while found.action == "CREATE" and start > 0:
        previous = script.rfind("\n", 0, start - 1) + 1
        if not _is_doc_comment_line(script[previous:start]):
            break
        start = previous
    return start, newline + 1


def _warn_shared_comments(script: str, name: str, pieces: list[Piece], warnings: list[str]) -> None:
    """A doc comment above a run of definitions with no blank line between them
    may speak of the whole run, yet it moves with the first one only."""
    for first, second in zip(pieces, pieces[1:]):
        has_comment = first.start < first.found[0].statement.start and script[first.start:first.start + 2] == "--"
        if has_comment and first.end == second.start and not script[second.start:second.start + 2] == "--":
            warnings.append(f"{name}:{_line_of(script, first.start)}: the comment above {first.key[1]} moves "
                            f"into its snapshot; if it describes the statements below too, put a blank line "
                            f"under it")


def _pieces(script: str, name: str, index: dict, warnings: list[str]) -> list[Piece]:
    found = [item for item in map(classify, statements(script)) if item is not None]
    created = {item.qualified for item in found if item.action == "CREATE"}
    pieces: list[Piece] = []
    for item in found:
        if item.action == "ALTER":
            if item.qualified in index or item.qualified in created:
                warnings.append(f"{name}:{_line_of(script, item.statement.start)}: ALTER {item.kind} "
                                f"{item.schema}.{item.name} stays in the template; its latest.sql does not show it")
            continue
        if item.action == "DROP" and (item.qualified in created or item.qualified not in index):
            continue
        start, end = _span(script, item, name)
        previous = pieces[-1] if pieces else None
        if previous and previous.key == item.qualified and not script[previous.end:start].strip():
            previous.end = end
            previous.found.append(item)
        else:
            pieces.append(Piece(start, end, item.qualified, [item]))
    _warn_shared_comments(script, name, pieces, warnings)
    seen = set()
    for piece in pieces:
        if piece.key in seen:
            raise SplitError(f"{name}:{_line_of(script, piece.start)}: {piece.key[0]}.{piece.key[1]} is defined "
                             "in two places; put all its statements (overloads) together")
        seen.add(piece.key)
    return pieces


def _folder(tree: Tree, key: tuple[str, str], version: str, index: dict, overrides: dict, taken: set) -> Path:
    if key in index:
        return index[key]
    schema, name = key
    domain = domain_of(name, version, overrides)
    if domain is None:
        raise SplitError(f"{schema}.{name}: no domain rule places it; pass --domain {name}=<domain> "
                         "or add a prefix to sql/tools/sqlsource/domains.py")
    folder_name = name if name not in taken else f"{schema}.{name}"
    taken.add(folder_name)
    return tree.root / domain / folder_name


def _check_overloads(folder: Path, piece: Piece, warnings: list[str]) -> None:
    latest = folder / LATEST
    if not latest.exists():
        return
    before = {item.signature for item in object_statements(latest) if item.action == "CREATE"}
    after = {item.signature for item in piece.found if item.action == "CREATE"}
    if after and before - after:
        warnings.append(f"{folder.name}: this release redefines {sorted(after)} but not {sorted(before - after)}; "
                        f"{LATEST} now holds only what this release ships: add the other overloads to it")


def plan_split(tree: Tree, script_path: Path, overrides: dict[str, str]) -> Plan:
    """Everything a split would write, checked to assemble back to the script's bytes."""
    original = script_path.read_bytes()
    script = original.decode("utf-8")
    version, _ = script_versions(script_path.name)
    template = tree.releases / (script_path.name + TEMPLATE_SUFFIX[len(".sql"):])
    if template.exists():
        raise SplitError(f"{template} exists already")
    if INCLUDE.search(script):
        raise SplitError(f"{script_path.name}: has a line that reads as an include; rename it first")
    index = object_index(tree)
    warnings: list[str] = []
    pieces = _pieces(script, script_path.name, index, warnings)
    taken = {folder.name for folder in tree.object_dirs()}
    files: dict[Path, bytes] = {}
    parts = []
    position = 0
    for piece in pieces:
        folder = _folder(tree, piece.key, version, index, overrides, taken)
        _check_overloads(folder, piece, warnings)
        snapshot = folder / f"{version}.sql"
        text = script[piece.start:piece.end].encode("utf-8")
        if snapshot.exists() and snapshot.read_bytes() != text:
            raise SplitError(f"{snapshot} exists with other text")
        files[snapshot] = text
        newest = max(snapshots(folder) + [snapshot], key=lambda path: version_key(path.stem))
        files[folder / LATEST] = text if newest == snapshot else newest.read_bytes()
        parts.append(script[position:piece.start])
        parts.append(f'#include "{snapshot.relative_to(tree.root).as_posix()}"\n')
        position = piece.end
    parts.append(script[position:])
    template_text = "".join(parts)
    if expand_text(tree, template_text, template.name, files) != original:
        raise SplitError(f"{script_path.name}: the template would not assemble to the same bytes")
    return Plan(template, template_text, files, warnings, original)


def write_plan(plan: Plan) -> None:
    for path, data in plan.files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
    plan.template.parent.mkdir(parents=True, exist_ok=True)
    plan.template.write_bytes(plan.template_text.encode("utf-8"))


def record_sum(tree: Tree, name: str, data: bytes) -> None:
    """Record a shipped script's sha256; a recorded sum is never replaced."""
    sums = tree.read_sums()
    digest = sha256(data)
    if sums.get(name, digest) != digest:
        raise SplitError(f"{name}: SHA256SUMS records another sum; a shipped script never changes")
    sums[name] = digest
    tree.write_sums(sums)
