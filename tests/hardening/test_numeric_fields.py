"""Issue 32: every numeric field of the seek, challenge, clock and vacation endpoints, sent negative, zero, huge,
fractional, as a string, a boolean, past 64 bits or past what a float holds, is a 400 naming the field (never a
500), and every numeric path segment is a 404; in-process in both database modes (SQLite without DATABASE_URL,
PostgreSQL with it), and against real servers in both start modes (embedded as ``make run`` starts it;
production: gunicorn and uvicorn behind Caddy).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.hardening.test_bad_input_servers import mode  # noqa: F401 - the real servers' fixture

#: Raw JSON texts: a body is written by hand so that ``1e400`` and 40-digit numbers reach the parser as sent.
VALUES = ["-1", "0", "1", "3", "1000000", "2147483648", "9223372036854775808", "18446744073709551616",
          "1" + "0" * 39, "1" * 41, "1.5", "3.0", "-0.0", "1e308", "1e400", "-1e400", '"3"', '"x"', "true", "false",
          "[]", "{}", "[3]"]

BANK = '{"type": "bank", "initial_seconds": %s, "increment_seconds": %s, "cap_seconds": %s}'
OK_INITIAL, OK_INCREMENT, OK_CAP = "86400", "3600", "604800"


def _int_in(low: int, high: int) -> Callable[[str], bool]:
    def valid(raw: str) -> bool:
        return raw.lstrip("-").isdigit() and low <= int(raw) <= high

    return valid


def _one_of(*choices: int) -> Callable[[str], bool]:
    return lambda raw: raw.lstrip("-").isdigit() and int(raw) in choices


DAYS = _one_of(1, 2, 3, 5, 7, 14)
# (label, path, body template with one %s, the field an error must name, which raw values are valid there)
FIELDS: list[tuple[str, str, str, str, Callable[[str], bool]]] = [
    ("seek seats", "/api/v1/seeks", '{"kind": "inheritors", "seats": %s}', "seats", _int_in(2, 4)),
    ("seek days_per_move", "/api/v1/seeks", '{"kind": "claim", "days_per_move": %s}', "days_per_move", DAYS),
    ("seek rating_range", "/api/v1/seeks", '{"kind": "claim", "rating_range": %s}', "rating_range", _int_in(0, 2000)),
    ("seek min_reliability", "/api/v1/seeks", '{"kind": "claim", "min_reliability": %s}', "min_reliability",
     _int_in(0, 100)),
    ("seek time_control.days_per_move", "/api/v1/seeks",
     '{"kind": "claim", "time_control": {"type": "days", "days_per_move": %s}}', "time_control", DAYS),
    ("seek time_control.initial_seconds", "/api/v1/seeks",
     '{"kind": "claim", "time_control": ' + BANK % ("%s", OK_INCREMENT, OK_CAP) + "}", "time_control",
     _int_in(3600, 604800)),
    ("seek time_control.increment_seconds", "/api/v1/seeks",
     '{"kind": "claim", "time_control": ' + BANK % (OK_INITIAL, "%s", OK_CAP) + "}", "time_control",
     _int_in(0, 14 * 86400)),
    ("seek time_control.cap_seconds", "/api/v1/seeks",
     '{"kind": "claim", "time_control": ' + BANK % (OK_INITIAL, OK_INCREMENT, "%s") + "}", "time_control",
     _int_in(86400, 60 * 86400)),
    ("quick seats", "/api/v1/seeks/quick", '{"kind": "inheritors", "seats": %s}', "seats", _int_in(2, 4)),
    ("quick days_per_move", "/api/v1/seeks/quick", '{"kind": "claim", "days_per_move": %s}', "days_per_move", DAYS),
    ("quick time_control.initial_seconds", "/api/v1/seeks/quick",
     '{"kind": "claim", "time_control": ' + BANK % ("%s", OK_INCREMENT, OK_CAP) + "}", "time_control",
     _int_in(3600, 604800)),
    ("challenge days_per_move", "/api/v1/challenges", '{"kind": "claim", "days_per_move": %s}', "days_per_move",
     DAYS),
    ("challenge seat", "/api/v1/challenges", '{"kind": "claim", "seat": %s}', "seat", _one_of(0, 1)),
    ("challenge expires_in", "/api/v1/challenges", '{"kind": "claim", "expires_in": %s}', "expires_in",
     _int_in(60, 14 * 86400)),
    ("challenge time_control.days_per_move", "/api/v1/challenges",
     '{"kind": "claim", "time_control": {"type": "days", "days_per_move": %s}}', "time_control", DAYS),
    ("challenge time_control.initial_seconds", "/api/v1/challenges",
     '{"kind": "claim", "time_control": ' + BANK % ("%s", OK_INCREMENT, OK_CAP) + "}", "time_control",
     _int_in(3600, 604800)),
    ("challenge time_control.increment_seconds", "/api/v1/challenges",
     '{"kind": "claim", "time_control": ' + BANK % (OK_INITIAL, "%s", OK_CAP) + "}", "time_control",
     _int_in(0, 14 * 86400)),
    ("challenge time_control.cap_seconds", "/api/v1/challenges",
     '{"kind": "claim", "time_control": ' + BANK % (OK_INITIAL, OK_INCREMENT, "%s") + "}", "time_control",
     _int_in(86400, 60 * 86400)),
    ("vacation days", "/api/v1/vacation/periods", '{"start": "START", "days": %s}', "days", _int_in(1, 7)),
    ("vacation start", "/api/v1/vacation/periods", '{"start": %s, "days": 1}', "start", lambda raw: False),
]
#: Numbers where a path takes an id: each names no such thing (404), none is a 500.
PATH_NUMBERS = ["-1", "0", "1.5", "1e3", "9223372036854775808", "18446744073709551616", "1" + "0" * 40, "x"]
PATHS = ["GET /api/v1/games/{}/clock", "POST /api/v1/games/{}/clock/give-time", "POST /api/v1/games/{}/clock/pause",
         "POST /api/v1/games/{}/clock/resume", "DELETE /api/v1/seeks/{}", "GET /api/v1/challenges/{}",
         "POST /api/v1/challenges/{}/accept", "POST /api/v1/challenges/{}/cancel"]


def cases(start: str) -> Iterator[tuple[str, str, str, str]]:
    """``(label, path, body, field)`` for every invalid value of every field."""
    for label, path, template, field, valid in FIELDS:
        for raw in VALUES:
            if not valid(raw):
                yield f"{label} = {raw[:12]}", path, template.replace("START", start) % raw, field


def check(label: str, status: int, content_type: str, body: Any, field: str) -> None:
    assert status == 400, (label, status, body)
    assert content_type.startswith("application/json"), (label, content_type)
    error = body["error"]
    assert error["code"] and error["message"], (label, body)
    named = error.get("fields") or {}
    # the field is named: as the key of its messages, or (the parser refusing the whole body) in the message
    assert field in named or field in error["message"] or "number" in error["message"], (label, body)


def _start() -> str:
    return (timezone.now() + timedelta(days=2)).isoformat()


@pytest.mark.django_db
def test_every_numeric_field_refuses_every_bad_value_in_process(make_user, settings):
    """Both database modes: run with and without DATABASE_URL."""
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "games_create": "1000000/min", "clock": "1000000/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}

    client = APIClient()
    client.force_authenticate(make_user("alice"))
    make_user("bob")
    n = 0
    for label, path, body, field in cases(_start()):
        r = client.post(path, data=body, content_type="application/json")
        check(label, r.status_code, r["Content-Type"], r.json(), field)
        n += 1
    for item in PATHS:
        method, template = item.split(" ")
        for raw in PATH_NUMBERS:
            r = client.generic(method, template.format(raw), data="{}", content_type="application/json")
            assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", (item, raw, r.content[:300])
            n += 1
    print(f"{n} bad numbers, each a 400 naming its field or a 404")


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_every_numeric_field_refuses_every_bad_value_on_real_servers(mode):  # noqa: F811 - the fixture
    server = mode["server"]
    token = mode["world"]["alice"]
    headers = {**mode["headers"], "Authorization": f"Bearer {token}", "Content-Type": "application/json",
               "Accept": "text/html"}
    n = 0
    with httpx.Client(base_url=server.http, timeout=20) as client:
        for label, path, body, field in cases(_start()):
            r = client.post(path, content=body, headers=headers)
            check(f"{mode['name']}: {label}", r.status_code, r.headers.get("content-type", ""), r.json(), field)
            n += 1
        for item in PATHS:
            method, template = item.split(" ")
            for raw in PATH_NUMBERS:
                r = client.request(method, template.format(raw), content="{}", headers=headers)
                assert r.status_code == 404, (mode["name"], item, raw, r.status_code, r.text[:300])
                assert r.headers["content-type"].startswith("application/json"), (item, raw, r.text[:200])
                n += 1
    log = server.output()
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]
    print(f"{mode['name']}: {n} bad numbers, each a 400 naming its field or a 404")
