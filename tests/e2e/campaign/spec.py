"""spec: the operations of one service, read from its served OpenAPI document.

Only what the campaign needs: for each operation its method, path template,
parameters (path, query, header) with their schemas, the request body (media
types, schema, required) and whether it needs credentials. `$ref`s are
followed lazily with `resolve`.
"""

import dataclasses

METHODS = ("get", "post", "put", "patch", "delete")
REF_DEPTH_MAX = 50  # a $ref chain longer than this is a cycle


class Document:
    """One OpenAPI document and local $ref resolution."""

    def __init__(self, service, document):
        self.service = service
        self.document = document

    def resolve(self, node):
        for _ in range(REF_DEPTH_MAX):
            if not (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
                return node
            target = self.document
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            node = target
        raise ValueError(f"{self.service}: $ref chain too long")


@dataclasses.dataclass
class Parameter:
    name: str
    location: str      # path, query or header
    required: bool
    schema: dict


@dataclasses.dataclass
class Operation:
    service: str
    method: str        # upper case
    template: str
    parameters: list
    body_required: bool
    media: dict        # media type -> schema ({} when the operation takes no body)
    secured: bool      # False: public (security [] or one alternative is {})
    schemes: tuple     # security scheme names it accepts
    statuses: frozenset

    @property
    def name(self):
        return f"{self.service} {self.method} {self.template}"

    def params(self, location):
        return [p for p in self.parameters if p.location == location]

    @property
    def json_schema(self):
        return self.media.get("application/json")

    @property
    def form_schema(self):
        return self.media.get("application/x-www-form-urlencoded")

    @property
    def image_body(self):
        return any(m.startswith("image/") for m in self.media)

    @property
    def takes_body(self):
        return bool(self.media)


def operations(doc):
    """Every operation of the document, in document order."""
    out = []
    top_security = doc.document.get("security", [])
    for template, item in doc.document.get("paths", {}).items():
        item = doc.resolve(item)
        shared = item.get("parameters", [])
        for method in METHODS:
            op = item.get(method)
            if op is None:
                continue
            params = {}
            for raw in shared + op.get("parameters", []):
                p = doc.resolve(raw)
                params[(p["name"], p["in"])] = Parameter(p["name"], p["in"], bool(p.get("required")),
                                                         doc.resolve(p.get("schema", {})))
            body = doc.resolve(op.get("requestBody") or {})
            media = {kind: doc.resolve(content.get("schema", {}))
                     for kind, content in (body.get("content") or {}).items()}
            security = op.get("security", top_security)
            secured = bool(security) and all(requirement for requirement in security)
            schemes = tuple(sorted({name for requirement in security for name in requirement}))
            out.append(Operation(doc.service, method.upper(), template,
                                 [p for p in params.values() if p.location in ("path", "query", "header")],
                                 bool(body.get("required")), media, secured, schemes,
                                 frozenset(op.get("responses", {}))))
    return out
