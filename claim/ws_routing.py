"""WebSocket routes: the events stream at ``/ws/`` (protocol: docs/realtime.md)."""

from __future__ import annotations

from django.urls import re_path

from games.realtime.consumers import EventsConsumer

websocket_urlpatterns: list = [
    re_path(r"^ws/?$", EventsConsumer.as_asgi()),
]
