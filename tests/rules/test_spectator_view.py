"""The spectator view (``Rules.spectator_view``) shows public information only, for every kind of game.

Over random games (hypothesis) of Claim, Claim 2 and the mix (2 seats), the mix with 3-4 seats (M3) and
Inheritors with 2-4 seats, at every step while the game runs:

* a *scrambled twin* of the state, which differs only in hidden information (which hidden card is in which
  hand, follower pile or the deck and in what order, the deal, the seed and setup, what a seat has peeked at,
  a Saboteur's secret choices, the Rat's card, the owned and unowned quests), has the same spectator view,
  while the view of a seat whose hand changed does differ (the twin really differs);
* no hidden card (C2.4, C5.5, T3.5a; I13), no ``hand``, deck order, seed or private choice is in it.

The scrambled twin need not be a state that legal play can reach (a card may land in the hand of a seat known
to hold none of its faction): the spectator view must not depend on any of it all the same.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules.cards import CARD_ID, FACTION_NAMES
from games.rules.claim import CLAIM, CLAIM2, CLAIM_MIX
from games.rules.claim.core import OVER, PHASE1, Core
from games.rules.claim.engine import ClaimRules
from games.rules.claim.options import random_mix
from games.rules.inheritors import RULES as INHERITORS
from games.rules.inheritors.state import OVER as I_OVER
from games.rules.inheritors.state import InheritorsState, _deep
from tests.rules_inheritors.helpers import build, play

from .helpers import hidden_cards

CLAIM_KINDS: list[tuple[ClaimRules, int]] = [(CLAIM, 2), (CLAIM2, 2), (CLAIM_MIX, 2), (CLAIM_MIX, 3), (CLAIM_MIX, 4)]

#: Keys of a seat's own view that a spectator's never has while the game runs.
PRIVATE_KEYS = ("hand", "followers", "legal_moves", "peeked_cards", "peek", "revealed",  # Claim
                "quests", "deck_top", "hands", "all_quests", "quest_row", "deck")  # Inheritors


# ----------------------------------------------------------------------------- Claim


def _claim_options(rules: ClaimRules, seats: int, seed: int) -> dict[str, Any] | None:
    if rules.kind != "claim-mix":
        return None
    return {"factions": [FACTION_NAMES[f] for f in random_mix(random.Random(seed), seats)]}


def scramble_claim(s: Core, rng: random.Random) -> Core:
    """A twin of ``s`` with its hidden information redistributed: every card no spectator knows (in a hand or
    follower pile and not a public prize, C2.4; or still in the deck, C3.1) is dealt anew into the same places
    (same sizes), the deal and the first cards drawn are shuffled, and what each seat peeked at (T3.5b) is
    replaced. Public zones, the move log and whose turn it is stay as they are."""
    t = s.copy()
    phase1 = s.phase == PHASE1
    known_in_hand = [Counter(p) if not phase1 else Counter() for p in s.public_followers]
    known_in_pile = [Counter(p) if phase1 else Counter() for p in s.public_followers]
    hidden_hands = [list((Counter(h) - known_in_hand[i]).elements()) for i, h in enumerate(s.hands)]
    hidden_piles = [list((Counter(f) - known_in_pile[i]).elements()) for i, f in enumerate(s.followers)]
    pool = [c for h in hidden_hands for c in h] + [c for f in hidden_piles for c in f] + list(s.deck[s.dpos:])
    rng.shuffle(pool)
    it = iter(pool)
    for i in range(s.seats):
        t.hands[i] = list(known_in_hand[i].elements()) + [next(it) for _ in hidden_hands[i]]
        t.followers[i] = list(known_in_pile[i].elements()) + [next(it) for _ in hidden_piles[i]]
    drawn = list(s.deck[:s.dpos])
    rng.shuffle(drawn)
    t.deck = tuple(drawn + list(it))
    dealt = [c for h in s.dealt for c in h]
    rng.shuffle(dealt)
    sizes = [len(h) for h in s.dealt]
    t.dealt = tuple(tuple(dealt[sum(sizes[:i]):sum(sizes[:i + 1])]) for i in range(len(sizes)))
    t.peeked = [rng.sample(pool, min(len(p) + rng.randrange(2), len(pool))) for p in s.peeked]
    return t


def check_claim(rules: ClaimRules, s: Core, rng: random.Random) -> None:
    view = rules.spectator_view(s)
    assert view == rules.view(s, None)
    assert view["seat"] is None and not set(PRIVATE_KEYS) & set(view) and view["result"] is None
    text = json.dumps(view)
    # A pending smash names the Gnome value each collected Giant may smash (M6.5): the Giants are public, so those
    # ids say nothing of where that Gnome is, even when it sits in a hidden hand (as in tests/rules_multi).
    pending = view.get("smash_pending") or {}
    named = {pending.get("gnome"), *pending.get("later", [])}
    leaked = sorted(CARD_ID[c] for c in hidden_cards(s, None)
                    if CARD_ID[c] not in named and f'"{CARD_ID[c]}"' in text)
    assert not leaked, f"hidden cards in the spectator view: {leaked}"
    twin = scramble_claim(s, rng)
    assert rules.spectator_view(twin) == view
    for seat in range(s.seats):
        if Counter(twin.hands[seat]) != Counter(s.hands[seat]):
            assert rules.view(twin, seat)["hand"] != rules.view(s, seat)["hand"]  # the twin differs in secret


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(CLAIM_KINDS), seed=st.integers(0, 2**40), rnd=st.randoms(use_true_random=False))
def test_claim_spectator_view_is_public_information_only(game, seed, rnd):
    rules, seats = game
    s = rules.setup(_claim_options(rules, seats, seed), seats, seed)
    scrambles = random.Random(seed ^ 0xC1A1)
    while s.phase != OVER:
        check_claim(rules, s, scrambles)
        (seat,) = rules.to_act(s)
        s, _ = rules.apply(s, seat, rnd.choice(rules.legal_moves(s, seat)))
    assert rules.spectator_view(s)["revealed"]["hands"]  # after the end everything may be shown


def test_claim_twin_of_a_seer_peek_hides_the_top_card():
    """T3.5a: while a Seer winner chooses, the top card it peeked at is in its own view, not the spectator's,
    and a twin with another top card has the same spectator view."""
    found = 0
    for seed in range(400):
        s = CLAIM2.setup(None, 2, seed)
        rng = random.Random(seed)
        while s.phase == PHASE1 and s.seer < 0:
            (seat,) = CLAIM2.to_act(s)
            s, _ = CLAIM2.apply(s, seat, rng.choice(CLAIM2.legal_moves(s, seat)))
        if s.seer < 0:
            continue
        found += 1
        top = CARD_ID[s.deck[s.dpos]]
        assert CLAIM2.view(s, s.seer)["peek"] == top
        assert "peek" not in CLAIM2.spectator_view(s)
        check_claim(CLAIM2, s, rng)
        if found >= 5:
            break
    assert found >= 5


# ----------------------------------------------------------------------------- Inheritors


def scramble_inheritors(s: InheritorsState, rng: random.Random) -> InheritorsState:
    """A twin of ``s`` differing only in what I13 hides from others: the cards of the hands and the deck dealt
    anew (same sizes, any order), the quests (owned and in the row) dealt anew, another seed and setup, other
    secret Saboteur choices (same counts), and the Rat's card given to any seat or none."""
    t = InheritorsState.from_json(s.to_json())
    cards = [c for h in s.hands for c in h] + list(s.deck)
    rng.shuffle(cards)
    it = iter(cards)
    t.hands = [[next(it) for _ in h] for h in s.hands]
    t.deck = list(it)
    quests = [q for qs in s.quests for q in qs] + list(s.quest_row)
    rng.shuffle(quests)
    qit = iter(quests)
    t.quests = [[next(qit) for _ in qs] for qs in s.quests]
    t.quest_row = list(qit)
    t.seed = rng.randrange(2**62)
    t.setup = {k: (rng.sample(v, len(v)) if isinstance(v, list) else v) for k, v in _deep(s.setup).items()}
    for frame in t.pending:
        if frame["kind"] == "saboteur_discard":
            for key, chosen in frame["chosen"].items():
                hand = t.hands[int(key)] or cards
                frame["chosen"][key] = [[rng.choice(hand), rng.randrange(3)] for _ in chosen]
    t.rat_top = [rng.randrange(s.seats), t.deck[0]] if t.deck and rng.random() < 0.5 else None
    return t


def check_inheritors(s: InheritorsState, rng: random.Random) -> None:
    view = INHERITORS.spectator_view(s)
    assert view == INHERITORS.view(s, None)
    assert view["seat"] is None and not set(PRIVATE_KEYS) & set(view) and "result" not in view
    text = json.dumps(view)
    logged = json.dumps(view["log"])
    # I13: a card of a hand or the deck shows only in a public event (taken from the market, revealed for an
    # honor, a Spy's answer, then perhaps put back by the Rat); the quests and the seed never
    for cid in [*(c for h in s.hands for c in h), *s.deck]:
        assert f'"{cid}"' not in text or f'"{cid}"' in logged, cid
    for cid in [*s.quest_row, *(q for qs in s.quests for q in qs)]:
        assert f'"{cid}"' not in text, cid
    if s.seed is not None and s.seed > 10**6:
        assert str(s.seed) not in text
    twin = scramble_inheritors(s, rng)
    assert INHERITORS.spectator_view(twin) == view
    for seat in range(s.seats):
        if Counter(twin.hands[seat]) != Counter(s.hands[seat]):
            assert INHERITORS.view(twin, seat)["hand"] != INHERITORS.view(s, seat)["hand"]


def _eventful(rnd: random.Random, moves: list[Any], bias: float) -> Any:
    """A random legal move, with probability ``bias`` one that claims, plays or puts back (so random games reach
    clans, the Rat's hidden card, Spies and skip-plays, which uniform play rarely does)."""
    rich = [m for m in moves if "claim_clan" in m or "claim_honor" in m or "put_back" in m
            or m.get("action") in ("advocate", "play")]
    return rnd.choice(rich if rich and rnd.random() < bias else moves)


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**40), rnd=st.randoms(use_true_random=False),
       guaranteed_one=st.booleans(), bias=st.sampled_from([0.0, 0.8]))
def test_inheritors_spectator_view_is_public_information_only(seats, seed, rnd, guaranteed_one, bias):
    s = INHERITORS.setup({"guaranteed_one": guaranteed_one}, seats, seed)
    scrambles = random.Random(seed ^ 0x1A1)
    while s.phase != I_OVER:
        check_inheritors(s, scrambles)
        seat = rnd.choice(sorted(INHERITORS.to_act(s)))
        s, _ = INHERITORS.apply(s, seat, _eventful(rnd, INHERITORS.legal_moves(s, seat), bias))
    assert "hands" in INHERITORS.spectator_view(s)  # after the end everything may be shown


DECK = ["yellow-1a", "yellow-1b", "yellow-1c", "yellow-1d", "yellow-2a", "yellow-2b", "yellow-2c"]


@given(rnd=st.randoms(use_true_random=False))
@settings(max_examples=20, deadline=None)
def test_inheritors_saboteur_choices_stay_secret(rnd):
    """I7.8 / I13: the Saboteur's targets choose in secret (a special advocate, so the state is built: I8.7);
    only how many each has chosen is public."""
    s = build(seats=4, hands=[["saboteur-1"], ["red-1a", "red-2a", "red-3a"], ["green-1a", "green-2a"], []],
              market=[["blue-1a"], [], []], deck=list(DECK))
    s = play(s, 0, {"action": "advocate", "card": "saboteur-1"})
    s = play(s, 2, {"discard": rnd.choice(["green-1a", "green-2a"]), "pile": rnd.randrange(3)})
    assert "your_choices" in json.dumps(INHERITORS.view(s, 2)["pending"])
    assert "your_choices" not in json.dumps(INHERITORS.spectator_view(s))
    check_inheritors(s, rnd)


@given(rnd=st.randoms(use_true_random=False))
@settings(max_examples=20, deadline=None)
def test_inheritors_rat_card_stays_secret(rnd):
    """I8.5 Rat / I13: only the Rat's owner knows the card it put back on the deck."""
    s = build(hands=[["knight-1", "red-1a"], ["blue-1b"]], clans=["rat", None], deck=list(DECK))
    s = play(s, 0, {"action": "advocate", "card": "knight-1"})
    s = play(s, 0, {"put_back": rnd.choice(s.hands[0])})
    assert INHERITORS.view(s, 0)["deck_top"] == s.deck[0]
    assert "deck_top" not in INHERITORS.spectator_view(s)
    check_inheritors(s, rnd)
