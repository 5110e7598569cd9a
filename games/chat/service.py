"""Table chat and reports (issue 35; docs/api.md, "Chat"): who may read and write which room (games/chat/access.py),
history pages, posting a line (with its pushes and notifications on commit), read markers, reports and the
operator's hiding of lines.

Every query is bounded by one game's rooms through the ``(game, room, id)`` index, by a page, or by a game's
seats (at most four players); none reads a user's whole history.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, IntegerField, Max, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext

from accounts.lookup import no_player_called
from accounts.relations import blocked_among, muted_among
from games.models import Game, Seat
from games.notify import service as notify
from games.notify import texts as notify_texts
from games.notify.models import Notification
from games.service import ServiceError
from games.service import queries as service_queries
from games.service import records as service_records
from games.service._common import seats_of
from games.service.access import departed
from games.service.errors import Conflict, Forbidden, GameNotFound, InvalidRequest
from games.spectate.access import may_watch

from . import events, phrases
from .models import ChatMessage, ChatRead, Report
from .payload import line
from .textcheck import problem

PLAYERS, SPECTATORS = ChatMessage.Room.PLAYERS, ChatMessage.Room.SPECTATORS
PAGE_DEFAULT, PAGE_MAX = 50, 100
#: The record's chat: at most this many of the last lines of each room.
RECORD_MAX = 1000
#: Unread counts stop at this (the inbox shows "99+").
UNREAD_CAP = 100


# --------------------------------------------------------------------------------------------- access

class Place:
    """What ``user`` is at ``game``: a player, a spectator, or (a finished game) a reader of its public chat."""

    def __init__(self, game: Game, seats: list[Seat], user: Any) -> None:
        self.game, self.seats, self.user = game, seats, user
        seat = next((s for s in seats if s.user_id == user.pk), None)
        self.player = (seat is not None and seat.joined_at is not None) or (seat is None and departed(game, user))
        self.invited = seat is not None and seat.joined_at is None
        self.spectator = not self.player and not self.invited and may_watch(game, user, seats)
        self.ended = game.is_over

    def human_ids(self) -> list[int]:
        """The users seated in the game (departed players are not seated any more)."""
        return [s.user_id for s in self.seats if s.user_id is not None and s.joined_at is not None]

    def may_read(self, room: str) -> bool:
        if room == PLAYERS:
            return self.player or (self.ended and (self.spectator or self.game.status == Game.Status.FINISHED))
        if self.player:
            return self.ended
        return self.spectator or self.game.status == Game.Status.FINISHED


def _place(user: Any, game_id: int) -> Place:
    """The game (404 when the user may not see it at all, with the same words as "no such game")."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound()
    place = Place(game, seats_of(game), user)
    if not (place.player or place.invited or place.spectator or game.status == Game.Status.FINISHED):
        raise GameNotFound()
    return place


def _room(room: str | None, place: Place) -> str:
    if room is None:
        return PLAYERS if place.player or place.invited else SPECTATORS
    return room


# --------------------------------------------------------------------------------------------- reading

def history(user: Any, game_id: int, room: str | None, before: int | None, limit: int) -> dict[str, Any]:
    """``ChatPage``: up to ``limit`` lines of ``room`` older than ``before`` (the newest when None), oldest first,
    and ``before`` for the next older page (null when there is none). Hidden lines and those of authors the reader
    muted or has a block with are left out. One range of the ``(game, room, id)`` index, plus the relations of the
    page's authors (one query)."""
    place = _place(user, game_id)
    room = _room(room, place)
    if not place.may_read(room):
        raise Forbidden(_closed_reading(room, place), code="not_a_player" if room == PLAYERS else "chat_closed")
    limit = max(1, min(limit, PAGE_MAX))
    rows = ChatMessage.objects.filter(game_id=game_id, room=room, hidden=False)
    if before is not None:
        rows = rows.filter(id__lt=before)
    page = list(rows.select_related("author").order_by("-id")[:limit + 1])
    more = len(page) > limit
    page = page[:limit]
    hidden = muted_among(user.pk, {m.author_id for m in page})
    results = [line(m, user.language) for m in reversed(page) if m.author_id not in hidden]
    return {"results": results, "before": page[-1].pk if more and page else None}


def _closed_reading(room: str, place: Place) -> str:
    if room == PLAYERS:
        return gettext("Only the players read their room while the game is on; spectators read it after the end.")
    return gettext("The spectators' room opens to the players when the game ends.")


# --------------------------------------------------------------------------------------------- writing

def post(user: Any, game_id: int, room: str | None, phrase: str | None, text: str | None) -> dict[str, Any]:
    """Write one line (the checks of docs/api.md, "Chat", in that order); its ``ChatLine`` in the author's
    language. The pushes and notifications go on commit (:func:`_deliver`)."""
    if (phrase is None) == (text is None):
        raise InvalidRequest(gettext("Send either a quick phrase (phrase) or free text (text), not both or "
                                     "neither."))
    if phrase is not None and phrase not in phrases.CODES:
        raise InvalidRequest(gettext("Unknown phrase {phrase}; the phrases are: {codes}.").format(
            phrase=repr(phrase[:40]), codes=", ".join(phrases.CODES)), field="phrase")
    if text is not None:
        text = text.strip()
        why = problem(text)
        if why is not None:
            raise InvalidRequest(why, field="text")
    place = _place(user, game_id)
    game = place.game
    room = _room(room, place)
    if user.chat_banned:
        raise Forbidden(gettext("An operator has taken away your chat: you can no longer write in any game."),
                        code="chat_banned")
    if game.status == Game.Status.ABORTED and game.started_at is None:
        raise Conflict(gettext("This game was aborted before it started: its chat is closed."), code="chat_closed")
    if room == PLAYERS:
        if place.spectator:
            raise Conflict(gettext("Spectators never write in the players' room; write in the spectators' room."),
                           code="chat_closed")
        if not place.player:
            raise Forbidden(gettext("Only the players of this game write in its players' room: join the game first.")
                            if place.invited else gettext("Only the players of this game write in its players' room."),
                            code="not_a_player")
        humans = place.human_ids()
        if len(humans) == 2 and blocked_among(user.pk, humans):
            raise Forbidden(gettext("You cannot chat with this player."), code="blocked")
    else:
        if place.player and not place.ended:
            raise Conflict(gettext("Players write in the players' room; the spectators' room opens to them after "
                                   "the end."), code="chat_closed")
        if not place.player and not place.spectator:
            if place.invited:
                raise Forbidden(gettext("Join the game first."), code="not_a_player")
            raise GameNotFound()
    msg = ChatMessage.objects.create(game=game, author=user, room=room, phrase=phrase, text=text)
    msg.author = user
    transaction.on_commit(lambda: _deliver(msg, place), robust=True)
    return line(msg, user.language)


def _deliver(msg: ChatMessage, place: Place) -> None:
    """The ``chat`` frames (each recipient's language; none to a recipient who muted the author or has a block
    with them) and, for the players' room, the ``chat_message`` notifications. Best effort: never raises."""
    try:
        events.send_chat(msg, _recipients(msg, place))
        if msg.room == PLAYERS:
            _notify(msg, place)
    except Exception:
        events.log.warning("chat %s: delivery failed", msg.pk, exc_info=True)


def _recipients(msg: ChatMessage, place: Place) -> dict[int, str]:
    """The players who get the line on their sockets, with their language: all of them for the players' room,
    after the end for the spectators' room; the author's own other sockets too. At most four relation queries."""
    if msg.room == SPECTATORS and not place.ended:
        ids = [msg.author_id] if place.player else []
    else:
        ids = list(dict.fromkeys([*place.human_ids(), msg.author_id])) if place.player or place.ended else []
    if place.spectator and msg.author_id not in ids:
        ids.append(msg.author_id)
    keep = [uid for uid in ids if uid == msg.author_id or not muted_among(uid, [msg.author_id])]
    return dict(get_user_model().objects.filter(pk__in=keep, is_active=True).values_list("pk", "language"))


def _notify(msg: ChatMessage, place: Place) -> None:
    """``chat_message`` to the other players (not to those who have the game open: games.notify drops them, nor to
    those who muted the author), once until they read it: a player with an unread ``chat_message`` of this game
    gets no second one (one query on the game's notifications)."""
    others = [uid for uid in place.human_ids() if uid != msg.author_id]
    others = [uid for uid in others if not muted_among(uid, [msg.author_id])]
    if not others:
        return
    waiting = set(Notification.objects.filter(user_id__in=others, game_id=msg.game_id, event="chat_message",
                                              read_at__isnull=True).values_list("user_id", flat=True))
    others = [uid for uid in others if uid not in waiting]
    if not others:
        return
    game = msg.game
    languages = dict(get_user_model().objects.filter(pk__in=others, is_active=True).values_list("pk", "language"))
    author = notify_texts.person(msg.author.public_name)
    items: list[notify.Item] = []
    for uid, language in languages.items():
        kept = notify_texts.spec("chat.title", "chat.body", game.kind, game.pk, [], author)
        title, body = notify_texts.render(language, kept)
        items.append((uid, title, body, {"url": notify_texts.chat_url(game.pk), "message_id": msg.pk}, kept))
    notify.notify_many("chat_message", game.pk, items)


def mark_read(user: Any, game_id: int, last_id: int) -> dict[str, Any]:
    """Move the player's read marker of the players' room to ``last_id`` (never back); ``{"last_id",
    "unread_chat"}``."""
    place = _place(user, game_id)
    if not place.player:
        raise Forbidden(gettext("Only the players of this game keep a read marker of its chat."), code="not_a_player")
    newest = ChatMessage.objects.filter(game_id=game_id, room=PLAYERS).aggregate(m=Max("id"))["m"] or 0
    last_id = max(0, min(last_id, newest))
    marker, _ = ChatRead.objects.get_or_create(user=user, game_id=game_id)
    if last_id > marker.last_id:
        ChatRead.objects.filter(pk=marker.pk, last_id__lt=last_id).update(last_id=last_id)
        marker.last_id = last_id
    return {"last_id": marker.last_id, "unread_chat": unread_counts(user, [place.game]).get(game_id, 0)}


# --------------------------------------------------------------------------------------------- inbox and record

def unread_counts(user: Any, games: list[Game]) -> dict[int, int]:
    """``unread_chat`` of a page of the inbox: per game, the lines of others in the players' room after the user's
    read marker, hidden lines and those of authors the user muted or has a block with left out.

    How it scales: three queries for the whole page, whatever its size (≤ 200 games) and the user's history:
    the page's seats (the authors who can write there), the relations among them (``muted_among``), and one
    statement that counts, for each game of the page, the ``(game, room, id)`` index range after the marker,
    stopping at :data:`UNREAD_CAP` lines (a ``LIMIT`` in a correlated subquery): at most ``page size * 100``
    index entries."""
    ids = [g.pk for g in games]
    if not ids:
        return {}
    authors = set(Seat.objects.filter(game_id__in=ids, user__isnull=False).exclude(user_id=user.pk)
                  .values_list("user_id", flat=True))
    left_out = muted_among(user.pk, authors) | {user.pk}
    marker = ChatRead.objects.filter(user_id=user.pk, game_id=OuterRef("game_id")).values("last_id")[:1]
    unread = (ChatMessage.objects.filter(game_id=OuterRef("pk"), room=PLAYERS, hidden=False)
              .exclude(author_id__in=left_out)
              .filter(id__gt=Coalesce(Subquery(marker), 0))
              .order_by().values("id")[:UNREAD_CAP])
    rows = Game.objects.filter(pk__in=ids).annotate(n=_CountOf(unread)).values_list("pk", "n")
    return dict(rows)


class _CountOf(Subquery):
    """``(SELECT count(*) FROM (<subquery>))``: the number of rows of a (sliced) subquery."""

    template = "(SELECT count(*) FROM (%(subquery)s) AS counted)"
    output_field = IntegerField()


def record_chat(game: Game, reader: Any) -> list[dict[str, Any]] | None:
    """The record's ``chat``: both rooms' lines (at most the last :data:`RECORD_MAX` of each), oldest first,
    hidden ones out, and for a logged-in reader those of authors they muted or have a block with; None (no ``chat``
    key) when the game has no line to show."""
    lines: list[ChatMessage] = []
    for room in (PLAYERS, SPECTATORS):
        rows = (ChatMessage.objects.filter(game_id=game.pk, room=room, hidden=False).select_related("author")
                .order_by("-id")[:RECORD_MAX])
        lines.extend(rows)
    lines.sort(key=lambda m: m.pk)
    reader_id = reader.pk if getattr(reader, "is_authenticated", False) else None
    hidden = muted_among(reader_id, {m.author_id for m in lines}) if reader_id is not None else set()
    language = getattr(reader, "language", None) if reader_id is not None else None
    shown = [line(m, language) for m in lines if m.author_id not in hidden]
    return shown or None


def record_chat_tag(game: Game, reader: Any) -> str:
    """What the record's chat depends on: the visible lines (how many, the newest), the reader's language and
    mutes (two small queries)."""
    agg = ChatMessage.objects.filter(game_id=game.pk, hidden=False).aggregate(n=Count("id"), m=Max("id"))
    reader_id = reader.pk if getattr(reader, "is_authenticated", False) else None
    muted: list[int] = []
    if reader_id is not None and agg["n"]:
        authors = ChatMessage.objects.filter(game_id=game.pk).values_list("author_id", flat=True).distinct()[:1000]
        muted = sorted(muted_among(reader_id, set(authors)))
    language = getattr(reader, "language", "") if reader_id is not None else ""
    return f"chat:{agg['n']}:{agg['m']}:{language}:{','.join(map(str, muted))}"


def connect() -> None:
    """Register ``unread_chat`` with the inbox and ``chat`` with the record (games.service hooks)."""
    service_queries.SUMMARY_FIELDS["unread_chat"] = (unread_counts, 0)
    service_records.LIVE_PARTS["chat"] = (record_chat, record_chat_tag)


# --------------------------------------------------------------------------------------------- reports

def report(user: Any, username: str, game_id: int | None, message_id: int | None, reason: str,
           note: str) -> Report:
    """A report of ``username`` (and optionally one of their lines, in a game the reporter may read) to the
    operator. A message must be by that user, in that game (when one is named) and one the reporter can read."""
    other = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    if other is None:
        raise InvalidRequest(no_player_called(username), field="username")
    if other.pk == user.pk:
        raise InvalidRequest(gettext("You cannot report yourself."), field="username")
    game = None
    if game_id is not None:
        game = _place(user, game_id).game
    message = None
    if message_id is not None:
        found = ChatMessage.objects.filter(pk=message_id).first()
        mismatch = found is None or found.author_id != other.pk or (game is not None and found.game_id != game.pk)
        if not mismatch:
            assert found is not None
            try:
                place = _place(user, found.game_id)
            except ServiceError:
                mismatch = True
            else:
                mismatch = not place.may_read(found.room)
        if mismatch:
            raise InvalidRequest(gettext("No such line by this player in this game."), field="message_id")
        message = found
        game = game or place.game
    note = note.strip()
    return Report.objects.create(reporter=user, user=other, game=game, message=message, reason=reason, note=note)


# --------------------------------------------------------------------------------------------- the operator

def hide(message_ids: list[int]) -> int:
    """Hide lines (the Django admin): they leave the history, the record and the inbox's counts, and the players
    (and spectators) get ``chat_hidden`` on commit. How many were hidden now."""
    rows = list(ChatMessage.objects.filter(pk__in=message_ids, hidden=False).select_related("game"))
    if not rows:
        return 0
    ChatMessage.objects.filter(pk__in=[m.pk for m in rows]).update(hidden=True)
    by_game: dict[int, list[int]] = {}
    for m in rows:
        by_game.setdefault(m.game_id, []).append(m.pk)
    humans: dict[int, list[int]] = {gid: [] for gid in by_game}
    for gid, uid in Seat.objects.filter(game_id__in=by_game, user__isnull=False).values_list("game_id", "user_id"):
        humans[gid].append(uid)
    rooms = {m.pk: m.room for m in rows}
    transaction.on_commit(lambda: events.send_hidden(by_game, humans, rooms), robust=True)
    return len(rows)


def ban(user_ids: list[int]) -> int:
    """Take away the chat of these users (``User.chat_banned``)."""
    return get_user_model().objects.filter(pk__in=user_ids).update(chat_banned=True)


def resolve(report_ids: list[int]) -> int:
    return Report.objects.filter(pk__in=report_ids).exclude(status=Report.Status.RESOLVED).update(
        status=Report.Status.RESOLVED)


def neighbours(message: ChatMessage, around: int = 5) -> list[ChatMessage]:
    """The line and up to ``around`` lines before and after it in its room (the admin's context), hidden ones too."""
    base = ChatMessage.objects.filter(game_id=message.game_id, room=message.room).select_related("author")
    before = list(base.filter(id__lt=message.pk).order_by("-id")[:around])
    after = list(base.filter(id__gt=message.pk).order_by("id")[:around])
    return [*reversed(before), message, *after]

