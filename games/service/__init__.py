"""The game service: plain functions, one transaction each, the game row locked (``SELECT ... FOR UPDATE``).

Every change bumps ``Game.version`` by one, writes one public :class:`~games.models.GameEvent`, and on
commit publishes the new version (``games.realtime.publish.publish_game_update``) and, when an AI seat
must act, enqueues :func:`games.tasks.play_ai_turn_task` for that version.
Nothing here special-cases a game kind: everything goes through :mod:`games.rules.registry`.
"""

from .errors import Conflict, Forbidden, GameNotFound, IllegalMoveError, InvalidRequest, ServiceError
from .lifecycle import accept_abort, create_game, join_game, offer_abort, rematch, resign
from .moves import ReplayCheck, make_move, play_ai_turn, replay_log, replay_step, resume_ai_turns
from .payload import game_summary, game_view_payload, history_entry_payload, record_payload
from .queries import history_for, inbox, record_for, replay_for, view_for

__all__ = [
    "Conflict",
    "Forbidden",
    "GameNotFound",
    "IllegalMoveError",
    "InvalidRequest",
    "ReplayCheck",
    "ServiceError",
    "accept_abort",
    "create_game",
    "game_summary",
    "game_view_payload",
    "history_entry_payload",
    "history_for",
    "inbox",
    "join_game",
    "make_move",
    "offer_abort",
    "play_ai_turn",
    "record_for",
    "record_payload",
    "rematch",
    "replay_for",
    "replay_log",
    "replay_step",
    "resign",
    "resume_ai_turns",
    "view_for",
]
