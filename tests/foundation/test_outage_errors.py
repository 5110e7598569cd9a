"""A database or Redis outage is a 503 in the API's error shape with ``Retry-After``, never a 500: whichever
library raises it (redis-py for the channel layer and broker, django-redis for the cache that holds the
throttles and cached sessions, Django for the database). The fault tests (``make faults``) show it on real
servers with Redis and PostgreSQL restarted; this pins the mapping."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from claim.api_errors import exception_handler


def _interrupted() -> ConnectionInterrupted:
    try:
        try:
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        except RedisConnectionError as exc:
            raise ConnectionInterrupted(connection=None) from exc
    except ConnectionInterrupted as wrapped:
        return wrapped


@pytest.mark.parametrize("exc", [RedisConnectionError("refused"), RedisTimeoutError("timeout"), _interrupted(),
                                 OperationalError("server closed the connection unexpectedly")],
                         ids=["redis-py connection", "redis-py timeout", "django-redis", "database"])
def test_an_outage_is_a_503_with_retry_after(exc):
    response = exception_handler(exc, {})
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.data == {"error": {"code": "service_unavailable",
                                       "message": "The service is briefly unavailable; please retry."}}
