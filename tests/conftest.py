"""Shared fixtures. Settings: claim.settings_test."""

from __future__ import annotations

import pytest


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture(autouse=True)
def _clear_cache(request):
    """Throttle counters live in the cache: every database test starts from zero.

    Pure tests (rules engines, AI) do not touch Django at all, so they also run with
    ``-p no:django``.
    """
    uses_db = request.node.get_closest_marker("django_db") is not None or bool(
        {"db", "transactional_db"} & set(request.fixturenames)
    )
    if uses_db:
        from django.core.cache import cache

        cache.clear()
    yield
