"""Property tests (hypothesis) for 3 and 4 players: conservation, one card per player per phase-1
trick (M5.1/M5.2), views hide every other hand including the partner's (M3.7), only legal moves,
every game ends, JSON round-trip, record replay."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.base import IllegalMove, NotYourTurn
from games.rules.cards import CARD_ID, FACTION_NAMES, deck_for
from games.rules.claim import CLAIM_MIX
from games.rules.claim.core import OVER, PHASE1
from games.rules.claim.options import random_mix
from tests.rules.helpers import all_cards as _all_cards
from tests.rules.helpers import hidden_cards as _hidden


def _options(seats: int, seed: int) -> dict:
    return {"factions": [FACTION_NAMES[f] for f in random_mix(random.Random(seed), seats)]}


@settings(max_examples=40, deadline=None)
@given(seats=st.sampled_from([3, 4]), seed=st.integers(0, 2**40), rnd=st.randoms(use_true_random=False),
       json_at=st.integers(0, 100))
def test_M5_1_M3_7_complete_games_keep_every_invariant(seats, seed, rnd, json_at):
    s = CLAIM_MIX.setup(_options(seats, seed), seats, seed)
    full = Counter(deck_for(s.factions))
    assert sum(full.values()) == 72
    hand = {3: 12, 4: 9}[seats]
    step = 0
    p1_tricks = 0
    while not CLAIM_MIX.is_over(s):
        assert _all_cards(s) == full  # conservation (C9.1 / T5.5)
        (seat,) = CLAIM_MIX.to_act(s)
        legal = CLAIM_MIX.legal_moves(s, seat)
        assert legal and all(CLAIM_MIX.legal_moves(s, o) == [] for o in range(seats) if o != seat)
        if s.smash_seat >= 0:  # M6.5 only the Giant choice: no card may be played meanwhile
            assert all("smash" in m for m in legal) and len(legal) >= 2
            for card in set(s.hands[seat]):
                try:
                    CLAIM_MIX.apply(s, seat, {"play": CARD_ID[card]})
                except IllegalMove as exc:
                    assert "your Giant smashes" in str(exc)
                else:  # pragma: no cover
                    raise AssertionError("card accepted during a Giant choice")
        elif s.seer < 0:
            for card in set(s.hands[seat]) - {CARD_ID_REV[m["play"]] for m in legal}:
                try:
                    CLAIM_MIX.apply(s, seat, {"play": CARD_ID[card]})
                except IllegalMove as exc:
                    assert "you must follow" in str(exc)
                else:  # pragma: no cover
                    raise AssertionError("illegal card accepted")
        other = (seat + 1) % seats
        try:
            CLAIM_MIX.apply(s, other, legal[0])
        except NotYourTurn:
            pass
        else:  # pragma: no cover
            raise AssertionError("out of turn move accepted")
        # M3.7 every view hides every other hand / follower pile, the partner's too
        for viewer in [*range(seats), None]:
            v = CLAIM_MIX.view(s, viewer)
            text = json.dumps(v)
            # A pending smash names the Gnome value each collected Giant may smash (M6.5): the Giants are public,
            # so those ids say nothing of where that Gnome is, even when it sits in a hidden hand.
            pending = v.get("smash_pending") or {}
            named = {pending.get("gnome"), *pending.get("later", [])}
            for card in _hidden(s, viewer):
                if CARD_ID[card] not in named:
                    assert f'"{CARD_ID[card]}"' not in text, (viewer, CARD_ID[card])
            assert '"deck"' not in text
            assert v["reconstructed_rules"] is True
            if viewer is not None:
                assert sorted(v["hand"]) == sorted(CARD_ID[c] for c in s.hands[viewer])
        if step == json_at:
            data = json.loads(json.dumps(CLAIM_MIX.to_json(s)))
            restored = CLAIM_MIX.from_json(data)
            assert CLAIM_MIX.to_json(restored) == CLAIM_MIX.to_json(s)
            assert CLAIM_MIX.view(restored, seat) == CLAIM_MIX.view(s, seat)
            s = restored
        before = [len(f) for f in s.followers]
        phase = s.phase
        s, _ = CLAIM_MIX.apply(s, seat, legal[rnd.randrange(len(legal))])
        step += 1
        if phase == PHASE1 and s.last is not None and s.last["trick"] == p1_tricks + 1 and s.last["phase"] == 1:
            p1_tricks += 1
            # M5.1 / M5.2 every player gets exactly one card per phase-1 trick
            if s.phase == PHASE1:
                assert [len(f) - b for f, b in zip(s.followers, before, strict=True)] == [1] * seats
                assert [len(f) for f in s.followers] == [p1_tricks] * seats
                assert len(s.deck) - s.dpos == 36 - seats * p1_tricks - 1
            else:
                assert [len(h) for h in s.hands] == [hand] * seats and s.dpos == 36
        assert step < 400  # every game ends
    assert p1_tricks == hand
    assert _all_cards(s) == full and s.phase == OVER
    assert sum(len(p) for p in s.score) + len(s.discard) + len(s.smashed) == 72
    res = CLAIM_MIX.result(s)
    assert len(res["ranks"]) == seats and min(res["ranks"]) == 1
    if res["winners"]:
        assert all((r == 1) == (i in res["winners"]) for i, r in enumerate(res["ranks"]))
    else:  # a draw (4 players)
        assert res["ranks"] == [1] * seats
    if seats == 4:
        assert res["winners"] in ([], [0, 2], [1, 3])
    else:
        assert res["winners"]  # 3 players: at least one (possibly shared) winner
    record = CLAIM_MIX.record(s)
    assert CLAIM_MIX.record(CLAIM_MIX.from_record(record)) == record


CARD_ID_REV = {v: k for k, v in CARD_ID.items()}
