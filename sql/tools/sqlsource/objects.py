"""Which statements define (or drop) a routine, view or type, and what they name.

These are the objects whose definition lives in sql/<domain>/<object>/: the
statements that carry code (a body, a query, a type's shape). Tables,
indexes, triggers, grants, COMMENT ON, data and other DDL stay in the
release templates.
"""

import re
from dataclasses import dataclass

from .scanner import Statement

DEFAULT_SCHEMA = "corebank"   # corebank.control: schema = corebank; unqualified names land there
_IDENT = r'(?:"(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)'
_KIND = r"(?P<kind>FUNCTION|PROCEDURE|AGGREGATE|MATERIALIZED\s+VIEW|(?:RECURSIVE\s+)?VIEW|TYPE|DOMAIN)"
_NAME = rf"(?:(?P<schema>{_IDENT})\s*\.\s*)?(?P<name>{_IDENT})"
_CREATE = re.compile(rf"CREATE\s+(?:OR\s+REPLACE\s+)?{_KIND}\s+{_NAME}", re.IGNORECASE)
# DROP of exactly one object: "DROP FUNCTION [IF EXISTS] s.f(args) [CASCADE|RESTRICT];"
_DROP = re.compile(rf"DROP\s+{_KIND}\s+(?:IF\s+EXISTS\s+)?{_NAME}", re.IGNORECASE)
_ALTER = re.compile(rf"ALTER\s+{_KIND}\s+{_NAME}", re.IGNORECASE)


@dataclass(frozen=True)
class ObjectStatement:
    action: str      # CREATE, DROP or ALTER
    kind: str        # FUNCTION, PROCEDURE, AGGREGATE, VIEW, MATERIALIZED VIEW, TYPE, DOMAIN
    schema: str      # folded; DEFAULT_SCHEMA when unqualified
    name: str        # folded: unquoted as written, else lower case
    signature: str   # the argument list with blanks normalised ('' for views and types)
    statement: Statement

    @property
    def qualified(self) -> tuple[str, str]:
        return (self.schema, self.name)


def _fold(identifier: str) -> str:
    if identifier.startswith('"'):
        return identifier[1:-1].replace('""', '"')
    return identifier.lower()


def _kind(text: str) -> str:
    kind = " ".join(text.upper().split())
    return "VIEW" if kind == "RECURSIVE VIEW" else kind


def _arguments(text: str, index: int) -> str:
    """The parenthesised argument list opening at or after index, blanks normalised."""
    while index < len(text) and text[index].isspace():
        index += 1
    if index >= len(text) or text[index] != "(":
        return ""
    depth = 0
    for end in range(index, len(text)):
        if text[end] == "(":
            depth += 1
        elif text[end] == ")":
            depth -= 1
            if depth == 0:
                return " ".join(text[index:end + 1].split())
    return ""


def _lists_several(rest: str) -> bool:
    """True when a comma outside parentheses follows the first name of a DROP."""
    depth = 0
    for char in rest:
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            return True
    return False


def classify(statement: Statement) -> ObjectStatement | None:
    """The object a statement creates, drops or alters; None for any other statement."""
    for action, pattern in (("CREATE", _CREATE), ("DROP", _DROP), ("ALTER", _ALTER)):
        match = pattern.match(statement.text)
        if match is None:
            continue
        if action == "DROP" and _lists_several(statement.text[match.end():]):
            return None  # several objects in one DROP: left to the template
        schema = _fold(match.group("schema")) if match.group("schema") else DEFAULT_SCHEMA
        return ObjectStatement(action, _kind(match.group("kind")), schema, _fold(match.group("name")),
                               _arguments(statement.text, match.end()), statement)
    return None
