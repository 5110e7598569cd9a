"""Clans (I8) and honors (I9)."""

from __future__ import annotations

import pytest

from games.rules.base import IllegalMove
from games.rules.inheritors import RULES

from .helpers import build, play, play_ev

DECK = ["yellow-1a", "yellow-1b", "yellow-1c", "yellow-1d", "yellow-2a", "yellow-2b", "yellow-2c"]
RED3 = ["red-1a", "red-2a", "red-3a"]


def test_I8_2_claim_needs_top_3_in_clan_colour() -> None:
    s = build(hands=[["blue-1a"], ["blue-1b"]], stacks=[{"red": ["red-1a", "red-2a"]}, {}],
              clan_row=["fox"], deck=list(DECK))
    with pytest.raises(IllegalMove, match="needs a Red 3 or higher and your Red stack shows 2"):
        play(s, 0, {"claim_clan": "fox"})
    s = build(hands=[["blue-1a"], ["blue-1b"]], stacks=[{"red": RED3}, {}], clan_row=["fox", "wolf"],
              deck=list(DECK))
    s2 = play(s, 0, {"claim_clan": "fox"})
    assert s2.clans[0] == "fox" and s2.clan_row == ["wolf"]


def test_I8_3_one_clan_per_player_for_the_game() -> None:
    s = build(hands=[["blue-1a"], ["blue-1b"]],
              stacks=[{"red": RED3, "blue": ["blue-1c", "blue-2a", "blue-3a"]}, {}],
              clan_row=["fox", "wolf"], deck=list(DECK))
    s = play(s, 0, {"claim_clan": "fox"})
    with pytest.raises(IllegalMove, match="already own the Fox clan"):
        play(s, 0, {"claim_clan": "wolf"})


def test_I8_3_claimed_clan_unavailable_to_others() -> None:
    s = build(hands=[["blue-1a"], ["blue-1b"]], stacks=[{}, {"red": RED3}], clans=["fox", None],
              clan_row=[], deck=list(DECK), current=1)
    with pytest.raises(IllegalMove, match="not available"):
        play(s, 1, {"claim_clan": "fox"})


def test_I8_4_bear_takes_ambassadors_into_hand() -> None:
    s = build(hands=[["blue-1a"], ["blue-1b"]], stacks=[{"green": ["green-1a", "green-2a", "green-3a"]}, {}],
              clan_row=["bear"], clan_attached={"bear": ["ambassador-1", "ambassador-2"]}, deck=list(DECK))
    s, ev = play_ev(s, 0, {"claim_clan": "bear"})
    assert s.hands[0] == ["blue-1a", "ambassador-1", "ambassador-2"] and "bear" not in s.clan_attached
    assert ev[0]["cards"] == ["ambassador-1", "ambassador-2"]


def test_I8_5_lynx_on_claim_takes_a_pile_then_refill() -> None:
    s = build(hands=[["blue-1a"], ["blue-1b"]],
              stacks=[{"yellow": ["yellow-1a", "yellow-2a", "yellow-3a"]}, {}],
              clan_row=["lynx"], market=[["red-5a", "green-2a"], [], ["blue-4a"]],
              deck=["purple-1a", "purple-1b"])
    s = play(s, 0, {"claim_clan": "lynx"})
    assert RULES.legal_moves(s, 0) == [{"take_pile": 0}, {"take_pile": 2}]
    s = play(s, 0, {"take_pile": 0})
    assert s.hands[0] == ["blue-1a", "red-5a", "green-2a"] and s.market[0] == ["purple-1a"]
    assert s.phase == "pre"  # still in the pre-action window


def test_I8_5_rat_draws_two_puts_one_back_and_sees_it() -> None:
    s = build(hands=[["knight-1", "red-1a"], ["blue-1b"]], clans=["rat", None], deck=list(DECK))
    s = play(s, 0, {"action": "advocate", "card": "knight-1"})
    assert s.pending[-1]["kind"] == "rat" and s.hands[0] == ["red-1a", *DECK[:2]]
    s, ev = play_ev(s, 0, {"put_back": "red-1a"})
    assert s.deck[0] == "red-1a" and ev == [{"type": "rat_put_back", "seat": 0}]
    assert RULES.view(s, 0)["deck_top"] == "red-1a"
    assert "deck_top" not in RULES.view(s, 1) and "red-1a" not in str(RULES.view(s, 1))
    s = play(s, 0, {"end_turn": True})
    s = play(s, 1, {"action": "discard_draw", "card": "blue-1b", "pile": 0})
    assert "deck_top" not in RULES.view(s, 0)  # drawn


def test_I8_5_rat_after_agent_resolves_once() -> None:
    s = build(hands=[["agent-1"], ["blue-1b"]], clans=["rat", None], deck=list(DECK))
    s = play(s, 0, {"action": "advocate", "card": "agent-1"})
    s = play(s, 0, {"agent_effect": "conspirator"})
    s = play(s, 0, {"agent_effect": "conspirator"})
    assert s.pending[-1]["kind"] == "rat" and len(s.hands[0]) == 2


def test_I8_5_rat_with_empty_deck_and_hand_puts_nothing_back() -> None:
    s = build(hands=[["knight-1"], ["blue-1b"]], clans=["rat", None], deck=[])
    s = play(s, 0, {"action": "advocate", "card": "knight-1"})
    assert not s.pending


def test_I9_2_several_honors_one_window_kept_after_lapse() -> None:
    s = build(hands=[["red-1a"], ["blue-1b"]],
              stacks=[{"red": ["red-1b", "red-2a", "red-3a", "red-4a"], "green": ["green-1a", "green-2a",
                                                                                  "green-3a", "green-4a"],
                       "blue": ["blue-1a", "blue-2a", "blue-3a"]}, {}],
              honor_row=["H3", "H4", "H5", "H1"], deck=list(DECK))
    moves = RULES.legal_moves(s, 0)
    assert {"claim_honor": "H3"} in moves and {"claim_honor": "H4"} in moves
    assert {"claim_honor": "H5"} not in moves and {"claim_honor": "H1"} not in moves
    s = play(s, 0, {"claim_honor": "H3"})
    s = play(s, 0, {"claim_honor": "H4"})
    assert s.honors[0] == ["H3", "H4"] and s.honor_row == ["H5", "H1"]
    with pytest.raises(IllegalMove, match="not in the honor row"):
        play(s, 0, {"claim_honor": "H3"})


@pytest.mark.parametrize(("hid", "kwargs", "ok"), [
    ("H1", {"quests": [["Q-red", "Q-blue"], []]}, True),
    ("H1", {"quests": [["Q-red"], []]}, False),
    ("H2", {"stacks": [{"red": ["red-1a", "red-2a", "red-3a", "red-4a", "red-5a", "red-6a"]}, {}]}, True),
    ("H2", {"stacks": [{"red": ["red-1a", "red-2a", "red-3a", "red-4a", "red-5a"]}, {}]}, False),
    ("H5", {"stacks": [{c: [f"{c}-1a", f"{c}-2a"] for c in ("red", "green", "blue", "purple")}, {}]}, True),
    ("H5", {"stacks": [{c: [f"{c}-1a", f"{c}-2a"] for c in ("red", "green", "blue")}, {}]}, False),
    ("H6", {"hands": [["tome-1", "tome-2", "epic-1"], ["blue-1b"]]}, True),
    ("H6", {"hands": [["tome-1", "tome-2", "red-1a"], ["blue-1b"]]}, False),
    ("H7", {"hands": [["relic-red", "relic-blue", "relic-green"], ["blue-1b"]]}, True),
    ("H7", {"hands": [["relic-red", "relic-blue"], ["blue-1b"]]}, False),
    ("H8", {}, False),
])
def test_I9_3_honor_conditions(hid: str, kwargs: dict[str, object], ok: bool) -> None:
    base: dict[str, object] = {"hands": [["red-1c"], ["blue-1b"]], "deck": list(DECK), "honor_row": [hid]}
    base.update(kwargs)
    s = build(**base)  # type: ignore[arg-type]
    assert ({"claim_honor": hid} in RULES.legal_moves(s, 0)) == ok


def test_I9_3_H6_reveal_is_public_and_cards_stay() -> None:
    s = build(hands=[["tome-1", "tome-2", "epic-1", "tome-3"], ["blue-1b"]], deck=list(DECK), honor_row=["H6"])
    s2, ev = play_ev(s, 0, {"claim_honor": "H6", "cards": ["tome-2", "epic-1", "tome-3"]})
    assert ev[0]["revealed"] == ["tome-2", "epic-1", "tome-3"] and len(s2.hands[0]) == 4
    with pytest.raises(IllegalMove, match="reveal exactly 3"):
        play(s, 0, {"claim_honor": "H6", "cards": ["tome-2", "tome-2", "tome-3"]})


def test_I9_3_H8_only_after_action_same_turn() -> None:
    s = build(hands=[["spy-1", "spy-2"], ["red-2a", "blue-1b"]], stacks=[{"red": ["red-1a"]}, {}],
              deck=list(DECK), honor_row=["H8"])
    s = play(s, 0, {"action": "advocate", "card": "spy-1"})
    s = play(s, 0, {"ask": 1, "colour": "red"})
    s = play(s, 0, {"end_turn": True})
    assert not s.spy_honor
