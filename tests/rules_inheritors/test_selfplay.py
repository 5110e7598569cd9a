"""Self-play of Inheritors (issue 21): ``python -m games.rules.selfplay --game inheritors --seats N``."""

from __future__ import annotations

import json

import pytest

from games.rules.registry import replay_record
from games.rules.selfplay import generate, main


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_selfplay_records_replay_to_their_result(seats):
    records = list(generate("inheritors", 3, seed=1, seats=seats))
    assert len(records) == 3
    for record in records:
        assert record["format"] == "inheritors.record/1" and record["seats"] == seats
        assert record["result"] is not None
        assert replay_record(record) == record["result"]


def test_selfplay_is_deterministic_and_prints_one_record_a_line(capsys):
    assert main(["--game", "inheritors", "--seats", "3", "--games", "2", "--seed", "1"]) == 0
    first = capsys.readouterr().out.splitlines()
    assert main(["--game", "inheritors", "--seats", "3", "--games", "2", "--seed", "1"]) == 0
    assert capsys.readouterr().out.splitlines() == first
    assert [json.loads(line)["format"] for line in first] == ["inheritors.record/1"] * 2


def test_selfplay_with_legal_lists_each_moves_choices():
    record = next(generate("inheritors", 1, seed=2, seats=2, with_legal=True))
    assert all(entry["move"] in entry["legal"] for entry in record["moves"])
