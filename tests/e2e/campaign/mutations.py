"""mutations: Hypothesis strategies that turn one operation into one malformed request.

Each case starts from a base request of the operation (path parameters of the
right shape, required query and header parameters, a small body of the
schema's shape) and breaks it in one way. Every kind is invalid by
construction: a body mutation is kept only when jsonschema says the mutated
body breaks the operation's schema; the other kinds break a rule the
documents state (a malformed path id, a query value its schema refuses, JSON
that does not parse, a body over the limit, duplicated keys, ...). A wrong
Content-Type alone is not invalid (the services read bodies by what they are;
docs/testing.md), so it is sent only on a body that is invalid anyway.
"""

import dataclasses
import json
import urllib.parse
import uuid

from hypothesis import strategies as st

from . import schemas

# The body limits of corebank.conf and docs: max_body_bytes (1 MiB), the batch
# (batch_max_body_bytes, 4 MiB), the verification service's JSON bodies (64 KiB)
# and images (verify_image_bytes_max, 5 MiB), and the verification service's
# own cap for every other route (images + 64 KiB).
MIB = 1024 * 1024

def library_cap(op):
    """The HTTP library's own buffer of the service: twice its largest body limit + 64 KiB (service.cpp)."""
    largest = {"core": 4 * MIB, "verify": 5 * MIB + 64 * 1024}.get(op.service, MIB)
    return 2 * largest + 64 * 1024


def body_limit(op):
    if op.service == "verify":
        if op.image_body:
            return 5 * MIB
        return 64 * 1024 if op.takes_body else 5 * MIB + 64 * 1024
    if op.template == "/v1/transfers/batch":
        return 4 * MIB
    return MIB
OVERSIZED_HEADER = 96 * 1024            # one header line far over any sane header limit
DEEP = 50000                            # nesting depth of the deep-nesting bodies

BAD_SEGMENTS = ("not-a-uuid", "%00", "%FF%FE", "..", "%2e%2e", "a%2Fb", "%20", "%25", "x" * 3000, "%C3%A9",
                "00000000-0000-0000-0000-00000000000g", "0" * 32, "-1", "%0D%0A", "null", "%7B%7D")
NOT_JSON = (b"{", b'{"a":}', b"nul", b"{'a': 1}", b'{"a":1}}', b'{"a":1} trailing', b"\xff\xfe{}",
            b'{"a": "\xc0\xaf"}', b'{"a": "\\ud800"}', b"\x00", b'{"a":1,}', b"[1,2", b"<xml/>", b"NaN",
            b'{"a": 01}', b'{"a": .5}', b'{"a": +1}', b'{"a": "\x01"}')
NOT_FORM = (b"%ZZ=1", b"\xff=\xfe", b"=&=&=", b"a=%", b"grant_type=%C0%AF")
NOT_IMAGE = (b"", b"GIF89a" + b"\0" * 64, b"\x89PNG\r\n\x1a\n" + b"\0" * 40, b"\xff\xd8\xff\xe0" + b"\0" * 64,
             b"<svg/>", b"{}")
WRONG_CONTENT_TYPES = ("text/plain", "application/xml", "multipart/form-data; boundary=x",
                       "application/x-www-form-urlencoded", "application/json; charset=latin1", "", "*/*",
                       "application/json\u00e9".encode("utf-8").decode("latin-1"), "garbage", "a/b/c")
NO_BODY_BODIES = (b'{"x": 1}', b"[1]", b'"text"', b"{bad", b"\xff")
# Query strings no operation can read: a `%` not followed by two hex digits, or an
# escaped NUL, in a value or a name; every service refuses them before routing
# (400, "Malformed query string").
MALFORMED_QUERIES = (("zzq", "%"), ("zzq", "%ZZ"), ("zzq", "a%4"), ("zzq", "%00"), ("%G1", "1"), ("zzq", "%%"))
QUERY_WRONG = {"integer": ("abc", "1.5", "", "99999999999999999999999", "0x10", "1e3", " 1"),
               "number": ("abc", "", "1,5", "NaN"), "boolean": ("maybe", "2", "")}


# Parameters the server never reads, so that no value of theirs is invalid to it:
# (service, template, name) -> why.
UNREAD_PARAMETERS = {
    ("identity", "/auth/password/reset-form", "token"):
        "the reset form is a static page; its script reads the token (identity.json: never read by the server)",
    ("verify", "/hosted/sessions/{session_id}", "session_id"):
        "the hosted page is a public HTML shell without data, the same for every id (verify.json hostedPage)",
}


def read_params(op, location):
    return [p for p in op.params(location) if (op.service, op.template, p.name) not in UNREAD_PARAMETERS]


@dataclasses.dataclass
class Case:
    op: object
    kind: str
    auth: str                 # with | without
    method: str
    path: str
    headers: dict
    body: bytes = None
    stream: bool = False      # sent chunked by hand (oversized bodies)
    detail: str = ""


class Context:
    """What the campaign knows about one service: its document, credentials and real ids."""

    def __init__(self, doc, operations, base_url, credentials, known=None, garbage=None):
        self.doc = doc
        self.checker = schemas.Checker(doc)
        self.operations = operations
        self.base_url = base_url
        self.credentials = credentials          # scheme name -> headers that satisfy it
        self.known = known or {}                # (template or "*", param) -> value
        self.garbage = garbage or {}            # scheme name -> headers of a wrong credential


def encode(value):
    """JSON text of a value that may hold schemas.Raw tokens and DuplicateKeys objects."""
    if isinstance(value, schemas.Raw):
        return value.text
    if isinstance(value, DuplicateKeys):
        return "{" + ",".join(json.dumps(k) + ":" + encode(v) for k, v in value.pairs) + "}"
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + encode(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(encode(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


class DuplicateKeys:
    def __init__(self, pairs):
        self.pairs = pairs


def has_raw(value):
    if isinstance(value, schemas.Raw):
        return True
    if isinstance(value, dict):
        return any(has_raw(v) for v in value.values())
    if isinstance(value, list):
        return any(has_raw(v) for v in value)
    return False


def object_positions(doc, schema, value, path=()):
    """(path, object schema) of every object of the value that the schema describes."""
    schema = doc.resolve(schema)
    for combinator in ("allOf", "oneOf", "anyOf"):
        if schema.get(combinator) and "properties" not in schema:
            schema = doc.resolve(schema[combinator][0])
    out = []
    if isinstance(value, dict) and ("properties" in schema or "additionalProperties" in schema):
        out.append((path, schema))
        for name, sub in schema.get("properties", {}).items():
            if name in value:
                out += object_positions(doc, sub, value[name], path + (name,))
    elif isinstance(value, list) and value and "items" in schema:
        out += object_positions(doc, schema["items"], value[0], path + (0,))
    return out


def replaced(value, path, change):
    """A deep copy of value with change(container_at_path) applied."""
    copy = json.loads(json.dumps(value))
    target = copy
    for step in path:
        target = target[step]
    change(target)
    return copy


def path_value(ctx, op, param):
    for key in ((op.template, param.name), ("*", param.name)):
        if key in ctx.known:
            return ctx.known[key]
    return str(schemas.base_value(ctx.doc, param.schema))


def build_path(ctx, op, overrides=None):
    path = op.template
    for param in op.params("path"):
        value = (overrides or {}).get(param.name)
        if value is None:
            value = urllib.parse.quote(path_value(ctx, op, param), safe="")
        path = path.replace("{" + param.name + "}", value)
    query = []
    for param in op.params("query"):
        if param.required:
            query.append((param.name, urllib.parse.quote(str(schemas.base_value(ctx.doc, param.schema)), safe="")))
    return path, query


def with_query(path, query):
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query) if query else "")


def base_headers(ctx, op, auth, draw):
    headers = {}
    if auth == "with":
        # Every scheme the operation names (core wants the API key and the staff token together).
        for scheme in op.schemes:
            headers.update(ctx.credentials.get(scheme, {}))
    elif op.secured and op.schemes and draw(st.booleans()):
        for scheme in op.schemes:
            headers.update(ctx.garbage.get(scheme, {}))
    for param in op.params("header"):
        if param.required or param.name.lower() == "idempotency-key":
            headers[param.name] = str(uuid.uuid4())
    return headers


def base_body(ctx, op):
    if op.json_schema is not None:
        return schemas.base_value(ctx.doc, op.json_schema)
    if op.form_schema is not None:
        return schemas.base_value(ctx.doc, op.form_schema)
    return None


def kinds_for(op):
    kinds = ["oversized_header", "malformed_query"]
    if op.template == "/openapi.json":
        kinds.append("far_oversized_body")  # over library_cap: once per service
    if read_params(op, "path"):
        kinds.append("bad_path_segment")
        if any(p.schema.get("format") == "uuid" for p in op.params("path")):
            kinds.append("unknown_id")
    if any(query_refusals(p) for p in read_params(op, "query")):
        kinds.append("bad_query")
    if any(p.required for p in op.params("query")):
        kinds.append("missing_query")
    if any(schemas.refused_values(p.schema) for p in op.params("header")):
        kinds.append("bad_header")
    if op.json_schema is not None:
        kinds += ["missing_required", "wrong_type", "refused_value", "unknown_field", "not_json", "not_object", "duplicate_key", "deep_nesting",
                  "wrong_content_type", "oversized_body"]
    elif op.form_schema is not None:
        kinds += ["missing_required", "refused_value", "unknown_field", "not_form", "duplicate_key",
                  "oversized_body"]
    elif op.image_body:
        kinds += ["not_image", "oversized_body"]
    elif op.method != "GET":
        kinds += ["body_on_no_body", "oversized_body"]
    else:
        kinds.append("oversized_body")
    return kinds


def query_refusals(param):
    """Query values the parameter's schema refuses; never the empty value, which counts as absent
    (`?active=` is no filter, docs/core-banking.md)."""
    schema = param.schema
    out = [v for v in schemas.refused_values(schema) if not isinstance(v, (list, dict, schemas.Raw))]
    types = schemas.allowed_types(schema) or set()
    for kind, values in QUERY_WRONG.items():
        if kind in types and "string" not in types:
            out += list(values)
    return [text for text in (str(v) if not isinstance(v, bool) else str(v).lower() for v in out) if text != ""]


def coerce(schema, text):
    types = schemas.allowed_types(schema) or {"string"}
    if "integer" in types:
        try:
            return int(text) if text.strip() == text and text.lstrip("-").isdigit() else text
        except ValueError:
            return text
    if "number" in types:
        try:
            return float(text) if text.strip() == text and text not in ("NaN", "") else text
        except ValueError:
            return text
    if "boolean" in types:
        return {"true": True, "false": False}.get(text, text)
    return text


@st.composite
def case_for(draw, ctx, op, kind):
    """One malformed request for op of this kind, with or without credentials."""
    auth = draw(st.sampled_from(("with", "without")))
    headers = base_headers(ctx, op, auth, draw)
    overrides = {}
    path, query = build_path(ctx, op)
    body_value = base_body(ctx, op)
    body = None
    stream = False
    detail = ""
    body_must_break = False

    if kind == "bad_path_segment":
        param = draw(st.sampled_from(read_params(op, "path")))
        # Never the empty segment: /v1/branches/ is the path of the list, not a bad id.
        refused = [urllib.parse.quote(str(v), safe="") for v in schemas.refused_values(param.schema)
                   if isinstance(v, (str, int)) and not isinstance(v, bool) and str(v) != ""]
        segment = draw(st.sampled_from(list(BAD_SEGMENTS) + refused))
        overrides[param.name] = segment
        path, query = build_path(ctx, op, overrides)
        detail = f"{param.name}={segment[:40]}"
        constrained = any(k in param.schema for k in ("format", "enum", "pattern", "maxLength", "const"))
        body_must_break = not constrained and op.takes_body
    elif kind == "unknown_id":
        param = draw(st.sampled_from([p for p in op.params("path") if p.schema.get("format") == "uuid"]))
        overrides[param.name] = str(uuid.UUID(int=draw(st.integers(0, 2 ** 128 - 1)), version=4))
        path, query = build_path(ctx, op, overrides)
        detail = f"{param.name} unknown"
    elif kind == "bad_query":
        param = draw(st.sampled_from([p for p in read_params(op, "query") if query_refusals(p)]))
        value = draw(st.sampled_from(query_refusals(param)))
        if not ctx.checker.is_invalid(param.schema, coerce(param.schema, value)):
            value = "%00" if "pattern" in param.schema else "zz%FF"
        query = [(k, v) for k, v in query if k != param.name]
        query.append((param.name, urllib.parse.quote(value, safe="")))
        detail = f"{param.name}={value[:40]}"
    elif kind == "malformed_query":
        name, value = draw(st.sampled_from(MALFORMED_QUERIES))
        query.append((name, value))
        detail = f"{name}={value}"
    elif kind == "missing_query":
        param = draw(st.sampled_from([p for p in op.params("query") if p.required]))
        query = [(k, v) for k, v in query if k != param.name]
        detail = param.name
    elif kind == "bad_header":
        param = draw(st.sampled_from([p for p in op.params("header") if schemas.refused_values(p.schema)]))
        values = [v for v in schemas.refused_values(param.schema)
                  if isinstance(v, str) and v.isascii() and len(v) < 8000 and "\x00" not in v]
        value = draw(st.sampled_from(values or [""]))
        headers[param.name] = value
        detail = f"{param.name} ({len(value)} chars)"
    elif kind == "oversized_header":
        if draw(st.booleans()):
            headers["X-Campaign-Padding"] = "p" * OVERSIZED_HEADER
        else:
            headers.update({f"X-Campaign-{i}": "q" * 1000 for i in range(OVERSIZED_HEADER // 1000)})
        detail = f"{OVERSIZED_HEADER} bytes of headers"
    elif kind == "oversized_body":
        size = draw(st.sampled_from((body_limit(op) + 1024, 2 * body_limit(op))))
        body = b'{"x": "' + b"z" * size + b'"}'
        stream = True
        detail = f"{len(body)} bytes"
    elif kind == "far_oversized_body":
        body = b'{"x": "' + b"z" * (library_cap(op) + 64 * 1024) + b'"}'
        stream = True
        detail = f"{len(body)} bytes"
    elif kind == "body_on_no_body":
        body = draw(st.sampled_from(NO_BODY_BODIES))
        headers["Content-Type"] = "application/json"
    elif kind == "not_image":
        body = draw(st.sampled_from(NOT_IMAGE))
        headers["Content-Type"] = draw(st.sampled_from(("image/png", "image/jpeg")))
    elif kind == "not_json":
        body = draw(st.sampled_from(NOT_JSON))
        headers["Content-Type"] = "application/json"
    elif kind == "not_form":
        body = draw(st.sampled_from(NOT_FORM))
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    elif kind == "not_object":
        choices = [[body_value], "text", 42, True, []] + ([None] if op.body_required else [])
        body = encode(draw(st.sampled_from(choices))).encode()
        headers["Content-Type"] = "application/json"
    elif kind == "deep_nesting":
        opener, closer = draw(st.sampled_from((("[", "]"), ('{"a":', "}"))))
        where = draw(st.sampled_from(("top", "field")))
        nested = opener * DEEP + "1" + closer * DEEP
        if where == "top" or not isinstance(body_value, dict):
            body = nested.encode()
        else:
            body = ("{" + '"zzDeep":' + nested + "}").encode()
        headers["Content-Type"] = "application/json"
    elif kind == "duplicate_key":
        value = body_value if isinstance(body_value, dict) and body_value else {"zzKey": 1}
        key = draw(st.sampled_from(sorted(value)))
        pairs = list(value.items()) + [(key, value[key])]
        if op.form_schema is not None:
            body = "&".join(f"{urllib.parse.quote(str(k))}={urllib.parse.quote(str(v))}" for k, v in pairs).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        else:
            body = encode(DuplicateKeys(pairs)).encode()
            headers["Content-Type"] = "application/json"
        detail = key
    if body_must_break and op.image_body:
        body = draw(st.sampled_from(NOT_IMAGE))
        headers["Content-Type"] = "image/png"
    elif kind in ("missing_required", "wrong_type", "refused_value", "unknown_field", "wrong_content_type") \
            or body_must_break:
        body, detail_body = broken_body(draw, ctx, op, body_value,
                                        kind if kind in ("missing_required", "wrong_type", "refused_value",
                                                         "unknown_field") else None)
        detail = (detail + " " + detail_body).strip()
        if op.form_schema is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        else:
            headers["Content-Type"] = "application/json"
        if kind == "wrong_content_type":
            headers["Content-Type"] = draw(st.sampled_from(WRONG_CONTENT_TYPES))
    return Case(op, kind, auth, op.method, with_query(path, query), headers, body, stream, detail)


def broken_body(draw, ctx, op, value, kind):
    """(body bytes, detail) of a body that breaks the operation's schema in one way."""
    schema = op.json_schema if op.json_schema is not None else op.form_schema
    positions = object_positions(ctx.doc, schema, value)
    attempts = []
    for _ in range(12):
        choice = kind or draw(st.sampled_from(("missing_required", "wrong_type", "refused_value", "unknown_field")))
        mutated, detail = mutate(draw, ctx, positions, value, choice, form=op.form_schema is not None)
        if mutated is None:
            attempts.append(choice)
            continue
        if has_raw(mutated) or ctx.checker.is_invalid(schema, mutated):
            return serialise(op, mutated), f"{choice}: {detail}"
        attempts.append(choice)
    # Nothing in the schema to break at a field: a body of the wrong JSON type is always invalid.
    return b"[]" if op.form_schema is None else b"%ZZ=1", "not an object (no field to break)"


def mutate(draw, ctx, positions, value, kind, form):
    if not positions:
        return None, ""
    path, schema = draw(st.sampled_from(positions))
    props = schema.get("properties", {})
    if kind == "missing_required":
        target = value
        for step in path:
            target = target[step]
        present = [n for n in schema.get("required", []) if n in target]
        if not present:
            return None, ""
        name = draw(st.sampled_from(present))
        return replaced(value, path, lambda obj: obj.pop(name)), ".".join(map(str, path + (name,)))
    if kind == "unknown_field":
        if schema.get("additionalProperties", True) is not False:
            return None, ""
        name = draw(st.sampled_from(("zzUnknown", "ID", "__proto__", "constructor", "", "a" * 300)))
        if name in props:
            return None, ""
        return replaced(value, path, lambda obj: obj.__setitem__(name, 1)), ".".join(map(str, path + (name,)))
    if not props:
        return None, ""
    name = draw(st.sampled_from(sorted(props)))
    sub = ctx.doc.resolve(props[name])
    if kind == "wrong_type":
        if form:
            return None, ""
        candidates = schemas.wrong_type_values(sub)
    else:
        candidates = schemas.refused_values(sub)
        if form:
            candidates = [v for v in candidates if isinstance(v, str)]
    if name not in schema.get("required", []):
        # JSON null and, for some fields, the empty string count as absent for an
        # optional field (docs/verification.md, docs/events.md, blank_is_absent).
        candidates = [v for v in candidates if v is not None and v != ""]
    # Text fields are trimmed (the core document's Bad input decisions): a value
    # is refused only if it still is once trimmed.
    candidates = [v for v in candidates
                  if not isinstance(v, str) or v == v.strip() or ctx.checker.is_invalid(sub, v.strip())]
    if not candidates:
        return None, ""
    bad = draw(st.sampled_from(candidates))
    where = ".".join(map(str, path + (name,)))
    if isinstance(bad, schemas.Raw):
        target = json.loads(json.dumps(value))
        obj = target
        for step in path:
            obj = obj[step]
        obj[name] = bad
        return target, f"{where}={bad.text}"
    return replaced(value, path, lambda obj: obj.__setitem__(name, bad)), f"{where}={str(bad)[:30]}"


def serialise(op, value):
    if op.form_schema is not None and isinstance(value, dict):
        return urllib.parse.urlencode({k: v for k, v in value.items()}).encode()
    return encode(value).encode("utf-8")
