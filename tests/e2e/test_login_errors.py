"""The sign-up and login forms say why they refused in the player's language (360x740, en/de/cs), also when the
phone's own language is another one: the PWA sends the language chosen on the landing page as Accept-Language,
and the server writes the accounts forms' messages (claim's own, and Django's password rules) in it."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from tests.factories import PASSWORD, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LOGIN_TAB = {"en": "Log in", "de": "Anmelden", "cs": "Přihlásit"}
SIGNUP_TAB = {"en": "Sign up", "de": "Registrieren", "cs": "Registrovat"}
WRONG = {"en": "Wrong username or password.", "de": "Benutzername oder Passwort ist falsch.",
         "cs": "Špatné uživatelské jméno nebo heslo."}
TAKEN = {"en": "This username is taken.", "de": "Dieser Benutzername ist vergeben.",
         "cs": "Toto uživatelské jméno je obsazené."}
SHORT = {"en": "This password is too short.", "de": "Dieses Passwort ist zu kurz.",
         "cs": "Heslo je příliš krátké."}


@pytest.mark.parametrize("lang", ["en", "de", "cs"])
def test_a_wrong_login_is_said_in_the_players_language(server, new_page, lang):
    page = new_page(locale=lang)
    page.goto(server + "/")
    page.get_by_role("tab", name=LOGIN_TAB[lang]).click()
    page.fill("#username", "nobody-here")  # a wrong password gets the same answer (tests/accounts/test_login.py)
    page.fill("#password", "not the password 123")
    page.locator("form button[type=submit]").click()
    page.wait_for_selector(f"form >> text={WRONG[lang]}")
    assert not page.errors


def _existing_player(username: str) -> None:
    """A player made outside Playwright's event loop (the ORM refuses to run in it), its connection closed."""
    def make() -> None:
        try:
            make_user(username)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(make).result()


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_sign_up_refusals_follow_the_language_chosen_on_an_english_phone(server, new_page, lang):
    _existing_player("Bob")
    page = new_page(locale="en-US")
    page.goto(server + "/")
    page.select_option("#lang-login", lang)
    page.get_by_role("tab", name=SIGNUP_TAB[lang]).click()
    page.fill("#username", "bob")
    page.fill("#password", PASSWORD)
    page.locator("form button[type=submit]").click()
    page.wait_for_selector(f"form >> text={TAKEN[lang]}")
    page.fill("#username", "newcomer")
    page.fill("#password", "x7#")
    page.locator("form button[type=submit]").click()
    page.wait_for_selector(f"form >> text=/^{SHORT[lang]}/")
    page.get_by_role("tab", name=LOGIN_TAB[lang]).click()
    page.fill("#username", "Bob")
    page.fill("#password", "not the password 123")
    page.locator("form button[type=submit]").click()
    page.wait_for_selector(f"form >> text={WRONG[lang]}")
    assert not page.errors
