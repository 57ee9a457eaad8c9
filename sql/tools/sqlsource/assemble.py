"""The include expander: a template's bytes with every include line replaced.

A line that is exactly  #include "<path>"  (path relative to sql/) is
replaced, terminator included, by the bytes of that file; every other byte
is copied as it is. Included files are not expanded again (a snapshot is
plain SQL, and PL/pgSQL has '#' lines of its own, like #variable_conflict).
Not cpp: the C preprocessor tokenises its input, so it would read "--",
quotes and apostrophes in comments, and '#' lines in bodies, as C.
"""

from pathlib import Path, PurePosixPath

from .layout import INCLUDE, LATEST, Tree, is_version


class AssembleError(ValueError):
    """An include names a missing or forbidden file."""


def include_problem(tree: Tree, relative: str) -> str | None:
    """Why an include path is not allowed, or None when it names a snapshot that exists."""
    path = PurePosixPath(relative)
    if path.is_absolute() or ".." in path.parts or len(path.parts) != 3:
        return f'#include "{relative}": must be <domain>/<object>/<version>.sql under sql/'
    if path.name == LATEST or not is_version(path.stem) or path.suffix != ".sql":
        return f'#include "{relative}": a template includes a frozen <version>.sql, never {LATEST}'
    if not (tree.root / path).is_file():
        return f'#include "{relative}": no such file'
    return None


def includes(template_text: str) -> list[str]:
    return [match.group(1) for match in INCLUDE.finditer(template_text)]


def expand_text(tree: Tree, text: str, name: str, pending: dict[Path, bytes] | None = None) -> bytes:
    """The assembled bytes of a template's text; `pending` holds files not yet written."""
    pending = pending or {}
    parts = []
    position = 0
    for match in INCLUDE.finditer(text):
        path = tree.root / match.group(1)
        problem = None if path in pending else include_problem(tree, match.group(1))
        if problem:
            raise AssembleError(f"{name}: {problem}")
        parts.append(text[position:match.start()].encode("utf-8"))
        parts.append(pending[path] if path in pending else path.read_bytes())
        position = match.end()
    parts.append(text[position:].encode("utf-8"))
    return b"".join(parts)


def expand(tree: Tree, template: Path) -> bytes:
    """The assembled script of a template, byte for byte."""
    return expand_text(tree, template.read_bytes().decode("utf-8"), template.name)


def output_name(template: Path) -> str:
    return template.name[:-len(".in")]
