"""WebSocket routes (the game service adds its consumer here)."""

from __future__ import annotations

websocket_urlpatterns: list = []
