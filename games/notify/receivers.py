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
from functools import reduce
from operator import or_
from typing import TYPE_CHECKING, Any

from django.db.models import Q, QuerySet

from games.models import GameEvent, Seat
from games.signals import Change, batched

from .service import notify_groups
from .texts import ai_seat, game_url, person, render, spec

if TYPE_CHECKING:
    from .service import Group, Item

log = logging.getLogger("games.notify")

#: Entries of an active game that may start someone's turn.
TURN_EVENTS = ("move", "joined", "ai_filled", "created", "timeout")


def _events(pairs: list[tuple[int, int]]) -> list[tuple[Any, ...]]:
    """The history entries of the ``(game, version)`` pairs, with their game's kind and current version (the
    query names the games and the versions; the pairs are picked here)."""
    wanted = set(pairs)
    rows = GameEvent.objects.filter(game_id__in={g for g, _ in pairs}, version__in={v for _, v in pairs}).order_by()
    return [row for row in rows.values_list("game", "version", "type", "seat", "game__kind", "game__version")
            if (row[0], row[1]) in wanted]


def _seats(games: list[int]) -> QuerySet:
    """Every seat of the games (the AI's too: the texts name the opponents), humans with their user's
    name and language, in seat order; :func:`_split` keeps the humans for who is told."""
    return Seat.objects.filter(game_id__in=games).order_by("game_id", "index").values_list(
        "game", "index", "user_id", "joined_at", "to_act", "outcome", "rank", "ai_level", "user__username",
        "user__display_name", "user__language", "user__is_active")


def _split(rows: list[tuple[Any, ...]]) -> tuple[list[tuple[Any, ...]], dict[int, dict[str, Any]], dict[int, str]]:
    """(the seated humans as ``(index, user id, joined_at, to_act, outcome, rank)``, who every seat is by index
    (``texts.person`` or ``texts.ai_seat``), each human's language by user id)."""
    humans, seat_names, languages = [], {}, {}
    for index, user_id, joined, to_act, outcome, rank, ai_level, username, display, language, _active in rows:
        if ai_level is not None:
            seat_names[index] = ai_seat(index)
        elif user_id is not None:
            seat_names[index] = person(display or username)
            languages[user_id] = language
            humans.append((index, user_id, joined, to_act, outcome, rank))
    return humans, seat_names, languages


def on_game_changes(changes: list[Change]) -> None:
    """The notifications of a batch of changes, exactly those of :func:`on_game_changed` called on each
    change in turn, in the same order."""
    pairs = list(dict.fromkeys((game_id, version) for game_id, version, _ in changes))
    if not pairs:
        return
    entries: dict[tuple[int, int], tuple[str, int | None, str]] = {}
    stale: dict[int, int] = {}  # game: its oldest version here that is not its current one
    for game_id, version, type_, actor, kind, now in _events(pairs):
        entries.setdefault((game_id, version), (type_, actor, kind))
        if version < now:
            stale[game_id] = min(version, stale.get(game_id, version))
    later = _later_turns(stale)
    todo = []  # (game id, status, entry type, actor seat, kind) of the changes that announce something
    for game_id, version, status in changes:
        entry = entries.get((game_id, version))
        if entry is None:
            continue
        type_, actor, kind = entry
        challenge = type_ == "created" and status == "open"
        if status == "active" and type_ in TURN_EVENTS and any(v > version for v in later.get(game_id, ())):
            continue  # a later turn of this game announces whose turn it is (the seats are read as they are now)
        if challenge or status == "finished" or (status == "active" and type_ in TURN_EVENTS):
            todo.append((game_id, status, type_, actor, kind))
    if not todo:
        return
    games = list(dict.fromkeys(game_id for game_id, *_ in todo))
    rows: dict[int, list[tuple[Any, ...]]] = {game_id: [] for game_id in games}
    for game_id, *seat in _seats(games):
        rows[game_id].append(tuple(seat))
    seats = {game_id: _split(rows[game_id]) for game_id in games}
    groups: list[Group] = []
    for game_id, status, type_, actor, kind in todo:
        groups.extend(_groups(game_id, status, type_, actor, kind, *seats[game_id]))
    # a disabled or deleted account (accounts.services.delete_account) is named in the texts, never told
    disabled = {seat[1] for game_rows in rows.values() for seat in game_rows if seat[1] is not None and not seat[-1]}
    if disabled:
        groups = [(event, game_id, [item for item in items if item[0] not in disabled])
                  for event, game_id, items in groups]
    notify_groups(groups)


def _later_turns(stale: dict[int, int]) -> dict[int, list[int]]:
    """The versions of the turn-starting entries after ``stale[game]`` of each game that moved on since
    (one query, only when a change is not its game's latest). A change with such a later entry told no
    one: the seats are read as they are now, so it would announce the later turn a second time (issue 21:
    two ``your_turn`` for one turn, from a join and a move dispatched in one batch)."""
    if not stale:
        return {}
    match = reduce(or_, (Q(game_id=game_id, version__gt=version) for game_id, version in stale.items()))
    out: dict[int, list[int]] = {}
    for game_id, version in GameEvent.objects.filter(match, type__in=TURN_EVENTS).values_list("game_id", "version"):
        out.setdefault(game_id, []).append(version)
    return out


@batched(on_game_changes)
def on_game_changed(sender: Any, game_id: int, version: int, status: str, **kwargs: Any) -> None:
    on_game_changes([(game_id, version, status)])


def _groups(game_id: int, status: str, type_: str, actor: int | None, kind: str, seats: list[tuple[Any, ...]],
            seat_names: dict[int, dict[str, Any]], languages: dict[int, str]) -> list[Group]:
    """The ``(event, game id, items)`` to send for one change (``notify_groups``), in order: each item in
    its recipient's language, naming the game and the other players, with the game's link, and what it says
    for any language (``texts.spec``: the inbox shows it in the reader's language of the moment)."""
    url = {"url": game_url(game_id)}

    def say(uid: int, index: int, title: str, body: str, **values: Any) -> Item:
        others = [ref for i, ref in sorted(seat_names.items()) if i != index]
        kept = spec(title, body, kind, game_id, others, seat_names.get(actor) if actor is not None else None)
        data = {**url, **values.pop("data", {})}
        return (uid, *render(languages.get(uid), kept), data, kept)

    if type_ == "created" and status == "open":
        invited = [say(uid, index, "challenge.title", "challenge.body")
                   for index, uid, joined, *_ in seats if joined is None]
        return [("challenge_received", game_id, invited)]
    if status == "finished":
        items = []
        for index, uid, _, _, outcome, rank in seats:
            title = {"win": "over.win", "loss": "over.loss", "draw": "over.draw"}.get(outcome, "over.other")
            items.append(say(uid, index, title, "over.body", data={"outcome": outcome, "rank": rank}))
        return [("game_over", game_id, items)]
    body = "your_turn.body" if type_ == "move" else "your_turn.body_start"
    # One your_turn per player and change, never one for the player who made it.
    turn = [say(uid, index, "your_turn.title", body)
            for index, uid, _, to_act, *_ in seats if index != actor and to_act]
    moved = [say(uid, index, "moved.title", "moved.body")
             for index, uid, _, to_act, *_ in seats if index != actor and not to_act] if type_ == "move" else []
    return [("your_turn", game_id, turn), ("opponent_moved", game_id, moved)]
