"""ASGI entry point: HTTP (the NDJSON streams too) by Django's ASGI handler, WebSockets at /ws/ by Channels.

Every HTTP request goes through Django's stack (middleware, DRF, the views); the two NDJSON streams are Django
views whose body is an async iterator, sent on the event loop (games/streams.py). Run by uvicorn: for everything
under ``make run``; in production for the sockets and streams only, which the proxy sends here while Django's
other HTTP runs on gunicorn (claim/wsgi.py; docs/architecture.md, "Process model").
"""

from __future__ import annotations

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claim.settings")
django.setup(set_prefix=False)

from django.core.asgi import get_asgi_application  # noqa: E402

http_app = get_asgi_application()
# Objects made at start-up (modules, settings, URL patterns) are left out of the garbage collector's passes.
gc.freeze()

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
