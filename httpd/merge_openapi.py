#!/usr/bin/env python3
"""Merge the core OpenAPI document from its parts (run by the build).

Usage: merge_openapi.py PARTS_DIR OUTPUT

PARTS_DIR (httpd/openapi/core/) holds:
  base.json    the document's head: openapi, info, servers, the tags list,
               security schemes;
  shared.json  the components that operations of more than one tag use;
  <tag>.json   one file per tag of base.json's tags list, named by the tag
               in kebab-case ("Maker-Checker Approvals" is
               maker-checker-approvals.json), holding the tag's paths and the
               components only those paths use.

OUTPUT is the one document GET /openapi.json serves. The merge refuses, so
that the build fails, rather than let one part silently win over another:
a part that is not valid JSON or names a key twice, a path or component
defined in two parts, a file for no tag or a tag with no file, an operation
filed under a tag it does not carry or carrying an unlisted tag, a $ref that
points at nothing, and a security requirement naming no scheme.
"""
import json
import os
import re
import sys

BASE = "base.json"
SHARED = "shared.json"
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


class MergeError(Exception):
    pass


def kebab(tag):
    return re.sub(r"[^a-z0-9]+", "-", tag.lower()).strip("-")


def reject_duplicate_keys(pairs):
    # json.load keeps the last of two equal keys; a part defining a path twice must fail instead.
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"key {key!r} defined twice")
        obj[key] = value
    return obj


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            value = json.load(f, object_pairs_hook=reject_duplicate_keys)
    except (OSError, ValueError) as e:
        raise MergeError(f"{path}: {e}") from None
    if not isinstance(value, dict):
        raise MergeError(f"{path}: not a JSON object")
    return value


def add_entries(target, entries, origin, owners, what, name_of_part):
    if not isinstance(entries, dict):
        raise MergeError(f"{name_of_part}: {what} is not an object")
    for key, value in entries.items():
        if key in target:
            raise MergeError(f"{what} {key!r} defined in both {owners[key]} and {name_of_part}")
        target[key] = value
        owners[key] = origin


def check_tags(part, name, tag, listed):
    for path, item in part.get("paths", {}).items():
        for method in METHODS:
            if method not in item:
                continue
            tags = item[method].get("tags", [])
            if tag not in tags:
                raise MergeError(f"{name}: {method} {path} does not carry the tag {tag!r} of its file")
            unlisted = [t for t in tags if t not in listed]
            if unlisted:
                raise MergeError(f"{name}: {method} {path} carries tags not in {BASE}'s list: {unlisted}")


def walk(value, where, visit):
    visit(value, where)
    if isinstance(value, dict):
        for key, child in value.items():
            walk(child, f"{where}/{key}", visit)
    elif isinstance(value, list):
        for i, child in enumerate(value):
            walk(child, f"{where}/{i}", visit)


def resolves(document, ref):
    node = document
    for token in ref[2:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or token not in node:
            return False
        node = node[token]
    return True


def check_references(document):
    problems = []

    def visit(value, where):
        ref = value.get("$ref") if isinstance(value, dict) else None
        if isinstance(ref, str) and not (ref.startswith("#/") and resolves(document, ref)):
            problems.append(f"{where}: $ref {ref!r} points at nothing in the merged document")

    walk(document, "#", visit)
    schemes = document.get("components", {}).get("securitySchemes", {})
    requirements = [("the document", document.get("security", []))]
    requirements += [(f"{method} {path}", item[method].get("security", []))
                     for path, item in document["paths"].items() for method in METHODS if method in item]
    for where, security in requirements:
        for requirement in security:
            problems += [f"{where}: security scheme {scheme!r} is not defined"
                         for scheme in requirement if scheme not in schemes]
    if problems:
        raise MergeError("\n".join(problems))


def merge(parts_dir):
    base = load(os.path.join(parts_dir, BASE))
    if "paths" in base:
        raise MergeError(f"{BASE}: paths belong in the file of their tag")
    listed = [t["name"] for t in base.get("tags", [])]
    files = {}
    for tag in listed:
        name = kebab(tag) + ".json"
        if name in files or name in (BASE, SHARED):
            raise MergeError(f"{BASE}: tag {tag!r} maps to the file {name}, which is taken")
        files[name] = tag
    present = {n for n in os.listdir(parts_dir) if n.endswith(".json")}
    stray = sorted(present - set(files) - {BASE, SHARED})
    if stray:
        raise MergeError(f"{parts_dir}: {stray} match no tag in {BASE}'s tags list")
    missing = sorted(set(files) - present)
    if missing:
        raise MergeError(f"{parts_dir}: no file for tags {[files[n] for n in missing]} (expected {missing})")

    paths, path_owner = {}, {}
    components, component_owner = {}, {}

    def take_components(part, name):
        for section, entries in part.get("components", {}).items():
            add_entries(components.setdefault(section, {}), entries, name,
                        component_owner.setdefault(section, {}), f"component {section}", name)

    take_components(base, BASE)
    parts = [(SHARED, None)] + list(files.items())
    for name, tag in parts:
        part = load(os.path.join(parts_dir, name))
        allowed = {"paths", "components"} if tag is not None else {"components"}
        extra = sorted(set(part) - allowed)
        if extra:
            raise MergeError(f"{name}: holds {extra}; it may hold only {sorted(allowed)}")
        if tag is not None:
            add_entries(paths, part.get("paths", {}), name, path_owner, "path", name)
            check_tags(part, name, tag, listed)
        take_components(part, name)

    document = {key: value for key, value in base.items() if key != "components"}
    document["paths"] = paths
    document["components"] = components
    check_references(document)
    return document


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    parts_dir, output = argv[1], argv[2]
    try:
        document = merge(parts_dir)
    except MergeError as e:
        print(f"merge_openapi: {e}", file=sys.stderr)
        return 1
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    # Write then rename, so a failed merge never leaves a half document that a later build embeds.
    temporary = output + ".tmp"
    with open(temporary, "w", encoding="utf-8") as f:
        f.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    os.replace(temporary, output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
