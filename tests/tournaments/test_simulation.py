"""Tournaments played through the services (issue 36, "Must show"): a 64-player Swiss over 7 rounds with random
results, losses on time, a player out after two of them, withdrawals in the middle of rounds and byes; an 8-player
round robin; table tournaments (3-4 seats) with a timeout the AI takes over, a withdrawal and a bye. Every game is a
real game (created by the game service, ended by a resignation, an adjudication, the clock's timeout in virtual time
or the beat's adjudication past the maximum); after every round the pairing, the byes and the standings are checked
against the pure core's, computed here again from the games' own rows (not the tournament's copy of them)."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

import pytest

from games import service as games
from games.models import Game
from games.tournaments import service
from games.tournaments.core import standings as core
from games.tournaments.core import swiss, tables
from games.tournaments.core.swiss import SEAT_LIMIT
from games.tournaments.models import Bye, Entry, TournamentGame

from .conftest import (
    Played,
    as_rows,
    byes_of,
    core_rows,
    entries,
    played,
    round_games,
    seed_order,
    table_games,
    two_seat_games,
)

pytestmark = pytest.mark.django_db


def _out_marks(t) -> set[int]:
    return set(Entry.objects.filter(tournament=t, withdrawn_at__isnull=False).values_list("user_id", flat=True))


def _check_history(games: list[Played], byes: list[int], seats_bound: bool = True) -> None:
    """Over the tournament so far: no repeat pairing, at most one bye each, nobody's seat-0 surplus past the bound."""
    pairs = [frozenset(g.seats) for g in games]
    assert len(pairs) == len(set(pairs)), "no repeat pairing"
    assert max(Counter(byes).values(), default=0) <= 1, "at most one bye each"
    if seats_bound:
        first = Counter(g.seats[0] for g in games)
        count = Counter(p for g in games for p in g.seats)
        assert all(abs(2 * first[p] - n) <= SEAT_LIMIT for p, n in count.items()), "seat-0 surplus within ±2"


def _check_swiss_round(t, number: int, quitters: set[int]) -> None:
    """Round ``number`` has just been paired: everyone active paired once or byed, nobody out paired, the pairing
    the core's from the rows, the history clean, the standings the core's."""
    games = played(t)
    before = [g for g in games if g.round < number]
    now = sorted((g for g in games if g.round == number), key=lambda g: g.game_id)  # created in board order
    order = seed_order(t)
    past = two_seat_games(before)
    out = set(core.out_players(past, quitters))
    assert _out_marks(t) == out, "out: the withdrawn and those who lost twice on time"
    seated = [p for g in now for p in g.seats]
    assert len(seated) == len(set(seated)), "nobody paired twice in a round"
    assert not out & set(seated), "nobody out is paired"
    round_byes = set(Bye.objects.filter(tournament=t, round=number).values_list("user_id", flat=True))
    active = set(order) - out
    assert set(seated) | round_byes == active and not set(seated) & round_byes
    assert len(round_byes) == len(active) % 2
    byes_before = byes_of(t, number)
    score = {s.player: s.score for s in core.swiss(order, past, byes_before, quitters)}
    expect = swiss.pair_round([swiss.Entry(p, score[p]) for p in order], [(g.first, g.second) for g in past],
                              byes_before, out)
    assert [g.seats for g in now] == list(expect.pairs), "the core's pairing, from the games' own rows"
    assert round_byes == ({expect.bye} if expect.bye is not None else set())
    assert expect.repeats == 0 and not expect.seat_limit_dropped
    _check_history(games, byes_of(t))
    t.refresh_from_db()
    assert as_rows(t.standings) == core_rows(core.swiss(order, two_seat_games(games), byes_of(t), quitters))


def test_swiss_64_players_7_rounds(play):
    """64 players, 7 rounds, random results (resignations, adjudicated draws), single losses on time, one player
    out after two (rounds 1 and 3), withdrawals in the middle of rounds 2, 4, 5 and 6 (a running game resigned; a
    player whose game had ended; the player with the bye; the last game of a round, which pairs the next), so
    rounds 3, 5 and 7 have an odd field and a bye; the last games of round 7 are adjudicated by the beat past the
    maximum game duration (virtual time)."""
    rng = random.Random(64)
    creator = play.users(1, "org")[0]
    players = play.users(64)
    t = play.tournament(creator, players, rounds=7, rated=False, max_game_days=7)  # rated: the tables test
    assert t.status == "running" and t.current_round == 1 and t.rounds == 7
    by_id = {u.pk: u for u in players}
    slow = players[5].pk  # loses on time in rounds 1 and 3: out from round 4
    late_once: set[int] = set()  # others who lost once on time (never twice: only ``slow`` leaves that way)
    quitters: set[int] = set()
    quit_round: dict[int, int] = {}

    def quit(uid: int) -> None:
        quitters.add(uid)
        quit_round[uid] = number
        play.withdraw(by_id[uid], t)

    for number in range(1, 8):
        t.refresh_from_db()
        assert t.status == "running" and t.current_round == number
        _check_swiss_round(t, number, quitters)
        boards = round_games(t, number)
        rng.shuffle(boards)  # the games end in any order
        bye = Bye.objects.filter(tournament=t, round=number).values_list("user_id", flat=True).first()
        assert (bye is not None) == (number in (3, 5, 7))
        for i, tg in enumerate(boards):
            last = i == len(boards) - 1
            if i == len(boards) // 2:  # the middle of the round
                if number == 2:  # a player whose game still runs: it is resigned for them
                    running = next(b for b in boards[i:] if slow not in b.players)
                    quit(running.players[1])
                    assert TournamentGame.objects.get(pk=running.pk).finished
                elif number == 4:  # a player whose game has ended
                    quit(boards[0].players[0])
                elif number == 5:  # the player with the bye
                    assert bye is not None
                    quit(bye)
            if TournamentGame.objects.get(pk=tg.pk).finished:
                continue  # a withdrawal resigned it
            if number == 6 and last:  # withdrawing from the round's last game ends the round: round 7 is paired
                quit(tg.players[0])
                continue
            if number == 7 and i >= len(boards) - 3:
                continue  # left running: the beat adjudicates them past the maximum
            if slow in tg.players and number in (1, 3):
                play.time_out(tg, slow)
                continue
            fresh = [p for p in tg.players if p not in late_once and p != slow]
            x = rng.random()
            if x < 0.06 and fresh:
                late = rng.choice(fresh)
                late_once.add(late)
                play.time_out(tg, late)
            elif x < 0.2:
                play.draw(tg.game_id)
            else:
                play.finish(tg, rng.choice(["first", "second"]))
        if number == 7:
            left = TournamentGame.objects.filter(tournament=t, finished=False)
            assert left.count() == 3
            ends_by = max(left.values_list("ends_by", flat=True))
            with play.commit():
                assert service.adjudicate_due(now=ends_by + timedelta(seconds=1)) == 3
    t.refresh_from_db()
    assert t.status == "finished" and t.finished_at is not None and t.current_round == 7

    games = played(t)
    order = seed_order(t)
    byes = byes_of(t)
    assert Counter(Bye.objects.filter(tournament=t).values_list("round", flat=True)) == {3: 1, 5: 1, 7: 1}
    _check_history(games, byes)
    assert all(g.places is not None for g in games), "every game is over"
    assert sum(g.reason == "adjudicated" for g in games if g.round == 7 and g.places != (1, 1)) >= 3
    e = entries(t)
    assert e[slow].timeouts == 2 and e[slow].withdrawn_at is not None
    assert not any(slow in g.seats for g in games if g.round > 3)
    assert late_once and all(e[p].timeouts == 1 and e[p].withdrawn_at is None for p in late_once - quitters)
    assert len(quitters) == 4 and _out_marks(t) == quitters | {slow}
    assert not [g for g in games for q in g.seats if q in quitters and g.round > quit_round[q]]
    expected = core.swiss(order, two_seat_games(games), byes, quitters)
    assert as_rows(t.standings) == core_rows(expected)
    assert [s["rank"] for s in t.standings] == list(range(1, 65))
    assert {s["user_id"] for s in t.standings if s["out"]} == quitters | {slow}
    # Every game hands out one point (the withdrawals resigned theirs), a bye one point.
    assert sum(s["score"] for s in t.standings) == pytest.approx(len(games) + len(byes))
    assert sum(len(c["points"]) for c in t.crosstable) == 2 * len(games)
    assert not Game.objects.filter(tournament_game__tournament=t).exclude(watchable=True, rated=False).exists()


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
    games = two_seat_games(played(t))
    assert _out_marks(t) == {quitter} and all(g.result is not None for g in games)
    assert as_rows(t.standings) == core_rows(core.round_robin(seed_order(t), games, {quitter}))
    assert all(s["games"] == 7 for s in t.standings)
    assert sum(s["score"] for s in t.standings) == pytest.approx(28)
    last = next(s for s in t.standings if s["user_id"] == quitter)
    assert last["out"]


def _table_out(games: list[Played], quitters: set[int]) -> set[int]:
    late = Counter(p for g in games for p in g.timed_out)
    return quitters | {p for p, n in late.items() if n >= core.TIMEOUTS_OUT}


def _check_tables_round(t, number: int, quitters: set[int]) -> None:
    """Round ``number`` of a table tournament has just been seated: as the core seats it from the rows."""
    games = played(t)
    before = [g for g in games if g.round < number]
    now = sorted((g for g in games if g.round == number), key=lambda g: g.game_id)
    order = seed_order(t)
    out = _table_out(before, quitters)
    assert _out_marks(t) == out
    seated = [p for g in now for p in g.seats]
    assert len(seated) == len(set(seated)) and not out & set(seated)
    round_byes = set(Bye.objects.filter(tournament=t, round=number).values_list("user_id", flat=True))
    assert set(seated) | round_byes == set(order) - out and not set(seated) & round_byes
    assert all(len(g.seats) in (3, 4) for g in now)
    byes_before = byes_of(t, number)
    score = {s.player: s.score for s in core.tables(order, table_games(before), byes_before, out)}
    expect = tables.seat_round([(p, score[p]) for p in order], table_games(before), byes_before, out, (3, 4))
    assert [g.seats for g in now] == list(expect.tables) and round_byes == set(expect.byes)
    assert max(Counter(byes_of(t)).values(), default=0) <= 1
    first = Counter(g.seats[0] for g in before)
    for g in now:  # seat 0 to whoever had it least
        assert first[g.seats[0]] == min(first[p] for p in g.seats)
    t.refresh_from_db()
    assert as_rows(t.standings) == core_rows(core.tables(order, table_games(games), byes_of(t), out))


def _placement_totals(games: list[Played], byes: list[int], out: set[int]) -> dict[int, float]:
    """docs/tournaments.md written out again: place k of n scores 6(n-k)/(n-1) (6/4/2/0, 6/3/0), shared places
    share their points; an unfinished table with a player out: those out share the last places; a bye 3."""
    total: Counter[int] = Counter()
    for g in games:
        n = len(g.seats)
        places = g.places or tuple(2 if p in out else 1 for p in g.seats)
        if g.places is None and not out & set(g.seats):
            continue
        for seat, p in enumerate(g.seats):
            better = sum(q < places[seat] for q in places)
            same = sum(q == places[seat] for q in places)
            total[p] += sum(6 * (n - 1 - k) / (n - 1) for k in range(better, better + same)) / same
    for p in byes:
        total[p] += 3
    return dict(total)


def _end_table(play, tg, rng: random.Random) -> None:
    """A table ends: by the site's decision on random places (sometimes a shared first), or a resignation."""
    n = len(tg.players)
    if rng.random() < 0.25:
        users = {u.pk: u for u in play.users_of(tg.players)}
        seat = rng.randrange(n)
        if Game.objects.filter(pk=tg.game_id, seats__index=seat, seats__user_id=tg.players[seat]).exists():
            play.resign(users[tg.players[seat]], tg.game_id)
            return
    ranks = list(range(1, n + 1))
    rng.shuffle(ranks)
    if rng.random() < 0.3:
        ranks = [1 if r == 2 else r for r in ranks]
    with play.commit():
        assert games.adjudicate(tg.game_id, ranks) is not None


@pytest.mark.parametrize("n", [11, 6])
def test_tables_3_4_seats(play, n):
    """Inheritors at tables of 3-4. 11 players over 3 rounds: one loses on time in rounds 1 and 2 (the AI takes the
    seat and plays on, the player is last; out after the second), another withdraws in the middle of round 2 (their
    table resigned). 6 players over 2 rounds: a withdrawal in round 1 leaves 5, a table of 4 and a bye (3 points)."""
    rng = random.Random(n)
    creator = play.users(1, "org")[0]
    players = play.users(n)
    rounds = 3 if n == 11 else 2
    t = play.tournament(creator, players, kind="inheritors", format="tables", rounds=rounds, rated=True)
    by_id = {u.pk: u for u in players}
    quitters: set[int] = set()
    slow: int | None = None
    for number in range(1, rounds + 1):
        t.refresh_from_db()
        assert t.status == "running" and t.current_round == number
        _check_tables_round(t, number, quitters)
        boards = round_games(t, number)
        if n == 11 and number == 1:
            slow = boards[0].players[1]
        for i, tg in enumerate(boards):
            if i == 1 and ((n == 11 and number == 2) or (n == 6 and number == 1)):
                quitter = next(p for p in tg.players if p != slow)  # their table still runs: resigned
                quitters.add(quitter)
                play.withdraw(by_id[quitter], t)
                row = TournamentGame.objects.get(pk=tg.pk)
                assert row.finished and row.places[row.players.index(quitter)] == max(row.places)
            if TournamentGame.objects.get(pk=tg.pk).finished:
                continue
            if slow in tg.players:
                play.time_out(tg, slow)
                row = TournamentGame.objects.get(pk=tg.pk)
                assert not row.finished and Game.objects.get(pk=tg.game_id).status == "active", "the AI plays on"
            _end_table(play, tg, rng)
    t.refresh_from_db()
    assert t.status == "finished"
    games = played(t)
    byes = byes_of(t)
    out = _table_out(games, quitters)
    assert _out_marks(t) == out and {s["user_id"] for s in t.standings if s["out"]} == out
    assert all(g.places is not None for g in games)
    assert not Game.objects.filter(tournament_game__tournament=t).exclude(watchable=True, rated=True).exists()
    if n == 11:
        assert out == quitters | {slow} and entries(t)[slow].timeouts == 2
        for g in games:
            if slow in g.seats:
                assert g.round < 3 and g.timed_out == (slow,) and g.places[g.seats.index(slow)] == max(g.places)
        assert not byes and [len(g.seats) for g in games if g.round == 3] == [3, 3, 3]
    else:
        assert byes and Counter(Bye.objects.filter(tournament=t).values_list("round", flat=True)) == {2: 1}
        assert [len(g.seats) for g in games if g.round == 2] == [4]
    expected = core.tables(seed_order(t), table_games(games), byes, out)
    assert as_rows(t.standings) == core_rows(expected)
    assert {s["user_id"]: s["score"] for s in t.standings} == pytest.approx(
        {p: _placement_totals(games, byes, out).get(p, 0.0) for p in by_id})
