"""Serves the PWA: the app shell at / and the service worker at /sw.js (root scope).

The build lives in frontend/dist (``scripts/bootstrap.sh`` runs ``npm run build``); its assets are
static files under /static/, served by :class:`StaticFilesMiddleware` (WhiteNoise). Without a build,
/ shows a plain page pointing to the API docs.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from whitenoise.middleware import WhiteNoiseMiddleware


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise's middleware (same files, headers and settings), usable in async mode.

    ``WhiteNoiseMiddleware`` is sync-only, so under ASGI Django runs the whole middleware chain
    around it by switching between the event loop and threads on every request. This subclass is
    sync- and async-capable (like Django's own middleware), so the chain stays async up to the view
    (docs/performance.md). The file lookup is a dict lookup (a filesystem search only with
    ``WHITENOISE_AUTOREFRESH``, the DEBUG default, done in a thread).
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response=None, settings=settings):
        super().__init__(get_response, settings=settings)
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)

    # Vite names its build output assets/<name>-<8-character content hash>.<ext>: cache those forever.
    VITE_HASHED = re.compile(r"^assets/[^/]+-[A-Za-z0-9_-]{8}\.(?:js|css|mjs|woff2?|png|svg|webp)$")

    def immutable_file_test(self, path, url):
        """Django's hashed names (the manifest storage) and Vite's content-hashed assets are immutable."""
        if url.startswith(self.static_prefix) and self.VITE_HASHED.match(url[len(self.static_prefix):]):
            return True
        return super().immutable_file_test(path, url)

    def __call__(self, request):
        if self.async_mode:
            return self.__acall__(request)
        return super().__call__(request)

    async def __acall__(self, request):
        if self.autorefresh:
            static_file = await sync_to_async(self.find_file, thread_sensitive=False)(request.path_info)
        else:
            static_file = self.files.get(request.path_info)
        if static_file is not None:
            return self.serve(static_file, request)
        return await self.get_response(request)


FALLBACK = (
    "<!doctype html><html lang=en><meta charset=utf-8><title>claim</title>"
    "<h1>claim</h1><p>The app is not built yet. The API is at <a href=/api/v1/docs/>/api/v1/docs/</a>.</p></html>"
)


def _dist() -> Path:
    return Path(settings.BASE_DIR) / "frontend" / "dist"


@lru_cache(maxsize=4)
def _read(path: Path, mtime: float) -> bytes:
    return path.read_bytes()


def _file(name: str) -> bytes | None:
    path = _dist() / name
    try:
        return _read(path, path.stat().st_mtime)
    except FileNotFoundError:
        return None


@never_cache
@ensure_csrf_cookie
def index(request: HttpRequest) -> HttpResponse:
    body = _file("index.html")
    return HttpResponse(body if body is not None else FALLBACK, content_type="text/html; charset=utf-8")


def service_worker(request: HttpRequest) -> HttpResponse:
    body = _file("sw.js")
    if body is None:
        raise Http404("The PWA is not built.")
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


urlpatterns = [
    path("", index, name="index"),
    path("reset-password", index, name="reset-password"),  # the e-mailed link (accounts.services) opens the PWA
    path("sw.js", service_worker, name="service-worker"),
]
