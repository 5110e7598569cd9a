"""Authorization matrix: every operation of the OpenAPI schema x every kind of caller, with the exact
status expected.

The operations are enumerated from the generated schema at collection time, so an endpoint added later
gets a failing ``no matrix row`` test until someone decides who may call it (add it to ``MATRIX``).

Callers (``ROLES``), in a world where ``alice`` plays an active Claim game against the bot account
``botty`` (and has an open game with an invitation code, a seek and a token):

* ``anonymous``  no credentials at all;
* ``other``      mallory, a full-scope token, not seated in alice's game;
* ``seat``       alice, the seat holder, with a full-scope token (games:read, games:play, account:read);
* ``session``    alice logged in with her password (the PWA: every scope, session-only endpoints allowed);
* ``noscope``    alice with a token that has no scope at all;
* ``bot``        botty (``is_bot``), seated in the game, with a ``bot:play`` token.

Set ``CLAIM_AUTHZ_DISCOVER=1`` to print the observed table instead of asserting (when adding rows).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiToken
from games.challenges.service import create as challenge
from games.clock.bookings import take_period
from games.seeks.models import Seek
from games.service import create_game, game_view_payload, join_game, make_move
from games.tournaments import league as leagues
from games.tournaments import service as tournaments

from .conftest import FULL_SCOPES, Operation, schema_operations

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "other", "seat", "session", "noscope", "bot")
PASSWORD = "Correct-horse-42"

# Cells the product gets wrong today: (operation_id, role) -> reason. The test for such a cell is a strict
# xfail, so it turns red as soon as the product is fixed (then delete the entry). None at the moment.
KNOWN_BUGS: dict[tuple[str, str], str] = {}


def row(anonymous: int, other: int, seat: int, session: int, noscope: int, bot: int) -> dict[str, int]:
    return dict(zip(ROLES, (anonymous, other, seat, session, noscope, bot), strict=True))


# Expected status per role. 401: no credentials. 403: authenticated but refused (scope, session required,
# not seated in a public game). 404: the game is invisible to the caller (same answer as no such game).
MATRIX: dict[str, dict[str, int]] = {
    # --- accounts ---------------------------------------------------------------------------------------
    "health_retrieve": row(200, 200, 200, 200, 200, 200),
    "accounts_csrf_retrieve": row(200, 200, 200, 200, 200, 200),
    "accounts_scopes_list": row(200, 200, 200, 200, 200, 200),
    "accounts_login_create": row(200, 200, 200, 200, 200, 200),
    "accounts_register_create": row(201, 201, 201, 201, 201, 201),
    "accounts_logout_create": row(204, 204, 204, 204, 204, 204),
    "accounts_me_retrieve": row(401, 200, 200, 200, 403, 200),  # bot:play of a bot account reads it (issue 26)
    "accounts_me_partial_update": row(401, 403, 403, 200, 403, 403),
    "accounts_password_change_create": row(401, 403, 403, 204, 403, 403),
    "accounts_password_reset_create": row(204, 204, 204, 204, 204, 204),
    "accounts_password_reset_confirm_create": row(400, 400, 400, 400, 400, 400),
    "accounts_tokens_list": row(401, 403, 403, 200, 403, 403),
    "accounts_tokens_create": row(401, 403, 403, 201, 403, 403),
    "accounts_tokens_destroy": row(401, 403, 403, 204, 403, 403),
    "accounts_bot_upgrade_create": row(401, 403, 403, 409, 403, 403),
    # OAuth (issue 26): session only; without an authorization request / an app of hers, 400 / 404.
    "accounts_oauth_apps_list": row(401, 403, 403, 200, 403, 403),
    "accounts_oauth_apps_destroy": row(401, 403, 403, 404, 403, 403),
    "oauth_authorize_retrieve": row(401, 403, 403, 400, 403, 403),
    "oauth_authorize_create": row(401, 403, 403, 400, 403, 403),
    # The OAuth server's own endpoints (django-oauth-toolkit): the caller's credentials play no part, a request
    # without its form fields is an OAuth error for everyone.
    "oauth_token": row(400, 400, 400, 400, 400, 400),
    "oauth_revoke_token": row(400, 400, 400, 400, 400, 400),
    # One's own data (issue 32): session only, like the tokens (the export lists them).
    "accounts_me_data_retrieve": row(401, 403, 403, 200, 403, 403),
    "accounts_me_data_section_retrieve": row(401, 403, 403, 200, 403, 403),
    "accounts_me_delete_create": row(401, 403, 403, 204, 403, 403),
    # --- games ------------------------------------------------------------------------------------------
    "games_list": row(401, 200, 200, 200, 403, 200),
    "games_create": row(401, 201, 201, 201, 403, 201),
    "games_join_by_code": row(401, 201, 200, 200, 403, 201),
    "games_retrieve": row(401, 404, 200, 200, 403, 200),
    "games_join": row(401, 404, 200, 200, 403, 200),
    "games_move": row(401, 404, 201, 201, 403, 409),
    "games_resign": row(401, 404, 200, 200, 403, 200),
    "games_abort": row(401, 404, 409, 409, 403, 409),  # a move was made: abort_not_allowed (past authz)
    "games_rematch": row(401, 404, 409, 409, 403, 409),
    "games_fill_ai": row(401, 404, 409, 409, 403, 403),  # under way: not_open; botty is seated, not its creator
    "games_history": row(401, 404, 200, 200, 403, 200),
    "games_record": row(401, 404, 409, 409, 403, 409),
    "games_replay": row(401, 404, 409, 409, 403, 409),
    "users_games_export": row(200, 200, 200, 200, 403, 200),  # finished games are public (issue 26)
    "invitations_retrieve": row(200, 200, 200, 200, 403, 200),  # an open invitation's preview is public (issue 33)
    "users_games_list": row(200, 200, 200, 200, 403, 200),  # a profile's finished games: public (issue 33)
    # --- watching (issue 35): public reads; alice's game (made by the service) is not watchable: 404 for all
    "games_watch": row(404, 404, 404, 404, 403, 404),
    "watch_list": row(200, 200, 200, 200, 403, 200),
    # --- table chat (issue 35): chat:read / chat:write, or bot:play on a bot account; mallory is no spectator --------
    "chat_phrases": row(401, 200, 200, 200, 403, 200),
    "chat_history": row(401, 404, 200, 200, 403, 200),
    # --- reviews (issue 37): alice's game is running (409 game_not_over: fair play), not watchable (404) ---------
    "games_review": row(401, 404, 409, 409, 403, 409),
    "games_review_request": row(401, 404, 409, 409, 403, 409),
    "chat_post": row(401, 404, 201, 201, 403, 201),
    "chat_read": row(401, 404, 200, 200, 403, 200),
    "reports_create": row(401, 400, 201, 201, 403, 201),  # mallory reporting herself: 400
    # --- follows, blocks, mutes, friends (issue 35): the social scope, not in bot:play; alice naming herself: 400 ---
    "users_follow": row(401, 200, 400, 400, 403, 403),
    "users_unfollow": row(401, 200, 400, 400, 403, 403),
    "users_block": row(401, 200, 400, 400, 403, 403),
    "users_unblock": row(401, 200, 400, 400, 403, 403),
    "users_mute": row(401, 200, 400, 400, 403, 403),
    "users_unmute": row(401, 200, 400, 400, 403, 403),
    "following_list": row(401, 200, 200, 200, 403, 403),
    "followers_list": row(401, 200, 200, 200, 403, 403),
    "blocks_list": row(401, 200, 200, 200, 403, 403),
    "mutes_list": row(401, 200, 200, 200, 403, 403),
    "friends_list": row(401, 200, 200, 200, 403, 403),
    "users_retrieve": row(200, 200, 200, 200, 403, 200),  # a public profile (games:read for tokens)
    # --- clock and vacation -------------------------------------------------------------------------------
    "games_clock_retrieve": row(401, 404, 200, 200, 403, 200),
    "games_clock_give_time_create": row(401, 404, 409, 409, 403, 200),  # alice is to act: only botty gives time
    "games_clock_pause_create": row(401, 404, 200, 200, 403, 200),
    "games_clock_resume_create": row(401, 404, 409, 409, 403, 409),
    "vacation_retrieve": row(401, 200, 200, 200, 403, 200),
    "vacation_partial_update": row(401, 200, 200, 200, 403, 200),
    "vacation_periods_create": row(401, 201, 201, 201, 403, 201),  # new accounts start with 7 days (issue 21)
    "vacation_periods_partial_update": row(401, 404, 200, 200, 403, 404),  # alice's period: 404 to anyone else
    "vacation_periods_destroy": row(401, 404, 200, 200, 403, 404),
    # --- seeks --------------------------------------------------------------------------------------------
    "seeks_retrieve": row(401, 200, 200, 200, 403, 200),
    "seeks_create": row(401, 201, 201, 201, 403, 201),
    "seeks_destroy": row(401, 404, 204, 204, 403, 404),
    "seeks_quick_create": row(401, 201, 201, 201, 403, 201),
    # the lobby (issue 33): alice may not join her own seek (own_seek); it does not welcome bots (not_compatible)
    "seeks_lobby": row(401, 200, 200, 200, 403, 200),
    "seeks_accept": row(401, 201, 409, 409, 403, 409),
    # --- bots (public) ---------------------------------------------------------------------------------
    "bots_online": row(200, 200, 200, 200, 200, 200),
    # --- ratings ------------------------------------------------------------------------------------------
    "ratings_me_retrieve": row(401, 200, 200, 200, 403, 200),
    "ratings_users_retrieve": row(401, 200, 200, 200, 403, 200),
    "leaderboards_retrieve": row(401, 200, 200, 200, 403, 200),
    "ratings_pools_list": row(401, 200, 200, 200, 403, 200),
    # --- notifications ------------------------------------------------------------------------------------
    "notifications_retrieve": row(401, 200, 200, 200, 403, 200),
    "notifications_read_create": row(401, 200, 200, 200, 403, 200),
    "notifications_deliveries_retrieve": row(401, 200, 200, 200, 403, 200),
    "notifications_preferences_retrieve": row(401, 200, 200, 200, 403, 200),
    "notifications_preferences_partial_update": row(401, 200, 200, 200, 403, 200),
    # a browser's Web Push: session only (a leaked token must not get the player's pushes sent to its own)
    "notifications_push_subscriptions_create": row(401, 403, 403, 201, 403, 403),
    "notifications_push_subscriptions_destroy": row(401, 403, 403, 204, 403, 403),
    # --- challenges (alice challenged botty) ------------------------------------------------------------
    "challenges_list": row(401, 200, 200, 200, 403, 200),
    "challenges_create": row(401, 201, 201, 201, 403, 201),
    "challenges_retrieve": row(401, 404, 200, 200, 403, 200),
    "challenges_accept": row(401, 404, 409, 409, 403, 200),  # alice may not accept her own: own_challenge
    "challenges_decline": row(401, 404, 409, 409, 403, 200),
    "challenges_cancel": row(401, 404, 200, 200, 403, 409),  # only the challenger cancels: not_challenger
    # --- tournaments (issue 36: alice created an open one and entered it; it takes no bots) -----------------
    "tournaments_list": row(401, 200, 200, 200, 403, 200),
    "tournaments_create": row(401, 201, 201, 201, 403, 201),
    "tournaments_retrieve": row(401, 200, 200, 200, 403, 200),
    "tournaments_join": row(401, 200, 200, 200, 403, 403),  # bots_not_allowed
    "tournaments_leave": row(401, 409, 200, 200, 403, 409),  # mallory and botty are not entered
    "tournaments_cancel": row(401, 403, 200, 200, 403, 403),  # only the creator: not_creator
    "tournaments_games": row(401, 200, 200, 200, 403, 200),
    # --- leagues (issue 36: alice created one and joined it; it takes no bots) ---------------------------------
    "leagues_list": row(401, 200, 200, 200, 403, 200),
    "leagues_create": row(401, 201, 201, 201, 403, 201),
    "leagues_retrieve": row(401, 200, 200, 200, 403, 200),
    "leagues_join": row(401, 200, 409, 409, 403, 403),  # alice is a member already; bots_not_allowed
    "leagues_leave": row(401, 409, 200, 200, 403, 409),  # mallory and botty are not members
}


@dataclass
class World:
    alice: Any
    botty: Any
    mallory: Any
    game: Any
    open_game: Any
    seek: Any
    token: Any
    clients: dict[str, APIClient] = field(default_factory=dict)
    challenge: Any = None
    period: Any = None
    tournament: Any = None
    league: Any = None


def _legal_move_for_alice(world: World) -> dict:
    view = game_view_payload(type(world.game).objects.get(pk=world.game.pk), world.alice)
    assert view["my_turn"]
    return {"version": view["version"], "move": view["legal_moves"][0], "client_id": "m1"}


# Request body per operation (None: no body). The path parameters are filled from the world.
BODIES: dict[str, Callable[[World], Any]] = {
    "accounts_login_create": lambda w: {"username": "alice", "password": PASSWORD},
    "accounts_register_create": lambda w: {"username": "newcomer", "password": "Fresh-basil-1234"},
    "accounts_me_partial_update": lambda w: {"display_name": "Alice A."},
    "accounts_password_change_create": lambda w: {"old_password": PASSWORD, "new_password": "Another-horse-77"},
    "accounts_password_reset_create": lambda w: {"email": "alice@example.org"},
    "accounts_password_reset_confirm_create": lambda w: {"uid": "MQ", "token": "bad-token",
                                                         "new_password": "Another-horse-77"},
    "accounts_tokens_create": lambda w: {"name": "cli", "scopes": ["games:read"]},
    "accounts_me_delete_create": lambda w: {"password": PASSWORD},
    "games_fill_ai": lambda w: {"seats": [{"index": 1, "level": 1}]},
    "games_create": lambda w: {"kind": "claim", "opponents": [{"type": "ai", "level": 1}]},
    "games_join_by_code": lambda w: {"code": w.open_game.invite_code},
    "games_join": lambda w: {},
    "games_move": _legal_move_for_alice,
    "vacation_partial_update": lambda w: {"auto_use": False},
    "vacation_periods_create": lambda w: {"start": "2027-03-01T00:00:00Z", "days": 1},
    "vacation_periods_partial_update": lambda w: {"days": 1},
    "seeks_create": lambda w: {"kind": "claim2", "days_per_move": 3, "rated": False},
    "seeks_quick_create": lambda w: {"kind": "claim2"},
    "challenges_create": lambda w: {"kind": "claim"},
    "tournaments_create": lambda w: {"name": "Cup", "kind": "claim", "format": "swiss", "rounds": 1, "max_players": 4,
                                     "time_control": {"type": "days", "days_per_move": 3}},
    "leagues_create": lambda w: {"name": "Ladder", "kind": "claim",
                                 "time_control": {"type": "days", "days_per_move": 3},
                                 "starts_at": (timezone.now() + timedelta(days=1)).isoformat()},
    "chat_post": lambda w: {"phrase": "good_luck"},
    "chat_read": lambda w: {"last_id": 0},
    "reports_create": lambda w: {"username": "mallory", "reason": "spam"},
    "notifications_read_create": lambda w: {"all": True},
    "notifications_preferences_partial_update": lambda w: {"email_digest": True},
    "notifications_push_subscriptions_create": lambda w: {"endpoint": "https://push.example.org/abc",
                                                          "keys": {"p256dh": "k", "auth": "a"}},
    "notifications_push_subscriptions_destroy": lambda w: {"endpoint": "https://push.example.org/abc"},
}


def _path(op: Operation, world: World) -> str:
    return (op.path.replace("{game_id}", str(world.game.pk))
            .replace("{token_id}", str(world.token.pk))
            .replace("{app_id}", "999999")
            .replace("{seek_id}", str(world.seek.pk))
            .replace("{username}", "alice")
            .replace("{code}", world.open_game.invite_code)
            .replace("{pool}", "claim")
            .replace("{section}", "games")
            .replace("{challenge_id}", str(world.challenge.pk if world.challenge else ""))
            .replace("{period_id}", str(world.period.pk if world.period else ""))
            .replace("{tournament_id}", str(world.tournament.pk if world.tournament else ""))
            .replace("{league_id}", str(world.league.pk if world.league else "")))


@pytest.fixture
def world(make_user) -> World:
    alice = make_user("alice")
    alice.email = "alice@example.org"
    alice.save(update_fields=["email"])
    botty = make_user("botty", is_bot=True)
    mallory = make_user("mallory")
    game = create_game(alice, "claim", opponents=[{"type": "user", "username": "botty"}], days_per_move=3)
    join_game(botty, game.pk)
    # A deterministic world whatever the (random) seed: a move was made and it is alice's turn.
    for i in range(10):
        aview = game_view_payload(type(game).objects.get(pk=game.pk), alice)
        if aview["my_turn"] and aview["move_count"] > 0:
            break
        player = alice if aview["my_turn"] else botty
        view = aview if player is alice else game_view_payload(type(game).objects.get(pk=game.pk), botty)
        make_move(player, game.pk, view["version"], view["legal_moves"][0], client_id=f"setup{i}")
    open_game = create_game(alice, "claim2", opponents=[{"type": "open"}])
    seek = Seek.objects.create(user=alice, kind="claim", options={}, seats=2, days_per_move=3, rated=False)
    token, seat_plain = ApiToken.issue(alice, "seat", FULL_SCOPES)
    _, noscope_plain = ApiToken.issue(alice, "noscope", [])
    _, other_plain = ApiToken.issue(mallory, "other", FULL_SCOPES)
    _, bot_plain = ApiToken.issue(botty, "bot", ["bot:play"])
    clients = {role: APIClient() for role in ROLES}
    for role, plain in (("seat", seat_plain), ("noscope", noscope_plain), ("other", other_plain),
                        ("bot", bot_plain)):
        clients[role].credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
    clients["session"].force_login(alice)
    game.refresh_from_db()


    period = take_period(alice, timezone.now() + timedelta(days=30), 2)  # alice's: shortened, cancelled
    cup = tournaments.create(alice, name="Cup", kind="claim", format="swiss", rounds=1, max_players=8,
                             time_control={"type": "days", "days_per_move": 3},
                             starts_at=timezone.now() + timedelta(days=1))
    tournaments.join(alice, cup.pk)
    ladder = leagues.create(alice, name="Ladder", kind="claim", time_control={"type": "days", "days_per_move": 3},
                            starts_at=timezone.now() + timedelta(days=1))
    leagues.join(alice, ladder.pk)
    return World(alice, botty, mallory, game, open_game, seek, token, clients,
                 challenge=challenge(alice, to="botty", kind="claim"), period=period, tournament=cup, league=ladder)


OPERATIONS = schema_operations()
DISCOVER = os.environ.get("CLAIM_AUTHZ_DISCOVER") == "1"


def _cells():
    for op in OPERATIONS:
        for role in ROLES:
            marks = []
            reason = KNOWN_BUGS.get((op.operation_id, role))
            if reason and not DISCOVER:
                marks.append(pytest.mark.xfail(strict=True, reason=reason))
            yield pytest.param(op, role, id=f"{op.label} | {role}", marks=marks)


def test_every_schema_operation_has_a_matrix_row():
    missing = [f"{op.label} ({op.operation_id})" for op in OPERATIONS if op.operation_id not in MATRIX]
    assert not missing, "endpoints without an authorization matrix row (add them to MATRIX): " + ", ".join(missing)
    stale = sorted(set(MATRIX) - {op.operation_id for op in OPERATIONS})
    assert not stale, f"matrix rows for operations no longer in the schema: {stale}"


def test_matrix_covers_the_endpoints_the_docs_promise():
    """The schema really is the list of endpoints: the core game and account routes are in it."""
    ids = {op.operation_id for op in OPERATIONS}
    for must in ("games_move", "games_retrieve", "games_record", "accounts_tokens_create", "accounts_me_retrieve"):
        assert must in ids


def _content(response: Any) -> bytes:
    """The body, also of a streamed answer (the export)."""
    return response.getvalue() if response.streaming else response.content


@pytest.mark.parametrize(("op", "role"), list(_cells()))
def test_authorization(op: Operation, role: str, world: World, django_capture_on_commit_callbacks):
    expected_row = MATRIX.get(op.operation_id)
    if expected_row is None:
        pytest.fail(f"no matrix row for {op.label} ({op.operation_id}): add it to MATRIX")
    client = world.clients[role]
    body_fn = BODIES.get(op.operation_id)
    body = body_fn(world) if body_fn else None
    path = _path(op, world)
    with django_capture_on_commit_callbacks(execute=True):
        kwargs: dict[str, Any] = {"format": "json"} if body is not None else {}
        response = getattr(client, op.method.lower())(path, body, **kwargs) if body is not None else \
            getattr(client, op.method.lower())(path)
    status = response.status_code
    if DISCOVER:
        with open(os.environ.get("CLAIM_AUTHZ_DISCOVER_FILE", "/dev/stdout"), "a") as out:
            out.write(f"MATRIX {op.operation_id} {role} {status} {_content(response)[:160]!r}\n")
        return
    expected = expected_row[role]
    detail = _content(response)[:300]
    assert status == expected, f"{op.label} as {role}: got {status}, expected {expected}: {detail!r}"
    assert status < 500
    if status == 401:
        assert response.json()["error"]["code"] in ("not_authenticated", "authentication_failed")
    if status == 403 and role == "noscope" and op.operation_id.startswith("games_"):
        assert response.json()["error"]["code"] == "insufficient_scope"
    if status == 404 and role in ("other",) and "{game_id}" in op.path:
        # an invisible game looks exactly like a missing one
        missing = getattr(client, op.method.lower())(path.replace(str(world.game.pk), "999999999"),
                                                     body, format="json")
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == response.json()["error"]["code"]
