"""The review's evaluation (games/ai/review.py, issue 37): every legal move's chance from the seat's view only."""

from __future__ import annotations

import pytest

from games.ai import review
from games.ai.claim.knowledge import core_move
from games.ai.match import deal_options
from games.rules.registry import get_rules
from tests.ai.helpers import position, random_state, view_and_legal
from tests.ai.test_no_peeking import _swap_hidden

CLAIM = ["goblin", "knight", "undead", "dwarf", "doppelganger"]


def _thrown_trick():
    """Phase 2, two cards each: seat 1 led Goblin 5. Seat 0 holds Goblin 9 (wins the trick, the Goblins and so
    the game: Undead and Dwarves are its, Knights and Doppelgangers seat 1's) and Goblin 1 (loses it)."""
    return position("claim", CLAIM, [["goblin-9", "goblin-1"], ["goblin-5", "dwarf-0"]], phase=2, leader=1,
                    played=["goblin-5"],
                    score=[["undead-8", "undead-7", "undead-6", "dwarf-9", "dwarf-8", "dwarf-7"],
                           ["knight-9", "knight-8", "knight-7", "doppelganger-9", "doppelganger-8",
                            "doppelganger-7"]])


def test_throwing_away_a_sure_trick_is_a_mistake():
    seat, view, legal = view_and_legal("claim", _thrown_trick())
    assert seat == 0
    d = review.review_decision("claim", view, legal, {"play": "goblin-1"}, seed=5)
    assert d.method == "exact"
    assert d.best == {"play": "goblin-9"}
    assert d.chance_best == 1.0 and d.chance_played == 0.0
    assert d.drop == 1.0 and d.mark == "mistake"
    assert [o.move for o in d.options] == [{"play": "goblin-9"}, {"play": "goblin-1"}]
    good = review.review_decision("claim", view, legal, {"play": "goblin-9"}, seed=5)
    assert good.drop == 0.0 and good.mark is None and good.best == {"play": "goblin-9"}


def test_throwing_away_a_sure_trick_is_a_mistake_by_playouts_too(monkeypatch):
    """The same decision judged by the playouts alone (the solver out of budget): still a clear mistake."""
    monkeypatch.setattr(review, "EXACT_NODES", 0)
    _seat, view, legal = view_and_legal("claim", _thrown_trick())
    d = review.review_decision("claim", view, legal, {"play": "goblin-1"}, seed=5)
    assert d.method == "playouts"
    assert d.best == {"play": "goblin-9"} and d.mark == "mistake"
    assert d.chance_best is not None and d.chance_best > 0.9 and d.drop is not None and d.drop >= 0.8


def test_marks_follow_the_thresholds():
    assert review.mark_for(None) is None
    assert review.mark_for(0.0) is None
    assert review.mark_for(review.INACCURACY - 0.001) is None
    assert review.mark_for(review.INACCURACY) == "inaccuracy"
    assert review.mark_for(review.MISTAKE - 0.001) == "inaccuracy"
    assert review.mark_for(review.MISTAKE) == "mistake"


def test_a_drop_within_the_noise_of_few_playouts_is_not_marked():
    """Chances from a few playouts (Inheritors) mark only a drop larger than NOISE_Z standard errors; exact values
    (the solver's) have none, and the Claim review's ~1,000 deals per move keep the noise near the thresholds."""
    coarse = (review.Option({"a": 1}, 0.5, deals=8), review.Option({"a": 2}, 0.25, deals=8))
    assert review.noise_of(*coarse) > 0.5 and review.mark_for(0.25, review.noise_of(*coarse)) is None
    lost = (review.Option({"a": 1}, 1.0, deals=8), review.Option({"a": 2}, 0.0, deals=8))
    assert review.mark_for(1.0, review.noise_of(*lost)) == "mistake"  # every playout won against every one lost
    two = (review.Option({"a": 1}, 1.0, deals=2), review.Option({"a": 2}, 0.0, deals=2))
    assert review.mark_for(1.0, review.noise_of(*two)) is None  # 2 deals each: the best of many may be luck
    exact = (review.Option({"a": 1}, 1.0), review.Option({"a": 2}, 0.5))
    assert review.noise_of(*exact) == 0.0 and review.mark_for(0.5, 0.0) == "mistake"
    fine = (review.Option({"a": 1}, 0.6, deals=1200), review.Option({"a": 2}, 0.44, deals=1200))
    assert review.noise_of(*fine) < 0.07 and review.mark_for(0.16, review.noise_of(*fine)) == "mistake"


def test_a_forced_move_has_no_evaluation():
    st = position("claim", CLAIM, [["goblin-9"], ["goblin-5"]], phase=2, leader=1, played=["goblin-5"],
                  score=[["undead-8"], ["knight-9"]])
    _seat, view, legal = view_and_legal("claim", st)
    assert len(legal) == 1
    d = review.review_decision("claim", view, legal, legal[0], seed=1)
    assert d.options == [] and d.chance_played is None and d.drop is None and d.mark is None
    assert d.method == "forced"


def test_a_move_that_is_not_legal_is_refused():
    _seat, view, legal = view_and_legal("claim", _thrown_trick())
    with pytest.raises(ValueError, match="not among the legal moves"):
        review.review_decision("claim", view, legal, {"play": "knight-9"}, seed=1)


@pytest.mark.parametrize("kind", ["claim", "claim2", "claim-mix"])
def test_same_view_same_evaluations(kind):
    """Two true states the seat cannot tell apart (hidden cards swapped): the same chances for every move."""
    rules = get_rules(kind)
    checked = 0
    for seed in range(12):
        st = random_state(kind, seed, 2 * (seed % 9) + 1)
        if st.phase != 1:
            continue
        seat = next(iter(rules.to_act(st)))
        other = _swap_hidden(st, seat)
        legal = rules.legal_moves(st, seat)
        if other is None or len(legal) < 2:
            continue
        assert other.hands[1 - seat] != st.hands[1 - seat] or other.deck != st.deck
        view = rules.view(st, seat)
        assert rules.view(other, seat) == view
        a = review.evaluate(kind, view, legal, 99, playouts=400)
        b = review.evaluate(kind, rules.view(other, seat), rules.legal_moves(other, seat), 99, playouts=400)
        assert a == b
        assert {core_move(o.move) for o in a[0]} == {core_move(m) for m in legal}  # every legal move, no pruning
        checked += 1
        if checked == 3:
            break
    assert checked >= 2


def test_reproducible_for_a_seed_and_every_move_evaluated():
    rules = get_rules("claim")
    st = random_state("claim", 3, 0)
    seat, view, legal = view_and_legal("claim", st)
    a = review.evaluate("claim", view, legal, 7, playouts=300)
    assert a == review.evaluate("claim", view, legal, 7, playouts=300)
    assert len(a[0]) == len(legal) == len(rules.legal_moves(st, seat))
    chances = [o.chance for o in a[0]]
    assert chances == sorted(chances, reverse=True) and all(0.0 <= c <= 1.0 for c in chances)


@pytest.mark.parametrize("seats", [3, 4])
def test_three_and_four_seats_are_evaluated_for_the_seats_side(seats):
    rules = get_rules("claim-mix")
    st = rules.setup(deal_options("claim-mix", 11, seats), seats, 11)
    seat = next(iter(rules.to_act(st)))
    legal = rules.legal_moves(st, seat)
    options, method = review.evaluate("claim-mix", rules.view(st, seat), legal, 5, playouts=300)
    assert method == "playouts"
    assert {core_move(o.move) for o in options} == {core_move(m) for m in legal}
    assert all(0.0 <= o.chance <= 1.0 for o in options)


def test_other_kinds_are_not_evaluated():
    assert review.supports("inheritors")
    assert not review.supports("chess")
    with pytest.raises(ValueError):
        review.evaluate("chess", {}, [{"a": 1}, {"b": 2}], 1)
