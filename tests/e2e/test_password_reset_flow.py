"""After a password reset the PWA opens the Log in tab (issue 33, item 10: it opened Sign up, whose only visible
field read "E-mail (optional)", and said nothing of the other sessions it had ended).

In Chromium at 360x740, in en, de and cs: a phone that logged in here before opens the e-mailed link and sets a
new password; it lands on the Log in tab with its username filled in and a line saying the password changed and
the other sessions were logged out; a second phone's session is really gone; the new password logs in.
Screenshots: test-artifacts/phone/<lang>-after-reset.png."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from accounts.mail import reset_link

from .conftest import ARTIFACTS, CHROME_ARGS, CHROMIUM
from .test_pwa import PASSWORD
from .test_table_layout import _log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "a brand new horse 42"
NOTICE = {"en": "other session", "de": "anderen Sitzungen", "cs": "ostatní relace"}
LOGIN_TAB = {"en": "Log in", "de": "Anmelden", "cs": "Přihlásit"}


@pytest.mark.parametrize("lang", ["en", "de", "cs"])
def test_after_a_reset_the_login_tab_says_other_sessions_ended(server, lang):
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - optional: these tests skip without it

    username = f"rst{uuid.uuid4().hex[:8]}"
    get_user_model().objects.create_user(username=username, password=PASSWORD, language=lang)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
        try:
            other = browser.new_context(viewport={"width": 360, "height": 740}, locale=lang)
            _log_in(other, server, username)
            phone = browser.new_context(viewport={"width": 360, "height": 740}, locale=lang, has_touch=True)
            page = phone.new_page()
            page.goto(server + "/")
            page.locator(".tabs button").nth(1).tap()  # Log in, as this phone did before
            page.fill("#username", username)
            page.fill("#password", PASSWORD)
            page.locator("form button[type=submit]").tap()
            page.wait_for_selector("a[href='#/new']")

            link = _reset_link(username)  # after the logins: a login changes what the link's token signs
            page.goto(f"{server}{link.path}?{link.query}")
            page.fill("#new-password", NEW_PASSWORD)
            page.locator("form button[type=submit]").tap()
            page.wait_for_selector("#reset-notice")
            tab = page.locator(".tabs button[aria-selected=true]")
            assert tab.inner_text().startswith(LOGIN_TAB[lang]), tab.inner_text()
            assert page.input_value("#username") == username
            assert NOTICE[lang] in page.inner_text("#reset-notice")
            assert page.locator("#email").count() == 0  # not the Sign up form
            ARTIFACTS.joinpath("phone").mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "phone" / f"{lang}-after-reset.png"), full_page=True)

            me = other.request.get(server + "/api/v1/accounts/me")
            assert me.status in (401, 403), f"the other session survived the reset: {me.status}"

            page.fill("#password", NEW_PASSWORD)
            page.locator("form button[type=submit]").tap()
            page.wait_for_selector("a[href='#/new']")
            page.reload()
            assert page.locator("#reset-notice").count() == 0  # said once
        finally:
            browser.close()


def _reset_link(username: str):
    """The e-mailed link, made in a thread of its own (Playwright's event loop runs in this one, and Django
    refuses database work under a running loop)."""
    def make():
        try:
            return urlsplit(reset_link(get_user_model().objects.get(username=username)))
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(make).result()
