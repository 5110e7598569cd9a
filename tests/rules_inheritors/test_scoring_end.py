"""Scoring (I12) and end of the game (I11)."""

from __future__ import annotations

import pytest

from games.rules.inheritors import RULES
from games.rules.inheritors.scoring import compute_result, tome_majority

from .helpers import build, play

DECK = ["yellow-1a", "yellow-1b", "yellow-1c"]


def test_I12_2_influence_is_sum_of_tops() -> None:
    s = build(stacks=[{"red": ["red-1a", "red-2a", "red-3a"], "blue": ["blue-1a", "blue-3a"]}, {}],
              hands=[[], []])
    assert compute_result(s)["scores"][0]["influence"] == 6


@pytest.mark.parametrize(("counts", "points"), [
    ([0, 0, 0], [0, 0, 0]),
    ([3, 1, 0], [3, 1, 0]),
    ([3, 1, 1], [3, 1, 1]),
    ([3, 3, 1], [3, 3, 0]),
    ([2, 0, 0], [3, 0, 0]),
    ([1, 2, 2, 4], [0, 1, 1, 3]),
])
def test_I12_3_tome_majority_ties(counts: list[int], points: list[int]) -> None:
    assert tome_majority(counts) == points


def test_I12_3_lynx_adds_two_and_epics_count() -> None:
    s = build(hands=[["tome-1"], ["tome-2", "epic-1"]], clans=["lynx", None])
    scores = compute_result(s)["scores"]
    assert (scores[0]["tomes"], scores[1]["tomes"]) == (3, 1)


def test_I12_4_relics_highest_ties_count_and_missing_stack_negative() -> None:
    s = build(hands=[["relic-red", "relic-blue", "relic-green"], ["blue-1b"]],
              stacks=[{"red": ["red-1a", "red-2a"], "blue": ["blue-1a"]},
                      {"red": ["red-1b", "red-2b"], "blue": ["blue-1c", "blue-2a"]}])
    assert compute_result(s)["scores"][0]["relics"] == 1 - 1 - 1


def test_I12_4_bear_doubles_relics() -> None:
    s = build(hands=[["relic-red", "relic-green"], []], stacks=[{"red": ["red-1a"]}, {}], clans=["bear", None])
    assert compute_result(s)["scores"][0]["relics"] == 2 - 2


def test_I12_5_quests_and_honors() -> None:
    s = build(hands=[["red-1a", "tome-1", "relic-red", "spy-1"], []], quests=[["Q-red", "Q-advocates"], ["Q-relics"]],
              honors=[["H1"], ["H2", "H3"]])
    scores = compute_result(s)["scores"]
    assert scores[0]["quests"] == 2 and scores[1]["quests"] == 0  # I10.2 unmet -> 0
    assert (scores[0]["honors"], scores[1]["honors"]) == (1, 2)


def test_I12_6_tiebreak_tomes_then_hand_then_shared() -> None:
    s = build(hands=[["tome-1", "red-1a"], ["blue-1a", "red-2a", "green-1a"]], honors=[[], ["H1", "H2"]])
    # seat 0: tomes 3; seat 1: honors 2 -> 3 vs 2
    r = compute_result(s)
    assert r["winner"] == 0
    s = build(hands=[["red-1a"], ["blue-1a", "red-2a"]])
    r = compute_result(s)
    assert r["winner"] == 1 and r["tiebreak"]["decided_by"] == "hand" and r["ranks"] == [2, 1]
    s = build(hands=[["red-1a"], ["blue-1a"]])
    r = compute_result(s)
    assert r["winner"] is None and r["winners"] == [0, 1] and r["ranks"] == [1, 1]
    s = build(hands=[["tome-1"], ["tome-2", "tome-3"]], honors=[["H1", "H2"], []])
    r = compute_result(s)  # 3 + 0 vs 3 + 0? seat0: 1 tome -> 1 pt + 2 honors = 3; seat1: 3 pts
    assert r["scores"][0]["total"] == r["scores"][1]["total"] == 3
    assert r["winner"] == 1 and r["tiebreak"]["decided_by"] == "tomes"


def test_I11_1_b_deck_empty_then_round_completes() -> None:
    s = build(seats=3, hands=[["red-1a", "red-2a"], ["blue-1a", "blue-2a"], ["green-1a", "green-2a"]],
              deck=["yellow-1a"], start_player=0, current=0)
    s = play(s, 0, {"action": "discard_draw", "card": "red-1a", "pile": 0})
    assert s.end_triggered
    s = play(s, 0, {"end_turn": True})
    s = play(s, 1, {"action": "play", "card": "blue-1a"})
    s = play(s, 1, {"end_turn": True})
    assert not RULES.is_over(s)
    s = play(s, 2, {"action": "play", "card": "green-1a"})
    s = play(s, 2, {"end_turn": True})
    assert RULES.is_over(s) and RULES.to_act(s) == frozenset()
    assert RULES.result(s)["scores"][1]["influence"] == 1


def test_I11_2_trigger_during_last_seat_turn_ends_after_it() -> None:
    s = build(seats=2, hands=[["red-1a"], ["blue-1a", "blue-2a"]], deck=["yellow-1a"], start_player=0, current=1)
    s = play(s, 1, {"action": "discard_draw", "card": "blue-1a", "pile": 0})
    s = play(s, 1, {"end_turn": True})
    assert RULES.is_over(s)


def test_I11_1_a_rows_empty_triggers() -> None:
    s = build(seats=2, hands=[["red-1a", "red-2a", "red-3a", "blue-1a"], ["blue-1b"]],
              deck=list(DECK), quest_row=["Q-red"], honor_row=[], start_player=1, current=0)
    s = play(s, 0, {"action": "quest", "cards": ["red-1a", "red-2a", "red-3a"], "piles": [0, 0, 0]})
    assert s.end_triggered
    s = play(s, 0, {"end_turn": True})
    assert RULES.is_over(s)  # seat 0 is the seat before start player 1


def test_I11_3_rat_put_back_does_not_undo_trigger() -> None:
    s = build(seats=2, hands=[["knight-1", "red-1a"], ["blue-1b"]], clans=["rat", None],
              stacks=[{"red": ["red-1b", "red-2a"]}, {}], deck=["yellow-1a", "yellow-1b"], start_player=1)
    s = play(s, 0, {"action": "advocate", "card": "knight-1"})
    assert s.end_triggered and s.deck == []
    s = play(s, 0, {"put_back": "red-1a"})
    assert s.end_triggered and s.deck == ["red-1a"]


def test_I4_5_extra_turn_of_last_seat_is_played_before_end() -> None:
    s = build(seats=2, hands=[["agent-1", "red-1a"], ["blue-1b"]], deck=["yellow-1a"], start_player=1,
              market=[["green-1a"], [], []])
    s = play(s, 0, {"action": "advocate", "card": "agent-1"})
    s = play(s, 0, {"agent_effect": "advisor"})
    s = play(s, 0, {"take_card": "green-1a"})  # refill takes the last deck card: trigger
    assert s.end_triggered
    s = play(s, 0, {"agent_effect": "spy"})
    s = play(s, 0, {"ask": 1, "colour": "red"})
    s = play(s, 0, {"end_turn": True})
    assert not RULES.is_over(s) and s.current == 0
    s = play(s, 0, {"action": "play", "card": "red-1a"})
    s = play(s, 0, {"end_turn": True})
    assert RULES.is_over(s)


def test_I11_4_actions_keep_legality_after_deck_empty() -> None:
    s = build(seats=2, hands=[["red-1a"], ["blue-1b"]], deck=[], start_player=1)
    assert {"action": "discard_draw", "card": "red-1a", "pile": 0} in RULES.legal_moves(s, 0)
