"""The accounts forms' messages follow the request's ``Accept-Language`` (en, de, cs; anything else: English).

The PWA sends the player's chosen language with every request, so that a German or Czech newcomer reads why a
sign-up or a login was refused in the language of the form. Django's and DRF's own messages (the password rules,
"This field is required.") come from their catalogs; claim's own (the username rules, a taken name, a wrong
login, an expired reset link) from ``locale/``. A client that sends no ``Accept-Language`` (a bot) reads English.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.core import mail
from django.utils import translation
from rest_framework.test import APIClient

from accounts import serializers
from accounts.models import User
from accounts.services import USERNAME_TAKEN
from tests.factories import PASSWORD, make_user

from .conftest import error, url

pytestmark = pytest.mark.django_db


def _post(name: str, data: dict, lang: str | None) -> dict:
    client = APIClient()
    headers = {"HTTP_ACCEPT_LANGUAGE": lang} if lang else {}
    response = client.post(url(name), data, format="json", **headers)
    assert response.status_code == 400, response.content
    return error(response)


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "This username is taken."),
    ("de", "Dieser Benutzername ist vergeben."),
    ("cs", "Toto uživatelské jméno je obsazené."),
    ("de-AT,de;q=0.9,en;q=0.8", "Dieser Benutzername ist vergeben."),
    ("fr", "This username is taken."),
])
def test_a_taken_username_is_said_in_the_requests_language(lang, expected):
    User.objects.create_user("Bob", password=PASSWORD)
    err = _post("register", {"username": "bob", "password": PASSWORD}, lang)
    assert err["fields"]["username"] == [expected]


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "Usernames are 2 to 30 characters"),
    ("de", "Benutzernamen haben 2 bis 30 Zeichen"),
    ("cs", "Uživatelské jméno má 2 až 30 znaků"),
])
def test_the_username_rules_are_said_in_the_requests_language(lang, expected):
    err = _post("register", {"username": "b ob", "password": PASSWORD}, lang)
    assert err["fields"]["username"][0].startswith(expected), err


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "This password is too short."),
    ("de", "Dieses Passwort ist zu kurz."),
    ("cs", "Heslo je příliš krátké."),
])
def test_the_password_rules_come_from_djangos_catalog(lang, expected):
    err = _post("register", {"username": "newbie", "password": "x7#"}, lang)
    assert err["fields"]["password"][0].startswith(expected), err


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "Wrong username or password."),
    ("de", "Benutzername oder Passwort ist falsch."),
    ("cs", "Špatné uživatelské jméno nebo heslo."),
])
def test_a_wrong_login_is_said_in_the_requests_language(lang, expected):
    User.objects.create_user("Bob", password=PASSWORD)
    err = _post("login", {"username": "Bob", "password": PASSWORD + "x"}, lang)
    assert err["code"] == "invalid"
    assert err["message"] == expected
    assert err["fields"] == {"non_field_errors": [expected]}


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "This reset link is invalid or has expired."),
    ("de", "Dieser Link zum Zurücksetzen ist ungültig oder abgelaufen."),
    ("cs", "Tento odkaz pro obnovení hesla je neplatný nebo vypršel."),
])
def test_an_expired_reset_link_is_said_in_the_requests_language(lang, expected):
    err = _post("password/reset/confirm", {"uid": "MQ", "token": "nope", "new_password": PASSWORD}, lang)
    assert err["fields"]["non_field_errors"] == [expected]


def test_the_answer_in_german_does_not_change_the_next_requests_language():
    """The language is the request's: an answer in German leaves the next request without the header English
    (no session or cookie keeps it)."""
    client = APIClient()
    User.objects.create_user("Bob", password=PASSWORD)
    german = client.post(url("register"), {"username": "bob", "password": PASSWORD}, format="json",
                         HTTP_ACCEPT_LANGUAGE="de")
    assert error(german)["fields"]["username"] == ["Dieser Benutzername ist vergeben."]
    english = client.post(url("register"), {"username": "bob", "password": PASSWORD}, format="json")
    assert error(english)["fields"]["username"] == ["This username is taken."]


LOCALE = Path(__file__).resolve().parents[2] / "locale"


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_the_committed_catalogs_are_compiled_from_their_po(lang):
    """``locale/<lang>/LC_MESSAGES/django.mo`` is what ``manage.py compilemessages`` makes of the .po beside it
    (run it after editing a .po): every entry, plural forms included, and nothing else."""
    po = polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / "django.po"))
    mo = polib.mofile(str(LOCALE / lang / "LC_MESSAGES" / "django.mo"))

    def entries(catalog):
        return {(e.msgid, e.msgid_plural): (e.msgstr, tuple(sorted(e.msgstr_plural.items())))
                for e in catalog if e.msgid and not e.obsolete and "fuzzy" not in e.flags}

    assert entries(mo) == entries(po)
    assert all(e.translated() for e in po if not e.obsolete), "an entry of the .po has no translation"


BRACES = re.compile(r"\{[a-z_]*\}")


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_every_translation_keeps_the_placeholders_of_its_english(lang):
    """A ``{name}`` the translation drops loses a value; one it adds raises ``KeyError`` at the request. Every
    form of a plural too."""
    po = polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / "django.po"))
    checked = 0
    for e in po:
        if e.obsolete or "python-brace-format" not in e.flags:
            continue
        if e.msgid_plural:
            wanted = set(BRACES.findall(e.msgid_plural)) | set(BRACES.findall(e.msgid))
            for form in e.msgstr_plural.values():
                assert set(BRACES.findall(form)) <= wanted, (lang, form)
                assert set(BRACES.findall(form)) >= set(BRACES.findall(e.msgid_plural)) - {"{count}"}, (lang, form)
        else:
            assert set(BRACES.findall(e.msgstr)) == set(BRACES.findall(e.msgid)), (lang, e.msgstr)
        checked += 1
    assert checked >= 40


MESSAGES = [serializers.USERNAME_RULES, serializers.USERNAME_INVALID, serializers.USERNAME_AI_SEAT,
            serializers.USERNAME_SYSTEM, serializers.USERNAME_LOOKS_TAKEN, serializers.DISPLAY_NAME_RULES,
            serializers.DISPLAY_NAME_AI_SEAT, serializers.DISPLAY_NAME_SYSTEM, serializers.DISPLAY_NAME_LOOKS_TAKEN,
            serializers.DISPLAY_NAME_SCRIPTS, serializers.WRONG_CREDENTIALS, serializers.INVALID_RESET_LINK,
            USERNAME_TAKEN]


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_every_accounts_message_is_translated_with_its_names_filled_in(lang):
    """A translation keeps its placeholders (a missing one would drop a name, an unknown one raise at the
    request): each message formats in the language, differs from the English, and still names the AI seats
    and the deleted accounts' name where the English does."""
    english = [str(m) for m in MESSAGES]
    with translation.override(lang):
        translated = [str(m) for m in MESSAGES]
        character = serializers.DISPLAY_NAME_CHARACTER.format(code="200B", rules=serializers.DISPLAY_NAME_RULES)
    assert "U+200B" in character
    assert character != serializers.DISPLAY_NAME_CHARACTER.format(code="200B", rules=serializers.DISPLAY_NAME_RULES)
    for en, tr in zip(english, translated, strict=True):
        assert tr != en
        assert "{" not in tr
        for name in ("Ada, Boris, Cleo, Dario", "'Deleted player'"):
            assert (name in tr) == (name in en), (lang, tr)


@pytest.mark.parametrize(("lang", "subject", "opening"), [
    ("en", "Reset your claim password", "Hello Ann,"),
    ("de", "Setze dein claim-Passwort zurück", "Hallo Ann,"),
    ("cs", "Obnov si heslo ke claim", "Ahoj Ann,"),
])
def test_the_reset_email_is_written_in_the_accounts_language_whatever_the_request_asks(lang, subject, opening):
    make_user("ann", email="ann@example.org", display_name="Ann", language=lang)
    response = APIClient().post(url("password/reset"), {"email": "ann@example.org"}, format="json",
                                HTTP_ACCEPT_LANGUAGE="de" if lang == "cs" else "cs")
    assert response.status_code == 204
    assert [m.subject for m in mail.outbox] == [subject]
    assert mail.outbox[0].body.startswith(opening + "\n\n")
    assert "/reset-password?uid=" in mail.outbox[0].body
