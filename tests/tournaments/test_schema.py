"""The tournament answers match their OpenAPI components (issue 36), and so do an adjudicated game's view, history
and record: every answer validated with ``jsonschema`` (closed components: no undeclared key)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.rules.verify import Problem, verify_line
from games.tournaments import service
from tests.service.test_schema_matches_answers import Components

from .conftest import DAYS

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def components() -> Components:
    return Components()


def test_tournament_answers_and_an_adjudicated_game_match_the_schema(components, make_api, settings):
    with time_machine.travel(T0, tick=False) as clock:
        org = make_api("org")
        players = [make_api(f"s{i}") for i in range(3)]
        body = {"name": "Schema cup", "kind": "claim", "format": "swiss", "rounds": 2, "max_players": 3,
                "time_control": DAYS, "max_game_days": 7, "rating_max": 2000}
        components.check("TournamentCreateRequest", body, "the create request")
        created = org.post("/api/v1/tournaments", body)
        assert created.status_code == 201, created.content
        components.check("TournamentDetail", created.json(), "a new tournament")
        tid = created.json()["id"]
        for api in players:
            components.check("TournamentDetail", api.post(f"/api/v1/tournaments/{tid}/join").json(), "a join")
        detail = org.get(f"/api/v1/tournaments/{tid}").json()
        assert detail["status"] == "running" and len(detail["byes"]) == 1
        components.check("TournamentDetail", detail, "a running tournament")
        games = org.get(f"/api/v1/tournaments/{tid}/games").json()
        components.check("TournamentGames", games, "round 1")
        (game,) = games["results"]
        clock.shift(timedelta(days=7, minutes=5))
        with org._capture(execute=True):
            service.adjudicate_due()
        detail = org.get(f"/api/v1/tournaments/{tid}").json()
        assert detail["current_round"] == 2 and detail["crosstable"]
        components.check("TournamentDetail", detail, "after an adjudication")
        components.check("TournamentPage", org.get("/api/v1/tournaments").json(), "the list")
        components.check("GameError", org.post("/api/v1/tournaments", {**body, "rounds": 9}).json(), "a refusal")
        player = next(a for a in players if a.user.username == game["players"][0]["username"])
        view = player.get(f"/api/v1/games/{game['game_id']}").json()
        assert view["ended_reason"] == "adjudicated" and view["result"]["reason"] == "adjudicated"
        components.check("GameView", view, "an adjudicated game")
        history = player.get(f"/api/v1/games/{game['game_id']}/history").json()
        assert history["results"][-1]["type"] == "adjudicated"
        components.check("PaginatedHistoryEntryList", history, "an adjudicated game's history")
        record = player.get(f"/api/v1/games/{game['game_id']}/record")
        components.check("Record", json.loads(record.content), "an adjudicated game's record")
        _label, text = verify_line(record.content.decode())  # python -m games.rules.verify accepts it
        assert "ended adjudicated" in text, text
        tampered = json.loads(record.content)
        tampered["result"]["ranks"] = [1, 1] if tampered["result"]["ranks"] != [1, 1] else [1, 2]
        with pytest.raises(Problem):
            verify_line(json.dumps(tampered))
