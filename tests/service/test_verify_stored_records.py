"""``python -m games.rules.verify`` on the records the API serves (issue 34): games that ended by resignation,
by time, and aborted games, and the export's lines exactly as they are streamed."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from games.clock.models import VacationAccount
from games.clock.service import expire_deadline
from games.models import Game
from games.rules.verify import Problem, main, verify_line

pytestmark = pytest.mark.django_db


def _ended(alice, bob, how: str, kind: str = "claim") -> int:
    gid = alice.create(kind=kind, opponents=[{"type": "user", "username": "bob"}], days_per_move=1)["id"]
    assert bob.post(f"/api/v1/games/{gid}/join").status_code == 201
    if how == "resigned":
        assert alice.post(f"/api/v1/games/{gid}/resign").status_code == 200
    elif how == "timeout":
        for user in (alice.user, bob.user):
            VacationAccount.objects.update_or_create(user=user, defaults={"auto_use": False})
        game = Game.objects.get(pk=gid)
        assert expire_deadline(gid, game.version, now=game.deadline + timedelta(seconds=1)) == "timeout"
    else:
        assert alice.post(f"/api/v1/games/{gid}/abort").status_code == 200
        assert bob.post(f"/api/v1/games/{gid}/abort").status_code == 200
    return gid


@pytest.mark.parametrize("kind", ["claim", "inheritors"])
@pytest.mark.parametrize("how", ["resigned", "timeout", "aborted"])
def test_verify_accepts_the_served_record_of_a_game_that_did_not_end_by_play(how, kind, alice, bob):
    gid = _ended(alice, bob, how, kind)
    body = alice.client.get(f"/api/v1/games/{gid}/record").content.decode()
    _label, text = verify_line(body)
    assert how in text, text


def test_verify_accepts_the_export_as_it_is_streamed(alice, bob):
    for how in ("resigned", "timeout"):
        _ended(alice, bob, how)
    export = b"".join(APIClient().get("/api/v1/users/alice/games/export").streaming_content).decode()
    assert len(export.splitlines()) == 2
    out = io.StringIO()
    assert main(["-"], stdin=io.StringIO(export), out=out) == 0, out.getvalue()
    assert "2 OK" in out.getvalue() or "2 of 2" in out.getvalue(), out.getvalue()


def test_a_resignation_that_names_a_seat_that_did_not_resign_fails(alice, bob):
    gid = _ended(alice, bob, "resigned")
    record = json.loads(alice.client.get(f"/api/v1/games/{gid}/record").content)
    for result in (record["result"], record["record"]["result"]):
        result["winners"] = [0]  # alice resigned: seat 1 won
    with pytest.raises(Problem) as err:
        verify_line(json.dumps(record))
    assert "result.winners" in str(err.value)
    record["result"]["winners"] = [1]  # the answer and its record disagree
    with pytest.raises(Problem, match="differs from its record"):
        verify_line(json.dumps(record))
