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

from accounts.ws_auth import SocketAuthStack  # noqa: E402
from claim.logfilters import redact_tokens_in_server_logs  # noqa: E402
from claim.ws_routing import websocket_urlpatterns  # noqa: E402

redact_tokens_in_server_logs()

# The socket's credential and Origin check are decided in one place (accounts/ws_auth.py).
application = ProtocolTypeRouter(
    {
        "http": http_app,
        "websocket": SocketAuthStack(URLRouter(websocket_urlpatterns)),
    }
)
