"""Fault tests (issue 9) against a real multi-process deployment private to the test session (``deploy.py``).

Marked ``faults`` (and ``slow``, so CI's ``-m "not slow"`` leaves them out); run them with ``make faults``.
They need PostgreSQL's server binaries (``initdb``, ``postgres``; ``CLAIM_FAULTS_PG_BIN``) and ``redis-server``
on this machine, and never touch the shared PostgreSQL or Redis.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator

import pytest

from .deploy import PG_BIN, Deployment, deploy


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "faults: fault tests against a private multi-process deployment (make faults)")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request drowns the tests' own figures


@pytest.fixture(scope="session")
def deployment() -> Iterator[Deployment]:
    if not (PG_BIN / "initdb").exists() or shutil.which("redis-server") is None:
        pytest.fail(f"the fault tests need {PG_BIN}/initdb and redis-server (CLAIM_FAULTS_PG_BIN)")
    dep = deploy()  # cleans up after itself if it fails
    try:
        yield dep
    finally:
        dep.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """On a failure, attach the logs of every process of the deployment to the report."""
    report = yield
    dep = item.funcargs.get("deployment") if hasattr(item, "funcargs") else None
    if report.failed and isinstance(dep, Deployment):
        report.sections.append(("deployment logs", dep.dump()))
    return report
