#!/usr/bin/env python3
"""check_map.py: docs/map.md names only things that exist.

Goal: the map of the rules (docs/map.md) must not rot when files move or tests are
renamed. Method: read every table row of the map and check, against the working tree,
  - every repository path (extension/, httpd/, sql/, policies/, migrations/, pgtap/,
    tests/) exists, and every function named after `path: ` occurs in that file;
  - every `corebank.x` / `corebank_internal.x` name is created somewhere under sql/
    (function, table, sequence, view, type or domain); a trailing * is a prefix;
  - every trigger named in an SQL face is created under sql/;
  - every pgTAP file (`name.sql`) is in pgtap/, every e2e test (`file.py::test`) is a
    `def` in tests/e2e/file.py, every unit test (`Suite.Test`) is a TEST in tests/unit/;
  - every route (`METHOD /path`) is registered by a router in httpd/src/;
  - every link to a heading of the map (#anchor) names one.
Prints each problem and exits 1 when there is one. Run: python3 docs/check_map.py
(or give another markdown file to check as the argument).
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MAP = ROOT / "docs" / "map.md"
PATH_ROOTS = ("extension/", "httpd/", "sql/", "policies/", "migrations/", "pgtap/", "tests/", "docs/")
ROOT_FILES = ("corebank", "corebank.conf", "README.md", "CMakeLists.txt")
METHODS = "GET|POST|PUT|PATCH|DELETE"


def read_all(pattern_roots):
    texts = {}
    for root, globs in pattern_roots:
        for glob in globs:
            for path in (ROOT / root).rglob(glob):
                if path.is_file():
                    texts[path] = path.read_text(errors="replace")
    return texts


def sql_objects(sql_texts):
    names, triggers = set(), set()
    object_re = re.compile(
        r"\b(?:FUNCTION|PROCEDURE|TABLE|SEQUENCE|VIEW|TYPE|DOMAIN)\s+(?:IF\s+NOT\s+EXISTS\s+)?(corebank(?:_internal)?\.\w+)", re.I)
    trigger_re = re.compile(r"\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:CONSTRAINT\s+)?TRIGGER\s+(\w+)", re.I)
    for text in sql_texts.values():
        names.update(m.group(1).lower() for m in object_re.finditer(text))
        triggers.update(m.group(1).lower() for m in trigger_re.finditer(text))
    return names, triggers


def routes(tier_texts):
    found = set()
    pair_re = re.compile(r'"(%s)",\s*"(/[^"]*)"' % METHODS)
    document_re = re.compile(r'document\("(/[^"]*)"')
    for text in tier_texts.values():
        found.update((m.group(1), m.group(2)) for m in pair_re.finditer(text))
        found.update(("GET", m.group(1)) for m in document_re.finditer(text))
        if '"/openapi.json"' in text:
            found.add(("GET", "/openapi.json"))
    return found


def route_known(method, path, known):
    path = path.split("?")[0].rstrip(".,;)")
    pattern = re.compile("^" + re.sub(r"\\\{[^}]*\\\}", "[^/]+", re.escape(path)) + "$")
    for known_method, known_path in known:
        if known_method == method and pattern.match(re.sub(r":\w+", "{p}", known_path).replace("{p}", "x")):
            return True
    return False


def rows(markdown):
    for number, line in enumerate(markdown.splitlines(), 1):
        if line.startswith("|") and not line.startswith("|---"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            yield number, cells


def main():
    problems = []
    markdown = (pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else MAP).read_text()
    sql_texts = read_all([("sql", ["*.sql", "*.sql.in"])])
    names, triggers = sql_objects(sql_texts)
    known_routes = routes(read_all([("httpd/src", ["*.cpp"])]))
    unit_text = "\n".join(p.read_text() for p in (ROOT / "tests" / "unit").glob("*.cpp"))
    unit_tests = set(re.findall(r"^TEST(?:_F)?\((\w+),\s*(\w+)\)", unit_text, re.M))

    def problem(line, message):
        problems.append(f"docs/map.md:{line}: {message}")

    not_built = set()
    section = ""
    for number, text in enumerate(markdown.splitlines(), 1):
        if text.startswith("## "):
            section = text
        if section.startswith("## Not built"):
            not_built.add(number)

    for line, cells in rows(markdown):
        for column, cell in enumerate(cells):
            for segment in re.split(r";|→", cell):
                current_file = None
                for token in re.findall(r"`([^`]+)`", segment):
                    token = token.strip()
                    if "<" in token or "A--B" in token or "NNNN" in token:
                        continue  # a pattern such as sql/<domain>/<object>/latest.sql
                    file_part, _, function = token.partition(": ")
                    if file_part.startswith(PATH_ROOTS) or file_part in ROOT_FILES:
                        path = ROOT / file_part.split("::")[0]
                        if "*" in file_part:
                            if not list(ROOT.glob(file_part)):
                                problem(line, f"nothing matches {file_part}")
                            current_file = None
                            continue
                        if not path.exists():
                            moved = sorted(ROOT.glob(f"sql/*/{function.split(' ')[0]}/latest.sql")) if function else []
                            hint = f" (now {moved[0].relative_to(ROOT)}?)" if moved else ""
                            problem(line, f"no such path: {file_part}{hint}")
                            current_file = None
                            continue
                        current_file = path if path.is_file() else None
                        if function:
                            function = function.split(" ")[0]
                    elif current_file is not None and re.fullmatch(r"[A-Za-z_][\w:]*", token):
                        function = token
                    else:
                        function = ""
                        current_file = None if "." in token or "/" in token else current_file
                    if function and current_file is not None:
                        bare = function.split("::")[-1]
                        if not re.search(r"\b%s\b" % re.escape(bare), current_file.read_text(errors="replace")):
                            problem(line, f"{function} not found in {current_file.relative_to(ROOT)}")
                    for name in re.findall(r"\b(corebank(?:_internal)?\.[\w*]+)", token):
                        name = name.lower()
                        if name == "corebank.conf":
                            continue  # the configuration file, not an SQL object
                        if name.endswith("*"):
                            if not any(n.startswith(name[:-1]) for n in names):
                                problem(line, f"no SQL object starts with {name[:-1]}")
                        elif name not in names:
                            problem(line, f"no SQL object {name}")
                    if re.fullmatch(r"[a-z0-9_]+\.sql", token) and not (ROOT / "pgtap" / token).exists():
                        problem(line, f"no pgTAP file pgtap/{token}")
                    e2e = re.fullmatch(r"(test_\w+\.py)::(test_\w+)", token)
                    if e2e:
                        path = ROOT / "tests" / "e2e" / e2e.group(1)
                        if not path.exists() or not re.search(r"def %s\(" % e2e.group(2), path.read_text()):
                            problem(line, f"no e2e test {token}")
                    unit = re.fullmatch(r"([A-Z]\w+)\.([A-Z]\w+)", token)
                    if unit and (unit.group(1), unit.group(2)) not in unit_tests:
                        problem(line, f"no unit test {token}")
                # Triggers are named in the SQL face column of a rule table.
                trigger_list = re.search(r"\btriggers?\s+(.*)", segment) if len(cells) == 5 and column == 2 else None
                if trigger_list:
                    for token in re.findall(r"(?<!on )`([a-z0-9_]+)`", trigger_list.group(1)):
                        if token not in triggers:
                            problem(line, f"no trigger {token}")
            if line in not_built:
                continue  # routes the specification names and nobody serves yet
            for methods, path in re.findall(r"((?:(?:%s),\s*)*(?:%s))\s+(/[^\s,|`]+)" % (METHODS, METHODS), cell):
                for method in re.split(r",\s*", methods):
                    if not route_known(method, path, known_routes):
                        problem(line, f"no route {method} {path}")

    slugs = {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
             for heading in re.findall(r"^#+ (.+)$", markdown, re.M)}
    for number, text in enumerate(markdown.splitlines(), 1):
        for anchor in re.findall(r"\]\(#([^)]+)\)", text):
            if anchor not in slugs:
                problem(number, f"no heading for the link #{anchor}")

    for message in problems:
        print(message)
    print(f"check_map: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
