"""Advocates (I7). Special advocates are unreachable in beginner setup (I8.7): states are built."""

from __future__ import annotations

import pytest

from games.rules.base import IllegalMove, NotYourTurn
from games.rules.inheritors import RULES

from .helpers import build, play, play_ev

DECK = ["yellow-1a", "yellow-1b", "yellow-1c", "yellow-1d", "yellow-2a", "yellow-2b", "yellow-2c"]


def test_I7_1_advocate_goes_to_removed() -> None:
    s = build(hands=[["knight-1"], ["blue-1b"]], deck=list(DECK), stacks=[{"red": ["red-1a", "red-2a"]}, {}])
    s2 = play(s, 0, {"action": "advocate", "card": "knight-1"})
    assert s2.removed == ["knight-1"] and "knight-1" not in s2.hands[0]


def test_I7_1_advocate_discarded_to_market_is_ordinary_card() -> None:
    s = build(hands=[["spy-1"], ["blue-1b"]], deck=list(DECK))
    s2 = play(s, 0, {"action": "discard_draw", "card": "spy-1", "pile": 0})
    assert s2.market[0] == ["spy-1"] and s2.removed == []


def test_I7_2_conspirator_needs_higher_other_stack() -> None:
    s = build(hands=[["conspirator-1", "red-3a", "green-2a"], ["blue-1b"]],
              stacks=[{"red": ["red-1a"]}, {"red": ["red-1b", "red-2b"]}], deck=list(DECK))
    s2 = play(s, 0, {"action": "advocate", "card": "conspirator-1"})
    assert RULES.legal_moves(s2, 0) == [{"skip_play": "red-3a"}]  # green: nobody higher
    with pytest.raises(IllegalMove, match="no other player shows a Green number higher"):
        play(s2, 0, {"skip_play": "green-2a"})
    s3 = play(s2, 0, {"skip_play": "red-3a"})
    assert s3.stacks[0]["red"] == ["red-1a", "red-3a"] and "red-3a" in s3.skip_plays


def test_I7_2_conspirator_not_playable_without_condition() -> None:
    s = build(hands=[["conspirator-1", "red-2a"], ["blue-1b"]], deck=list(DECK))
    assert {"action": "advocate", "card": "conspirator-1"} not in RULES.legal_moves(s, 0)
    with pytest.raises(IllegalMove, match="can't play the Conspirator"):
        play(s, 0, {"action": "advocate", "card": "conspirator-1"})


def test_I7_9_skip_play_values_and_start_with_2() -> None:
    s = build(hands=[["ambassador-1", "red-2a", "green-4a", "blue-1a"], ["blue-1b"]],
              stacks=[{"green": ["green-1a"]}, {}], deck=list(DECK))
    s2 = play(s, 0, {"action": "advocate", "card": "ambassador-1"})
    moves = RULES.legal_moves(s2, 0)
    assert {"skip_play": "red-2a"} in moves and {"skip_play": "blue-1a"} in moves
    assert {"skip_play": "green-4a"} not in moves  # would skip two values
    with pytest.raises(IllegalMove, match="only Green 2 or Green 3"):
        play(s2, 0, {"skip_play": "green-4a"})
    s3 = play(s2, 0, {"skip_play": "red-2a"})
    assert s3.stacks[0]["red"] == ["red-2a"]


def test_I7_5_ambassador_requires_a_legal_skip_play() -> None:
    s = build(hands=[["ambassador-1", "red-4a"], ["blue-1b"]], deck=list(DECK))
    assert {"action": "advocate", "card": "ambassador-1"} not in RULES.legal_moves(s, 0)


def test_I7_3_spy_target_hands_over_card_and_H8() -> None:
    s = build(hands=[["spy-1"], ["red-2a", "red-2b", "blue-1b"]], stacks=[{"red": ["red-1a"]}, {}],
              deck=list(DECK), honor_row=["H8", "H1"])
    s = play(s, 0, {"action": "advocate", "card": "spy-1"})
    assert {"ask": 1, "colour": "red"} in RULES.legal_moves(s, 0)
    s, ev = play_ev(s, 0, {"ask": 1, "colour": "red"})
    assert {"type": "spy", "seat": 0, "target": 1, "colour": "red", "value": 2, "answer": "red-2a"} in ev
    assert s.stacks[0]["red"] == ["red-1a", "red-2a"] and s.hands[1] == ["red-2b", "blue-1b"]
    assert s.spy_honor and {"claim_honor": "H8"} in RULES.legal_moves(s, 0)
    s = play(s, 0, {"claim_honor": "H8"})
    assert s.honors[0] == ["H8"]


def test_I7_3_spy_miss_draws_one() -> None:
    s = build(hands=[["spy-1"], ["blue-1b"]], deck=list(DECK))
    s = play(s, 0, {"action": "advocate", "card": "spy-1"})
    s, ev = play_ev(s, 0, {"ask": 1, "colour": "green"})
    assert s.hands[0] == [DECK[0]] and not s.spy_honor
    assert any(e["type"] == "spy" and e["answer"] is None for e in ev)


def test_I7_3_spy_value_1_gives_no_H8_and_fox_draws() -> None:
    s = build(hands=[["spy-1"], ["red-1b"]], clans=["fox", None], deck=list(DECK), honor_row=["H8"])
    s = play(s, 0, {"action": "advocate", "card": "spy-1"})
    s = play(s, 0, {"ask": 1, "colour": "red"})
    assert s.stacks[0]["red"] == ["red-1b"] and s.hands[0] == [DECK[0]]  # Fox new-stack draw
    assert not s.spy_honor and {"claim_honor": "H8"} not in RULES.legal_moves(s, 0)


def test_I7_3_spy_only_next_value_no_wolf() -> None:
    s = build(hands=[["spy-1", "red-3a"], ["red-3b"]], stacks=[{"red": ["red-1a"]}, {}],
              clans=["wolf", None], deck=list(DECK))
    s = play(s, 0, {"action": "advocate", "card": "spy-1"})
    s = play(s, 0, {"ask": 1, "colour": "red"})  # asks for Red 2, not Red 3
    assert s.hands[1] == ["red-3b"] and not s.pending


def test_I7_4_advisor_takes_any_two_then_refills() -> None:
    s = build(hands=[["advisor-1"], ["blue-1b"]], market=[["green-1a", "red-5a"], ["blue-2a"], []],
              deck=list(DECK))
    s = play(s, 0, {"action": "advocate", "card": "advisor-1"})
    assert {"take_card": "green-1a"} in RULES.legal_moves(s, 0)  # any position
    s = play(s, 0, {"take_card": "blue-2a"})
    assert s.market[1] == []  # refilled only after the effect
    s = play(s, 0, {"take_card": "green-1a"})
    assert sorted(s.hands[0]) == ["blue-2a", "green-1a"]
    assert s.market == [["red-5a"], [DECK[0]], []]  # only the pile emptied by taking is refilled


def test_I7_4_advisor_with_one_market_card() -> None:
    s = build(hands=[["advisor-1"], ["blue-1b"]], market=[["green-1a"], [], []], deck=[])
    s = play(s, 0, {"action": "advocate", "card": "advisor-1"})
    s = play(s, 0, {"take_card": "green-1a"})
    assert not s.pending and s.hands[0] == ["green-1a"]


def test_I7_7_knight_draws_highest_top() -> None:
    s = build(hands=[["knight-1"], ["blue-1b"]], stacks=[{"red": ["red-1a", "red-2a", "red-3a"],
                                                           "green": ["green-1a"]}, {}], deck=list(DECK))
    s = play(s, 0, {"action": "advocate", "card": "knight-1"})
    assert s.hands[0] == DECK[:3]
    s = build(hands=[["knight-1"], ["blue-1b"]], deck=list(DECK))
    s = play(s, 0, {"action": "advocate", "card": "knight-1"})
    assert s.hands[0] == []


def test_I7_8_saboteur_every_other_seat_discards_two() -> None:
    s = build(seats=4, hands=[["saboteur-1"], ["red-1a", "red-2a", "red-3a"], ["green-1a"], []],
              market=[["blue-1a"], [], []], deck=list(DECK))
    s = play(s, 0, {"action": "advocate", "card": "saboteur-1"})
    assert RULES.to_act(s) == frozenset({1, 2})  # seat 3 has no cards
    with pytest.raises(NotYourTurn):
        play(s, 0, {"take_pile": 0})
    s, ev = play_ev(s, 2, {"discard": "green-1a", "pile": 1})
    assert ev == [{"type": "saboteur_choice", "seat": 2}]  # secret until all have chosen
    assert s.market[1] == [] and RULES.to_act(s) == frozenset({1})
    assert "green-1a" not in str(RULES.view(s, 1)) and "green-1a" in str(RULES.view(s, 2)["pending"])
    s = play(s, 1, {"discard": "red-3a", "pile": 1})
    assert RULES.legal_moves(s, 1) == [{"discard": c, "pile": p} for c in ("red-1a", "red-2a") for p in (0, 1, 2)]
    s = play(s, 1, {"discard": "red-1a", "pile": 0})
    # placed clockwise from seat 0's left: seat 1's cards, then seat 2's
    assert s.market == [["blue-1a", "red-1a"], ["red-3a", "green-1a"], []]
    assert RULES.to_act(s) == frozenset({0})
    assert RULES.legal_moves(s, 0) == [{"take_pile": 0}, {"take_pile": 1}]
    s = play(s, 0, {"take_pile": 1})  # no matching needed
    assert s.hands[0] == ["red-3a", "green-1a"] and s.market[1] == [DECK[0]]


def test_I7_8_saboteur_with_nobody_able_to_discard() -> None:
    s = build(hands=[["saboteur-1"], []], market=[["blue-1a"], [], []], deck=list(DECK))
    s = play(s, 0, {"action": "advocate", "card": "saboteur-1"})
    assert RULES.to_act(s) == frozenset({0}) and RULES.legal_moves(s, 0) == [{"take_pile": 0}]


def test_I7_6_agent_two_effects_then_extra_turn() -> None:
    s = build(hands=[["agent-1"], ["red-1b", "blue-1b"]], market=[["green-1a"], ["blue-2a"], []],
              deck=list(DECK))
    s = play(s, 0, {"action": "advocate", "card": "agent-1"})
    assert RULES.legal_moves(s, 0) == [{"agent_effect": t} for t in ("conspirator", "spy", "advisor")]
    s = play(s, 0, {"agent_effect": "conspirator"})  # condition fails: skipped
    assert s.pending[-1]["kind"] == "agent"
    s = play(s, 0, {"agent_effect": "spy"})
    s = play(s, 0, {"ask": 1, "colour": "red"})
    assert s.stacks[0]["red"] == ["red-1b"] and not s.pending
    s = play(s, 0, {"end_turn": True})
    assert s.current == 0 and RULES.to_act(s) == frozenset({0})  # extra turn
    s = play(s, 0, {"action": "discard_draw", "card": "red-1b" if "red-1b" in s.hands[0] else s.hands[0][0],
                    "pile": 0}) if s.hands[0] else play(s, 0, {"pass": True})
    s = play(s, 0, {"end_turn": True})
    assert s.current == 1


def test_I7_6_agent_same_effect_twice() -> None:
    s = build(hands=[["agent-1"], ["blue-1b"]], market=[["green-1a", "red-1a"], ["blue-2a"], ["red-2a"]],
              deck=list(DECK))
    s = play(s, 0, {"action": "advocate", "card": "agent-1"})
    s = play(s, 0, {"agent_effect": "advisor"})
    s = play(s, 0, {"take_card": "green-1a"})
    s = play(s, 0, {"take_card": "red-1a"})
    s = play(s, 0, {"agent_effect": "advisor"})
    s = play(s, 0, {"take_card": "blue-2a"})
    s = play(s, 0, {"take_card": DECK[0]})
    assert sorted(s.hands[0]) == sorted(["green-1a", "red-1a", "blue-2a", DECK[0]])
