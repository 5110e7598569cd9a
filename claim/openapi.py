"""OpenAPI postprocessing: the error answers every operation can give, documented once (issue 22).

Some refusals come from layers below the views, the same for every endpoint: the bounded JSON parser and
the address filter (400), authentication (401), scopes and CSRF (403), an unknown id in the path (404), a
body too large (413) or not JSON (415), the throttles (429), a database briefly away (503). Rather than
repeat them on every view, :func:`add_common_errors` adds each to every operation where it can happen,
with the one error shape (``{"error": {"code", "message"}}``), unless the view documents it itself.
"""

from __future__ import annotations

from typing import Any

#: status -> (description, example code)
COMMON: dict[int, tuple[str, str]] = {
    400: ("Invalid request (malformed JSON, a NUL or lone surrogate, a bad parameter): `error.fields` "
          "names the fields.", "invalid"),
    401: ("No, malformed, unknown or revoked credentials.", "not_authenticated"),
    403: ("Missing token scope, a failed CSRF check (session), or not allowed here.", "permission_denied"),
    404: ("No such object, or one you may not see.", "not_found"),
    413: ("The request body is too large.", "too_large"),
    415: ("The body is not JSON (`Content-Type: application/json`).", "unsupported_media_type"),
    429: ("Rate limit: see `Retry-After`.", "throttled"),
    503: ("The database or Redis is briefly away: retry after `Retry-After`.", "service_unavailable"),
}
_METHODS = ("get", "put", "post", "patch", "delete")


def _views(generator: Any) -> dict[tuple[str, str], Any]:
    """``(path, method) -> view class`` of the generated operations."""
    out = {}
    for path, _regex, method, callback in getattr(generator, "endpoints", None) or []:
        out[(path, method.lower())] = getattr(callback, "cls", None)
    return out


def _throttled(view: Any) -> bool:
    if view is None:
        return True
    return bool(getattr(view, "throttle_classes", True))


def _statuses(path: str, method: str, operation: dict[str, Any], view: Any) -> list[int]:
    security = operation.get("security") or []
    schemes = {name for requirement in security for name in requirement}
    out = [400, 503]
    if "tokenAuth" in schemes:
        out.append(401)
    if schemes:
        out.append(403)
    if "{" in path:
        out.append(404)
    if "requestBody" in operation or method in ("post", "put", "patch"):
        out += [413, 415]
    if _throttled(view):
        out.append(429)
    return sorted(out)


def add_common_errors(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the common error answers (:data:`COMMON`) on every operation."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    ref = {"$ref": "#/components/schemas/GameError"} if "GameError" in schemas else {"type": "object"}
    views = _views(generator)
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if method not in _METHODS:
                continue
            responses = operation.setdefault("responses", {})
            for status in _statuses(path, method, operation, views.get((path, method))):
                if str(status) in responses:
                    continue
                description, code = COMMON[status]
                responses[str(status)] = {
                    "description": description,
                    "content": {"application/json": {
                        "schema": ref,
                        "examples": {code: {"value": {"error": {"code": code, "message": description}}}},
                    }},
                }
    return result
