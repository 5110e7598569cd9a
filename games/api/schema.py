"""OpenAPI examples and error responses shared by the game endpoints."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from games.rules.claim import CLAIM

from .serializers import GameErrorSerializer

SEATS_EXAMPLE = [
    {"index": 0, "type": "user", "username": "ada", "name": "Ada", "is_bot": False, "ai_level": None,
     "ai_name": None, "rating": None, "joined": True, "to_act": True, "abort_offered": False, "outcome": None,
     "rank": None, "you": True},
    {"index": 1, "type": "ai", "username": None, "name": "Boris (AI)", "is_bot": True, "ai_level": 2,
     "ai_name": "Knight", "rating": None, "joined": True, "to_act": False, "abort_offered": False,
     "outcome": None, "rank": None, "you": False},
]


def _example_position() -> tuple[dict[str, object], list[object], dict[str, object], list[object]]:
    """A real position of the examples (the engine's own JSON, so they are what the schema says): Claim with two
    seats, the first deal that seat 1 leads, after its first card; seat 0's view and legal moves, and the events."""
    seed = next(s for s in range(100) if CLAIM.to_act(CLAIM.setup(None, 2, s)) == {1})
    state = CLAIM.setup(None, 2, seed)
    state, events = CLAIM.apply(state, 1, CLAIM.legal_moves(state, 1)[0])
    return CLAIM.normalize_options(None, 2), list(CLAIM.legal_moves(state, 0)), dict(CLAIM.view(state, 0)), list(events)


EXAMPLE_OPTIONS, EXAMPLE_LEGAL_MOVES, EXAMPLE_VIEW, EXAMPLE_EVENTS = _example_position()
LINKS_EXAMPLE = {
    "self": "/api/v1/games/42", "moves": "/api/v1/games/42/moves", "history": "/api/v1/games/42/history",
    "record": "/api/v1/games/42/record", "replay": "/api/v1/games/42/replay",
}
GAME_VIEW_EXAMPLE = {
    "id": 42, "kind": "claim", "title": "Claim",
    "options": EXAMPLE_OPTIONS,
    "status": "active", "version": 3, "move_count": 1, "seats": SEATS_EXAMPLE, "my_seat": 0, "creator_seat": 0,
    "to_act": [0],
    "my_turn": True, "legal_moves": EXAMPLE_LEGAL_MOVES,
    "deadline": "2026-12-02T10:00:00Z",
    "time_control": {"type": "correspondence", "days_per_move": 3, "initial_seconds": None,
                     "increment_seconds": None, "cap_seconds": None, "description": "3 days per move"},
    "clock": {"deadline": "2026-12-02T10:00:00Z", "paused": False, "paused_at": None, "pause_requests": [],
              "seats": [{"index": 0, "running": True, "deadline": "2026-12-02T10:00:00Z", "left_seconds": None},
                        {"index": 1, "running": False, "deadline": None, "left_seconds": None}]},
    "rated": False,
    "view": EXAMPLE_VIEW,
    "last_events": {"version": 3, "type": "move", "seat": 1, "events": EXAMPLE_EVENTS},
    "result": None, "ended_reason": None, "can_abort": False, "invite_code": None, "rematch_of": None,
    "rematch": None, "rematch_offer": None, "created_at": "2026-11-29T10:00:00Z", "updated_at": "2026-11-29T10:05:00Z",
    "links": LINKS_EXAMPLE,
}
GAME_VIEW_EXAMPLES = [OpenApiExample("Your view of a game", value=GAME_VIEW_EXAMPLE, response_only=True)]
BANK_VIEW_EXAMPLE = {
    **GAME_VIEW_EXAMPLE,
    "deadline": "2026-12-02T10:05:00Z",
    "time_control": {"type": "bank", "days_per_move": None, "initial_seconds": 259200, "increment_seconds": 86400,
                     "cap_seconds": 604800, "description": "3 days + 1 day per move (at most 7 days)"},
    "clock": {"deadline": "2026-12-02T10:05:00Z", "paused": False, "paused_at": None, "pause_requests": [],
              "seats": [{"index": 0, "running": True, "deadline": "2026-12-02T10:05:00Z", "left_seconds": None},
                        {"index": 1, "running": False, "deadline": None, "left_seconds": 327600}]},
}
BANK_VIEW_EXAMPLES = [OpenApiExample("A game with a bank clock", value=BANK_VIEW_EXAMPLE, response_only=True)]


def error(description: str, code: str, message: str, **extra) -> OpenApiResponse:
    return OpenApiResponse(
        GameErrorSerializer, description=description,
        examples=[OpenApiExample(code, value={"error": {"code": code, "message": message, **extra}},
                                 response_only=True)],
    )


def errors(description: str, *cases: tuple[str, str]) -> OpenApiResponse:
    return OpenApiResponse(
        GameErrorSerializer, description=description,
        examples=[OpenApiExample(code, value={"error": {"code": code, "message": message}}, response_only=True)
                  for code, message in cases],
    )


E400 = error("Invalid request: field messages under `fields`.", "invalid", "kind: This field is required.",
             fields={"kind": ["This field is required."]})
E401 = error("No or bad credentials.", "not_authenticated", "Authentication credentials were not provided.")
E403_DESCRIPTION = "Missing token scope, or you are not (yet) a player of this game."
E403_CASES = (("insufficient_scope", "This token lacks the scope: games:play (or bot:play for a bot account)."),
              ("not_seated", "You are not seated in this game."),
              ("not_joined", "You are invited to this game: join it first."))
E403 = errors(E403_DESCRIPTION, *E403_CASES)


def e403_blocked(message: str) -> OpenApiResponse:
    """The standard 403 with an example of ``blocked`` (issue 35: a block between you and the other player,
    either way; the message never says who blocked whom)."""
    return errors(E403_DESCRIPTION, *E403_CASES, ("blocked", message))
E404 = error("No such game, or the game is private (open, active and aborted games are visible to their "
             "players only).", "not_found", "No such game (or it is not visible to you).")
E429 = error("Rate limit exceeded; the `Retry-After` header says how many seconds to wait.", "throttled",
             "Request was throttled. Expected available in 12 seconds.", retry_after=12)
STANDARD = {401: E401, 403: E403, 404: E404, 429: E429}

