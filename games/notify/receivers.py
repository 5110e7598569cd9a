"""Turns game changes into notifications: challenge_received, your_turn, opponent_moved, game_over.

Runs in the background task after every committed version, so it is kept cheap, and works on the task's
whole batch of changes at once (:func:`on_game_changes`, the ``game_changed`` batch handler; the
per-change receiver :func:`on_game_changed` is a batch of one): the history entries of all the batch's
versions (with their games' kind) in one query, the seated humans of all its games in one query; then
:func:`games.notify.service.notify_groups` drops the users looking at their game with one cache round
trip for all, reads the channels of the others in one query and writes every notification in one
INSERT. A batch of moves watched by everyone they concern costs two queries and sends nothing.

Each change is handled as on its own: its history entry decides what it announces, and the seats as
they are now decide who is told what, so a version seen twice is announced twice, as before.
"""

from __future__ import annotations

import logging
from typing import Any

from claim.rowsql import ValuesSelect
from games.models import GameEvent, Seat
from games.signals import Change, batched

log = logging.getLogger("games.notify")

# The receiver's two SELECTs, written once per number of changes (claim/rowsql.py): the versions'
# history entries with their game's kind, and the seated humans of the games in seat order.
_EVENTS: dict[int, ValuesSelect] = {}
_HUMAN_SEATS: dict[int, ValuesSelect] = {}

#: Entries of an active game that may start someone's turn.
TURN_EVENTS = ("move", "joined", "created", "timeout")


def _events(pairs: int) -> ValuesSelect:
    select = _EVENTS.get(pairs)
    if select is None:
        where = " OR ".join(["(t0.game_id = %s AND t0.version = %s)"] * pairs)
        select = _EVENTS[pairs] = ValuesSelect(GameEvent, ["game", "version", "type", "seat", "game__kind"],
                                               where=where)
    return select


def _human_seats(games: int) -> ValuesSelect:
    select = _HUMAN_SEATS.get(games)
    if select is None:
        where = f"t0.game_id IN ({', '.join(['%s'] * games)}) AND t0.user_id IS NOT NULL AND t0.ai_level IS NULL"
        select = _HUMAN_SEATS[games] = ValuesSelect(
            Seat, ["game", "index", "user_id", "joined_at", "to_act", "outcome", "rank"], where=where,
            order_by='t0.game_id, t0."index"')
    return select


def on_game_changes(changes: list[Change]) -> None:
    """The notifications of a batch of changes, exactly those of :func:`on_game_changed` called on each
    change in turn, in the same order."""
    from .service import notify_groups

    pairs = list(dict.fromkeys((game_id, version) for game_id, version, _ in changes))
    if not pairs:
        return
    entries: dict[tuple[int, int], tuple[str, int | None, str]] = {}
    for game_id, version, type_, actor, kind in _events(len(pairs)).rows([x for pair in pairs for x in pair]):
        entries.setdefault((game_id, version), (type_, actor, kind))
    todo = []  # (game id, status, entry type, actor seat, kind) of the changes that announce something
    for game_id, version, status in changes:
        entry = entries.get((game_id, version))
        if entry is None:
            continue
        type_, actor, kind = entry
        challenge = type_ == "created" and status == "open"
        if challenge or status == "finished" or (status == "active" and type_ in TURN_EVENTS):
            todo.append((game_id, status, type_, actor, kind))
    if not todo:
        return
    games = list(dict.fromkeys(game_id for game_id, *_ in todo))
    seats: dict[int, list[tuple[Any, ...]]] = {game_id: [] for game_id in games}
    for game_id, *seat in _human_seats(len(games)).rows(games):
        seats[game_id].append(tuple(seat))
    creators = {_creator(seats[game_id], actor) for game_id, status, type_, actor, _ in todo
                if type_ == "created" and status == "open"}
    names = _names(creators - {None})
    groups = []
    for game_id, status, type_, actor, kind in todo:
        groups.extend(_groups(game_id, status, type_, actor, kind, seats[game_id], names))
    notify_groups(groups)


@batched(on_game_changes)
def on_game_changed(sender: Any, game_id: int, version: int, status: str, **kwargs: Any) -> None:
    on_game_changes([(game_id, version, status)])


def _groups(game_id: int, status: str, type_: str, actor: int | None, kind: str, seats: list[tuple[Any, ...]],
            names: dict[int, str]) -> list[tuple[str, int, list[Any]]]:
    """The ``(event, game id, items)`` to send for one change (``notify_groups``), in order."""
    title = f"Game {game_id} ({kind})"
    if type_ == "created" and status == "open":
        name = names.get(_creator(seats, actor), "Someone")
        invited = [(uid, f"{name} challenges you", f"{title}: accept or decline.", None)
                   for _, uid, joined, *_ in seats if joined is None]
        return [("challenge_received", game_id, invited)]
    if status == "finished":
        items = []
        for _, uid, _, _, outcome, rank in seats:
            said = {"win": "You won", "loss": "You lost", "draw": "Draw"}.get(outcome, "Game over")
            items.append((uid, f"{said}: {title}", "The game is over.", {"outcome": outcome, "rank": rank}))
        return [("game_over", game_id, items)]
    turn = [(uid, f"Your turn: {title}", "It is your move.", None)
            for index, uid, _, to_act, *_ in seats if index != actor and to_act]
    moved = [(uid, f"Move in {title}", "An opponent moved.", None)
             for index, uid, _, to_act, *_ in seats if index != actor and not to_act] if type_ == "move" else []
    return [("your_turn", game_id, turn), ("opponent_moved", game_id, moved)]


def _creator(seats: list[tuple[Any, ...]], actor: int | None) -> int | None:
    """The user id of the seat that created the game, if it is a seated human."""
    return next((s[1] for s in seats if s[0] == actor), None)


def _names(user_ids: set[int]) -> dict[int, str]:
    """The public names of the challengers (one query, only for challenges)."""
    if not user_ids:
        return {}
    from django.contrib.auth import get_user_model

    return {user.pk: user.public_name for user in get_user_model().objects.filter(pk__in=user_ids)}
