"""The Inheritors King (games/ai/inheritors_king) and the Inheritors review: seat's information only, reproducible."""

from __future__ import annotations

import random

import pytest

from games.ai import choose_move, review
from games.ai.inheritors_king import Knowledge
from games.rules.inheritors import RULES, engine
from games.rules.inheritors.state import InheritorsState


def _midgame(seats: int, seed: int, moves: int) -> InheritorsState:
    """A position after ``moves`` Knight moves of a seeded deal."""
    st = RULES.setup(None, seats, seed)
    for step in range(moves):
        seat = min(RULES.to_act(st))
        legal = RULES.legal_moves(st, seat)
        st, _ = RULES.apply(st, seat, choose_move("inheritors", 2, RULES.view(st, seat), legal, step))
    return st


def _swap_hidden(st: InheritorsState, seat: int) -> InheritorsState:
    """Another true state ``seat`` cannot tell apart: the next seat's hand card swapped with a deck card below
    the top, and the quest row shuffled with another seat's quests (hidden cards only)."""
    other = st.clone()
    opp = (seat + 1) % st.seats
    for i in range(1, len(other.deck)):
        for j, c in enumerate(other.hands[opp]):
            if other.deck[i] != c:
                other.hands[opp][j], other.deck[i] = other.deck[i], c
                return other
    raise AssertionError("nothing to swap")


def _decision(st: InheritorsState) -> tuple[int, dict, list]:
    seat = min(RULES.to_act(st))
    return seat, RULES.view(st, seat), RULES.legal_moves(st, seat)


def _positions():
    """Mid-game positions where the seat to act has a real choice (at least two non-claim moves)."""
    out = []
    for seats, seed, moves in ((2, 3, 20), (2, 4, 45), (3, 5, 30), (4, 6, 25)):
        st = _midgame(seats, seed, moves)
        while True:
            _seat, _view, legal = _decision(st)
            if len(legal) > 2 and not any("claim_honor" in m or "claim_clan" in m for m in legal):
                break
            seat = min(RULES.to_act(st))
            st, _ = RULES.apply(st, seat, legal[0])
        out.append(st)
    return out


def test_a_sampled_deal_shows_the_seat_its_own_view():
    """Every determinization agrees with what the seat sees: same view (public log aside) and same legal moves,
    at every decision of a few Knight games (windows and pending decisions alike)."""
    checked = 0
    for seats, seed in ((2, 1), (3, 2), (4, 3)):
        st = RULES.setup(None, seats, seed)
        step = 0
        while not RULES.is_over(st) and step < 200:
            seat, view, legal = _decision(st)
            sample = Knowledge(view).sample(random.Random(step))
            mine = RULES.view(sample, seat)
            for key in ("hand", "quests", "players", "market", "removed", "deck_count", "quest_row_count",
                        "honor_row", "clan_row", "pending", "phase", "current", "to_act"):
                assert mine[key] == view[key], key
            assert sorted(map(str, engine.legal_moves(sample, seat))) == sorted(map(str, legal))
            st, _ = RULES.apply(st, seat, choose_move("inheritors", 2, view, legal, step))
            step += 1
            checked += 1
    assert checked > 300


def test_the_unseen_cards_are_the_hidden_ones():
    st = _midgame(3, 9, 40)
    seat, view, _legal = _decision(st)
    know = Knowledge(view)
    hidden = sorted(st.deck + [c for s in range(3) if s != seat for c in st.hands[s]])
    assert know.unseen == hidden


@pytest.mark.parametrize("pos", range(4))
def test_the_king_is_deterministic_and_reads_only_the_view(pos):
    st = _positions()[pos]
    seat, view, legal = _decision(st)
    other = _swap_hidden(st, seat)
    view2 = RULES.view(other, seat)
    assert view2 == view  # the two states differ only in what the seat cannot see
    assert other.hands != st.hands
    move = choose_move("inheritors", 3, view, legal, 11, budget=0.05)
    assert move in legal
    assert choose_move("inheritors", 3, view, legal, 11, budget=0.05) == move
    assert choose_move("inheritors", 3, view2, RULES.legal_moves(other, seat), 11, budget=0.05) == move


def test_the_review_uses_only_the_seats_information():
    """Two games identical from a seat's view but with different hidden cards: the same evaluations."""
    st = _positions()[0]
    seat, view, legal = _decision(st)
    other = _swap_hidden(st, seat)
    a = review.review_decision("inheritors", view, legal, legal[-1], seed=3, playouts=len(legal) * 4)
    b = review.review_decision("inheritors", RULES.view(other, seat), RULES.legal_moves(other, seat), legal[-1],
                               seed=3, playouts=len(legal) * 4)
    assert a == b
    assert a.method == "playouts" and len(a.options) == len(legal)
    assert sorted(map(str, (o.move for o in a.options))) == sorted(map(str, legal))
    assert a.chance_best is not None and a.chance_played is not None
    assert a.drop == round(a.chance_best - a.chance_played, 4)
    best = next(o for o in a.options if o.move == a.best)
    played = next(o for o in a.options if o.move == a.played)
    assert best.deals == played.deals == 4 and a.mark == review.mark_for(a.drop, review.noise_of(best, played))


def test_an_illegal_played_move_is_refused():
    st = _positions()[1]
    _seat, view, legal = _decision(st)
    with pytest.raises(ValueError):
        review.review_decision("inheritors", view, legal, {"action": "play", "card": "no-such-card"}, seed=1)


def test_a_winning_claim_is_judged_better_than_ending_the_turn():
    """The seat that can claim an honor (1 VP, I12.5) at the game's last turn: ending the turn instead can only
    lose chances, never gain (the same deals for both moves)."""
    for seed in range(20):
        st = RULES.setup(None, 2, seed)
        step = 0
        while not RULES.is_over(st):
            seat, view, legal = _decision(st)
            if st.phase == "post" and any("claim_honor" in m for m in legal):
                claim = next(m for m in legal if "claim_honor" in m)
                d = review.review_decision("inheritors", view, legal, {"end_turn": True}, seed=1, playouts=40)
                chances = {str(o.move): o.chance for o in d.options}
                assert chances[str(claim)] >= chances[str({"end_turn": True})]
                return
            st, _ = RULES.apply(st, seat, choose_move("inheritors", 1, view, legal, step))
            step += 1
    pytest.skip("no honor claim in a post-action window in these deals")
