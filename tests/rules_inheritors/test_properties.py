"""I14 invariants over random legal play (2, 3, 4 seats), views (I13), JSON and records."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules.base import IllegalMove, NotYourTurn, replay
from games.rules.inheritors import RULES
from games.rules.inheritors import cards as C
from games.rules.inheritors.bench import games_per_second, play_random_game
from games.rules.inheritors.state import InheritorsState

ALL_CARDS = Counter(list(C.CARDS))


def check_invariants(s: InheritorsState) -> None:
    # I14.1 conservation (including the box, so it covers every physical card)
    assert Counter(s.all_card_ids()) == ALL_CARDS
    # I14.2 stacks
    for seat in range(s.seats):
        for colour, stack in s.stacks[seat].items():
            prev = 0
            for cid in stack:
                c = C.CARDS[cid]
                assert c.colour == colour and c.value is not None
                step = c.value - prev
                assert step == 1 or (step == 2 and cid in s.skip_plays), (stack, s.skip_plays)
                prev = c.value
            assert prev <= 6
    # I14.3 ownership
    owned = [c for c in s.clans if c is not None]
    assert len(owned) == len(set(owned)) and not set(owned) & set(s.clan_row)
    hon = [h for hs in s.honors for h in hs] + s.honor_row
    assert len(hon) == len(set(hon))
    qs = [q for qq in s.quests for q in qq] + s.quest_row
    assert len(qs) == len(set(qs))


def public_cards(s: InheritorsState, events: list[dict[str, Any]]) -> set[str]:
    """Cards whose identity has been public (market, tableaux, Removed, clan attachments, reveals)."""
    out = set(s.removed) | {c for p in s.market for c in p}
    for st_ in s.stacks:
        for stack in st_.values():
            out |= set(stack)
    for v in s.clan_attached.values():
        out |= set(v)
    for e in events:
        for key in ("revealed", "cards"):
            out |= set(e.get(key) or [])
        if e.get("answer"):
            out.add(e["answer"])
    return out


def secrets_for(s: InheritorsState, seat: int | None, ever_public: set[str]) -> set[str]:
    """I13 / I14.4: ids ``seat`` must not find in its view or in events."""
    secret: set[str] = set(s.deck)
    for o in range(s.seats):
        if o != seat:
            secret |= set(s.hands[o])
    secret -= ever_public
    if seat is not None:
        secret -= set(s.hands[seat])
        if s.rat_top is not None and s.rat_top[0] == seat:
            secret.discard(s.rat_top[1])
    quests = set(s.quest_row)
    for o in range(s.seats):
        if o != seat:
            quests |= set(s.quests[o])
    return secret | quests


def check_view(s: InheritorsState, seat: int | None, ever_public: set[str]) -> None:
    v = RULES.view(s, seat)
    text = json.dumps(v)
    json.loads(text)
    if RULES.is_over(s):
        return
    for secret in secrets_for(s, seat, ever_public):
        assert f'"{secret}"' not in text, (seat, secret)


def run_game(seats: int, seed: int, every_step: bool = True) -> InheritorsState:
    rng = random.Random(seed)
    s = RULES.setup(None, seats, seed)
    ever_public = public_cards(s, s.log)
    check_invariants(s)
    for _ in range(5000):
        acting = RULES.to_act(s)
        if not acting:
            break
        seat = rng.choice(sorted(acting))
        moves = RULES.legal_moves(s, seat)
        assert moves, "a seat that must act always has a legal move"
        for other in range(seats):
            if other not in acting:
                assert RULES.legal_moves(s, other) == []
        move = rng.choice(moves)
        s2, events = RULES.apply(s, seat, move)
        if every_step:
            # events are public: nothing secret from a spectator appears in them
            txt = json.dumps(events)
            newly_public = public_cards(s2, events)
            if not RULES.is_over(s2):
                for secret in secrets_for(s2, None, ever_public | newly_public):
                    assert f'"{secret}"' not in txt, secret
            ever_public |= newly_public
            check_invariants(s2)
            for viewer in [*range(seats), None]:
                check_view(s2, viewer, ever_public)
        s = s2
    assert RULES.is_over(s), "I14.5 the game ends"
    return s


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**31))
def test_I14_invariants_every_step_random_play(seats: int, seed: int) -> None:
    run_game(seats, seed)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_I14_5_games_always_end(seats: int) -> None:
    for seed in range(25):
        s = play_random_game(seats, seed)
        assert RULES.is_over(s)
        r = RULES.result(s)
        assert r is not None and len(r["scores"]) == seats
        for row in r["scores"]:
            assert row["total"] == sum(row[k] for k in ("influence", "tomes", "relics", "quests", "honors"))


def test_I14_5_guaranteed_one_variant_games_end() -> None:
    for seed in range(10):
        assert RULES.is_over(play_random_game(3, seed, {"guaranteed_one": True}))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), seats=st.sampled_from([2, 3, 4]), data=st.data())
def test_I14_6_only_legal_moves_accepted(seed: int, seats: int, data: st.DataObject) -> None:
    rng = random.Random(seed)
    s = RULES.setup(None, seats, seed)
    for _ in range(40):
        acting = RULES.to_act(s)
        if not acting:
            break
        seat = rng.choice(sorted(acting))
        legal = RULES.legal_moves(s, seat)
        # a random move built from the vocabulary is accepted iff it is listed
        cand = random_move(data, s, seat)
        try:
            RULES.apply(s, seat, cand)
            accepted = True
        except NotYourTurn:
            accepted = False
        except IllegalMove:
            accepted = False
        assert accepted == (cand in legal) or _equivalent_quest_form(cand), (cand, legal)
        for other in range(seats):
            if other not in acting:
                with pytest.raises(NotYourTurn):
                    RULES.apply(s, other, legal[0])
        s, _ = RULES.apply(s, seat, rng.choice(legal))


def _equivalent_quest_form(move: dict[str, Any]) -> bool:
    return "cards" in move


def random_move(data: st.DataObject, s: InheritorsState, seat: int) -> dict[str, Any]:
    card = st.sampled_from(sorted(set(s.hands[seat]) | {"red-1a", "tome-1", "spy-1"} |
                                  {c for p in s.market for c in p}))
    pile = st.integers(-1, 3)
    return data.draw(st.one_of(
        st.fixed_dictionaries({"action": st.just("play"), "card": card}),
        st.fixed_dictionaries({"action": st.just("discard_draw"), "card": card, "pile": pile}),
        st.fixed_dictionaries({"action": st.just("discard_take"), "card": card, "pile": pile, "take": pile}),
        st.fixed_dictionaries({"action": st.just("quest"), "card": card, "pile": pile}),
        st.fixed_dictionaries({"action": st.just("advocate"), "card": card}),
        st.fixed_dictionaries({"claim_clan": st.sampled_from(["wolf", "fox", "bear", "lynx", "rat", "x"])}),
        st.fixed_dictionaries({"claim_honor": st.sampled_from([f"H{i}" for i in range(0, 10)])}),
        st.just({"end_turn": True}), st.just({"pass": True}), st.just({"skip": True}),
        st.fixed_dictionaries({"play": card}), st.fixed_dictionaries({"discard": card, "pile": pile}),
        st.fixed_dictionaries({"skip_play": card}), st.fixed_dictionaries({"take_card": card}),
        st.fixed_dictionaries({"take_pile": pile}), st.fixed_dictionaries({"put_back": card}),
        st.fixed_dictionaries({"ask": st.integers(-1, 4), "colour": st.sampled_from(["red", "blue", "white"])}),
        st.fixed_dictionaries({"agent_effect": st.sampled_from(["spy", "knight"])}),
    ))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_json_round_trip_and_record_replay(seats: int) -> None:
    for seed in range(4):
        s = play_random_game(seats, seed + 100)
        rec = RULES.record(s)
        text = json.dumps(rec)
        back = RULES.from_record(json.loads(text))
        assert RULES.result(back) == RULES.result(s)
        assert RULES.to_json(back) == RULES.to_json(s)
        # base.replay from (options, seats, seed, moves) gives the same game
        moves = [(m["seat"], m["move"]) for m in rec["moves"]]
        again = replay(RULES, rec["options"], seats, rec["setup"]["seed"], moves)
        assert RULES.result(again) == RULES.result(s)
        # JSON round-trip of the full state, then keep playing identically
        j = json.loads(json.dumps(RULES.to_json(s)))
        assert RULES.to_json(RULES.from_json(j)) == RULES.to_json(s)


def test_json_round_trip_mid_game_behaves_identically() -> None:
    rng = random.Random(5)
    s = RULES.setup(None, 4, 5)
    for _ in range(80):
        seat = min(RULES.to_act(s))
        t = RULES.from_json(json.loads(json.dumps(RULES.to_json(s))))
        assert RULES.legal_moves(t, seat) == RULES.legal_moves(s, seat)
        move = rng.choice(RULES.legal_moves(s, seat))
        a, ea = RULES.apply(s, seat, move)
        b, eb = RULES.apply(t, seat, move)
        assert ea == eb and RULES.to_json(a) == RULES.to_json(b)
        s = a
        if RULES.is_over(s):
            break


def test_record_format_fields() -> None:
    s = play_random_game(2, 9)
    rec = RULES.record(s)
    assert rec["format"] == "inheritors.record/1" and rec["game"] == "inheritors"
    for key in ("removed_colour", "quest_row", "honor_row", "clan_row", "hands", "deck", "market",
                "start_player", "removed"):
        assert key in rec["setup"]
    assert rec["result"] == RULES.result(s)
    bad = dict(rec)
    bad["result"] = {"winner": 99}
    with pytest.raises(ValueError, match="different result"):
        RULES.from_record(bad)


def test_I13_view_after_end_reveals_everything() -> None:
    s = play_random_game(3, 4)
    v = RULES.view(s, 1)
    assert v["hands"] == s.hands and v["all_quests"] == s.quests and v["result"] == RULES.result(s)


def test_I13_view_contents_running_game() -> None:
    s = RULES.setup(None, 3, 8)
    v = RULES.view(s, 0)
    assert v["hand"] == s.hands[0] and "hands" not in v and v["deck_count"] == len(s.deck)
    assert v["quest_row_count"] == 5 and len(v["honor_row"]) == 5 and len(v["clan_row"]) == 5
    assert [p["hand_count"] for p in v["players"]] == [10, 10, 10]
    spectator = RULES.view(s, None)
    assert "hand" not in spectator


def test_speed_function_runs() -> None:
    assert games_per_second(2, n=2) > 0


def with_specials(seats: int, seed: int) -> InheritorsState:
    """A normal setup where the boxed Agent/Knight/Saboteur/epics are swapped into the hands, so
    random play reaches them (I8.7: unreachable in beginner setup)."""
    s = RULES.setup(None, seats, seed)
    specials = [c for c in ("agent-1", "knight-1", "saboteur-1", "epic-1", "epic-2", "epic-3") if c in s.box]
    box = list(s.box)
    for i, cid in enumerate(specials):
        seat = i % seats
        out = s.hands[seat][i // seats]
        s.hands[seat][i // seats] = cid
        box.remove(cid)
        box.append(out)
    s.box = sorted(box)
    return s


@settings(max_examples=12, deadline=None)
@given(seats=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**31))
def test_I14_invariants_with_special_advocates(seats: int, seed: int) -> None:
    rng = random.Random(seed)
    s = with_specials(seats, seed)
    for _ in range(5000):
        acting = RULES.to_act(s)
        if not acting:
            break
        seat = rng.choice(sorted(acting))
        moves = RULES.legal_moves(s, seat)
        assert moves
        # prefer advocates so the special effects are exercised
        adv = [m for m in moves if m.get("action") == "advocate"]
        s, _ = RULES.apply(s, seat, rng.choice(adv) if adv and rng.random() < 0.7 else rng.choice(moves))
        check_invariants(s)
    assert RULES.is_over(s)
