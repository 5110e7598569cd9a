"""Shared fixtures. Settings: claim.settings_test."""

from __future__ import annotations

import copy

import pytest


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient  # noqa: PLC0415 - reads Django's settings: pure runs have none

    return APIClient()


@pytest.fixture
def make_user(db):
    """``make_user(name=None, **fields)``: :func:`tests.factories.make_user` with the database enabled."""
    from tests.factories import make_user  # noqa: PLC0415 - imports the models: pure runs have no Django

    return make_user


@pytest.fixture
def user(make_user):
    """Alice, password :data:`tests.factories.PASSWORD`, e-mail alice@example.org."""
    return make_user("Alice")


@pytest.fixture
def eager_tasks(settings):
    """Background tasks (AI turns, ratings, e-mails…) run inline where they are enqueued, mostly in an
    on-commit hook, and raise their errors: ``TASK_MODE = "eager"`` (claim.tasks.enqueue). A directory whose
    every test needs it requests it from an autouse fixture of its conftest."""
    settings.TASK_MODE = "eager"


@pytest.fixture
def rates(settings):
    """``rates(chat="8/min", ...)``: set DRF throttle rates for this test."""

    def set_rates(**values: str) -> None:
        rf = copy.deepcopy(settings.REST_FRAMEWORK)
        rf["DEFAULT_THROTTLE_RATES"].update(values)
        settings.REST_FRAMEWORK = rf

    return set_rates


@pytest.fixture
def served(transactional_db):
    """The served shape (gunicorn, uvicorn and the proxy) sharing pushes through the Redis channel layer only
    (tests/realtime/servers.py)."""
    from tests.realtime.servers import shared_env, start_served  # noqa: PLC0415 - imports Django's settings

    stack = start_served(shared_env("gunicorn and uvicorn share pushes only through the Redis channel layer"))
    try:
        yield stack
    finally:
        stack.stop()


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
        from django.core.cache import cache  # noqa: PLC0415 - pure runs never import Django

        cache.clear()
    yield
