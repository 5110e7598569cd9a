"""What a tournament's followers are told (issue 36; docs/tournaments.md, "Notifications and live updates"): the
notifications of its entrants (in-app, Web Push, e-mail, in each one's language: :mod:`games.notify.texts`) and the
typed ``tournament`` events of their sockets and account streams, and of the sockets watching its page.

Each function runs after the commit of what it tells (:mod:`games.tournaments.receivers` registers it on commit) and
reads the committed rows. Public events (everything but ``new_game``) go once to every entrant's ``user.<id>`` group
and once to the watchers' group ``tournament.<id>`` under one ``key`` (a socket that is both forwards it once:
games/realtime/tournament_watch.py); ``new_game`` goes to the game's players only. A closed account is never told.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model

from games.notify import texts
from games.notify.service import Group, Item, notify_groups
from games.realtime.lifecycle import EVENT_MESSAGE
from games.realtime.publish import send_frames, send_to_groups, user_group
from games.realtime.tournament_watch import MESSAGE, tournament_group
from games.realtime.types import TournamentEvent, TournamentWhat

from .models import Bye, Entry, Tournament, TournamentGame

log = logging.getLogger("games.tournaments")


def frame(tournament_id: int, what: TournamentWhat, round_number: int | None = None,
          game_id: int | None = None) -> TournamentEvent:
    """``TournamentEvent``: ``{"type": "tournament", "tournament_id", "what", "round", "game_id"}``."""
    return {"type": "tournament", "tournament_id": tournament_id, "what": what, "round": round_number,
            "game_id": game_id}


def broadcast(tournament_id: int, event: TournamentEvent, user_ids: Sequence[int]) -> None:
    """A public event to the entrants ``user_ids`` and the tournament's watchers, under one key. Never raises."""
    key = uuid.uuid4().hex
    messages: list[tuple[str, dict[str, Any]]] = [
        (user_group(uid), {"type": EVENT_MESSAGE, "frame": event, "key": key}) for uid in dict.fromkeys(user_ids)]
    messages.append((tournament_group(tournament_id),
                     {"type": MESSAGE, "tournament_id": tournament_id, "frame": event, "key": key}))
    send_to_groups(messages, f"tournament {tournament_id} {event['what']}")


class _People:
    """The entrants of a tournament: ids in entry order, each one's language, name, whether they can be told
    (an open account) and whether they are still in (not withdrawn)."""

    def __init__(self, tournament_id: int) -> None:
        rows = list(Entry.objects.filter(tournament_id=tournament_id).order_by("pk").values_list(
            "user_id", "user__language", "user__username", "user__display_name", "user__is_active", "withdrawn_at"))
        self.ids = [r[0] for r in rows]
        self.language = {r[0]: r[1] for r in rows}
        self.name = {r[0]: r[3] or r[2] for r in rows}
        self.reachable = {r[0] for r in rows if r[4]}
        self.active = {r[0] for r in rows if r[4] and r[5] is None}


def _tournament(tournament_id: int) -> Tournament | None:
    return Tournament.objects.select_related("league_division__season__league").filter(pk=tournament_id).first()


def _item(t: Tournament, uid: int, language: str | None, title: str, body: str, data: dict[str, Any],
          **spec: Any) -> Item:
    kept = texts.tournament_spec(title, body, t.pk, t.name, division=t.division_of_league(), **spec)
    url = texts.game_url(spec["game_id"]) if spec.get("game_id") else texts.tournament_url(t.pk)
    return (uid, *texts.render(language, kept), {"url": url, "tournament_id": t.pk, **data}, kept)


def _names(people: _People, ids: Sequence[int]) -> dict[int, str]:
    """Names of the players ``ids`` (entrants' from ``people``, any other from one query)."""
    names = {uid: people.name[uid] for uid in ids if uid in people.name}
    missing = [uid for uid in ids if uid not in names]
    if missing:
        for pk, username, display in get_user_model().objects.filter(pk__in=missing).values_list(
                "pk", "username", "display_name"):
            names[pk] = display or username
    return names


# ----------------------------------------------------------------------------------------------- what is told

def starting_soon(tournament_id: int) -> None:
    """``starting_soon`` to the entrants and watchers; ``tournament_starting`` to the entrants."""
    t = _tournament(tournament_id)
    if t is None or t.status != Tournament.Status.OPEN or t.starts_at is None:
        return
    people = _People(t.pk)
    broadcast(t.pk, frame(t.pk, "starting_soon"), people.ids)
    at = t.starts_at.strftime("%Y-%m-%d %H:%M")
    items = [_item(t, uid, people.language[uid], "tstart.title", "tstart.body",
                   {"starts_at": t.starts_at.isoformat().replace("+00:00", "Z")}, at=at, players=len(people.ids))
             for uid in people.ids if uid in people.reachable]
    notify_groups([("tournament_starting", None, items)])


def started(tournament_id: int) -> None:
    """``started`` to the entrants and watchers (the first round's games and pairing are told on their own)."""
    t = _tournament(tournament_id)
    if t is None:
        return
    broadcast(t.pk, frame(t.pk, "started"), _People(t.pk).ids)


def round_paired(tournament_id: int, round_number: int, byes: Sequence[int] = ()) -> None:
    """``round_paired`` to the entrants and watchers; ``tournament_round`` to each player still in: their
    opponents, or their bye."""
    t = _tournament(tournament_id)
    if t is None:
        return
    people = _People(t.pk)
    broadcast(t.pk, frame(t.pk, "round_paired", round_number), people.ids)
    tables = list(TournamentGame.objects.filter(tournament=t, round=round_number).order_by("board")
                  .values_list("game_id", "players"))
    rested = set(byes) | set(Bye.objects.filter(tournament=t, round=round_number).values_list("user_id", flat=True))
    names = _names(people, [uid for _, players in tables for uid in players])
    items: list[Item] = []
    for game_id, players in tables:
        for uid in players:
            if uid in people.active:
                others = [texts.person(names.get(p, "")) for p in players if p != uid]
                items.append(_item(t, uid, people.language[uid], "tround.title", "tround.body_game",
                                   {"round": round_number, "game_id": game_id}, opponents=others,
                                   round=round_number))
    for uid in people.ids:
        if uid in rested and uid in people.active:
            items.append(_item(t, uid, people.language[uid], "tround.title", "tround.body_bye",
                               {"round": round_number, "bye": True}, round=round_number))
    notify_groups([("tournament_round", None, items)])


def games_created(tournament_id: int, round_number: int, games: Sequence[tuple[int, Sequence[int]]]) -> None:
    """``new_game`` to each player of each game (personal: not to the watchers); ``tournament_game``, one per game
    and player, linking the game."""
    t = _tournament(tournament_id)
    if t is None or not games:
        return
    people = _People(t.pk)
    send_frames([(uid, dict(frame(t.pk, "new_game", round_number, game_id)))
                 for game_id, players in games for uid in players], f"tournament {t.pk} new games")
    names = _names(people, [uid for _, players in games for uid in players])
    groups: list[Group] = []
    for game_id, players in games:
        items = [_item(t, uid, people.language.get(uid), "tgame.title", "tgame.body", {"round": round_number},
                       kind=t.kind, game_id=game_id, round=round_number,
                       opponents=[texts.person(names.get(p, "")) for p in players if p != uid])
                 for uid in players if uid in people.reachable]
        groups.append(("tournament_game", game_id, items))
    notify_groups(groups)


def standings_changed(tournament_id: int) -> None:
    """``standings`` to the entrants and watchers (``round``: the current round)."""
    t = _tournament(tournament_id)
    if t is None:
        return
    broadcast(t.pk, frame(t.pk, "standings", t.current_round or None), _People(t.pk).ids)


def finished(tournament_id: int) -> None:
    """``finished`` to the entrants and watchers; ``tournament_finished`` to every entrant: their place."""
    t = _tournament(tournament_id)
    if t is None:
        return
    people = _People(t.pk)
    broadcast(t.pk, frame(t.pk, "finished"), people.ids)
    places = {row["user_id"]: row["rank"] for row in t.standings or []}
    items = [_item(t, uid, people.language[uid], "tfinished.title", "tfinished.body", {"place": places[uid]},
                   place=places[uid], players=len(places))
             for uid in people.ids if uid in people.reachable and uid in places]
    notify_groups([("tournament_finished", None, items)])


def cancelled(tournament_id: int, reason: str, by: int | None = None) -> None:
    """``cancelled`` to the entrants and watchers; ``tournament_cancelled`` to the entrants (not to the creator who
    called it off)."""
    t = _tournament(tournament_id)
    if t is None:
        return
    people = _People(t.pk)
    broadcast(t.pk, frame(t.pk, "cancelled"), people.ids)
    body = "tcancelled.body_too_few" if reason == "too_few" else "tcancelled.body_creator"
    items = [_item(t, uid, people.language[uid], "tcancelled.title", body, {"reason": reason},
                   players=len(people.ids), needed=t.min_players)
             for uid in people.ids if uid in people.reachable and uid != by]
    notify_groups([("tournament_cancelled", None, items)])
