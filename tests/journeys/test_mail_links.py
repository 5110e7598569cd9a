"""``make run`` on another port: the links in its e-mails point at that port, and the mail is in its log.

A newcomer running ``PORT=8801 make run`` asked for a password reset, found the message in the terminal (the
README says it is printed there) and followed its link: it must lead to the server they started, not to :8000.
"""

from __future__ import annotations

import re
import time
import uuid

import httpx
import pytest

from .conftest import Server

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

RESET_LINK = re.compile(r"(https?://\S+)/reset-password\?uid=[^\s&]+&(?:amp;)?token=\S+")


def _register_and_ask_for_a_reset(base: str, email: str) -> None:
    with httpx.Client(base_url=base + "/api/v1", timeout=20) as client:
        client.get("/accounts/csrf").raise_for_status()
        csrf = {"X-CSRFToken": client.cookies["csrftoken"]}
        name = "mail" + uuid.uuid4().hex[:8]
        made = client.post("/accounts/register", json={"username": name, "password": "mail-links-pass-7731",
                                                       "email": email}, headers=csrf)
        assert made.status_code == 201, made.text
        csrf = {"X-CSRFToken": client.cookies["csrftoken"]}
        asked = client.post("/accounts/password/reset", json={"email": email}, headers=csrf)
        assert asked.status_code == 204, asked.text


def test_make_run_mails_links_to_its_own_port_and_prints_the_mail(embedded: Server):
    email = f"{uuid.uuid4().hex[:10]}@example.org"
    _register_and_ask_for_a_reset(embedded.base, email)
    log = embedded.logs[0]
    end = time.monotonic() + 30
    text = ""
    while time.monotonic() < end:
        text = log.read_text(errors="replace")
        start = text.rfind(email)
        links = RESET_LINK.findall(text[start:]) if start >= 0 else []
        if links:
            assert links[0] == embedded.base, f"the reset link points at {links[0]}, the server is {embedded.base}"
            break
        time.sleep(0.3)
    else:
        pytest.fail(f"no password-reset mail to {email} in make run's log:\n{text[-2000:]}")
    assert f"links in e-mails point at {embedded.base}" in text
    embedded.check_logs()
