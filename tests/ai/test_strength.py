"""Statistical strength checks with fixed seeds (these can fail if a level gets weaker)."""

from __future__ import annotations

from games.ai.match import deal_options, get_engine, pick, play_game


def _score(kind, a, b, deals, seed0):
    total = 0.0
    for d in range(deals):
        for swap in (False, True):
            players = (b, a) if swap else (a, b)
            out = play_game(kind, players, seed0 + d)
            me = 1 if swap else 0
            total += 0.5 if out.winner is None else float(out.winner == me)
    return total / (2 * deals)


def test_knight_beats_random_claim():
    assert _score("claim", 2, "random", 100, 10_000) >= 0.70  # 200 games


def test_knight_beats_random_claim2_and_mix():
    assert _score("claim2", 2, "random", 25, 20_000) >= 0.70
    assert _score("claim-mix", 2, "random", 25, 30_000) >= 0.70


def test_squire_beats_random():
    assert _score("claim", 1, "random", 40, 40_000) >= 0.55


def test_knight_beats_squire():
    assert _score("claim", 2, 1, 30, 50_000) >= 0.55


def test_inheritors_knight_beats_random():
    wins = 0
    games = 24
    for g in range(games):
        seats = 2 + g % 3
        players = ["random"] * seats
        players[g % seats] = 2
        out = play_game("inheritors", players, 60_000 + g)
        wins += out.winner == g % seats
    assert wins >= games * 0.6


def test_inheritors_squire_plays_its_hand_rather_than_hoarding_it():
    """Level 1 picks a kind of move first: drawn over all legal moves it mostly discarded and drew (a card has
    one "play" and up to nine discard moves) and ended 2-seat games holding about 31 cards."""
    rules = get_engine("inheritors")
    held = []
    for g in range(8):
        state = rules.setup(deal_options("inheritors", 500 + g), 2, 500 + g)
        step = 0
        while not rules.is_over(state):
            seat = next(s for s in sorted(rules.to_act(state)) if rules.legal_moves(state, s))
            move = pick(1, "inheritors", rules.view(state, seat), rules.legal_moves(state, seat), g * 1000 + step)
            state, _ = rules.apply(state, seat, move)
            step += 1
        held += [p["hand_count"] for p in rules.view(state, 0)["players"]]
    assert sum(held) / len(held) <= 24, held
