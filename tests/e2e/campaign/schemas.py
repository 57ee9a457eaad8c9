"""schemas: values for a JSON schema of an OpenAPI document.

`base_value` makes a small value of the schema's shape (required fields only)
that mutations then break. `refused_values` lists values the schema itself
refuses at one position (wrong type, out of bounds, not in the enum, a bad
UUID or date, a pattern mismatch), and `Checker.is_invalid` confirms with
jsonschema (Draft 2020-12, with format checks for the formats the services
document) that a mutated body is invalid, so every case the campaign sends is
invalid by construction.
"""

import datetime
import re
import uuid

TYPE_OF = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object",
           type(None): "null"}
UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
DEPTH_MAX = 8              # base values nest at most this deep
HUGE_STRING = 100000       # characters of a "huge" string
BAD_UUIDS = ("not-a-uuid", "1234", "00000000-0000-0000-0000-00000000000g", "0" * 32, "{00000000-0000-0000-0000-000000000000}",
             "00000000-0000-0000-0000-0000000000000", "", " ", "ééééééé-é")
BAD_DATES = ("2024-02-30", "2023-02-29", "2024-13-01", "2024-00-10", "20240101", "2024/01/01", "yesterday", "",
             "2024-1-1", "99999-01-01")
BAD_DATE_TIMES = ("2024-02-30T10:00:00Z", "2024-13-01T00:00:00Z", "2024-01-01T25:00:00Z", "2024-01-01T10:61:00Z",
                  "now", "", "2024-01-01T10:00:00+25:00", "T10:00:00Z")
BAD_EMAILS = ("nobody", "@", "a@", "", "a b@example.com")


def json_type(value):
    return TYPE_OF.get(type(value), "unknown")


def allowed_types(schema):
    """The JSON types a schema allows, or None when it does not say (anyOf, {}, ...)."""
    if "const" in schema:
        return {json_type(schema["const"])}
    if "enum" in schema:
        return {json_type(v) for v in schema["enum"]}
    declared = schema.get("type")
    if declared is None:
        return None
    types = set(declared if isinstance(declared, list) else [declared])
    if "integer" in types:
        types.add("integer")
    return types


class Checker:
    """jsonschema validation against one document (for the invalid-by-construction check)."""

    def __init__(self, doc):
        import jsonschema
        self.doc = doc
        self.jsonschema = jsonschema
        self.format_checker = self._format_checker()
        self.resolver = jsonschema.RefResolver(base_uri="", referrer=doc.document)

    @staticmethod
    def _format_checker():
        from jsonschema import FormatChecker
        checker = FormatChecker(formats=())

        @checker.checks("uuid")
        def is_uuid(value):
            return not isinstance(value, str) or bool(UUID_RE.match(value))

        @checker.checks("date")
        def is_date(value):
            if not isinstance(value, str):
                return True
            try:
                return bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}", value)) and bool(datetime.date.fromisoformat(value))
            except ValueError:
                return False

        @checker.checks("date-time")
        def is_date_time(value):
            if not isinstance(value, str):
                return True
            match = re.fullmatch(r"(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))", value)
            if not match:
                return False
            try:
                datetime.date.fromisoformat(match.group(1))
            except ValueError:
                return False
            hour, minute, second = int(match.group(2)), int(match.group(3)), int(match.group(4))
            offset_ok = match.group(6) == "Z" or (int(match.group(7)) < 24 and int(match.group(8)) < 60)
            return hour < 24 and minute < 60 and second < 61 and offset_ok

        @checker.checks("int32")
        def is_int32(value):
            return not isinstance(value, int) or -(2 ** 31) <= value < 2 ** 31

        @checker.checks("int64")
        def is_int64(value):
            return not isinstance(value, int) or -(2 ** 63) <= value < 2 ** 63

        @checker.checks("email")
        def is_email(value):
            return not isinstance(value, str) or bool(re.fullmatch(r"[^@\s]+@[^@\s]+", value))

        return checker

    def is_invalid(self, schema, value):
        validator = self.jsonschema.Draft202012Validator(schema, resolver=self.resolver,
                                                        format_checker=self.format_checker)
        return not validator.is_valid(value)


def base_value(doc, schema, depth=0):
    """A small value of the schema's shape: required properties only, minimal arrays."""
    schema = doc.resolve(schema)
    if depth > DEPTH_MAX:
        return None
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for combinator in ("oneOf", "anyOf", "allOf"):
        if schema.get(combinator):
            return base_value(doc, schema[combinator][0], depth + 1)
    if "example" in schema and not isinstance(schema["example"], (dict, list)):
        return schema["example"]
    types = allowed_types(schema) or {"object" if "properties" in schema else "string"}
    kind = next(t for t in ("object", "array", "string", "integer", "number", "boolean", "null") if t in types)
    if kind == "object":
        props = schema.get("properties", {})
        return {name: base_value(doc, props.get(name, {}), depth + 1) for name in schema.get("required", [])}
    if kind == "array":
        return [base_value(doc, schema.get("items", {}), depth + 1) for _ in range(schema.get("minItems", 0))]
    if kind == "string":
        fmt = schema.get("format")
        if fmt == "uuid":
            return str(uuid.uuid4())
        if fmt == "date":
            return "2031-01-15"
        if fmt == "date-time":
            return "2031-01-15T10:00:00Z"
        if fmt == "email":
            return f"campaign-{uuid.uuid4().hex[:8]}@example.com"
        if fmt == "uri":
            return "https://example.com/campaign"
        return "C" * max(schema.get("minLength", 0), 1)
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", 0) + 1 if "exclusiveMinimum" in schema else 1)
        return int(low) if kind == "integer" else low
    if kind == "boolean":
        return True
    return None


WRONG_BY_TYPE = {
    "string": ["wrong", "", "\u00e9"],
    "integer": [7, -1, 0],
    "number": [1.5, -0.25],
    "boolean": [True, False],
    "array": [[], [1, "a"]],
    "object": [{}, {"zz": 1}],
    "null": [None],
}


def wrong_type_values(schema):
    """Values of a JSON type the schema does not allow (empty when the schema does not say)."""
    types = allowed_types(schema)
    if types is None:
        return []
    out = []
    for kind, values in WRONG_BY_TYPE.items():
        if kind in types or (kind == "integer" and "number" in types):
            continue
        out.extend(values)
    return out


class Raw:
    """A JSON token written verbatim (numbers no JSON library writes: 1e400, 30 digits)."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def refused_values(schema):
    """Values the schema refuses by a bound, an enum, a format or a pattern (not by type)."""
    out = []
    types = allowed_types(schema) or set()
    if "enum" in schema and all(isinstance(v, str) for v in schema["enum"]):
        out += ["zz-not-a-member", str(schema["enum"][0]).upper() + "X", " " + str(schema["enum"][0])]
    if "string" in types:
        if "maxLength" in schema:
            limit = schema["maxLength"]
            out += ["x" * (limit + 1), "\U0001F3E6" * (limit + 1), "y" * HUGE_STRING]
        if schema.get("minLength", 0) >= 1:
            out.append("")
        fmt = schema.get("format")
        out += {"uuid": list(BAD_UUIDS), "date": list(BAD_DATES), "date-time": list(BAD_DATE_TIMES),
                "email": list(BAD_EMAILS)}.get(fmt, [])
        if "pattern" in schema:
            out += [v for v in ("", " ", "zz zz", "\u00e9\u00e9", "../..", "1", "<x>", "a\u0000b", "Z" * 300)
                    if not re.search(schema["pattern"], v)]
    if types & {"integer", "number"}:
        if "minimum" in schema:
            out.append(schema["minimum"] - 1)
        if "exclusiveMinimum" in schema:
            out.append(schema["exclusiveMinimum"])
        if "maximum" in schema:
            out.append(schema["maximum"] + 1)
        if "exclusiveMaximum" in schema:
            out.append(schema["exclusiveMaximum"])
        bounded = schema.get("format") in ("int32", "int64") or "maximum" in schema
        if "integer" in types and "number" not in types:
            out.append(Raw("1.5"))
            if bounded:
                out += [Raw("1e400"), Raw("123456789012345678901234567890"), 2 ** 63, 2 ** 64]
            if bounded and "minimum" not in schema:
                out += [Raw("-1e400"), -(2 ** 63) - 1]
            if schema.get("format") == "int32" or "maximum" in schema:
                out.append(2 ** 31)
    if "array" in types:
        if "maxItems" in schema:
            out.append([None] * (schema["maxItems"] + 1))
        if schema.get("minItems", 0) >= 1:
            out.append([])
    return out
