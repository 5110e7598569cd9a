"""ASGI entry point: HTTP by Django (claim/http.py), WebSockets at /ws/ by Channels."""

from __future__ import annotations

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claim.settings")
django.setup(set_prefix=False)

from claim.http import http_application, tune_gc  # noqa: E402

tune_gc()
from games.fastmoves import FastMoves  # noqa: E402

http_app = FastMoves(http_application())  # the move endpoint's plain case on the loop (games/fastmoves.py)

if os.environ.get("CLAIM_EMBEDDED_BEAT") == "1":  # set by `make run`: no Celery beat there
    from claim.tasks import start_embedded_beat

    start_embedded_beat()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from accounts.ws_auth import TokenOrSessionAuthMiddlewareStack  # noqa: E402
from claim.ws_routing import websocket_urlpatterns  # noqa: E402


def _presents_token(scope) -> bool:
    """A token in the query string or an Authorization header: a non-browser client."""
    if b"token=" in scope.get("query_string", b""):
        return True
    return any(name == b"authorization" for name, _ in scope.get("headers", []))


class OriginCheckForCookies:
    """Cross-site WebSocket hijacking needs the victim's cookies, so the Origin check guards
    cookie (session) sockets only. Token clients (bots, third-party apps) often send no Origin
    at all; their token is the credential, and the auth middleware still checks it."""

    def __init__(self, inner):
        self.inner = inner
        self.checked = AllowedHostsOriginValidator(inner)

    async def __call__(self, scope, receive, send):
        app = self.inner if _presents_token(scope) else self.checked
        return await app(scope, receive, send)


application = ProtocolTypeRouter(
    {
        "http": http_app,
        "websocket": OriginCheckForCookies(TokenOrSessionAuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
