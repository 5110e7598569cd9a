"""games.rules.verify: self-played records of every kind pass, corrupted ones are caught, bad
input gets a message (never a traceback), exit status 1 on any problem."""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from games.rules.verify import main, verify_line

from .helpers import GROUPS, all_records, records


def run(lines: list[str], *args: str) -> tuple[int, str]:
    out = io.StringIO()
    rc = main([*args, "-"], stdin=io.StringIO("\n".join(lines) + "\n"), out=out)
    return rc, out.getvalue()


def dumps(rec: Any) -> str:
    return json.dumps(rec, separators=(",", ":"))


def test_self_played_records_of_every_kind_and_seat_count_are_ok():
    recs = list(all_records(6, seed=3))
    rc, text = run([dumps(r) for r in recs])
    assert rc == 0, text
    assert text.count("OK   record") == len(recs) == 6 * len(GROUPS)
    assert f"{len(recs)} records: {len(recs)} OK, 0 with problems" in text
    for game, seats in GROUPS:
        assert f"{game}, {seats} seats: 6" in text


@pytest.mark.slow
def test_1000_self_played_records_of_every_kind_and_seat_count_are_ok():
    recs = [dumps(r) for r in all_records(125, seed=11)]  # 8 kinds x 125 = 1,000 records
    rc, text = run(recs, "--quiet")
    assert rc == 0 and "1000 records: 1000 OK, 0 with problems" in text, text[-2000:]


# --------------------------------------------------------------------------- ten corruptions


def _one(game: str, seats: int, seed: int = 1, want: Callable[[dict], bool] = lambda r: True) -> dict:
    for rec in records(game, seats, 40, seed):
        if want(rec):
            return copy.deepcopy(rec)
    raise AssertionError("no such self-played record")  # pragma: no cover


def _first_play(rec: dict) -> dict:
    return next(m for m in rec["moves"] if "play" in m["move"])


def c_truncated_json(_):
    return dumps(_one("claim", 2))[:-7]


def c_unknown_format(_):
    rec = _one("claim2", 2)
    rec["format"] = "claim.record/2"
    return rec


def c_card_not_held(_):
    rec = _one("claim", 2)
    m = _first_play(rec)
    other = rec["hands"][1 - m["seat"]]
    m["move"] = {"play": next(c for c in other if c not in rec["hands"][m["seat"]])}
    return rec


def c_wrong_seat(_):
    rec = _one("claim-mix", 3)
    rec["moves"][5]["seat"] = (rec["moves"][5]["seat"] + 1) % 3
    return rec


def c_result_changed(_):
    rec = _one("claim-mix", 4, want=lambda r: bool(r["result"]["winners"]))
    rec["result"]["winners"] = [1, 3] if rec["result"]["winners"] == [0, 2] else [0, 2]
    return rec


def c_truncated_moves(_):
    rec = _one("claim-mix", 3)
    rec["moves"] = rec["moves"][:-1]
    return rec


def c_move_after_the_end(_):
    rec = _one("claim", 2)
    rec["moves"].append({"seat": 0, "move": {"play": rec["hands"][0][0]}})
    return rec


def c_doubled_card_in_the_deal(_):
    rec = _one("claim2", 2)
    rec["hands"][0][0] = rec["hands"][1][0]
    return rec


def c_teams_changed(_):
    rec = _one("claim-mix", 4)
    rec["teams"] = [[0, 1], [2, 3]]
    return rec


def c_smash_on_the_partner_or_self(_):
    rec = _one("claim-mix", 3, seed=5, want=lambda r: any("smash" in m["move"] for m in r["moves"]))
    m = next(m for m in rec["moves"] if "smash" in m["move"])
    m["move"] = {"smash": m["seat"]}  # the winner's own Gnome (M6.5): never a candidate
    return rec


def c_inheritors_market_changed(_):
    rec = _one("inheritors", 3)
    rec["setup"]["market"][0] = ["tome-1"] if rec["setup"]["market"][0] != ["tome-1"] else ["tome-2"]
    return rec


def c_inheritors_score_changed(_):
    rec = _one("inheritors", 4)
    rec["result"]["scores"][0]["total"] += 1
    return rec


def c_inheritors_illegal_move(_):
    rec = _one("inheritors", 2)
    m = next(m for m in rec["moves"] if m["move"].get("action") == "play")
    m["move"] = {"action": "play", "card": "not-a-card"}
    return rec


CORRUPTIONS = {
    "truncated JSON": (c_truncated_json, "malformed", "not JSON"),
    "unknown format": (c_unknown_format, "malformed", "unknown format"),
    "card not held": (c_card_not_held, "illegal move", "you don't hold"),
    "move by the wrong seat": (c_wrong_seat, "illegal move", "not your turn"),
    "result changed": (c_result_changed, "result differs", "result.winners"),
    "moves cut short": (c_truncated_moves, "unfinished", "not over after the last"),
    "move after the end": (c_move_after_the_end, "illegal move", "after the end of the game"),
    "doubled card in the deal": (c_doubled_card_in_the_deal, "bad deal", "exactly the game's cards"),
    "4-seat teams changed": (c_teams_changed, "bad deal", "[[0, 2], [1, 3]]"),
    "Giant choice on the winner's own Gnome": (c_smash_on_the_partner_or_self, "illegal move",
                                               "not a seat you may choose"),
    "Inheritors market changed": (c_inheritors_market_changed, "bad deal", "setup.market"),
    "Inheritors score changed": (c_inheritors_score_changed, "result differs", "result.scores[0].total"),
    "Inheritors illegal move": (c_inheritors_illegal_move, "illegal move", "move "),
}


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_each_corruption_is_caught_with_a_message(name):
    make, kind, text = CORRUPTIONS[name]
    line = make(None)
    line = line if isinstance(line, str) else dumps(line)
    rc, out = run([line])
    assert rc == 1
    assert out.startswith("FAIL record 1"), out
    assert text in out, out
    assert f"({kind} 1)" in out, out
    assert "Traceback" not in out


def test_all_corruptions_in_one_file_with_good_records_around_them():
    good = [dumps(r) for r in all_records(1, seed=4)]
    bad = [make(None) for make, _, _ in CORRUPTIONS.values()]
    bad = [b if isinstance(b, str) else dumps(b) for b in bad]
    rc, out = run([*good[:4], *bad, *good[4:]])
    assert rc == 1
    n_bad = len(CORRUPTIONS)
    assert n_bad >= 10
    assert out.count("FAIL record") == n_bad and out.count("OK   record") == len(good)
    assert f"{len(good) + n_bad} records: {len(good)} OK, {n_bad} with problems" in out


# --------------------------------------------------------------------------- malformed input


@pytest.mark.parametrize("rec, text", [
    ({"format": "claim.record/1"}, "'game' is missing"),
    ({"format": "claim.record/1", "game": "chess"}, "not a claim.record/1 game"),
    ({"format": "claim.record/1", "game": "claim", "seats": "2"}, "'seats' must be int"),
    ({"format": "claim.record/1", "game": "claim", "seats": True}, "'seats' must be int"),
    ({"format": "claim.record/1", "game": "claim", "seats": 3}, "played by 2-2 players"),
    ({"format": "claim.record/1", "game": "claim-mix", "seats": 2, "factions": ["knight"]}, "factions:"),
    ({"format": "inheritors.record/1", "game": "inheritors", "seats": 5, "options": {}}, "options:"),
    ({"format": "inheritors.record/1", "game": "inheritors", "seats": 2, "options": {}}, "'setup' is missing"),
    ([1, 2], "must be a JSON object"),
    ("[" * 100_000, "not JSON"),
])
def test_malformed_records_get_a_message(rec, text):
    line = rec if isinstance(rec, str) else dumps(rec)
    with pytest.raises(Exception) as info:
        verify_line(line)
    assert text in str(info.value)


def test_a_record_with_broken_moves_says_which_move():
    rec = _one("claim-mix", 4)
    rec["moves"][3] = {"seat": 1}
    rc, out = run([dumps(rec)])
    assert rc == 1 and "move 4: 'move' is missing" in out
    rec["moves"][3] = {"seat": 1, "move": {"play": ["nested"]}}
    rc, out = run([dumps(rec)])
    assert rc == 1 and "move 4" in out and "Traceback" not in out


def test_cli_exit_status_files_stdin_and_unreadable_input(tmp_path):
    good = tmp_path / "good.ndjson"
    good.write_text("\n".join(dumps(r) for r in records("claim-mix", 4, 2)) + "\n\n")
    empty = tmp_path / "empty.ndjson"
    empty.write_text("\n")
    binary = tmp_path / "bin.ndjson"
    binary.write_bytes(b"\xff\xfe\x00garbage\n")
    cmd = [sys.executable, "-m", "games.rules.verify"]
    ok = subprocess.run([*cmd, str(good)], capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and "2 records: 2 OK" in ok.stdout and ok.stderr == ""
    for path, text in ((empty, "No records found"), (binary, "not UTF-8 text"),
                       (tmp_path / "missing.ndjson", "cannot read it")):
        r = subprocess.run([*cmd, str(path)], capture_output=True, text=True, check=False)
        assert r.returncode == 1 and text in r.stdout and "Traceback" not in r.stdout + r.stderr, r
    piped = subprocess.run([*cmd, "--quiet", "-"], input=good.read_text() + "{oops\n", capture_output=True,
                           text=True, check=False)
    assert piped.returncode == 1 and "OK   record" not in piped.stdout and "line 4" in piped.stdout
