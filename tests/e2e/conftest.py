"""End-to-end fixtures: a real ASGI server (uvicorn, in a subprocess) and Debian's Chromium.

The server runs ``claim.asgi:application`` with background tasks on an in-process thread pool
(``CLAIM_TASK_MODE=thread``) so AI turns happen without a worker, and Channels' in-memory layer
(``E2E_REDIS_URL`` switches to Redis). Its database is the test database
when that is PostgreSQL (``make test``: ``DATABASE_URL`` built from ``connection.settings_dict``);
pytest-django's SQLite test database lives in memory, so then the server gets a fresh SQLite file.
Browser downloads don't work here: Playwright drives ``/usr/bin/chromium``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run"]
ARTIFACTS = ROOT / "test-artifacts"
VIEWPORT = {"width": 360, "height": 740}


def _skip_reason() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is absent (apt-get install -y chromium); browser downloads don't work here"
    try:
        import playwright.sync_api  # noqa: F401, PLC0415 - is it installed?
    except ImportError:
        return "the playwright Python package is not installed (pip install playwright)"
    if not (ROOT / "frontend" / "dist" / "index.html").exists():
        return "the PWA is not built (cd frontend && npm ci && npm run build)"
    return None


def pytest_collection_modifyitems(config, items):
    reason = _skip_reason()
    if reason and os.environ.get("CI", "").lower() == "true" and any("e2e" in i.keywords for i in items):
        # CI must really drive the browser: scripts/test.sh installs chromium and playwright.
        raise pytest.UsageError(f"end-to-end tests cannot run in CI: {reason}")
    if reason:
        for item in items:
            if "e2e" in item.keywords:
                item.add_marker(pytest.mark.skip(reason=reason))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url(settings_dict: dict) -> str | None:
    """The URL of the test database for the server process, or None when it can't be shared."""
    engine = settings_dict["ENGINE"]
    if "postgresql" in engine:
        user = quote(settings_dict.get("USER") or "")
        password = quote(settings_dict.get("PASSWORD") or "")
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        host = settings_dict.get("HOST") or "127.0.0.1"
        port = settings_dict.get("PORT") or 5432
        return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"
    return None  # SQLite test databases are in memory


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    """Base URL of a running uvicorn serving the whole app (API, WebSocket, PWA)."""
    if _skip_reason():
        pytest.skip(_skip_reason())

    with django_db_blocker.unblock():
        url = _database_url(connection.settings_dict)
    # One server process: Channels' in-memory layer is enough, and a Redis shared with other test
    # runs would mix their "user.<id>" groups (ids restart at 1 in every test database) into ours.
    # E2E_REDIS_URL opts into a Redis layer anyway.
    drop = ("CLAIM_EMBEDDED", "DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    if os.environ.get("E2E_REDIS_URL"):
        env["REDIS_URL"] = os.environ["E2E_REDIS_URL"]
    env.update({
        "CLAIM_TESTING": "1", "DEBUG": "1", "CLAIM_TASK_MODE": "thread", "DJANGO_SETTINGS_MODULE": "claim.settings",
        "SECRET_KEY": env.get("SECRET_KEY") or "e2e-only-secret-key-0123456789-0123456789-0123456789",
        "THROTTLE_REGISTER": "1000/hour", "THROTTLE_LOGIN": "1000/min", "THROTTLE_ANON": "10000/min",
        "LOG_LEVEL": os.environ.get("E2E_LOG_LEVEL", "WARNING"),
    })
    var = tmp_path_factory.mktemp("e2e-var")
    env["CLAIM_VAR_DIR"] = str(var)
    if url:
        env["DATABASE_URL"] = url
    else:
        env["CLAIM_EMBEDDED"] = "1"
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    port = _free_port()
    log = open(var / "uvicorn.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "claim.asgi:application", "--host", "127.0.0.1", "--port", str(port),
         "--lifespan", "off", "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            if proc.poll() is not None:
                raise RuntimeError(f"uvicorn exited: {(var / 'uvicorn.log').read_text()[-2000:]}")
            try:
                urllib.request.urlopen(base + "/api/v1/health", timeout=1)
                break
            except Exception:
                time.sleep(0.1)
        else:
            raise RuntimeError("uvicorn did not start in 15 s")
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture
def browser(django_db_blocker):
    # Function scope, and set up after the database fixture: Playwright's sync API keeps an event
    # loop running in this thread, and Django's end-of-test flush refuses to run under one.
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - optional: these tests skip without it

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser):
    """Factory of fresh phone-sized pages (each its own context: separate cookies)."""
    contexts = []

    def make(locale: str = "en-US"):
        ctx = browser.new_context(viewport=VIEWPORT, locale=locale, device_scale_factor=1, has_touch=True)
        ctx.set_default_timeout(15000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
