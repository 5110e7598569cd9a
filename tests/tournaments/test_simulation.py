"""Tournaments played through the services (issue 36): a 16-player Swiss over 5 rounds with random results, a
player who loses on time twice and withdrawals; an 8-player round robin; a table tournament of 7 players (3-4
seats) over 2 rounds. Every game is a real game (created by the game service, ended by a resignation, an
adjudication or the clock's timeout); the standings are checked against the pure core's, computed here again from
the games' own rows (not the tournament's copy of them)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games import service as games
from games.models import Game, Seat, SeatDeparture
from games.tournaments.core import standings as core
from games.tournaments.core.tables import TableGame
from games.tournaments.models import Bye, Entry, TournamentGame

from .conftest import entries, round_games

pytestmark = pytest.mark.django_db


def _places(tg: TournamentGame) -> list[int] | None:
    """The places per seat read from the game itself; a 3-4 seat player the AI replaced is last."""
    game = Game.objects.get(pk=tg.game_id)
    if not game.is_over:
        return None
    ranks = list(Seat.objects.filter(game=game).order_by("index").values_list("rank", flat=True))
    gone = set(SeatDeparture.objects.filter(game=game).values_list("seat", flat=True))
    if gone:
        last = max(r for i, r in enumerate(ranks) if i not in gone) + 1
        ranks = [last if i in gone else r for i, r in enumerate(ranks)]
    return ranks


def _result(places: list[int] | None) -> core.Result | None:
    if places is None:
        return None
    return "draw" if places[0] == places[1] else ("first" if places[0] < places[1] else "second")


def _expected_two_seat(t):
    order = list(Entry.objects.filter(tournament=t).order_by("seed").values_list("user_id", flat=True))
    out = set(Entry.objects.filter(tournament=t, withdrawn_at__isnull=False).values_list("user_id", flat=True))
    games = []
    for tg in TournamentGame.objects.filter(tournament=t):
        game = Game.objects.get(pk=tg.game_id)
        late = None
        if game.ended_reason == "timeout":
            late = tg.players[game.result["timeout"]]
        games.append(core.Game(tg.round, tg.players[0], tg.players[1], _result(_places(tg)), late))
    byes = list(Bye.objects.filter(tournament=t).values_list("user_id", flat=True))
    return order, games, byes, out


def _as_rows(standings):
    return [(s["user_id"], s["score"], *s["tiebreaks"]) for s in standings]


def test_swiss_16_players_5_rounds(play):
    rng = random.Random(16)
    creator = play.users(1, "org")[0]
    players = play.users(16)
    t = play.tournament(creator, players, rounds=5, rated=True)
    assert t.status == "running" and t.current_round == 1 and t.rounds == 5
    by_id = {u.pk: u for u in players}
    slow = players[3].pk  # loses on time in rounds 1 and 3: out after round 3
    quitters = {2: players[7].pk, 4: players[11].pk}  # withdraw while their game of that round runs
    for number in range(1, 6):
        t.refresh_from_db()
        assert t.current_round == number
        boards = round_games(t, number)
        paired = [p for tg in boards for p in tg.players]
        assert len(paired) == len(set(paired)), "nobody plays twice in a round"
        out = {e.user_id for e in entries(t).values() if e.withdrawn_at is not None}
        assert not out & set(paired), "nobody out is paired"
        byes = set(Bye.objects.filter(tournament=t, round=number).values_list("user_id", flat=True))
        assert set(paired) | byes == set(by_id) - out
        assert len(byes) == (len(set(by_id) - out)) % 2
        quitter = quitters.get(number)
        if quitter is not None:
            assert quitter in paired
            play.withdraw(by_id[quitter], t)
        for tg in boards:
            if TournamentGame.objects.get(pk=tg.pk).finished:
                continue  # the withdrawal resigned it
            if slow in tg.players and number in (1, 3):
                play.time_out(tg, slow)
                continue
            play.finish(tg, rng.choice(["first", "second", "draw"]))
        if number < 5:
            t.refresh_from_db()
            assert t.status == "running"
    t.refresh_from_db()
    assert t.status == "finished" and t.finished_at is not None

    e = entries(t)
    assert e[slow].timeouts == 2 and e[slow].withdrawn_at is not None
    assert all(e[q].withdrawn_at is not None for q in quitters.values())
    assert not TournamentGame.objects.filter(tournament=t, round__gt=3, players__contains=[slow]).exists()
    tgames = list(TournamentGame.objects.filter(tournament=t))
    pairs = [frozenset(tg.players) for tg in tgames]
    assert len(pairs) == len(set(pairs)), "no repeat pairing"
    byes = list(Bye.objects.filter(tournament=t).values_list("user_id", flat=True))
    assert byes and max(Counter(byes).values()) <= 1, "byes given, at most one each"
    assert all(Game.objects.get(pk=tg.game_id).is_over for tg in tgames)
    assert all(Game.objects.get(pk=tg.game_id).watchable and Game.objects.get(pk=tg.game_id).rated for tg in tgames)

    order, games, byes, out = _expected_two_seat(t)
    expected = core.swiss(order, games, byes, out)
    assert _as_rows(t.standings) == [(s.player, s.score, *s.tiebreaks) for s in expected]
    assert [s["rank"] for s in t.standings] == list(range(1, 17))
    assert {s["user_id"] for s in t.standings if s["out"]} == {slow, *quitters.values()}
    # Every counted game hands out one point (forfeits included), a bye one point.
    assert sum(s["score"] for s in t.standings) == pytest.approx(len(tgames) + len(byes))
    # The crosstable has every game from both sides.
    assert sum(len(c["points"]) for c in t.crosstable) == 2 * len(tgames)


def test_round_robin_8_players(play):
    rng = random.Random(8)
    creator = play.users(1, "org")[0]
    players = play.users(8)
    t = play.tournament(creator, players, format="round_robin", rated=False)
    tgames = round_games(t)
    assert t.status == "running" and len(tgames) == 28 and t.rounds == 7
    assert len({frozenset(tg.players) for tg in tgames}) == 28, "every pair once, all at once"
    assert all(Game.objects.get(pk=tg.game_id).status == "active" for tg in tgames)
    by_id = {u.pk: u for u in players}
    quitter = players[5].pk
    for i, tg in enumerate(tgames):
        if i == 14:
            play.withdraw(by_id[quitter], t)  # every game of theirs still running is resigned
        if TournamentGame.objects.get(pk=tg.pk).finished:
            continue
        t.refresh_from_db()
        assert t.status == "running"
        play.finish(tg, rng.choice(["first", "second", "draw"]))
    t.refresh_from_db()
    assert t.status == "finished"
    order, games, _byes, out = _expected_two_seat(t)
    assert out == {quitter}
    expected = core.round_robin(order, games, out)
    assert _as_rows(t.standings) == [(s.player, s.score, *s.tiebreaks) for s in expected]
    assert all(s["games"] == 7 for s in t.standings)
    assert sum(s["score"] for s in t.standings) == pytest.approx(28)
    last = next(s for s in t.standings if s["user_id"] == quitter)
    assert last["out"]


def test_tables_7_players_2_rounds(play):
    """Inheritors (3-4 seats): 7 players sit at a table of 4 and one of 3; placement points; a player who
    times out at a table is replaced by the AI, plays on through it, and takes the last place."""
    rng = random.Random(7)
    creator = play.users(1, "org")[0]
    players = play.users(7)
    t = play.tournament(creator, players, kind="inheritors", format="tables", rounds=2, rated=True)
    by_id = {u.pk: u for u in players}
    r1 = round_games(t, 1)
    assert sorted(len(tg.players) for tg in r1) == [3, 4]
    assert not Bye.objects.filter(tournament=t).exists()
    late = r1[0].players[1]
    play.time_out(r1[0], late)
    assert SeatDeparture.objects.filter(game_id=r1[0].game_id).exists()
    for tg in r1:
        ranks = list(range(1, len(tg.players) + 1))
        rng.shuffle(ranks)
        with play.commit():
            games.adjudicate(tg.game_id, ranks)
    t.refresh_from_db()
    assert t.current_round == 2
    r2 = round_games(t, 2)
    assert sorted(len(tg.players) for tg in r2) == [3, 4]
    # Round 2 is seated by score: the four best of round 1 at table 1.
    top = [s["user_id"] for s in t.standings[:4]]
    assert set(r2[0].players) == set(top)
    quitter = r2[1].players[0]
    play.withdraw(by_id[quitter], t)  # resigns their table: they are last, the others share the first place
    for tg in r2:
        if not TournamentGame.objects.get(pk=tg.pk).finished:
            ranks = list(range(1, len(tg.players) + 1))
            rng.shuffle(ranks)
            with play.commit():
                games.adjudicate(tg.game_id, ranks)
    t.refresh_from_db()
    assert t.status == "finished"
    assert entries(t)[late].timeouts == 1
    order = list(Entry.objects.filter(tournament=t).order_by("seed").values_list("user_id", flat=True))
    tabled = [TableGame(tg.round, tuple(tg.players), tuple(_places(tg)), None) for tg in round_games(t)]
    late_tg = TournamentGame.objects.get(game_id=r1[0].game_id)
    assert late_tg.places[late_tg.players.index(late)] == max(late_tg.places)
    assert late_tg.timed_out == [late]
    tabled = [TableGame(g.round, g.seats, g.places, late if g.round == 1 and late in g.seats else None)
              for g in tabled]
    expected = core.tables(order, tabled, [], {quitter})
    assert _as_rows(t.standings) == [(s.player, s.score, *s.tiebreaks) for s in expected]
    q = TournamentGame.objects.get(round=2, tournament=t, players__contains=[quitter])
    assert q.places[q.players.index(quitter)] == max(q.places)
