"""The service fixtures (tests/service/conftest.py) for test_service_multi.py, only when Django is set
up: the pure engine tests also run with ``-p no:django``."""

from __future__ import annotations

try:
    from django.apps import apps

    _READY = apps.ready
except Exception:  # pragma: no cover - Django not importable
    _READY = False

if _READY:
    from tests.service.conftest import (  # noqa: F401 - fixtures
        _eager_tasks,
        alice,
        bob,
        make_api,
        stranger,
    )
