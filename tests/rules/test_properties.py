"""Property tests (hypothesis): conservation (C9.1, T5.5), legality, hidden information, game
length, phase-1 counts (C9.2), JSON round-trip, record replay."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.base import IllegalMove, NotYourTurn
from games.rules.cards import CARD_ID, FACTION_NAMES, deck_for, parse_card
from games.rules.claim.core import PHASE1, Core
from games.rules.claim.options import random_mix

from .helpers import RULES
from .helpers import all_cards as _all_cards
from .helpers import hidden_cards as _hidden
from .helpers import visible_cards as _visible

KINDS = ["claim", "claim2", "claim-mix"]




def _check_no_leak(rules, s: Core) -> None:
    for seat in (0, 1, None):
        text = json.dumps(rules.view(s, seat))
        for card in _hidden(s, seat):
            assert f'"{CARD_ID[card]}"' not in text, (seat, CARD_ID[card])
        assert '"seed"' not in text and '"deck"' not in text


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 2**40), rnd=st.randoms(use_true_random=False),
       json_at=st.integers(0, 80))
def test_complete_games_keep_every_invariant(kind, seed, rnd, json_at):
    rules = RULES[kind]
    options = {"factions": [f for f in _mix_names(seed)]} if kind == "claim-mix" else None
    s = rules.setup(options, 2, seed)
    full_deck = Counter(deck_for(s.factions))
    tricks = 0
    step = 0
    while not rules.is_over(s):
        # C9.1 / T5.5 conservation at every step
        assert _all_cards(s) == full_deck
        (seat,) = rules.to_act(s)
        legal = rules.legal_moves(s, seat)
        assert legal and rules.legal_moves(s, 1 - seat) == []
        # only legal moves are accepted
        if s.seer < 0:
            for card in set(s.hands[seat]) - {parse(m) for m in legal}:
                try:
                    rules.apply(s, seat, {"play": CARD_ID[card]})
                except IllegalMove as exc:
                    assert "you must follow" in str(exc)
                else:  # pragma: no cover
                    raise AssertionError(f"illegal {CARD_ID[card]} accepted")
        try:
            rules.apply(s, 1 - seat, legal[0])
        except NotYourTurn:
            pass
        else:  # pragma: no cover
            raise AssertionError("out of turn move accepted")
        _check_no_leak(rules, s)
        if step == json_at:  # JSON round-trip mid-game; continue from the restored state
            data = json.loads(json.dumps(rules.to_json(s)))
            restored = rules.from_json(data)
            assert rules.to_json(restored) == rules.to_json(s)
            assert rules.view(restored, seat) == rules.view(s, seat)
            s = restored
        before = rules.to_json(s) if step % 17 == 0 else None
        new, events = rules.apply(s, seat, rnd.choice(legal))
        if before is not None:
            assert rules.to_json(s) == before  # apply never mutates its input
        # events are public: no card that a spectator may not see
        text = json.dumps(events)
        for card in _hidden(new, None) - _visible(s, None):
            assert f'"{CARD_ID[card]}"' not in text
        completed = [e for e in events if e["type"] == "trick"]
        tricks += len(completed)
        if completed and completed[0]["phase"] == 1:
            k = completed[0]["trick"]
            # C9.2 phase-1 counts after trick k
            assert [len(f) for f in new.followers] == [k, k] or new.phase != PHASE1
            if new.phase == PHASE1:
                assert [len(h) for h in new.hands] == [13 - k, 13 - k]
                assert len(new.deck) - new.dpos + 1 == 26 - 2 * k
        s = new
        step += 1
    assert tricks == 26  # every game ends after 26 tricks
    assert _all_cards(s) == full_deck
    assert sum(len(p) for p in s.score) + len(s.smashed) == 52 - len(s.discard)
    assert s.gnomes == [[], []] and s.pool == []  # T5.5 at the end
    result = rules.result(s)
    assert result["winner"] in (0, 1, None)
    record = rules.record(s)
    assert json.loads(json.dumps(record)) == record
    assert rules.replay_record(record) == record["result"]
    end_view = rules.view(s, None)
    assert end_view["result"] == result and end_view["revealed"]["deck"] == record["deck"]


def parse(move):
    return parse_card(move["play"])


def _mix_names(seed: int) -> list[str]:
    return [FACTION_NAMES[f] for f in random_mix(random.Random(seed))]
