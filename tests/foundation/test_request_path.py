"""The request path (docs/performance.md): an async-capable static-files middleware, and DRF's rate
throttles on Django's cache."""

from __future__ import annotations

import time

import pytest
from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.core.cache import caches
from django.http import HttpResponse
from django.test import RequestFactory, override_settings
from django.utils.module_loading import import_string
from rest_framework import throttling as drf_throttling

from claim import throttling
from claim.frontend_urls import StaticFilesMiddleware
from claim.ratelimit import ReportingThrottle
from games.api.views import GameMovesView, MovesThrottle

# --- static files --------------------------------------------------------------------------------


def test_every_middleware_is_async_capable():
    """One sync-only middleware makes Django run the chain through threads on every ASGI request."""
    sync_only = [path for path in settings.MIDDLEWARE if not getattr(import_string(path), "async_capable", False)]
    assert sync_only == []


@pytest.fixture
def static_root(tmp_path):
    (tmp_path / "app.css").write_text("body{color:red}")
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "index.0123456789ab.js").write_text("console.log(1)")
    with override_settings(STATIC_ROOT=tmp_path, WHITENOISE_AUTOREFRESH=False, WHITENOISE_USE_FINDERS=False):
        yield tmp_path


def _content(response) -> bytes:
    return b"".join(response.streaming_content)


def test_static_files_are_served_with_caching_headers_sync(static_root):
    mw = StaticFilesMiddleware(lambda request: HttpResponse("from django"))
    assert not iscoroutinefunction(mw)
    response = mw(RequestFactory().get("/static/app.css"))
    assert response.status_code == 200
    assert _content(response) == b"body{color:red}"
    assert response["Content-Type"].startswith("text/css")
    assert response["Cache-Control"] == f"max-age={mw.max_age}, public"
    assert "ETag" in response and "Last-Modified" in response
    assert mw(RequestFactory().get("/api/v1/health")).content == b"from django"


async def test_static_files_are_served_with_caching_headers_async(static_root):
    async def get_response(request):
        return HttpResponse("from django")

    mw = StaticFilesMiddleware(get_response)
    assert iscoroutinefunction(mw)
    response = await mw(RequestFactory().get("/static/app.css"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    assert response["Cache-Control"] == f"max-age={mw.max_age}, public"
    etag = response["ETag"]
    assert _content(response) == b"body{color:red}"
    # conditional GET still answers 304
    again = await mw(RequestFactory().get("/static/app.css", HTTP_IF_NONE_MATCH=etag))
    assert again.status_code == 304
    # anything else goes on down the chain
    assert (await mw(RequestFactory().get("/api/v1/health"))).content == b"from django"
    assert (await mw(RequestFactory().get("/static/missing.css"))).content == b"from django"


async def test_static_files_autorefresh_async(static_root):
    async def get_response(request):
        return HttpResponse("from django", status=404)

    with override_settings(WHITENOISE_AUTOREFRESH=True):
        mw = StaticFilesMiddleware(get_response)
        (static_root / "late.css").write_text("p{}")  # found without a restart
        response = await mw(RequestFactory().get("/static/late.css"))
    assert response.status_code == 200
    assert _content(response) == b"p{}"


@pytest.mark.django_db
def test_the_app_shell_and_its_assets_load_through_the_full_stack(client, static_root, settings):
    # the middleware reads STATIC_ROOT when the handler is built: a fresh test client builds it
    response = client.get("/static/assets/index.0123456789ab.js")
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"console.log(1)"
    assert "max-age=" in response["Cache-Control"]
    assert client.get("/").status_code == 200


# --- throttles -------------------------------------------------------------------------------------

REDIS_CACHE = {"default": {"BACKEND": "django_redis.cache.RedisCache",  # claim/settings.py with REDIS_URL
                           "LOCATION": settings.REDIS_URL, "KEY_PREFIX": "test-throttle"}}
needs_redis = pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL")


class _User:
    is_authenticated = True

    def __init__(self, pk: int) -> None:
        self.pk = pk


class _View:
    throttle_scope = "moves"


def _request(user_pk: int):
    request = RequestFactory().post("/api/v1/games/1/moves")
    request.user = _User(user_pk)
    return request


def _throttle(cls, rate: str, now: list[float]):
    throttle = cls()
    throttle.rate = rate
    throttle.num_requests, throttle.duration = throttle.parse_rate(rate)
    throttle.timer = lambda: now[0]
    return throttle


@pytest.fixture
def redis_cache():
    with override_settings(CACHES=REDIS_CACHE):
        caches["default"].clear()
        yield caches["default"]
        caches["default"].clear()


@needs_redis
def test_throttles_on_the_redis_cache_are_drfs(redis_cache):
    """On the Redis cache (django-redis) the throttle keeps DRF's history list under DRF's key and refuses as DRF
    does."""
    assert type(redis_cache).__module__ == "django_redis.cache"
    now = [time.time()]
    throttle = _throttle(throttling.UserRateThrottle, "2/min", now)
    assert throttle.allow_request(_request(8), _View()) is True
    assert redis_cache.get("throttle_user_8") == [now[0]]
    assert _throttle(throttling.UserRateThrottle, "2/min", now).allow_request(_request(8), _View()) is True
    refused = _throttle(throttling.UserRateThrottle, "2/min", now)
    assert refused.allow_request(_request(8), _View()) is False
    assert refused.wait() == pytest.approx(60.0)
    # users are counted apart, scopes are counted apart (the scoped one reads the view's "moves" rate)
    assert _throttle(throttling.UserRateThrottle, "2/min", now).allow_request(_request(9), _View()) is True
    scoped = _throttle(throttling.ScopedRateThrottle, "2/min", now)
    assert scoped.allow_request(_request(8), _View()) is True and scoped.scope == "moves"
    assert redis_cache.get("throttle_moves_8") == [now[0]]


def test_other_caches_use_drf_unchanged():
    cache = caches["default"]
    assert "LocMemCache" in type(cache).__name__  # claim.settings_test
    now = [time.time()]
    throttle = _throttle(throttling.UserRateThrottle, "2/min", now)
    assert throttle.allow_request(_request(10), _View()) is True
    assert cache.get("throttle_user_10") == [now[0]]  # DRF's pickled history list
    throttle.allow_request(_request(10), _View())
    assert throttle.allow_request(_request(10), _View()) is False
    assert throttle.wait() == pytest.approx(60.0)


def test_moves_endpoint_keeps_both_limits():
    assert [c.__mro__[1:4] for c in GameMovesView.throttle_classes] == [
        (ReportingThrottle, drf_throttling.UserRateThrottle, drf_throttling.SimpleRateThrottle),
        (throttling.ScopedRateThrottle, ReportingThrottle, drf_throttling.ScopedRateThrottle),
    ]
    assert issubclass(MovesThrottle, drf_throttling.ScopedRateThrottle)
    assert GameMovesView.throttle_scope == "moves"
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] == [
        "claim.throttling.AnonRateThrottle", "claim.throttling.UserRateThrottle"]
