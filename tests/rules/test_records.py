"""claim.record/1: replaying hands, deck, first_leader and moves reproduces the result."""

from __future__ import annotations

import io
import json
import random
from contextlib import redirect_stdout

import pytest

from games.rules.base import IllegalMove, RulesError
from games.rules.claim import CLAIM, CLAIM2, CLAIM_MIX
from games.rules.registry import from_record, get_rules, replay_record
from games.rules.selfplay import generate, main

RECORD_KEYS = {"format", "game", "factions", "seats", "hands", "deck", "first_leader", "moves", "result"}


@pytest.mark.parametrize(("game", "n"), [("claim", 1500), ("claim2", 1000), ("claim-mix", 1000)])
def test_replay_of_thousands_of_records_reproduces_the_result(game, n):
    rules = get_rules(game)
    for record in generate(game, n, seed=11):
        replayed = rules.from_record(record)
        assert rules.is_over(replayed)
        assert rules.record(replayed) == record  # result, score piles and the move log


def test_record_shape():
    (record,) = list(generate("claim2", 1, seed=5))
    assert set(record) == RECORD_KEYS
    assert record["format"] == "claim.record/1" and record["seats"] == 2
    assert [len(h) for h in record["hands"]] == [13, 13] and len(record["deck"]) == 26
    assert set(record["result"]) == {"winner", "votes", "score"}
    assert set(record["result"]["votes"]) == set(record["factions"])
    assert json.loads(json.dumps(record)) == record
    plays = [m for m in record["moves"] if "play" in m["move"]]
    assert len(plays) == 52  # 26 tricks of 2 cards


def test_record_with_rich_interface_matches_replay():
    st = CLAIM.setup(None, 2, 99)

    rng = random.Random(1)
    while not CLAIM.is_over(st):
        seat = next(iter(CLAIM.to_act(st)))
        st, _ = CLAIM.apply(st, seat, rng.choice(CLAIM.legal_moves(st, seat)))
    record = CLAIM.record(st)
    assert CLAIM.replay_record(record) == record["result"]
    assert CLAIM.record(CLAIM.from_record(record, upto=10))["moves"] == record["moves"][:10]


def test_seer_moves_are_recorded_in_order():
    records = list(generate("claim2", 30, seed=2))
    seer = [m for r in records for m in r["moves"] if "seer" in m["move"]]
    assert seer and all(m["move"]["seer"] in ("prize", "top") for m in seer)
    for r in records:
        assert CLAIM2.replay_record(r) == r["result"]


def test_tampered_record_is_rejected():
    (record,) = list(generate("claim", 1, seed=3))
    bad = json.loads(json.dumps(record))
    bad["moves"][1]["seat"] = bad["moves"][0]["seat"]
    with pytest.raises(IllegalMove, match="move 2: it is not your turn"):
        CLAIM.from_record(bad)
    with pytest.raises(RulesError, match="not 'claim2'"):
        CLAIM2.from_record(record)


def test_selfplay_cli_ndjson_with_legal():
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["--game", "claim-mix", "--games", "3", "--seed", "7", "--with-legal"]) == 0
    lines = buf.getvalue().splitlines()
    assert len(lines) == 3
    for line in lines:
        record = json.loads(line)
        for m in record["moves"]:
            assert m["move"] in m["legal"]
        record_wo = {**record, "moves": [{"seat": m["seat"], "move": m["move"]} for m in record["moves"]]}
        assert CLAIM_MIX.replay_record(record_wo) == record["result"]


@pytest.mark.parametrize(("game", "seats"), [("claim", 2), ("claim2", 2), ("claim-mix", 2), ("claim-mix", 3),
                                           ("claim-mix", 4), ("inheritors", 2), ("inheritors", 4)])
@pytest.mark.parametrize("with_legal", [False, True])
def test_selfplay_cli_prints_each_record_as_compact_stdlib_json(game, seats, with_legal):
    """The CLI's lines (written by orjson) are ``json.dumps(record, separators=(",", ":"))`` character for
    character, for every kind and seat count, with and without the legal moves."""
    flags = ["--with-legal"] if with_legal else []
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["--game", game, "--seats", str(seats), "--games", "25", "--seed", "9", *flags]) == 0
    expected = [json.dumps(r, separators=(",", ":"))
                for r in generate(game, 25, 9, with_legal=with_legal, seats=seats)]
    assert buf.getvalue().splitlines() == expected


def test_selfplay_is_deterministic_and_fixed_factions():
    a = list(generate("claim-mix", 5, seed=4, factions=["gnome", "giant", "seer", "troll", "dragon"]))
    b = list(generate("claim-mix", 5, seed=4, factions=["gnome", "giant", "seer", "troll", "dragon"]))
    assert a == b
    assert all(r["factions"] == ["gnome", "giant", "dragon", "troll", "seer"] for r in a)
    mixes = {tuple(r["factions"]) for r in generate("claim-mix", 20, seed=4)}
    assert len(mixes) > 1


def test_selfplay_cli_errors():
    with pytest.raises(SystemExit) as exc:
        main(["--game", "claim", "--seats", "3"])
    assert exc.value.code == 2


def test_registry_replay_record_dispatches_on_the_game():
    for game in ("claim", "claim2", "claim-mix"):
        (record,) = list(generate(game, 1, seed=6))
        assert get_rules(game).is_over(from_record(record))
        result = replay_record(record)
        assert {k: result[k] for k in ("winner", "votes", "score")} == record["result"]
