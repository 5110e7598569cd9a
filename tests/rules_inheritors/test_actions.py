"""I4 turn structure and the actions A1-A5 (I5), market (I6)."""

from __future__ import annotations

import pytest

from games.rules.base import IllegalMove, NotYourTurn
from games.rules.inheritors import RULES
from games.rules.inheritors.state import POST, PRE

from .helpers import build, play, play_ev

DECK = ["yellow-1a", "yellow-1b", "yellow-1c", "yellow-1d", "yellow-2a", "yellow-2b", "yellow-2c"]


# ------------------------------------------------------------------ A1
def test_I5_1_1_play_next_value_only() -> None:
    s = build(hands=[["red-1a", "red-3a", "green-2a"], ["blue-1a"]], stacks=[{"green": ["green-1a"]}, {}],
              deck=list(DECK))
    s2 = play(s, 0, {"action": "play", "card": "red-1a"})
    assert s2.stacks[0]["red"] == ["red-1a"] and s2.phase == POST
    with pytest.raises(IllegalMove, match="you have no Red stack, so only Red 1 can start it"):
        play(s, 0, {"action": "play", "card": "red-3a"})
    s3 = play(s, 0, {"action": "play", "card": "green-2a"})
    assert s3.stacks[0]["green"] == ["green-1a", "green-2a"]


def test_I5_1_1_message_in_players_words() -> None:
    s = build(hands=[["red-3a"], ["blue-1a"]], stacks=[{"red": ["red-1a"]}, {}], deck=list(DECK))
    with pytest.raises(IllegalMove, match="you can't play Red 3: your Red stack shows 1, so only Red 2 is next"):
        play(s, 0, {"action": "play", "card": "red-3a"})


def test_I5_1_1_stack_ends_at_6() -> None:
    full = ["red-1a", "red-2a", "red-3a", "red-4a", "red-5a", "red-6a"]
    s = build(hands=[["red-1b"], ["blue-1a"]], stacks=[{"red": full}, {}], deck=list(DECK))
    assert {"action": "play", "card": "red-1b"} not in RULES.legal_moves(s, 0)
    with pytest.raises(IllegalMove, match="complete at 6"):
        play(s, 0, {"action": "play", "card": "red-1b"})


def test_I5_1_play_non_influence_rejected() -> None:
    s = build(hands=[["tome-1"], ["blue-1a"]], deck=list(DECK))
    with pytest.raises(IllegalMove, match="only influence cards"):
        play(s, 0, {"action": "play", "card": "tome-1"})


def test_I5_1_3_wolf_second_play_optional_once() -> None:
    s = build(hands=[["red-1a", "red-2a", "red-3a"], ["blue-1a"]], clans=["wolf", None], deck=list(DECK))
    s = play(s, 0, {"action": "play", "card": "red-1a"})
    assert s.pending[-1]["kind"] == "wolf"
    assert {"play": "red-2a"} in RULES.legal_moves(s, 0) and {"skip": True} in RULES.legal_moves(s, 0)
    s = play(s, 0, {"play": "red-2a"})
    assert not s.pending and s.stacks[0]["red"] == ["red-1a", "red-2a"]
    assert RULES.legal_moves(s, 0)[-1] == {"end_turn": True}  # no third play


def test_I5_1_3_wolf_skip_and_auto_skip_when_nothing_playable() -> None:
    s = build(hands=[["red-1a", "red-2a"], ["blue-1a"]], clans=["wolf", None], deck=list(DECK))
    s2 = play(s, 0, {"action": "play", "card": "red-1a"})
    s2 = play(s2, 0, {"skip": True})
    assert not s2.pending and s2.hands[0] == ["red-2a"]
    s = build(hands=[["red-1a", "tome-1"], ["blue-1a"]], clans=["wolf", None], deck=list(DECK))
    s3 = play(s, 0, {"action": "play", "card": "red-1a"})
    assert not s3.pending


def test_I5_1_4_fox_draws_on_new_stack() -> None:
    s = build(hands=[["red-1a", "green-2a"], ["blue-1a"]], stacks=[{"green": ["green-1a"]}, {}],
              clans=["fox", None], deck=list(DECK))
    s2 = play(s, 0, {"action": "play", "card": "red-1a"})
    assert len(s2.hands[0]) == 2 and s2.deck == DECK[1:]
    s3 = play(s, 0, {"action": "play", "card": "green-2a"})
    assert len(s3.hands[0]) == 1 and s3.deck == DECK


# ------------------------------------------------------------------ A2
def test_I5_2_discard_one_draw_two_any_pile_even_empty() -> None:
    s = build(hands=[["red-1a"], ["blue-1a"]], deck=list(DECK), market=[["green-1a"], [], []])
    s2, ev = play_ev(s, 0, {"action": "discard_draw", "card": "red-1a", "pile": 1})
    assert s2.market[1] == ["red-1a"] and s2.hands[0] == DECK[:2]
    assert {"type": "draw", "seat": 0, "count": 2} in ev
    assert all("yellow-1a" not in str(e) for e in ev)  # drawn cards are not in public events


def test_I6_6_draw_from_short_deck() -> None:
    s = build(hands=[["red-1a"], ["blue-1a"]], deck=["yellow-1a"])
    s2 = play(s, 0, {"action": "discard_draw", "card": "red-1a", "pile": 0})
    assert s2.hands[0] == ["yellow-1a"] and s2.deck == [] and s2.end_triggered


# ------------------------------------------------------------------ A3
def test_I5_3_2_take_matching_pile_must_be_different() -> None:
    s = build(hands=[["red-2a"], ["blue-1a"]], market=[["red-1a"], ["green-2b"], ["purple-4a"]],
              deck=list(DECK))
    with pytest.raises(IllegalMove, match="different pile"):
        play(s, 0, {"action": "discard_take", "card": "red-2a", "pile": 0, "take": 0})
    s2 = play(s, 0, {"action": "discard_take", "card": "red-2a", "pile": 0, "take": 1})
    assert s2.market[0] == ["red-1a", "red-2a"]
    assert "green-2b" in s2.hands[0]
    assert s2.market[1] == [DECK[0]]  # I5.3.3 refill


def test_I5_3_2_no_match_rejected_and_not_listed() -> None:
    s = build(hands=[["red-2a"], ["blue-1a"]], market=[["green-1a"], ["purple-4a"], []], deck=list(DECK))
    with pytest.raises(IllegalMove, match="shares no value, colour or name"):
        play(s, 0, {"action": "discard_take", "card": "red-2a", "pile": 2, "take": 0})
    assert not [m for m in RULES.legal_moves(s, 0) if m.get("action") == "discard_take"]


def test_I5_3_2_cannot_take_empty_pile() -> None:
    s = build(hands=[["tome-1"], ["blue-1a"]], market=[["green-1a"], [], []], deck=list(DECK))
    with pytest.raises(IllegalMove, match="empty"):
        play(s, 0, {"action": "discard_take", "card": "tome-1", "pile": 0, "take": 1})


def test_I5_3_takes_whole_pile_including_discard_on_other_pile() -> None:
    s = build(hands=[["tome-1"], ["blue-1a"]], market=[["green-1a", "red-5a"], ["blue-2a"], []],
              deck=list(DECK))
    s2 = play(s, 0, {"action": "discard_take", "card": "tome-1", "pile": 1, "take": 0})
    assert sorted(s2.hands[0]) == ["green-1a", "red-5a"]
    assert s2.market[1] == ["blue-2a", "tome-1"]


@pytest.mark.parametrize(("discard", "top", "ok"), [
    ("red-2a", "green-2a", True),  # same value
    ("red-2a", "red-5a", True),  # same colour
    ("red-2a", "green-3a", False),
    ("tome-1", "green-3a", True),  # wild discard
    ("green-3a", "tome-2", True),  # wild top
    ("spy-1", "advisor-1", True),  # white
    ("spy-1", "green-3a", False),
    ("tome-1", "spy-1", True),  # wild includes white (AMB-09)
    ("relic-red", "relic-blue", True),  # name key
    ("relic-red", "red-4a", True),  # colour
    ("relic-red", "blue-4a", False),
    ("epic-1", "tome-1", True),
])
def test_I6_4_matching(discard: str, top: str, ok: bool) -> None:
    s = build(hands=[[discard], ["blue-1b"]], market=[[], [top], []], deck=list(DECK))
    move = {"action": "discard_take", "card": discard, "pile": 0, "take": 1}
    assert (move in RULES.legal_moves(s, 0)) == ok


def test_I6_4_fox_discard_is_wild() -> None:
    move = {"action": "discard_take", "card": "red-2a", "pile": 0, "take": 1}
    plain = build(hands=[["red-2a"], ["blue-1b"]], market=[[], ["green-3a"], []], deck=list(DECK))
    assert move not in RULES.legal_moves(plain, 0)  # red on green matches nothing without the Fox
    s = build(hands=[["red-2a"], ["blue-1b"]], market=[[], ["green-3a"], []], clans=["fox", None],
              deck=list(DECK))
    assert move in RULES.legal_moves(s, 0)
    s2 = play(s, 0, move)
    assert "green-3a" in s2.hands[0] and "red-2a" not in s2.hands[0]
    assert s2.market[0][-1] == "red-2a"


def test_I6_5_refill_sends_advocates_to_removed() -> None:
    s = build(hands=[["red-2a"], ["blue-1b"]], market=[[], ["red-3a"], []],
              deck=["spy-1", "advisor-2", "green-4a", "yellow-1a"])
    s2 = play(s, 0, {"action": "discard_take", "card": "red-2a", "pile": 0, "take": 1})
    assert s2.market[1] == ["green-4a"] and s2.removed == ["spy-1", "advisor-2"]
    assert s2.deck == ["yellow-1a"]


def test_I6_5_refill_with_empty_deck_stays_empty() -> None:
    s = build(hands=[["red-2a"], ["blue-1b"]], market=[[], ["red-3a"], []], deck=["spy-1"])
    s2 = play(s, 0, {"action": "discard_take", "card": "red-2a", "pile": 0, "take": 1})
    assert s2.market[1] == [] and s2.removed == ["spy-1"] and s2.end_triggered


# ------------------------------------------------------------------ A4
def test_I5_4_quest_three_of_one_colour_sequential() -> None:
    s = build(hands=[["red-1a", "red-4a", "tome-1", "green-1a"], ["blue-1a"]], deck=list(DECK),
              quest_row=["Q-red", "Q-relics"])
    moves = RULES.legal_moves(s, 0)
    assert {"action": "quest", "card": "green-1a", "pile": 0} not in moves  # green + tome: only 2
    assert {"action": "quest", "card": "tome-1", "pile": 0} in moves
    s2 = play(s, 0, {"action": "quest", "card": "red-1a", "pile": 0})
    assert s2.pending[-1]["kind"] == "quest_discard"
    assert {"discard": "green-1a", "pile": 0} not in RULES.legal_moves(s2, 0)
    with pytest.raises(IllegalMove, match="must share a colour"):
        play(s2, 0, {"discard": "green-1a", "pile": 0})
    s3 = play(s2, 0, {"discard": "tome-1", "pile": 2})
    s4, ev = play_ev(s3, 0, {"discard": "red-4a", "pile": 2})
    assert s4.quests[0] == ["Q-red"] and s4.quest_row == ["Q-relics"]  # I5.4.3 first of the shuffled row
    assert s4.market == [["red-1a"], [], ["tome-1", "red-4a"]]
    assert s4.hands[0] == ["green-1a", DECK[0]]  # I5.4.4 draw 1
    assert {"type": "take_quest", "seat": 0} in ev  # the quest id is not public


def test_I5_4_1_green_with_one_wild_cannot_make_three() -> None:
    s = build(hands=[["green-1a", "tome-1", "red-1a", "blue-1a"], ["blue-1b"]], deck=list(DECK))
    starts = {m["card"] for m in RULES.legal_moves(s, 0) if m.get("action") == "quest"}
    assert starts == set()


def test_I5_4_quest_all_at_once_form() -> None:
    s = build(hands=[["spy-1", "advisor-1", "conspirator-1"], ["blue-1b"]], deck=list(DECK))
    s2 = play(s, 0, {"action": "quest", "cards": ["spy-1", "advisor-1", "conspirator-1"], "piles": [0, 1, 1]})
    assert len(s2.quests[0]) == 1 and s2.market == [["spy-1"], ["advisor-1", "conspirator-1"], []]


def test_I5_4_1_three_advocates_are_white() -> None:
    s = build(hands=[["spy-1", "advisor-1", "conspirator-1"], ["blue-1b"]], deck=list(DECK))
    assert {"action": "quest", "card": "spy-1", "pile": 0} in RULES.legal_moves(s, 0)


def test_I5_4_1_fox_any_three_cards() -> None:
    s = build(hands=[["spy-1", "red-1a", "green-1a"], ["blue-1b"]], clans=["fox", None], deck=list(DECK))
    s2 = play(s, 0, {"action": "quest", "cards": ["spy-1", "red-1a", "green-1a"], "piles": [0, 0, 0]})
    assert len(s2.quests[0]) == 1


def test_I5_4_1_needs_quest_in_row() -> None:
    s = build(hands=[["red-1a", "red-2a", "red-3a"], ["blue-1b"]], quest_row=[], deck=list(DECK))
    with pytest.raises(IllegalMove, match="quest row is empty"):
        play(s, 0, {"action": "quest", "card": "red-1a", "pile": 0})


# ------------------------------------------------------------------ I4
def test_I4_2_claims_before_and_after_action_not_after_end() -> None:
    s = build(hands=[["red-4a", "blue-1a"], ["blue-1b"]],
              stacks=[{"red": ["red-1a", "red-2a", "red-3a"], "green": ["green-1a", "green-2a", "green-3a"]}, {}],
              clan_row=["fox", "bear"], clan_attached={"bear": ["ambassador-1", "ambassador-2"]},
              honor_row=["H3", "H4"], deck=list(DECK))
    assert {"claim_clan": "fox"} in RULES.legal_moves(s, 0)
    s = play(s, 0, {"claim_clan": "fox"})
    assert s.phase == PRE and s.clans[0] == "fox"
    assert {"claim_clan": "bear"} not in RULES.legal_moves(s, 0)  # I8.3 only one clan
    s = play(s, 0, {"action": "play", "card": "red-4a"})
    s = play(s, 0, {"claim_honor": "H3"}) if {"claim_honor": "H3"} in RULES.legal_moves(s, 0) else s
    assert s.honors[0] == []  # one stack >= 4 only
    s = play(s, 0, {"end_turn": True})
    assert s.current == 1
    with pytest.raises(NotYourTurn):
        play(s, 0, {"claim_honor": "H4"})


def test_I4_1_action_mandatory_and_only_one() -> None:
    s = build(hands=[["red-1a", "red-2a"], ["blue-1b"]], deck=list(DECK))
    with pytest.raises(IllegalMove, match="must take an action first"):
        play(s, 0, {"end_turn": True})
    s2 = play(s, 0, {"action": "play", "card": "red-1a"})
    with pytest.raises(IllegalMove, match="already taken your action"):
        play(s2, 0, {"action": "play", "card": "red-2a"})


def test_I4_3_pass_only_with_empty_hand() -> None:
    s = build(hands=[[], ["blue-1b"]], deck=[])
    assert RULES.legal_moves(s, 0) == [{"pass": True}]
    s2 = play(s, 0, {"pass": True})
    assert s2.phase == POST
    s = build(hands=[["red-1a"], ["blue-1b"]], deck=list(DECK))
    with pytest.raises(IllegalMove, match="can't pass"):
        play(s, 0, {"pass": True})


def test_I4_4_cleanup_every_empty_hand_draws_one_active_first() -> None:
    s = build(seats=3, hands=[["red-1a"], [], []], deck=list(DECK))
    s = play(s, 0, {"action": "play", "card": "red-1a"})
    s = play(s, 0, {"end_turn": True})
    assert s.hands == [[DECK[0]], [DECK[1]], [DECK[2]]]


def test_I4_4_no_draw_for_non_empty_hand() -> None:
    s = build(seats=2, hands=[["red-1a", "red-2b"], ["blue-1b"]], deck=list(DECK))
    s = play(s, 0, {"action": "play", "card": "red-1a"})
    s = play(s, 0, {"end_turn": True})
    assert s.hands == [["red-2b"], ["blue-1b"]]


def test_not_your_turn_and_bad_moves() -> None:
    s = build(hands=[["red-1a"], ["blue-1b"]], deck=list(DECK))
    with pytest.raises(NotYourTurn):
        play(s, 1, {"action": "play", "card": "blue-1b"})
    with pytest.raises(IllegalMove, match="don't hold"):
        play(s, 0, {"action": "play", "card": "blue-1b"})
    with pytest.raises(IllegalMove, match="no card called"):
        play(s, 0, {"action": "play", "card": "nope"})
    with pytest.raises(IllegalMove, match="unknown action"):
        play(s, 0, {"action": "dance"})
    with pytest.raises(IllegalMove, match="pile 0, 1 or 2"):
        play(s, 0, {"action": "discard_draw", "card": "red-1a", "pile": 3})


def test_apply_does_not_mutate_input() -> None:
    s = build(hands=[["red-1a"], ["blue-1b"]], deck=list(DECK))
    before = RULES.to_json(s)
    play(s, 0, {"action": "discard_draw", "card": "red-1a", "pile": 0})
    assert RULES.to_json(s) == before
