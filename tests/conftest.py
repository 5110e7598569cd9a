"""Shared fixtures. Settings: claim.settings_test."""

from __future__ import annotations

import pytest


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture(autouse=True)
def _clear_cache():
    """Throttle counters live in the cache: every test starts from zero."""
    from django.core.cache import cache

    cache.clear()
    yield
