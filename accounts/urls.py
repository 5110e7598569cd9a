"""Account endpoints (filled in by the accounts API)."""

from __future__ import annotations

urlpatterns: list = []
