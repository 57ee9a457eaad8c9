"""openapi_check: validating the responses the e2e suite receives against the OpenAPI documents.

A service's document is the contract its clients are written from, so every
response the suite receives must be one the document announces: a status the
operation lists, and a JSON body that matches the listed schema. `OpenApi`
does the check for one document (jsonschema Draft 2020-12, $refs resolved);
`check_response` is the hook cbclient.HttpClient calls on every response, and
picks the document by the port the response came from (identity and
verification here; the core suite validates through corebanking.Core).

Closed objects: with `closed=True` a body member that the schema does not
list fails too (an undocumented field is as much a surprise to a client as an
undocumented status), unless the schema says `additionalProperties`. The
identity and verification documents are checked closed.
"""

import datetime
import json
import re
import threading
import urllib.parse

import cbclient as cb

UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")

# Statuses the HTTP layer answers before any route is found: an unknown path
# (404), a request line or headers it cannot read (400), a body over the limit
# (413), a request that does not arrive in time (408). Their body is the
# service's error body.
PRE_ROUTE_STATUSES = (400, 404, 408, 413)


class OpenApi:
    """One service's OpenAPI document and response validation against it."""

    def __init__(self, document, name="/openapi.json", error_schema="ErrorResponse", closed=False):
        import jsonschema
        self.jsonschema = jsonschema
        self.document = document
        self.name = name
        self.error_schema = error_schema
        self.closed = closed
        self._local = threading.local()
        self.format_checker = self._format_checker()
        self._routes = []
        for template, item in document["paths"].items():
            pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
            literal = template.count("{")
            self._routes.append((literal, template, re.compile(pattern), item))
        # Literal paths win over templated ones (fewer parameters first).
        self._routes.sort(key=lambda route: route[0])

    @staticmethod
    def _format_checker():
        from jsonschema import FormatChecker
        checker = FormatChecker()

        @checker.checks("date-time", raises=(ValueError, AssertionError))
        def is_datetime(value):
            if not isinstance(value, str):
                return True
            if "T" not in value:
                raise ValueError(f"no T in {value!r}")
            cb.parse_iso8601(value)
            return True

        @checker.checks("date", raises=ValueError)
        def is_date(value):
            if not isinstance(value, str):
                return True
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
                raise ValueError(value)
            datetime.date.fromisoformat(value)
            return True

        @checker.checks("uuid", raises=ValueError)
        def is_uuid(value):
            if not isinstance(value, str):
                return True
            if not UUID_RE.match(value.lower()):
                raise ValueError(value)
            return True

        return checker

    @property
    def resolver(self):
        """A RefResolver per thread: resolvers keep a scope stack and are not thread-safe."""
        resolver = getattr(self._local, "resolver", None)
        if resolver is None:
            resolver = self.jsonschema.RefResolver(base_uri="", referrer=self.document)
            self._local.resolver = resolver
        return resolver

    def deref(self, node):
        while isinstance(node, dict) and "$ref" in node:
            _, node = self.resolver.resolve(node["$ref"])
        return node

    def operation(self, method, path):
        """(template, operation object) for METHOD and a concrete path, or (None, None)."""
        path = urllib.parse.urlsplit(path).path
        for _, template, pattern, item in self._routes:
            if pattern.match(path):
                operation = item.get(method.lower())
                if operation is not None:
                    return template, operation
                return template, None
        return None, None

    def response_spec(self, method, path, status):
        """The documented response object, raising AssertionError when undocumented."""
        template, operation = self.operation(method, path)
        if operation is None:
            raise AssertionError(f"{method} {path} is not an operation of {self.name}")
        responses = operation.get("responses", {})
        spec = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX") or responses.get("default")
        if spec is None:
            raise AssertionError(f"{method} {template}: status {status} is not documented in {self.name}"
                                 f" (documented: {sorted(responses)})")
        return self.deref(spec)

    def response_schema(self, method, path, status):
        """The JSON schema of the documented response (None when it has no JSON body)."""
        media = (self.response_spec(method, path, status).get("content") or {}).get("application/json")
        return None if media is None else media.get("schema")

    def _errors(self, schema, body):
        validator = self.jsonschema.Draft202012Validator(
            schema, resolver=self.resolver, format_checker=self.format_checker)
        errors = [f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message[:300]}"
                  for e in sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))]
        if self.closed:
            errors += undocumented_members(self, schema, body, "")
        return errors

    def validate(self, method, path, status, body):
        """Validate body against the documented schema; AssertionError listing every problem."""
        schema = self.response_schema(method, path, status)
        if schema is None:
            return
        errors = self._errors(schema, body)
        if errors:
            raise AssertionError(f"{method} {path} -> {status}: body does not match {self.name}:\n  "
                                 + "\n  ".join(errors[:10]) + f"\nbody: {json.dumps(body)[:1500]}")

    def check(self, method, path, resp):
        """Validate one Response (status documented; JSON body matches the schema)."""
        if resp.status == 405:
            # Not operation-specific; the shape is the common error body.
            self.validate_error(resp)
            return
        template, operation = self.operation(method, path)
        if operation is None:
            if resp.status in PRE_ROUTE_STATUSES and resp.body:
                # Unknown route (or a path that never reaches an operation): the error body.
                self.validate_error(resp)
                return
            raise AssertionError(f"{method} {path} -> {resp.status}: no operation in {self.name}")
        schema = self.response_schema(method, path, resp.status)
        if schema is None:
            return
        content_type = (resp.header("Content-Type") or "").lower()
        if "json" not in content_type:
            raise AssertionError(f"{method} {path} -> {resp.status}: Content-Type {content_type!r} is not JSON")
        self.validate(method, path, resp.status, resp.json)

    def validate_error(self, resp):
        schema = self.document["components"]["schemas"][self.error_schema]
        errors = self._errors(schema, resp.json)
        if errors:
            raise AssertionError(f"error body does not match {self.error_schema} of {self.name}:"
                                 f" {errors[0]}: {resp!r}")


def _object_members(spec, schema, seen=()):
    """(names the schema lists for an object, whether it admits others) through $ref and combinators."""
    schema = spec.deref(schema)
    if not isinstance(schema, dict) or id(schema) in seen:
        return set(), True
    seen = seen + (id(schema),)
    names = set(schema.get("properties", {}))
    extra = schema.get("additionalProperties", schema.get("unevaluatedProperties"))
    open_ = extra is not None and extra is not False
    listed = bool(names) or extra is False
    for key in ("allOf", "anyOf", "oneOf"):
        for branch in schema.get(key, []):
            branch_names, branch_open = _object_members(spec, branch, seen)
            names |= branch_names
            open_ = open_ or (branch_open and not branch_names)
            listed = listed or bool(branch_names)
    # A schema that lists no member at all (a free-form object) admits any.
    return names, open_ or not listed


def _member_schemas(spec, schema, name):
    """Every subschema the schema gives member `name` (through $ref and combinators)."""
    schema = spec.deref(schema)
    if not isinstance(schema, dict):
        return []
    found = [schema["properties"][name]] if name in schema.get("properties", {}) else []
    for key in ("allOf", "anyOf", "oneOf"):
        for branch in schema.get(key, []):
            found += _member_schemas(spec, branch, name)
    return found


def _item_schemas(spec, schema):
    schema = spec.deref(schema)
    if not isinstance(schema, dict):
        return []
    found = [schema["items"]] if isinstance(schema.get("items"), dict) else []
    for key in ("allOf", "anyOf", "oneOf"):
        for branch in schema.get(key, []):
            found += _item_schemas(spec, branch)
    return found


def undocumented_members(spec, schema, body, where):
    """Paths of body members the schema does not list (objects with additionalProperties excepted)."""
    problems = []
    if isinstance(body, dict):
        names, open_ = _object_members(spec, schema)
        for name, value in body.items():
            if name not in names:
                if not open_:
                    problems.append(f"{where or '<root>'}: member {name!r} is not documented")
                continue
            for member in _member_schemas(spec, schema, name):
                problems += undocumented_members(spec, member, value, f"{where}/{name}")
    elif isinstance(body, list):
        for items in _item_schemas(spec, schema):
            for index, value in enumerate(body):
                problems += undocumented_members(spec, items, value, f"{where}/{index}")
    return problems


# ---------------------------------------------------------------- the services checked on every response

# base URL -> (document name, error schema); the documents are fetched once from the service.
_SERVICES = {
    "identity": (cb.ID_URL, "ErrorResponse"),
    "verification": (cb.VERIFY_URL, "Error"),
}
_documents = {}
_lock = threading.Lock()


def _address(base_url):
    parts = urllib.parse.urlsplit(base_url)
    return parts.hostname, parts.port or 80


def service_of(host, port):
    """The checked service answering at host:port, or None."""
    for service, (url, _) in _SERVICES.items():
        if url and _address(url) == (host, port):
            return service
    return None


def document(service):
    """The OpenApi of a checked service, from its own GET /openapi.json (fetched once)."""
    with _lock:
        if service not in _documents:
            url, error_schema = _SERVICES[service]
            resp = cb.HttpClient(url).request("GET", "/openapi.json", check=False)
            if resp.status != 200:
                raise AssertionError(f"{service}: GET /openapi.json failed: {resp!r}")
            _documents[service] = OpenApi(resp.json, f"the {service} service's /openapi.json",
                                          error_schema=error_schema, closed=True)
        return _documents[service]


def check_response(host, port, method, path, resp):
    """cbclient's hook: validate a response of the identity or verification service."""
    service = service_of(host, port)
    if service is None:
        return
    document(service).check(method, urllib.parse.urlsplit(path).path, resp)
