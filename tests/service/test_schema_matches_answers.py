"""What the API really answers matches its OpenAPI schema, whose moves, views, events and results are the
components built from the engines' TypedDicts (games/api/typed_schema.py): whole games of every kind and seat count
played through the HTTP API (Claim, Claim 2, the mix with 2, 3 and 4 seats and random faction combinations,
Inheritors with 2, 3 and 4 seats), each answer validated against its component with ``jsonschema``: every game
view on the way (the engine's view, the legal moves, the last events), every move sent (the request body),
the history, the record, replay steps with every seat's view, the inbox entry and the error answers; then the
service's own events and results: joins, a resignation, an abort, pauses, time given, timeouts.

The components are closed (no key but the declared ones) and their unions ``oneOf`` where the shapes exclude
each other, so an answer with an undeclared key, a missing one or a value of another type fails here.
"""

from __future__ import annotations

import json
import random
from datetime import timedelta
from typing import Any

import jsonschema_rs
import pytest
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

from games.api import schema
from games.api.typed_schema import _Builder
from games.clock.bookings import take_period
from games.clock.service import expire_deadline, give_time, request_pause, resume
from games.models import Game
from games.rules.cards import FACTION_NAMES
from games.rules.claim.options import random_mix
from games.rules.registry import KINDS
from tests.openapi_json import json_schema

pytestmark = pytest.mark.django_db


class Components:
    """A validator per component of the generated schema (``$ref`` s resolved in it): ``jsonschema_rs`` (fast,
    schemathesis's own) decides, ``jsonschema``'s best match explains a failure."""

    def __init__(self) -> None:
        self.schema = SchemaGenerator().get_schema(request=None, public=True)
        self._document = json_schema(self.schema)
        self._registry = Registry().with_resource("urn:claim-openapi", Resource.opaque(self._document))
        self._validators: dict[str, Any] = {}
        self.seen: dict[str, int] = {}

    def check(self, name: str, body: Any, what: str) -> None:
        assert name in self.schema["components"]["schemas"], name
        if name not in self._validators:
            self._validators[name] = jsonschema_rs.Draft202012Validator(
                {"$ref": f"#/components/schemas/{name}", "components": self._document["components"]})
        if not self._validators[name].is_valid(body):
            explain = Draft202012Validator({"$ref": f"urn:claim-openapi#/components/schemas/{name}"},
                                           registry=self._registry)
            error = best_match(explain.iter_errors(body))
            where, message = (list(error.absolute_path), error.message[:300]) if error else ("?", "")
            raise AssertionError(f"{what}: not a {name} at {where}: {message}\n{json.dumps(body)[:600]}")
        self.seen[name] = self.seen.get(name, 0) + 1


@pytest.fixture(scope="module")
def components() -> Components:
    return Components()


def _events_of(body: dict[str, Any]) -> list[dict[str, Any]]:
    last = body.get("last_events") or {}
    return list(last.get("events") or [])


def _check_finished(api, components: Components, gid: int, seats: int) -> list[dict[str, Any]]:
    """The history, record, replay steps and inbox entry of an ended game; returns the history's events."""
    events: list[dict[str, Any]] = []
    offset = 0
    while True:
        page = api.get(f"/api/v1/games/{gid}/history", {"limit": 100, "offset": offset})
        assert page.status_code == 200, page.content
        components.check("PaginatedHistoryEntryList", page.json(), f"history of {gid} from {offset}")
        events += [e for entry in page.json()["results"] for e in entry["events"]]
        if not page.json()["next"]:
            break
        offset += 100
    record = api.get(f"/api/v1/games/{gid}/record")
    assert record.status_code == 200, record.content
    components.check("Record", json.loads(record.content), f"record of {gid}")
    steps = json.loads(record.content)["moves"]
    for step in sorted({0, 1, len(steps) // 2, len(steps) - 1, len(steps)} & set(range(len(steps) + 1))):
        replay = api.get(f"/api/v1/games/{gid}/replay", {"step": step})
        assert replay.status_code == 200, replay.content
        components.check("Replay", replay.json(), f"replay of {gid} at step {step}")
        assert len(replay.json()["seat_views"]) == seats
    inbox = api.get("/api/v1/games", {"status": "finished"})
    assert inbox.status_code == 200
    components.check("PaginatedGameSummaryList", inbox.json(), "the inbox of finished games")
    return events


def _target(prop: dict[str, Any]) -> str:
    """The component a property (or its items) refers to, through drf-spectacular's ``allOf`` wrapper."""
    prop = prop.get("items", prop)
    return (prop["allOf"][0] if "allOf" in prop else prop)["$ref"].rsplit("/", 1)[1]


def test_the_game_bodies_refer_to_the_typed_components(components):
    schemas = components.schema["components"]["schemas"]
    typed = {("GameView", "view"): "EngineView", ("GameView", "legal_moves"): "EngineMove",
             ("GameView", "result"): "GameResult", ("GameSummary", "result"): "GameResult",
             ("LastEvents", "events"): "HistoryEvent", ("HistoryEntry", "events"): "HistoryEvent",
             ("HistoryEntry", "move"): "EngineMove", ("MoveRequest", "move"): "EngineMove",
             ("LoggedMove", "move"): "EngineMove", ("Record", "result"): "GameResult",
             ("Replay", "events"): "EngineEvent", ("Replay", "spectator_view"): "EngineView",
             ("Replay", "seat_views"): "EngineView", ("GameErrorDetail", "legal_moves"): "EngineMove"}
    for (component, prop), target in typed.items():
        assert _target(schemas[component]["properties"][prop]) == target, (component, prop)
    mapping = schemas["EngineView"]["discriminator"]["mapping"]
    assert set(mapping) == set(KINDS)
    assert schemas["ClaimView"]["properties"]["game"]["enum"] == ["claim", "claim2", "claim-mix"]
    assert schemas["InheritorsView"]["additionalProperties"] is False
    # the Inheritors vocabulary: one component per move shape, each closed, with its keys required
    moves = [_target(m) for m in schemas["InheritorsMove"]["oneOf"]]
    assert len(moves) == 17 and "InheritorsQuestMove" in moves and "InheritorsEndTurnMove" in moves
    assert schemas["InheritorsQuestMove"]["required"] == ["action", "cards", "piles"]
    assert schemas["InheritorsPassMove"]["properties"]["pass"] == {"type": "boolean", "enum": [True]}
    assert schemas["ClaimEvent"]["discriminator"]["propertyName"] == "type"


def test_the_examples_of_the_game_view_are_real_answers(components):

    for example in (schema.GAME_VIEW_EXAMPLE, schema.BANK_VIEW_EXAMPLE):
        components.check("EngineView", example["view"], "the example's view")
        components.check("LastEvents", example["last_events"], "the example's last events")
        for move in example["legal_moves"]:
            components.check("EngineMove", move, "the example's legal move")


def test_the_builder_refuses_a_type_it_cannot_describe():

    with pytest.raises(TypeError):
        _Builder().schema(float)
    assert _Builder().schema(list[int] | None) == {"type": "array", "items": {"type": "integer"}, "nullable": True}


CASES = [("claim", 2), ("claim2", 2), ("claim-mix", 2), ("claim-mix", 3), ("claim-mix", 4), ("inheritors", 2),
         ("inheritors", 3), ("inheritors", 4)]


def test_every_kind_and_seat_count_is_played():
    assert {kind for kind, _ in CASES} == set(KINDS)


@pytest.mark.parametrize(("kind", "seats"), CASES, ids=[f"{k}-{s}" for k, s in CASES])
def test_a_whole_game_answers_as_the_schema_says(components, make_api, kind, seats):
    rng = random.Random(f"{kind}-{seats}")
    alice = make_api("alice")
    body: dict[str, Any] = {"kind": kind, "seats": seats, "opponents": [{"type": "ai", "level": 1}] * (seats - 1)}
    if kind == "claim-mix":
        body["options"] = {"factions": [FACTION_NAMES[f] for f in random_mix(rng, seats)]}
    components.check("CreateGameRequest", body, "the create request")
    view = alice.create(**body)
    gid = view["id"]
    events: list[dict[str, Any]] = []
    moves = 0
    while view["status"] == "active":
        components.check("GameView", view, f"the view after {moves} moves")
        events += _events_of(view)
        if not view["my_turn"]:  # the answer was built before the AI seats' turns (they run on commit)
            view = alice.view(gid)
            continue
        assert view["legal_moves"]
        if moves == 1:
            bad = alice.move(gid, view["version"], {"play": "no-such-card"} if kind != "inheritors"
                             else {"action": "play", "card": "no-such-card"})
            assert bad.status_code == 400, bad.content
            components.check("GameError", bad.json(), "an illegal move's answer")
            stale = alice.move(gid, view["version"] - 1, view["legal_moves"][0])
            assert stale.status_code == 409, stale.content
            components.check("GameError", stale.json(), "a stale move's answer")
        request = {"version": view["version"], "move": rng.choice(view["legal_moves"]), "client_id": f"m{moves}"}
        components.check("MoveRequest", request, "a move sent")
        answer = alice.post(f"/api/v1/games/{gid}/moves", request)
        assert answer.status_code == 201, answer.content
        view = answer.json()
        moves += 1
        assert moves < 2000
    assert view["status"] == "finished" and view["ended_reason"] == "normal"
    components.check("GameView", view, "the final view")
    assert view["result"] is not None and view["view"]["over"]
    events += _check_finished(alice, components, gid, seats)
    spectator = make_api("mallory").view(gid)
    components.check("GameView", spectator, "a spectator's view of the finished game")
    assert spectator["my_seat"] is None and spectator["view"]["seat"] is None
    assert {e["type"] for e in events} >= {"game_over", "started"}
    assert moves > 0
    if seats == 2 and kind == "claim":  # against the AI a rematch is a new game: its history names this one
        rematch = alice.post(f"/api/v1/games/{gid}/rematch")
        assert rematch.status_code == 201, rematch.content
        components.check("GameView", rematch.json(), "a rematch")
        history = alice.get(f"/api/v1/games/{rematch.json()['id']}/history")
        components.check("PaginatedHistoryEntryList", history.json(), "a rematch's history")
        assert history.json()["results"][0]["events"][0] == {"type": "created", "seat": 0, "rematch_of": gid}


def test_the_service_events_and_results_answer_as_the_schema_says(components, make_api,
                                                                  django_capture_on_commit_callbacks):

    alice, bob = make_api("alice"), make_api("bob")
    events: list[dict[str, Any]] = []

    # Invited and joined, a pause asked for and made, resumed, time given, a vacation booked, a resignation
    # (players of this game only: the vacation would save them from the timeouts below).
    carol, dave = make_api("carol"), make_api("dave")
    created = carol.create(kind="claim", opponents=[{"type": "user", "username": "dave"}], days_per_move=3)
    components.check("GameView", created, "an open game (no view yet)")
    assert created["view"] is None
    gid = created["id"]
    joined = dave.post(f"/api/v1/games/{gid}/join", {})
    assert joined.status_code == 201, joined.content
    components.check("GameView", joined.json(), "the view after joining")
    request_pause(carol.user, gid)
    request_pause(dave.user, gid)
    resume(dave.user, gid)
    waiting = next(api for api in (carol, dave) if not api.view(gid)["my_turn"])
    give_time(waiting.user, gid)
    acting = dave if waiting is carol else carol
    with django_capture_on_commit_callbacks(execute=True):  # the booking tells the games on commit
        take_period(acting.user, timezone.now(), 2)
    resigned = carol.post(f"/api/v1/games/{gid}/resign")
    assert resigned.status_code == 200, resigned.content
    components.check("GameView", resigned.json(), "the view after a resignation")
    assert resigned.json()["result"]["reason"] == "resigned"
    events += _check_finished(dave, components, gid, 2)

    # Aborted before the first move: offered by one, accepted by the other.
    gid = alice.create(kind="claim2", opponents=[{"type": "user", "username": "bob"}])["id"]
    bob.post(f"/api/v1/games/{gid}/join", {})
    for api in (alice, bob):
        answer = api.post(f"/api/v1/games/{gid}/abort")
        assert answer.status_code == 200, answer.content
        components.check("GameView", answer.json(), "the view after an abort offer")
    assert answer.json()["status"] == "aborted"
    history = alice.get(f"/api/v1/games/{gid}/history")
    components.check("PaginatedHistoryEntryList", history.json(), "an aborted game's history")
    events += [e for entry in history.json()["results"] for e in entry["events"]]
    record = alice.get(f"/api/v1/games/{gid}/record")
    if record.status_code == 200:
        components.check("Record", json.loads(record.content), "an aborted game's record")

    # Two seats on time: the seat to act loses.
    gid = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}], days_per_move=1)["id"]
    bob.post(f"/api/v1/games/{gid}/join", {})
    game = Game.objects.get(pk=gid)
    assert expire_deadline(gid, game.version, now=game.deadline + timedelta(days=400)) == "timeout"
    final = alice.view(gid)
    components.check("GameView", final, "the view after a timeout")
    assert final["result"]["reason"] == "timeout"
    events += _check_finished(alice, components, gid, 2)

    # Three seats: the late seat is taken over by the AI, play goes on; the creator fills a seat with the AI.
    created = alice.create(kind="claim-mix", seats=3, options={"factions": [FACTION_NAMES[f] for f in
                                                                             random_mix(random.Random(3), 3)]},
                           opponents=[{"type": "user", "username": "bob"}, {"type": "open"}], days_per_move=1)
    gid = created["id"]
    bob.post(f"/api/v1/games/{gid}/join", {})
    filled = alice.post(f"/api/v1/games/{gid}/fill", {"seats": [{"index": 2, "level": 1}]})
    assert filled.status_code == 200, filled.content
    components.check("GameView", filled.json(), "the view after filling a seat with the AI")
    game = Game.objects.get(pk=gid)
    assert expire_deadline(gid, game.version, now=game.deadline + timedelta(days=400)) == "replaced"
    components.check("GameView", alice.view(gid), "the view after an AI took a seat over")
    history = alice.get(f"/api/v1/games/{gid}/history")
    components.check("PaginatedHistoryEntryList", history.json(), "the history of a seat taken over")
    events += [e for entry in history.json()["results"] for e in entry["events"]]

    types = {e["type"] for e in events}
    assert types >= {"created", "joined", "started", "pause_asked", "paused", "resumed", "time_given", "vacation",
                     "resigned", "abort_offered", "aborted", "timeout", "ai_filled", "game_over"}, types
    for event in events:
        components.check("HistoryEvent", event, "an event")
