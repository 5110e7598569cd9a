"""ASGI entry point: HTTP by Django, WebSockets at /ws/ by Channels."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claim.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from accounts.ws_auth import TokenOrSessionAuthMiddlewareStack  # noqa: E402
from claim.ws_routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(TokenOrSessionAuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
