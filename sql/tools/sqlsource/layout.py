"""Where things are under sql/ and how their names read.

  sql/corebank--*.sql                   plain scripts, installed as they are
  sql/releases/corebank--*.sql.in       templates of the assembled scripts
  sql/releases/SHA256SUMS               sha256 of every shipped assembled script
  sql/<domain>/<object>/<version>.sql   a snapshot: the object as release <version> shipped it
  sql/<domain>/<object>/latest.sql      the current definition (= the newest snapshot)
"""

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from .objects import ObjectStatement, classify
from .scanner import statements

RELEASES_DIR = "releases"
SUMS_FILE = "SHA256SUMS"
TEMPLATE_SUFFIX = ".sql.in"
LATEST = "latest.sql"
NOT_DOMAINS = frozenset({RELEASES_DIR, "tools"})
# The whole line, terminator included, is replaced by the named file's bytes.
INCLUDE = re.compile(r'^#include "([^"\n]+)"(\r?\n|$)', re.MULTILINE)
_VERSION = re.compile(r"^[0-9][0-9A-Za-z.]*$")
_SCRIPT = re.compile(r"^corebank--(?P<first>[^-]+(?:-[^-]+)*?)(?:--(?P<second>.+))?\.sql$")


def version_key(version: str) -> tuple:
    """Sort key of a version: 1.10 after 1.9."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"[.-]", version))


def is_version(text: str) -> bool:
    return bool(_VERSION.match(text))


def script_versions(script_name: str) -> tuple[str, str | None]:
    """(target version, source version or None) of corebank--A.sql or corebank--A--B.sql."""
    match = _SCRIPT.match(script_name)
    if match is None:
        raise ValueError(f"{script_name}: not a corebank--<version>[--<version>].sql name")
    if match.group("second"):
        return match.group("second"), match.group("first")
    return match.group("first"), None


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Tree:
    """The sql/ directory of a checkout (or of a copy, for trying the tool)."""
    root: Path

    @property
    def releases(self) -> Path:
        return self.root / RELEASES_DIR

    @property
    def sums_path(self) -> Path:
        return self.releases / SUMS_FILE

    def templates(self) -> list[Path]:
        return sorted(self.releases.glob("corebank--*" + TEMPLATE_SUFFIX))

    def plain_scripts(self) -> list[Path]:
        return sorted(self.root.glob("corebank--*.sql"))

    def object_dirs(self) -> list[Path]:
        return sorted(folder for domain in self.root.iterdir()
                      if domain.is_dir() and domain.name not in NOT_DOMAINS and not domain.name.startswith(".")
                      for folder in domain.iterdir() if folder.is_dir())

    def read_sums(self) -> dict[str, str]:
        """script name -> sha256, from SHA256SUMS (sha256sum format)."""
        sums = {}
        if self.sums_path.exists():
            for line in self.sums_path.read_text(encoding="utf-8").splitlines():
                if line.strip() and not line.startswith("#"):
                    digest, name = line.split(maxsplit=1)
                    sums[name.lstrip("*")] = digest
        return sums

    def write_sums(self, sums: dict[str, str]) -> None:
        names = sorted(sums, key=lambda name: version_key(script_versions(name)[0]))
        self.sums_path.write_text("".join(f"{sums[name]}  {name}\n" for name in names), encoding="utf-8")

    def default_version(self) -> str | None:
        """default_version of extension/corebank.control, next to sql/."""
        control = self.root.parent / "extension" / "corebank.control"
        if not control.exists():
            return None
        match = re.search(r"^\s*default_version\s*=\s*'([^']+)'", control.read_text(encoding="utf-8"), re.MULTILINE)
        return match.group(1) if match else None


def snapshots(folder: Path) -> list[Path]:
    """The versioned snapshots of an object folder, oldest first."""
    found = [path for path in folder.glob("*.sql") if path.name != LATEST and is_version(path.stem)]
    return sorted(found, key=lambda path: version_key(path.stem))


def object_statements(path: Path) -> list[ObjectStatement]:
    script = path.read_bytes().decode("utf-8")
    return [found for found in map(classify, statements(script)) if found is not None]


def object_index(tree: Tree) -> dict[tuple[str, str], Path]:
    """(schema, name) -> its folder, read from the snapshots' own statements."""
    index = {}
    for folder in tree.object_dirs():
        for snapshot in snapshots(folder):
            for found in object_statements(snapshot):
                index.setdefault(found.qualified, folder)
    return index
