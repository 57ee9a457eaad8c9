"""verdict: what the answer to a malformed request must be.

A 4xx (never 2xx or 3xx: every case is invalid by construction; never 5xx;
never a dropped connection) whose body is the service's error body as its
OpenAPI document defines it:
  core, identity  components.schemas.ErrorResponse {error, message, status, timestamp?}
  verify          components.schemas.Error {error, message, status, timestamp}
  events          BusinessError {success: false, error}, Detail {detail: string}
                  or ValidationError {detail: [...]} (422)
and, for the first three, `status` in the body equal to the HTTP status; and
a status the operation lists in its `responses` (a client written from the
document must know every status it can get), except 405 and 431, which no
operation lists.
"""

import json

ERROR_SCHEMAS = {"core": ("ErrorResponse",), "identity": ("ErrorResponse",), "verify": ("Error",),
                 "events": ("BusinessError", "Detail", "ValidationError")}


def problems(ctx, case, resp, error):
    """A list of what is wrong with the answer (empty when it is a proper refusal)."""
    if resp is None:
        return [f"no answer ({error})"]
    if resp.status >= 500:
        return [f"server error {resp.status}: {resp.body[:200]!r}"]
    if resp.status < 400:
        return [f"accepted a malformed request with {resp.status}: {resp.body[:200]!r}"]
    content_type = (resp.header("Content-Type") or "").lower()
    if "json" not in content_type:
        return [f"{resp.status} without a JSON error body (Content-Type {content_type!r}): {resp.body[:120]!r}"]
    try:
        body = json.loads(resp.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return [f"{resp.status} body is not JSON: {resp.body[:120]!r}"]
    except RecursionError:
        return [f"{resp.status} error body nests too deep for a JSON parser ({len(resp.body)} bytes):"
                f" {resp.body[:120]!r}"]
    names = ERROR_SCHEMAS[ctx.doc.service]
    schemas_ = ctx.doc.document["components"]["schemas"]
    if not any(not ctx.checker.is_invalid(schemas_[name], body) for name in names):
        return [f"{resp.status} body is not the service's error body {names}: {resp.body[:200]!r}"]
    if ctx.doc.service != "events" and body.get("status") != resp.status:
        return [f"body status {body.get('status')!r} != HTTP {resp.status}"]
    return []


def documented(case, resp):
    """False when the operation does not document the status it answered (405 and 431 are never per operation)."""
    if resp is None or resp.status in (405, 431):
        return True
    statuses = case.op.statuses
    return str(resp.status) in statuses or f"{str(resp.status)[0]}XX" in statuses or "default" in statuses


def undocumented(case, resp):
    """The problem of an answer whose status the operation's `responses` do not list (empty when listed)."""
    if documented(case, resp):
        return []
    return [f"status {resp.status} is not in the operation's responses {sorted(case.op.statuses)}:"
            f" {resp.body[:160]!r}"]
