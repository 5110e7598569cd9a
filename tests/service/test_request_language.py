"""The new-game, challenge and join forms' refusals follow the request's ``Accept-Language`` (en, de, cs; others
English), as the accounts forms' do (tests/accounts/test_api_language.py): the PWA sends the player's language.
The ``code`` never changes; a client sending no ``Accept-Language`` (a bot) reads English."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

NOBODY = {None: "No player is called 'nikdo'.", "de": "Es gibt keinen Spieler namens 'nikdo'.",
          "cs": "Žádný hráč se nejmenuje 'nikdo'."}


def refusal(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()["error"]
    assert body["code"] == code
    return body


def lang_kw(lang: str | None) -> dict:
    return {"HTTP_ACCEPT_LANGUAGE": lang} if lang else {}


@pytest.mark.parametrize("lang", [None, "de", "cs"])
def test_a_challenge_to_nobody_is_refused_in_the_requests_language(alice, lang):
    e = refusal(alice.post("/api/v1/challenges", {"kind": "claim", "to": "nikdo"}, **lang_kw(lang)), 400, "invalid")
    assert e["fields"] == {"to": [NOBODY[lang]]}


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "You cannot challenge yourself."),
    ("de", "Du kannst dich nicht selbst herausfordern."),
    ("cs", "Nemůžeš vyzvat sám sebe."),
])
def test_a_challenge_to_yourself_is_refused_in_the_requests_language(alice, lang, expected):
    e = refusal(alice.post("/api/v1/challenges", {"kind": "claim", "to": "alice"}, **lang_kw(lang)), 400, "invalid")
    assert e["fields"] == {"to": [expected]}


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "opponent 2: no player named 'nikdo'."),
    ("de", "Gegner 2: Es gibt keinen Spieler namens 'nikdo'."),
    ("cs", "soupeř 2: žádný hráč se nejmenuje 'nikdo'."),
])
def test_a_three_seat_invitation_of_nobody_is_refused_in_the_requests_language(alice, bob, lang, expected):
    body = {"kind": "inheritors", "seats": 3, "seat": 0,
            "opponents": [{"type": "user", "username": "bob"}, {"type": "user", "username": "nikdo"}]}
    e = refusal(alice.post("/api/v1/games", body, **lang_kw(lang)), 400, "invalid")
    assert e["fields"] == {"opponents": [expected]}


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "No game has this invitation code."),
    ("de", "Keine Partie hat diesen Einladungscode."),
    ("cs", "Žádná hra nemá tento kód pozvánky."),
])
def test_an_unknown_invitation_code_is_refused_in_the_requests_language(alice, lang, expected):
    e = refusal(alice.post("/api/v1/games/join", {"code": "no-such-code"}, **lang_kw(lang)), 404, "not_found")
    assert e["message"] == expected


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "Unlimited games are never rated"),
    ("de", "Partien ohne Zeitlimit werden nie gewertet"),
    ("cs", "Hry bez časového limitu nejsou nikdy hodnocené"),
])
def test_a_rated_unlimited_game_is_refused_in_the_requests_language_by_both_routes(alice, bob, lang, expected):
    for path, body in (("/api/v1/challenges", {"kind": "claim", "to": "bob"}),
                       ("/api/v1/games", {"kind": "claim", "seat": 0, "opponents": [{"type": "open"}]})):
        e = refusal(alice.post(path, {**body, "days_per_move": None, "rated": True}, **lang_kw(lang)), 400,
                    "unlimited_rated")
        assert e["fields"]["rated"][0].startswith(expected), (path, e)
