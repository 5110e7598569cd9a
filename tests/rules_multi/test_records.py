"""claim.record/1 with "seats": 3 | 4 and "teams": replay reproduces the result; self-play."""

from __future__ import annotations

import io
import json
import random
from contextlib import redirect_stdout

import pytest

from games.rules.base import IllegalMove
from games.rules.cards import FACTION_NAMES
from games.rules.claim import CLAIM_MIX
from games.rules.claim.core import OVER
from games.rules.claim.options import random_mix
from games.rules.claim.playout import random_deal, random_game_n, random_playout
from games.rules.registry import from_record, replay_record
from games.rules.selfplay import generate, main

from .helpers import KG

KEYS_3 = {"format", "game", "factions", "seats", "reconstructed_rules", "hands", "deck", "first_leader",
          "moves", "result"}


@pytest.mark.parametrize(("seats", "n"), [(3, 400), (4, 400)])
def test_replay_of_many_random_records_reproduces_the_result(seats, n):
    for record in generate("claim-mix", n, seed=seats, seats=seats):
        replayed = CLAIM_MIX.from_record(record)
        assert CLAIM_MIX.is_over(replayed)
        assert CLAIM_MIX.record(replayed) == record
        result = replay_record(record)
        assert {k: result[k] for k in record["result"]} == record["result"]


def test_record_shape_3_players():
    (record,) = list(generate("claim-mix", 1, seed=5, seats=3))
    assert set(record) == KEYS_3 and record["seats"] == 3 and "teams" not in record
    assert [len(h) for h in record["hands"]] == [12, 12, 12] and len(record["deck"]) == 36
    assert len(record["factions"]) == 7 and record["reconstructed_rules"] is True
    assert set(record["result"]) == {"winner", "winners", "ranks", "votes", "score"}
    assert len([m for m in record["moves"] if "play" in m["move"]]) == 72  # 24 tricks of 3
    assert json.loads(json.dumps(record)) == record


def test_record_shape_4_players_has_teams():
    (record,) = list(generate("claim-mix", 1, seed=6, seats=4))
    assert set(record) == KEYS_3 | {"teams"} and record["teams"] == [[0, 2], [1, 3]]
    assert [len(h) for h in record["hands"]] == [9] * 4 and len(record["deck"]) == 36
    assert len([m for m in record["moves"] if "play" in m["move"]]) == 72  # 18 tricks of 4
    assert len(record["result"]["score"]) == 4 and record["result"]["winner"] is None
    assert set(record["result"]["votes"].values()) <= {0, 1, None}  # team indexes


def test_rich_interface_game_matches_replay_and_upto():
    st = CLAIM_MIX.setup({"factions": KG}, 4, 99)
    rng = random.Random(1)
    while not CLAIM_MIX.is_over(st):
        (seat,) = CLAIM_MIX.to_act(st)
        st, _ = CLAIM_MIX.apply(st, seat, rng.choice(CLAIM_MIX.legal_moves(st, seat)))
    record = CLAIM_MIX.record(st)
    assert CLAIM_MIX.replay_record(record) == record["result"]
    assert CLAIM_MIX.record(CLAIM_MIX.from_record(record, upto=10))["moves"] == record["moves"][:10]
    assert CLAIM_MIX.is_over(from_record(record))


def test_tampered_4_player_record_is_rejected():
    (record,) = list(generate("claim-mix", 1, seed=3, seats=4))
    bad = json.loads(json.dumps(record))
    bad["moves"][1]["seat"] = (bad["moves"][0]["seat"] + 2) % 4  # the partner plays out of turn
    with pytest.raises(IllegalMove, match="move 2: it is not your turn"):
        CLAIM_MIX.from_record(bad)


def test_selfplay_cli_4_seats_with_legal():
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["--game", "claim-mix", "--seats", "4", "--games", "5", "--seed", "7", "--with-legal"]) == 0
    lines = buf.getvalue().splitlines()
    assert len(lines) == 5
    for line in lines:
        record = json.loads(line)
        assert record["seats"] == 4
        for m in record["moves"]:
            assert m["move"] in m["legal"]


def test_selfplay_rejects_claim_with_3_seats_and_5_seats():
    for argv in (["--game", "claim", "--seats", "3"], ["--game", "claim-mix", "--seats", "5"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2


def test_selfplay_fixed_7_factions_and_deterministic():
    fixed = ["gnome", "giant", "undead", "dwarf", "dragon", "troll", "seer"]
    a = list(generate("claim-mix", 3, seed=4, seats=3, factions=fixed))
    assert a == list(generate("claim-mix", 3, seed=4, seats=3, factions=fixed))
    assert all(r["factions"] == ["undead", "dwarf", "gnome", "giant", "dragon", "troll", "seer"] for r in a)


@pytest.mark.parametrize("seats", [3, 4])
def test_random_playout_with_n_seats_ends_and_matches_the_result(seats):
    rng = random.Random(seats)

    for _ in range(50):
        factions = random_mix(rng, seats)
        winners = random_game_n(factions, seats, rng)
        assert winners in ([], [0, 2], [1, 3]) if seats == 4 else len(winners) >= 1
        st = CLAIM_MIX.setup({"factions": _names(factions)}, seats, rng.randrange(1000))
        w = random_playout(st, rng)
        assert st.phase == OVER
        res = CLAIM_MIX.result(st)
        assert w == (res["winners"][0] if len(res["winners"]) == 1 else None)
    # the 2-seat deal helper is untouched
    assert random_deal("claim-mix", random_mix(rng), rng).seats == 2


def _names(factions):
    return [FACTION_NAMES[f] for f in factions]
