"""I1 components, I3 setup."""

from __future__ import annotations

from collections import Counter

import pytest

from games.rules.base import InvalidOptions, Rules
from games.rules.inheritors import RULES, data
from games.rules.inheritors import cards as C
from games.rules.inheritors.setup import make_setup


def test_rules_object_implements_protocol() -> None:
    assert isinstance(RULES, Rules)
    assert RULES.info.kind == "inheritors"
    assert (RULES.info.min_seats, RULES.info.max_seats) == (2, 4)
    assert RULES.info.record_format == "inheritors.record/1"


def test_I1_12_component_totals() -> None:
    kinds = Counter(c.kind for c in C.CARDS.values())
    assert kinds == {C.INFLUENCE: 70, C.RELIC: 5, C.TOME: 6, C.BASIC_ADVOCATE: 18,
                     C.SPECIAL_ADVOCATE: 5, C.EPIC: 3}
    assert len(C.CARDS) + 4 == 111  # + 4 reference cards
    assert len(data.HONORS) + len(data.QUESTS) + 10 == 25  # 10 clans in the box (5 known)


def test_I1_2_influence_distribution_constraints() -> None:
    assert sum(data.VALUE_COPIES.values()) == 14
    assert data.VALUE_COPIES[5] == 1 and data.VALUE_COPIES[6] == 1
    copies = [data.VALUE_COPIES[v] for v in range(1, 7)]
    assert copies == sorted(copies, reverse=True)
    for colour in data.COLOURS:
        assert sum(1 for c in C.CARDS.values() if c.kind == C.INFLUENCE and c.colour == colour) == 14


def test_I1_5_advocate_split_is_data() -> None:
    per_type = Counter(c.advocate_type for c in C.CARDS.values() if c.kind == C.BASIC_ADVOCATE)
    assert per_type == {"conspirator": 6, "spy": 6, "advisor": 6}
    assert sum(1 for c in C.CARDS.values() if c.kind == C.BASIC_ADVOCATE and c.min_players == 2) == 12


def test_I1_6_special_advocates() -> None:
    assert Counter(c.advocate_type for c in C.CARDS.values() if c.kind == C.SPECIAL_ADVOCATE) == {
        "ambassador": 2, "agent": 1, "knight": 1, "saboteur": 1}


def test_card_ids_unique_and_documented_format() -> None:
    assert "red-3a" in C.CARDS and "red-3c" in C.CARDS and "red-3d" not in C.CARDS
    assert "relic-blue" in C.CARDS and "tome-6" in C.CARDS and "epic-3" in C.CARDS
    assert "spy-6" in C.CARDS and "ambassador-2" in C.CARDS and "saboteur-1" in C.CARDS


@pytest.mark.parametrize(("seats", "deck"), [(2, 58), (3, 69), (4, 59)])
def test_I3_12_deck_size_after_dealing(seats: int, deck: int) -> None:
    for seed in range(5):
        s = make_setup(None, seats, seed)
        assert len(s["deck"]) == deck
        assert all(len(h) == 10 for h in s["hands"])  # I3.8


def test_I3_2_two_players_remove_a_colour_with_relic_clans_quests() -> None:
    seen = set()
    for seed in range(40):
        s = make_setup(None, 2, seed)
        gone = s["removed_colour"]
        seen.add(gone)
        assert gone not in s["colours"] and len(s["colours"]) == 4
        in_play = s["deck"] + [c for h in s["hands"] for c in h]
        assert not any(gone in C.colours_of(c) and not C.is_wild(c) for c in in_play)
        assert f"relic-{gone}" in s["box"]
        assert all(data.CLANS[c]["colour"] != gone for c in s["clan_row"])
        assert all(data.QUESTS[q]["tie"] != gone for q in s["quest_row"])
        assert len(s["quest_row"]) == 4 and len(s["honor_row"]) == 4  # I3.4, I3.5
        assert sum(1 for c in in_play if C.CARDS[c].kind == C.BASIC_ADVOCATE) == 12  # I3.3
    assert seen == set(data.COLOURS)


@pytest.mark.parametrize("seats", [3, 4])
def test_I3_3_three_four_players_use_all_basic_advocates(seats: int) -> None:
    s = make_setup(None, seats, 7)
    in_play = s["deck"] + [c for h in s["hands"] for c in h]
    assert sum(1 for c in in_play if C.CARDS[c].kind == C.BASIC_ADVOCATE) == 18
    assert len(s["quest_row"]) == 5 and len(s["honor_row"]) == 5
    assert s["removed_colour"] is None and sorted(s["clan_row"]) == sorted(data.CLAN_MODES["beginner"])


def test_I3_6_I8_4_bear_has_ambassadors_and_unknown_specials_are_boxed() -> None:
    state = RULES.setup(None, 4, 3)
    assert state.clan_attached["bear"] == ["ambassador-1", "ambassador-2"]
    for cid in ("agent-1", "knight-1", "saboteur-1", "epic-1", "epic-2", "epic-3"):
        assert cid in state.box


def test_I3_7_specials_and_epics_never_in_deck() -> None:
    for seats in (2, 3, 4):
        state = RULES.setup(None, seats, 11)
        for cid in state.deck + [c for h in state.hands for c in h]:
            assert C.CARDS[cid].kind not in (C.SPECIAL_ADVOCATE, C.EPIC)


def test_I3_8_2_guaranteed_one_variant() -> None:
    for seats in (2, 3, 4):
        s = make_setup({"guaranteed_one": True}, seats, 5)
        for h in s["hands"]:
            assert len(h) == 11
            first = C.CARDS[h[0]]
            assert first.kind == C.INFLUENCE and first.value == 1
        in_play = s["deck"] + [c for h in s["hands"] for c in h]
        assert len(in_play) == len(set(in_play))
        assert len(in_play) == (78 if seats == 2 else 99)


def test_I3_9_I6_5_initial_market_one_card_per_pile_advocates_removed() -> None:
    found_removed = False
    for seed in range(60):
        state = RULES.setup(None, 3, seed)
        assert all(len(p) == 1 for p in state.market)
        assert all(not C.is_advocate(p[0]) for p in state.market)
        assert all(C.is_advocate(c) for c in state.removed)
        found_removed |= bool(state.removed)
    assert found_removed


def test_I3_10_start_player_random_and_I3_11_nobody_owns_anything() -> None:
    starts = {RULES.setup(None, 4, seed).start_player for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    state = RULES.setup(None, 4, 0)
    assert state.clans == [None] * 4 and state.honors == [[]] * 4 and state.quests == [[]] * 4
    assert state.current == state.start_player


def test_setup_is_deterministic_from_seed() -> None:
    a = RULES.to_json(RULES.setup(None, 3, 42))
    b = RULES.to_json(RULES.setup(None, 3, 42))
    c = RULES.to_json(RULES.setup(None, 3, 43))
    assert a == b and a != c


@pytest.mark.parametrize(("options", "seats"), [
    (None, 1), (None, 5), ({"clans": "random"}, 3), ({"bogus": 1}, 3), ({"guaranteed_one": "yes"}, 2)])
def test_invalid_options(options: dict[str, object] | None, seats: int) -> None:
    with pytest.raises(InvalidOptions):
        RULES.normalize_options(options, seats)


def test_I8_7_default_clan_mode_is_beginner() -> None:
    assert RULES.normalize_options(None, 3) == {"clans": "beginner", "guaranteed_one": False}


def test_data_module_docstring_names_provisional_parts() -> None:
    doc = data.__doc__ or ""
    for name in ("VALUE_COPIES", "COLOUR_NAMES", "BASIC_ADVOCATES", "QUESTS", "CLANS"):
        assert name in doc and name in data.PROVISIONAL
