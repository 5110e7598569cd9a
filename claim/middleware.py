"""Request guards that hold in every mode (docs/security.md, "Errors").

:class:`RequestGuard` (first in ``MIDDLEWARE`` after SecurityMiddleware):

* refuses a path or query string carrying NUL or a lone surrogate with 400 before any view (a NUL in a
  username reached PostgreSQL, which refuses it with a 500);
* turns any exception a view raises that nothing else handled into a generic 500 that names no state, even
  with ``DEBUG`` on: JSON in the API's error shape under ``/api/`` (whatever ``Accept`` says), a plain page
  elsewhere. The traceback goes to the log only.

It also sets the ``Content-Security-Policy`` of every answer that has none (:data:`CSP`): only this origin's
scripts, styles, images, sockets and workers; no plugin, no framing, no foreign form target. The PWA, the
admin and the API docs (Swagger UI from drf-spectacular-sidecar, its set-up script a file of its own) need
nothing else. One fixed header, set here rather than by another middleware that would leave the event loop
for a thread on every request under ASGI.

Sync- and async-capable like Django's own middleware, so the chain stays async under ASGI.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import bad_request as django_bad_request
from django.views.defaults import permission_denied

from claim.api_errors import error_body
from claim.parsers import text_problem

log = logging.getLogger("claim.errors")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
       "font-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; "
       "base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
HANDLED_BY_DJANGO = (Http404, PermissionDenied, BadRequest, SuspiciousOperation)
SERVER_ERROR = "Something went wrong on our side; nothing was changed by this request. Please retry later."


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def bad_request(request: HttpRequest, message: str) -> HttpResponse:
    if is_api(request):
        return JsonResponse(error_body("invalid", message), status=400)
    return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")


def server_error(request: HttpRequest) -> HttpResponse:
    """A 500 that shows nothing of the request or the state (also ``handler500``)."""
    if is_api(request):
        return JsonResponse(error_body("server_error", SERVER_ERROR), status=500)
    return HttpResponse(SERVER_ERROR, status=500, content_type="text/plain; charset=utf-8")


def request_problem(request: HttpRequest) -> str | None:
    problem = text_problem(request.path_info)
    if problem:
        return f"The address {problem}."
    try:
        params = request.GET.lists()
    except SuspiciousOperation:  # too many fields: Django answers 400 itself
        return None
    for key, values in params:
        for value in (key, *values):
            problem = text_problem(value)
            if problem:
                return f"The query parameter {key[:40]!r} {problem}."
    return None


def with_csp(response: HttpResponse) -> HttpResponse:
    if "Content-Security-Policy" not in response:
        response["Content-Security-Policy"] = CSP
    return response


class RequestGuard:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.async_mode:
            return self.__acall__(request)
        problem = request_problem(request)
        response = bad_request(request, problem) if problem else self.get_response(request)
        return with_csp(response)

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        problem = request_problem(request)
        response = bad_request(request, problem) if problem else await self.get_response(request)
        return with_csp(response)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, HANDLED_BY_DJANGO):  # 400/403/404 pages of their own
            return None
        log.error("unhandled %s on %s %s", type(exception).__name__, request.method, request.path_info[:200],
                  exc_info=exception)
        return server_error(request)


def bad_request_page(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: the API's JSON shape under /api/, Django's plain page elsewhere."""
    if is_api(request):
        return JsonResponse(error_body("bad_request", "The request could not be understood."), status=400)
    return django_bad_request(request, exception)


def forbidden_page(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler403``: the API's JSON shape under /api/, Django's plain page elsewhere."""
    if is_api(request):
        return JsonResponse(error_body("permission_denied", "You do not have permission to do this."), status=403)
    return permission_denied(request, exception)
