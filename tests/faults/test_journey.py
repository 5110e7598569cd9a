"""The journey (tests/journeys/test_journeys.py: a newcomer's whole path on two phone-sized Chromiums, live
updates, deadlines, Play now, every screen) against this deployment: one proxy in front of two gunicorns and two
uvicorns, two Celery workers and one beat, so page loads, API calls, sockets and tasks land on either replica. The
same code as the embedded and served journeys; then no process of the deployment may have logged an error or a
traceback while it ran."""

from __future__ import annotations

import time

import pytest

from tests.journeys.conftest import (
    BAD_LINE,
    CLIENT_WENT_AWAY,
    Server,
    _skip_reason,
    browser,  # noqa: F401 - the journeys' Chromium fixture
)
from tests.journeys.test_journeys import journey

from .deploy import Deployment

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.integration, pytest.mark.e2e]


def _bad_lines_since(dep: Deployment, marks: dict[str, int]) -> list[str]:
    found = []
    for proc in [*dep.servers, *dep.workers, dep.beat]:
        if proc is None or not proc.log.exists():
            continue
        with proc.log.open("rb") as f:
            f.seek(marks.get(proc.name, 0))
            lines = f.read().decode(errors="replace").splitlines()
        for n, line in enumerate(lines):
            if BAD_LINE.search(line) and not CLIENT_WENT_AWAY.search(line):
                found.append(f"{proc.name}: " + "\n".join(lines[n:n + 12]))
    return found


def test_journey_through_two_replicas(deployment: Deployment, browser) -> None:  # noqa: F811
    if _skip_reason():
        pytest.skip(_skip_reason())
    dep = deployment
    procs = [*dep.servers, *dep.workers, dep.beat]
    marks = {p.name: p.log.stat().st_size for p in procs if p is not None and p.log.exists()}
    app = Server("replicas", dep.http())
    start = time.monotonic()
    took = journey(app, browser)
    print(f"\njourney through one proxy, 2 gunicorns, 2 uvicorns, 2 workers: {round(time.monotonic() - start, 1)} s; "
          f"{took}")
    bad = _bad_lines_since(dep, marks)
    assert not bad, "errors in the deployment's logs during the journey:\n" + "\n---\n".join(bad[:5])
