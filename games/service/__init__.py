"""The game service: plain functions, one transaction each, the game row locked (``SELECT ... FOR NO KEY UPDATE``).

Every change bumps ``Game.version`` by one, writes one public :class:`~games.models.GameEvent`, and on
commit sends ``games.signals.game_committed`` (the publisher and the background ``game_changed``
subscribe) and, when an AI seat must act, ``games.signals.ai_turn_due`` (the AI scheduler subscribes).
The service imports none of its subscribers. Nothing here special-cases a game kind: everything goes
through :mod:`games.rules.registry`.

``lock_game``, ``seats_of``, ``bump``, ``apply_result``, ``after_commit``, ``require_joined_seat`` and
``move_time`` are the building blocks of the transactions of the apps that extend a game (the clock app's
timeouts, +time and pauses), so that those work exactly like the service's own.
"""

from ._common import after_commit, bump, lock_game, move_time, seats_of
from .access import lock_joined_seat, require_joined_seat
from .errors import Blocked, Conflict, Forbidden, GameNotFound, IllegalMoveError, InvalidRequest, ServiceError
from .lifecycle import (
    accept_abort,
    adjudicate,
    create_game,
    fill_with_ai,
    is_tournament_game,
    join_game,
    offer_abort,
    rematch,
    resign,
)
from .moves import ReplayCheck, make_move, play_ai_turn, replay_log, replay_step, resume_ai_turns
from .payload import game_summary, game_view_payload, history_entry_payload, record_payload
from .queries import PublicRecord, history_for, inbox, public_record, replay_for, view_for
from .records import apply_result

__all__ = [
    "Blocked",
    "Conflict",
    "Forbidden",
    "GameNotFound",
    "IllegalMoveError",
    "InvalidRequest",
    "PublicRecord",
    "ReplayCheck",
    "ServiceError",
    "accept_abort",
    "adjudicate",
    "after_commit",
    "apply_result",
    "bump",
    "create_game",
    "fill_with_ai",
    "game_summary",
    "game_view_payload",
    "history_entry_payload",
    "history_for",
    "inbox",
    "is_tournament_game",
    "join_game",
    "lock_game",
    "lock_joined_seat",
    "make_move",
    "move_time",
    "offer_abort",
    "play_ai_turn",
    "public_record",
    "record_payload",
    "rematch",
    "replay_for",
    "replay_log",
    "replay_step",
    "require_joined_seat",
    "resign",
    "resume_ai_turns",
    "seats_of",
    "view_for",
]
