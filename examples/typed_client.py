"""A client generated from claim's OpenAPI schema plays a game of every kind against the AI, to the end.

Generate the client from the server's own schema, then run this with the generated package importable:

    pip install openapi-python-client
    openapi-python-client generate --url https://claim.example.org/api/v1/schema/?format=json \\
        --meta none --output-path claim_client
    python examples/typed_client.py https://claim.example.org clm_xxxxxxxx_secret

Every request and answer goes through the generated functions and models (``claim_client.api`` and
``claim_client.models``): the bodies are built with the models' ``from_dict`` and every answer is parsed into
its model, so a field the schema gets wrong fails here. The token needs the ``games:play`` scope. It prints
one JSON line per game (kind, seats, moves played, result) and exits 1 if any answer was unexpected.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from http import HTTPStatus
from types import SimpleNamespace
from typing import Any

# Every kind against the AI; the combination with 3 seats and with 4 (two partnerships), Inheritors with 2 and 4.
SEVEN = ["knight", "goblin", "undead", "dwarf", "doppelganger", "dragon", "troll"]  # a pair and 5 singles
GAMES: list[dict[str, Any]] = [
    {"kind": "claim", "seats": 2},
    {"kind": "claim2", "seats": 2},
    {"kind": "claim-mix", "seats": 3, "options": {"factions": SEVEN}},
    {"kind": "claim-mix", "seats": 4, "options": {"factions": SEVEN}},
    {"kind": "inheritors", "seats": 2},
    {"kind": "inheritors", "seats": 4},
]


class UnexpectedAnswer(Exception):
    """An answer whose status the operation does not document, or whose body did not parse into its model."""


def _parsed(response: Any, *ok: HTTPStatus) -> Any:
    if response.status_code not in ok or response.parsed is None:
        raise UnexpectedAnswer(f"{response.status_code}: {response.content[:300]!r}")
    return response.parsed


def play(client: Any, api: Any, models: Any, terms: dict[str, Any], rng: random.Random,
         timeout: float) -> dict[str, Any]:
    """Create one game against AI opponents and play random legal moves until it ends; a summary."""
    body = models.CreateGameRequest.from_dict({
        **terms, "days_per_move": 3,
        "opponents": [{"type": "ai", "level": 1} for _ in range(terms["seats"] - 1)],
    })
    game = _parsed(api.games_create.sync_detailed(client=client, body=body), HTTPStatus.CREATED)
    moves = 0
    deadline = time.monotonic() + timeout
    while game.status.value != "finished":
        if time.monotonic() > deadline:
            raise UnexpectedAnswer(f"game {game.id} did not end in {timeout:.0f} s (status {game.status.value})")
        if game.my_turn and game.legal_moves:
            move = rng.choice(game.legal_moves).to_dict()
            request = models.MoveRequest.from_dict({"version": game.version, "move": move})
            response = api.games_move.sync_detailed(game.id, client=client, body=request)
            if response.status_code == HTTPStatus.CONFLICT:  # the AI moved first: read again
                _parsed(response, HTTPStatus.CONFLICT)
            else:
                _parsed(response, HTTPStatus.CREATED)
                moves += 1
        else:
            time.sleep(0.1)  # an AI seat is thinking
        game = _parsed(api.games_retrieve.sync_detailed(game.id, client=client), HTTPStatus.OK)
    entries = 0
    while True:  # every page of the history, each entry parsed into its model
        page = _parsed(api.games_history.sync_detailed(game.id, client=client, limit=100, offset=entries),
                       HTTPStatus.OK)
        entries += len(page.results)
        if not page.results or entries >= page.count:
            break
    _parsed(api.games_record.sync_detailed(game.id, client=client), HTTPStatus.OK)
    result = game.result.to_dict() if game.result is not None else None
    return {"game": game.id, "kind": game.kind, "seats": len(game.seats), "my_moves": moves,
            "history_entries": entries, "result": result}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the server, e.g. https://claim.example.org")
    parser.add_argument("token", help="an API token with the games:play scope")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout", type=float, default=300, help="seconds a game may take")
    args = parser.parse_args(argv)
    # The generated package exists only where it was generated: imported at run time.
    generated = importlib.import_module("claim_client")
    models = importlib.import_module("claim_client.models")
    api = SimpleNamespace(**{name: importlib.import_module(f"claim_client.api.games.{name}")
                             for name in ("games_create", "games_move", "games_retrieve", "games_history",
                                          "games_record")})

    rng = random.Random(args.seed)
    failures = 0
    with generated.AuthenticatedClient(base_url=args.base.rstrip("/"), token=args.token, timeout=30) as client:
        for terms in GAMES:
            try:
                print(json.dumps(play(client, api, models, terms, rng, args.timeout)), flush=True)
            except UnexpectedAnswer as exc:
                failures += 1
                print(json.dumps({"kind": terms["kind"], "seats": terms["seats"], "error": str(exc)}), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
