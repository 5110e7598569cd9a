"""A wrong username or password on the login tab is said in the player's language (360x740, en/de/cs): the
server's message is English (docs/accounts.md), the PWA names the error itself."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LOGIN_TAB = {"en": "Log in", "de": "Anmelden", "cs": "Přihlásit"}
WRONG = {"en": "Wrong username or password.", "de": "Benutzername oder Passwort ist falsch.",
         "cs": "Špatné uživatelské jméno nebo heslo."}


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
