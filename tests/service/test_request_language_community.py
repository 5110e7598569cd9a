"""The refusals of seeks, tournaments, leagues, chat, clocks, vacations and follows follow the request's
``Accept-Language`` (en, de, cs), as the new-game forms' do (test_request_language.py): the PWA sends the player's
language. The ``code`` never changes; a request without ``Accept-Language`` (a bot) reads English."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.tournaments.models import League, Tournament

pytestmark = pytest.mark.django_db

ALL_SCOPES = ["games:read", "games:play", "chat:read", "chat:write", "social"]


def refusal(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()["error"]
    assert body["code"] == code, body
    return body


def lang_kw(lang: str | None) -> dict:
    return {"HTTP_ACCEPT_LANGUAGE": lang} if lang else {}


@pytest.fixture
def ann(make_api):
    return make_api("ann", scopes=ALL_SCOPES)


@pytest.fixture
def ben(make_api):
    return make_api("ben", scopes=ALL_SCOPES)


def tournament(creator: User, **kw) -> Tournament:
    fields = {"name": "Evening cup", "kind": "claim", "format": Tournament.Format.SWISS, "rounds": 3,
              "control": Tournament.Control.DAYS, "days_per_move": 3, "max_players": 8, "min_players": 4,
              "created_by": creator, "created_at": timezone.now(), **kw}
    return Tournament.objects.create(**fields)


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "This is your own seek: it waits for another player"),
    ("de", "Das ist dein eigenes Gesuch: Es wartet auf einen anderen Spieler"),
    ("cs", "To je tvoje vlastní výzva: čeká na jiného hráče"),
])
def test_joining_your_own_seek_is_refused_in_the_requests_language(ann, lang, expected):
    seek = ann.post("/api/v1/seeks", {"kind": "claim"})
    assert seek.status_code == 201, seek.content
    e = refusal(ann.post(f"/api/v1/seeks/{seek.json()['id']}/accept", **lang_kw(lang)), 409, "own_seek")
    assert e["message"].startswith(expected)


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "Unlimited games are never rated"),
    ("de", "Partien ohne Zeitlimit werden nie gewertet"),
    ("cs", "Hry bez časového limitu nejsou nikdy hodnocené"),
])
def test_a_rated_unlimited_seek_says_what_a_rated_unlimited_game_says(ann, lang, expected):
    e = refusal(ann.post("/api/v1/seeks", {"kind": "claim", "days_per_move": None, "rated": True}, **lang_kw(lang)),
                400, "unlimited_rated")
    assert e["message"].startswith(expected)
    assert e["fields"] == {"rated": [e["message"]]}
    game = refusal(ann.post("/api/v1/games", {"kind": "claim", "seat": 0, "opponents": [{"type": "open"}],
                                              "days_per_move": None, "rated": True}, **lang_kw(lang)),
                   400, "unlimited_rated")
    assert game["fields"]["rated"] == [e["message"]]


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "You are playing 0 games, the most allowed for now (0); it grows as you finish games."),
    ("de", "Du spielst 0 Partien, das Meiste, was vorerst erlaubt ist (0); es wächst, wenn du Partien beendest."),
    ("cs", "Rozehraných her máš 0, nejvíc, kolik je zatím povoleno (0); limit roste, jak hry dohráváš."),
])
def test_the_game_cap_is_said_in_the_requests_language(ann, settings, lang, expected):
    settings.SEEK_CAP_BASE = 0
    settings.SEEK_CAP_MAX = 0
    e = refusal(ann.post("/api/v1/seeks", {"kind": "claim"}, **lang_kw(lang)), 409, "too_many_games")
    assert e["message"] == expected


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "Your rating in claim is 1500; this tournament takes players rated 1600 to 1800."),
    ("de", "Deine Wertung in claim ist 1500; dieses Turnier nimmt Spieler mit einer Wertung von 1600 bis 1800 auf."),
    ("cs", "Tvé hodnocení v claim je 1500; tento turnaj přijímá hráče s hodnocením 1600 až 1800."),
])
def test_a_tournament_entry_outside_its_ratings_is_refused_in_the_requests_language(ann, ben, lang, expected):
    t = tournament(ben.user, rating_min=1600, rating_max=1800)
    e = refusal(ann.post(f"/api/v1/tournaments/{t.pk}/join", **lang_kw(lang)), 403, "rating_out_of_range")
    assert e["message"] == expected


@pytest.mark.parametrize(("lang", "leave", "cancel"), [
    (None, "You are not in this tournament.", "Only the player who created this tournament can cancel it."),
    ("de", "Du bist nicht in diesem Turnier.", "Nur der Spieler, der dieses Turnier erstellt hat, kann es absagen."),
    ("cs", "V tomto turnaji nejsi.", "Zrušit tento turnaj může jen hráč, který ho vytvořil."),
])
def test_leaving_and_cancelling_a_tournament_are_refused_in_the_requests_language(ann, ben, lang, leave, cancel):
    t = tournament(ben.user)
    assert refusal(ann.post(f"/api/v1/tournaments/{t.pk}/leave", **lang_kw(lang)), 409, "not_entered")[
        "message"] == leave
    assert refusal(ann.post(f"/api/v1/tournaments/{t.pk}/cancel", **lang_kw(lang)), 403, "not_creator")[
        "message"] == cancel


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "This tournament was cancelled: entries are closed."),
    ("de", "Dieses Turnier wurde abgesagt: Die Anmeldung ist geschlossen."),
    ("cs", "Tento turnaj byl zrušen: přihlášky jsou uzavřené."),
])
def test_a_closed_tournament_says_why_in_the_requests_language(ann, ben, lang, expected):
    t = tournament(ben.user, status=Tournament.Status.CANCELLED)
    assert refusal(ann.post(f"/api/v1/tournaments/{t.pk}/join", **lang_kw(lang)), 409, "not_open")[
        "message"] == expected


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "A round robin plays every pair once: it takes no rounds."),
    ("de", "Im Rundenturnier spielt jedes Paar einmal: Es braucht keine Runden."),
    ("cs", "Každý s každým hraje každou dvojici jednou: kola se nezadávají."),
])
def test_a_round_robin_with_rounds_is_refused_in_the_requests_language(ann, lang, expected):
    body = {"name": "Evening cup", "kind": "claim", "format": "round_robin", "rounds": 3, "max_players": 8,
            "time_control": {"type": "days", "days_per_move": 3}}
    e = refusal(ann.post("/api/v1/tournaments", body, **lang_kw(lang)), 400, "invalid")
    assert e["fields"] == {"rounds": [expected]}


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "You are not a member of this league."), ("de", "Du bist kein Mitglied dieser Liga."),
    ("cs", "Nejsi členem této ligy."),
])
def test_leaving_a_league_you_are_not_in_is_refused_in_the_requests_language(ann, ben, lang, expected):
    league = League.objects.create(name="Evening league", kind="claim", control=Tournament.Control.DAYS,
                                   days_per_move=3, division_size=8, season_days=28, movers=2, max_members=64,
                                   created_by=ben.user, created_at=timezone.now(),
                                   starts_at=timezone.now() + timedelta(days=1))
    assert refusal(ann.post(f"/api/v1/leagues/{league.pk}/leave", **lang_kw(lang)), 409, "not_member")[
        "message"] == expected


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "The text has 141 characters; at most 140 are allowed."),
    ("de", "Der Text hat 141 Zeichen; höchstens 140 sind erlaubt."),
    ("cs", "Text má 141 znaků; povoleno je nejvýš 140."),
])
def test_a_too_long_chat_line_is_refused_in_the_requests_language(ann, ben, lang, expected):
    game = ann.create(kind="claim", seat=0, opponents=[{"type": "user", "username": "ben"}])
    e = refusal(ann.post(f"/api/v1/games/{game['id']}/chat", {"text": "x" * 141}, **lang_kw(lang)), 400, "invalid")
    assert e["fields"] == {"text": [expected]}


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "No such game (or it is not visible to you)."),
    ("de", "Diese Partie gibt es nicht (oder sie ist für dich nicht sichtbar)."),
    ("cs", "Taková hra neexistuje (nebo ji nevidíš)."),
])
def test_a_game_nobody_may_see_is_not_found_in_the_requests_language(ann, lang, expected):
    assert refusal(ann.client.get("/api/v1/games/999999", **lang_kw(lang)), 404, "not_found")["message"] == expected


@pytest.mark.parametrize(("lang", "days", "expected"), [
    (None, 8, "You have 7 vacation days left and asked for 8"),
    ("de", 8, "Du hast noch 7 Urlaubstage und hast 8 angefragt"),
    ("cs", 8, "Zbývá ti 7 dní dovolené a žádáš o 8"),
    ("cs", 5, "Zbývají ti 3 dny dovolené a žádáš o 5"),
])
def test_too_many_vacation_days_are_refused_with_the_languages_plural(ann, lang, days, expected):
    if days == 5:  # 3 left: Czech says "dny" for 2-4
        first = ann.post("/api/v1/vacation/periods", {"start": _tomorrow(), "days": 4})
        assert first.status_code == 201, first.content
    e = refusal(ann.post("/api/v1/vacation/periods", {"start": _tomorrow(), "days": days}, **lang_kw(lang)),
                400, "invalid")
    assert e["fields"]["days"][0].startswith(expected)


def _tomorrow() -> str:
    return (timezone.now() + timedelta(days=1)).isoformat().replace("+00:00", "Z")


@pytest.mark.parametrize(("lang", "expected"), [
    (None, "You cannot follow yourself."), ("de", "Du kannst dir nicht selbst folgen."),
    ("cs", "Nemůžeš sledovat sám sebe."),
])
def test_following_yourself_is_refused_in_the_requests_language(ann, lang, expected):
    client = ann.client
    e = refusal(client.put("/api/v1/users/ann/follow", **lang_kw(lang)), 400, "invalid")
    assert e["fields"] == {"username": [expected]}


@pytest.mark.parametrize(("lang", "expected"), [
    (None, {"status": "status must be one of current, open, active", "cursor": "cursor must be an integer.",
            "unread": "unread must be true or false.", "round": "round must be an integer."}),
    ("de", {"status": "status muss einer dieser Werte sein: current, open, active",
            "cursor": "cursor muss eine ganze Zahl sein.", "unread": "unread muss true oder false sein.",
            "round": "round muss eine ganze Zahl sein."}),
    ("cs", {"status": "status musí být jedna z hodnot: current, open, active", "cursor": "cursor musí být celé číslo.",
            "unread": "unread musí být true nebo false.", "round": "round musí být celé číslo."}),
])
def test_a_bad_query_parameter_is_refused_in_the_requests_language(ann, lang, expected):
    """claim/refusals.py: the parameter's name stays as sent; the sentence is the reader's."""
    t = tournament(ann.user)
    for url, field in (("/api/v1/games?status=bogus", "status"), ("/api/v1/tournaments?cursor=x", "cursor"),
                       ("/api/v1/notifications?unread=maybe", "unread"),
                       (f"/api/v1/tournaments/{t.pk}/games?round=first", "round")):
        e = refusal(ann.client.get(url, **lang_kw(lang)), 400, "invalid")
        assert e["fields"][field][0].startswith(expected[field]), (url, e)
