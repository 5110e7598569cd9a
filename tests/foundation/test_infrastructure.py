"""The foundation: real services in CI, health endpoint, schema, settings shapes."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import redis
from django.conf import settings
from django.db import connection

IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.mark.skipif(not IN_CI, reason="only CI must prove it uses the real services")
@pytest.mark.django_db
def test_ci_uses_postgresql_and_redis():
    assert connection.vendor == "postgresql", f"CI must run on PostgreSQL, not {connection.vendor}"

    assert settings.REDIS_URL, "CI must set REDIS_URL"
    assert redis.Redis.from_url(settings.REDIS_URL).ping() is True
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"].startswith("channels_redis.")


@pytest.mark.django_db
def test_health_reports_every_component(api_client):
    response = api_client.get("/api/v1/health")
    body = response.json()
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["database"]["detail"] == connection.vendor
    assert "celery" in body["checks"]
    if settings.REDIS_URL:
        assert body["checks"]["redis"]["ok"] is True


@pytest.mark.django_db
def test_openapi_schema_and_docs_are_served(api_client):
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert schema.json()["openapi"].startswith("3.")
    docs = api_client.get("/api/v1/docs/")
    assert docs.status_code == 200


def _run_settings(env_extra: dict[str, str], code: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in {"CLAIM_EMBEDDED", "CLAIM_TESTING", "DEBUG"}}
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=settings.BASE_DIR, timeout=60
    )


def test_production_settings_pass_check_deploy():
    env = {
        "SECRET_KEY": "x" * 20 + "production-secret-key-with-enough-entropy-0123456789",
        "DATABASE_URL": os.environ.get("DATABASE_URL", "sqlite:////tmp/claim-deploy-check.sqlite3"),
        "ALLOWED_HOSTS": "claim.example.org",
        "DJANGO_SETTINGS_MODULE": "claim.settings",
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
    }
    deploy_check = ("import django,sys;from django.core.management import call_command;django.setup();"
                    "call_command('check','--deploy','--fail-level','WARNING')")
    proc = _run_settings(env, deploy_check)
    assert proc.returncode == 0, proc.stderr[-2000:]
    # issue 22: the console backend (the default) would log working reset links: check --deploy says so
    console = _run_settings({**env, "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}, deploy_check)
    assert console.returncode != 0 and "claim.W001" in console.stderr, console.stderr[-2000:]
    proc = _run_settings(env, "import django;django.setup();from django.conf import settings;print(settings.DEBUG)")
    assert proc.stdout.strip() == "False"


def test_served_settings_refuse_to_start_without_secret_key():
    proc = _run_settings(
        {"DATABASE_URL": "sqlite:////tmp/x.sqlite3", "DJANGO_SETTINGS_MODULE": "claim.settings", "SECRET_KEY": ""},
        "import django;django.setup()",
    )
    assert proc.returncode != 0
    assert "SECRET_KEY must be set" in proc.stderr


@pytest.mark.parametrize(("choice", "backend"), [(None, "channels_redis.pubsub.RedisPubSubChannelLayer"),
                                                  ("lists", "channels_redis.core.RedisChannelLayer")])
def test_redis_url_selects_redis_layer_and_celery(choice, backend):
    env = {"CLAIM_EMBEDDED": "1", "REDIS_URL": "redis://127.0.0.1:6379/5", "DJANGO_SETTINGS_MODULE": "claim.settings"}
    if choice:
        env["CHANNEL_LAYER"] = choice
    proc = _run_settings(
        env, "import django;django.setup();from django.conf import settings as s;"
        "print(s.CHANNEL_LAYERS['default']['BACKEND'], s.CELERY_BROKER_URL, s.TASK_MODE)"
    )
    assert proc.stdout.split() == [backend, "redis://127.0.0.1:6379/5", "celery"]


@pytest.mark.parametrize(("name", "words"), [("CHANNEL_LAYER", "CHANNEL_LAYER must be 'pubsub' or 'lists'")])
def test_an_unknown_choice_of_layer_is_refused(name, words):
    env = {"CLAIM_EMBEDDED": "1", "REDIS_URL": "redis://127.0.0.1:6379/5", "DJANGO_SETTINGS_MODULE": "claim.settings",
           name: "carrier-pigeon"}
    proc = _run_settings(env, "import django;django.setup()")
    assert proc.returncode != 0 and words in proc.stderr


def test_embedded_settings_use_sqlite_memory_layer_and_thread_tasks(tmp_path):
    env = {"CLAIM_EMBEDDED": "1", "CLAIM_VAR_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "claim.settings",
           "REDIS_URL": "", "DATABASE_URL": ""}
    proc = _run_settings(
        env, "import django;django.setup();from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'], s.TASK_MODE, s.DEBUG)"
    )
    assert proc.stdout.split() == [
        "django.db.backends.sqlite3", "channels.layers.InMemoryChannelLayer", "thread", "False"
    ], proc.stderr[-1500:]
