"""Game service endpoints (filled in by the game service)."""

from __future__ import annotations

urlpatterns: list = []
