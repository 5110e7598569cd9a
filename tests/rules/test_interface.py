"""The Rules interface (games/rules/base.py): registry, errors, views, events, JSON."""

from __future__ import annotations

import json
import random

import pytest

from games.rules.base import IllegalMove, NotYourTurn, Rules, RulesError
from games.rules.claim import CLAIM, CLAIM2
from games.rules.claim.core import PHASE2
from games.rules.registry import GAMES, UnknownGame, get_rules

from .helpers import make_state, play


def test_registry_has_the_three_kinds_and_they_satisfy_the_protocol():
    assert set(GAMES) >= {"claim", "claim2", "claim-mix"}
    for kind in ("claim", "claim2", "claim-mix"):
        rules = get_rules(kind)
        assert isinstance(rules, Rules) and rules.info.kind == kind
        assert rules.info.record_format == "claim.record/1" and rules.info.min_seats == 2


def test_unknown_kind_raises_a_clear_error():
    with pytest.raises(UnknownGame, match="unknown game kind 'chess'") as exc:
        get_rules("chess")
    assert isinstance(exc.value, RulesError) and isinstance(exc.value, KeyError)


def test_illegal_move_messages():
    st = make_state("claim", [["goblin-3", "knight-5"], ["knight-7", "goblin-7"]],
                    deck=["undead-0", "undead-1", "undead-2", "undead-3"])
    with pytest.raises(NotYourTurn, match="it is not your turn"):
        CLAIM.apply(st, 1, {"play": "knight-7"})
    with pytest.raises(IllegalMove, match="you don't hold Goblin 7"):
        CLAIM.apply(st, 0, {"play": "goblin-7"})
    with pytest.raises(IllegalMove, match=r'unknown move: expected \{"play": card\}'):
        CLAIM.apply(st, 0, {"discard": "goblin-3"})
    with pytest.raises(IllegalMove, match="unknown move"):
        CLAIM.apply(st, 0, "goblin-3")  # type: ignore[arg-type]
    with pytest.raises(IllegalMove, match="unknown card 'elf-3'"):
        CLAIM.apply(st, 0, {"play": "elf-3"})
    with pytest.raises(IllegalMove, match="no Seer choice"):
        CLAIM.apply(st, 0, {"seer": "top"})
    st, _ = play(st, "knight-5")
    with pytest.raises(IllegalMove, match=r"you must follow Knights \(or play a Doppelganger\): "
                                          r"you hold Knight 7"):
        CLAIM.apply(st, 1, {"play": "goblin-7"})


def test_game_over_rejects_moves():
    st = make_state("claim", [["goblin-1"], ["goblin-5"]], phase=PHASE2)
    st, _ = play(st, "goblin-1", "goblin-5")
    with pytest.raises(IllegalMove, match="the game is over"):
        CLAIM.apply(st, 1, {"play": "goblin-5"})
    assert CLAIM.legal_moves(st, 0) == [] and CLAIM.result(st)["winner"] == 1


def test_result_is_none_while_running_and_apply_does_not_mutate():
    st = CLAIM.setup(None, 2, 1)
    assert CLAIM.result(st) is None
    before = CLAIM.to_json(st)
    seat = next(iter(CLAIM.to_act(st)))
    CLAIM.apply(st, seat, CLAIM.legal_moves(st, seat)[0])
    assert CLAIM.to_json(st) == before


def test_legal_moves_deduplicate_identical_cards_C1_2():
    st = make_state("claim", [["goblin-0", "goblin-0", "goblin-1"], ["goblin-0", "goblin-2", "knight-3"]],
                    deck=["undead-0", "undead-1", "undead-2", "undead-3", "undead-4", "undead-5"])
    assert CLAIM.legal_moves(st, 0) == [{"play": "goblin-0"}, {"play": "goblin-1"}]


def test_views_own_hand_counts_and_spectator():
    st = CLAIM.setup(None, 2, 12)
    seat = next(iter(CLAIM.to_act(st)))
    v = CLAIM.view(st, seat)
    assert len(v["hand"]) == 13 and v["hand_counts"] == [13, 13]
    assert v["to_act"] == [seat] and v["legal_moves"] == CLAIM.legal_moves(st, seat)
    spectator = CLAIM.view(st, None)
    assert "hand" not in spectator and "legal_moves" not in spectator
    assert json.loads(json.dumps(spectator)) == spectator
    other = CLAIM.view(st, 1 - seat)
    assert other["hand"] != v["hand"]


def test_view_shows_last_trick_and_phase1_followers():
    st = make_state("claim", [["undead-3", "goblin-1"], ["undead-8", "goblin-2"]],
                    deck=["knight-9", "dwarf-7", "goblin-3", "goblin-4"])
    st, events = play(st, "undead-3", "undead-8")
    v1 = CLAIM.view(st, 1)
    assert v1["followers"] == ["knight-9"] and v1["public_followers"] == [[], ["knight-9"]]
    v0 = CLAIM.view(st, 0)
    assert v0["followers"] == ["dwarf-7"]
    assert "dwarf-7" not in json.dumps(v1) and "dwarf-7" not in json.dumps(events)
    last = v0["last_trick"]
    assert last["cards"] == [{"seat": 0, "card": "undead-3"}, {"seat": 1, "card": "undead-8"}]
    assert last["winner"] == 1 and last["next_leader"] == 1 and last["prize_to"] == 1
    assert last["undead_scored"] == ["undead-3", "undead-8"]
    assert v0["leading"]["undead"] == 1 and v0["score"][1]["undead"] == ["undead-8", "undead-3"]
    assert v0["prize"] == "goblin-3" and v0["deck_count"] == 1
    assert [e["type"] for e in events] == ["play", "play", "trick", "blind_draw", "prize"]


def test_phase2_view_lists_public_prizes_still_in_hand():
    st = make_state("claim", [["goblin-3", "goblin-4"], ["goblin-1", "goblin-2"]],
                    deck=["knight-9", "dwarf-7", "knight-8", "dwarf-6"])
    st, _ = play(st, "goblin-3", "goblin-1", "goblin-4", "goblin-2")
    assert st.phase == PHASE2
    v = CLAIM.view(st, 1)
    assert v["public_followers"] == [["knight-8", "knight-9"], []]
    st, _ = play(st, "knight-9", "dwarf-7")
    assert CLAIM.view(st, 1)["public_followers"] == [["knight-8"], []]


def test_json_round_trip_with_pending_seer():
    st = make_state("claim2", [["seer-2", "troll-5"], ["seer-6", "troll-3"]],
                    deck=["gnome-9", "dragon-7", "troll-0", "troll-1"])
    st, _ = play(st, "seer-2", "seer-6")
    data = json.loads(json.dumps(CLAIM2.to_json(st)))
    back = CLAIM2.from_json(data)
    assert CLAIM2.view(back, 1) == CLAIM2.view(st, 1)
    a, _ = CLAIM2.apply(back, 1, {"seer": "top"})
    b, _ = CLAIM2.apply(st, 1, {"seer": "top"})
    assert CLAIM2.to_json(a) == CLAIM2.to_json(b)


def test_random_games_through_the_rich_interface_all_kinds():
    rng = random.Random(0)
    for kind, options in (("claim", None), ("claim2", {}),
                          ("claim-mix", {"factions": ["gnome", "giant", "dwarf", "seer", "undead"]})):
        rules = get_rules(kind)
        for seed in range(5):
            st = rules.setup(options, 2, seed)
            while not rules.is_over(st):
                seat = next(iter(rules.to_act(st)))
                st, _ = rules.apply(st, seat, rng.choice(rules.legal_moves(st, seat)))
            res = rules.result(st)
            assert res["winner"] in (0, 1, None) and res["reason"]
            assert sum(sum(c.values()) for c in res["counts"]) == sum(len(p) for p in st.score)


def test_T3_5_peeked_card_stays_known_until_the_opponent_plays_it():
    st = make_state("claim2", [["seer-6", "dragon-1"], ["seer-2", "troll-3"]],
                    deck=["gnome-9", "dragon-7", "troll-0", "troll-1"])
    st, _ = play(st, "seer-6", "seer-2", "seer:prize")  # seat 1 got dragon-7, seat 0 saw it
    assert CLAIM2.view(st, 0)["peeked_cards"] == ["dragon-7"]
    st, _ = play(st, "dragon-1", "troll-3")  # phase 1 trick 2 -> phase 2
    assert st.phase == PHASE2 and CLAIM2.view(st, 0)["peeked_cards"] == ["dragon-7"]
    leader = next(iter(CLAIM2.to_act(st)))
    first = "gnome-9" if leader == 0 else "dragon-7"
    st, _ = play(st, first)
    st, _ = play(st, CLAIM2.legal_moves(st, 1 - leader)[0]["play"])
    assert CLAIM2.view(st, 0)["peeked_cards"] == []
