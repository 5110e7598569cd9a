"""Small positions for each power-related decision of the Knight (and the Squire's simple sense)."""

from __future__ import annotations

import pytest

from games.ai import choose_move
from games.rules.registry import get_rules
from tests.ai.helpers import position, random_state, view_and_legal

CLAIM = ["goblin", "knight", "undead", "dwarf", "doppelganger"]
CLAIM2 = ["gnome", "giant", "dragon", "troll", "seer"]


def _move(kind, st, level=2):
    _seat, view, legal = view_and_legal(kind, st)
    return choose_move(kind, level, view, legal, 7, budget=0.05)


def _seer_position(prize, top):
    # T3.5 (Dragons contested 2-2): seat 0 led Seer 8, seat 1 followed Seer 2 -> seat 0 won with a
    # Seer and peeks at the top card
    return position("claim2", CLAIM2, [["seer-8", "troll-3", "gnome-1"], ["seer-2", "troll-4", "giant-3"]],
                    prize=prize, deck=[top, "troll-5", "gnome-3", "giant-1", "troll-1", "gnome-5"],
                    followers=[["dragon-5", "dragon-6"], ["dragon-7", "dragon-8"]],
                    played=["seer-8", "seer-2"], discard=[])


@pytest.mark.parametrize("level", [1, 2])
def test_seer_takes_the_better_top_card(level):
    st = _seer_position("dragon-0", "dragon-9")
    assert st.seer == 0
    assert _move("claim2", st, level) == {"seer": "top"}


@pytest.mark.parametrize("level", [1, 2])
def test_seer_keeps_the_better_prize(level):
    assert _move("claim2", _seer_position("dragon-9", "dragon-0"), level) == {"seer": "prize"}


@pytest.mark.parametrize("level", [1, 2])
def test_cannot_win_plays_cheapest(level):
    # C4.2a must follow Goblins; neither Goblin beats Goblin 9 -> the cheapest one
    st = position("claim", CLAIM, [["goblin-9", "dwarf-1"], ["goblin-2", "goblin-6", "dwarf-8"]],
                  prize="undead-8", deck=["dwarf-0", "dwarf-2", "dwarf-3"], played=["goblin-9"], discard=[])
    assert _move("claim", st, level) == {"play": "goblin-2"}


def test_knight_beats_goblin_lead_for_a_good_prize():
    # C6.2: no Goblin in hand, so Knight 2 beats the Goblin 8 lead; the prize strengthens our Doppelgangers
    st = position("claim", CLAIM, [["goblin-8", "dwarf-1", "dwarf-2"], ["knight-2", "dwarf-9", "dwarf-0"]],
                  prize="doppelganger-9", deck=["goblin-0", "goblin-1", "goblin-3", "goblin-4"],
                  played=["goblin-8"], discard=[])
    assert _move("claim", st) == {"play": "knight-2"}


def test_doppelganger_follows_as_wild_to_win():
    # C6.5a: Doppelganger 8 may replace Undead and wins over Undead 5; the led Undead scores for us
    st = position("claim", CLAIM, [["undead-5", "dwarf-1", "dwarf-2"], ["undead-1", "doppelganger-8", "dwarf-0"]],
                  prize="goblin-9", deck=["goblin-0", "goblin-1", "goblin-3", "goblin-4"],
                  followers=[[], ["goblin-7", "goblin-8"]], played=["undead-5"], discard=[])
    assert _move("claim", st) == {"play": "doppelganger-8"}


def test_worthless_prize_is_not_won_with_a_high_card():
    # a poor prize in a faction nobody needs: keep Doppelganger 9, lose with the cheap Goblin
    st = position("claim", CLAIM, [["goblin-4", "dwarf-1", "dwarf-2", "undead-2"],
                                   ["goblin-0", "doppelganger-9", "knight-9", "undead-1"]],
                  prize="goblin-0", deck=["goblin-0", "goblin-1", "goblin-3", "goblin-5", "goblin-6"],
                  played=["goblin-4"], discard=[])
    assert _move("claim", st) == {"play": "goblin-0"}


def test_dwarf_dumped_on_a_lost_phase2_trick():
    # C6.4: the trick is lost anyway (no Goblin, no Doppelganger); a Dwarf goes to the loser (us),
    # an Undead would go to the opponent
    st = position("claim", CLAIM, [["goblin-9", "goblin-8"], ["dwarf-3", "undead-4"]], phase=2,
                  played=["goblin-9"], score=[["dwarf-5", "undead-5"], ["dwarf-6", "undead-6"]])
    assert _move("claim", st) == {"play": "dwarf-3"}


def test_giant_smashes_a_gnome_when_leading():
    # T3.2: leading Giant 5 wins (opponent has no Giant) and smashes the opponent's Gnome 5
    st = position("claim2", CLAIM2, [["giant-5", "troll-2"], ["dragon-1", "seer-1"]], phase=2,
                  gnome_rows=[[], ["gnome-5"]], score=[["gnome-1", "giant-1"], ["gnome-3", "giant-3"]])
    assert _move("claim2", st) == {"play": "giant-5"}


def test_undead_lead_scores_in_phase_1():
    # C6.3: Undead 9 cannot be beaten (no higher Undead/Doppelganger exists); leading it scores it
    st = position("claim", CLAIM, [["undead-9", "goblin-0", "dwarf-2"], ["goblin-3", "dwarf-4", "knight-5"]],
                  prize="undead-0", deck=["goblin-0", "goblin-1", "goblin-2", "goblin-4", "goblin-5", "goblin-6",
                                          "goblin-7", "goblin-8", "knight-2", "knight-3", "knight-4", "undead-1",
                                          "undead-2", "undead-3", "dwarf-9"],
                  followers=[["dwarf-5", "dwarf-6", "doppelganger-3"], ["knight-7", "knight-8", "goblin-9"]],
                  discard=[])
    assert _move("claim", st) == {"play": "undead-9"}


def _force(rules, st, seat):
    """Best final result for ``seat`` with perfect play by both (test-only brute force)."""
    if rules.is_over(st):
        w = rules.result(st)["winner"]
        return 0.5 if w is None else float(w == seat)
    s = next(iter(rules.to_act(st)))
    vals = [_force(rules, rules.apply(st, s, m)[0], seat) for m in rules.legal_moves(st, s)]
    return max(vals) if s == seat else min(vals)


@pytest.mark.parametrize("level", [2, 3])
@pytest.mark.parametrize("kind", ["claim", "claim2"])
def test_knight_and_king_play_perfectly_in_small_phase2_endgames(kind, level):
    """Both solve the last tricks of phase 2 exactly (Knight: <= 12 cards in hands, King: <= 14)."""
    rules = get_rules(kind)
    checked = 0
    for seed in range(40):
        st = random_state(kind, seed, 26 + 2 * 10 + (seed % 3))  # phase 2 (26 moves in), ~3 cards left each
        if rules.is_over(st) or st.phase != 2:
            continue
        seat = next(iter(rules.to_act(st)))
        best = _force(rules, st, seat)
        move = choose_move(kind, level, rules.view(st, seat), rules.legal_moves(st, seat), seed, budget=0.05)
        assert _force(rules, rules.apply(st, seat, move)[0], seat) == best
        checked += 1
    assert checked >= 10
