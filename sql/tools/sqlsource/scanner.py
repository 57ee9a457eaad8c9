"""Statement boundaries of a PostgreSQL script, found without executing it.

The scanner knows just enough of the SQL lexer to find the ';' that ends a
statement: it skips '--' and nested '/* */' comments, quoted strings
('...', E'...' with backslash escapes), quoted identifiers ("...") and
dollar-quoted bodies ($fn$...$fn$). psql meta-commands (a line opening with
a backslash, like the \\echo ... \\quit guard) end at the end of their line.
Offsets are into the str as read with newline='' so that every byte can be
reproduced.
"""

import re
from dataclasses import dataclass

_DOLLAR_TAG = re.compile(r"\$([A-Za-z_\x80-\uffff][A-Za-z0-9_\x80-\uffff]*)?\$")
_IDENT_CHAR = re.compile(r"[A-Za-z0-9_$\x80-\uffff]")


class ScanError(ValueError):
    """The script ends inside a comment, string or body, or is malformed."""


@dataclass(frozen=True)
class Statement:
    start: int   # offset of the statement's first character
    end: int     # offset just past its ';' (or past the meta-command's line)
    text: str    # script[start:end]


def _skip_block_comment(script: str, index: int) -> int:
    depth = 0
    while index < len(script):
        if script.startswith("/*", index):
            depth += 1
            index += 2
        elif script.startswith("*/", index):
            depth -= 1
            index += 2
            if depth == 0:
                return index
        else:
            index += 1
    raise ScanError("unterminated /* comment")


def _skip_quoted(script: str, index: int, quote: str, backslash_escapes: bool) -> int:
    index += 1
    while index < len(script):
        char = script[index]
        if backslash_escapes and char == "\\":
            index += 2
            continue
        if char == quote:
            if script.startswith(quote, index + 1):
                index += 2
                continue
            return index + 1
        index += 1
    raise ScanError(f"unterminated {quote} quote")


def _skip_line(script: str, index: int) -> int:
    newline = script.find("\n", index)
    return len(script) if newline < 0 else newline + 1


def _is_escape_string(script: str, index: int) -> bool:
    """True when the quote at index opens E'...' (E not ending a longer word)."""
    if index == 0 or script[index - 1] not in "Ee":
        return False
    return index == 1 or not _IDENT_CHAR.match(script[index - 2])


def skip_insignificant(script: str, index: int) -> int:
    """The offset of the next character that is neither blank nor comment."""
    while index < len(script):
        if script[index].isspace():
            index += 1
        elif script.startswith("--", index):
            index = _skip_line(script, index)
        elif script.startswith("/*", index):
            index = _skip_block_comment(script, index)
        else:
            return index
    return index


def _statement_end(script: str, index: int) -> int:
    """The offset just past the ';' that ends the statement opening at index."""
    while index < len(script):
        char = script[index]
        if char == ";":
            return index + 1
        if script.startswith("--", index):
            index = _skip_line(script, index)
        elif script.startswith("/*", index):
            index = _skip_block_comment(script, index)
        elif char == "'":
            index = _skip_quoted(script, index, "'", _is_escape_string(script, index))
        elif char == '"':
            index = _skip_quoted(script, index, '"', False)
        elif char == "$" and (index == 0 or not _IDENT_CHAR.match(script[index - 1])):
            tag = _DOLLAR_TAG.match(script, index)
            if tag is None:
                index += 1
                continue
            close = script.find(tag.group(0), tag.end())
            if close < 0:
                raise ScanError(f"unterminated {tag.group(0)} body")
            index = close + len(tag.group(0))
        else:
            index += 1
    raise ScanError("the script ends inside a statement (no ';')")


def statements(script: str) -> list[Statement]:
    """Every statement and meta-command of the script, in order."""
    found = []
    index = skip_insignificant(script, 0)
    while index < len(script):
        if script[index] == "\\":
            end = _skip_line(script, index)
        else:
            end = _statement_end(script, index)
        found.append(Statement(index, end, script[index:end]))
        index = skip_insignificant(script, end)
    return found
