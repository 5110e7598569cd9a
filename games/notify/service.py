"""Sending notifications.

``notify(user, event, game_id, title, body)`` is the one entry point: it respects the user's
preferences per event and channel, sends nothing at all for a game the user is looking at right now
(presence key in the cache, set by the WebSocket consumer), writes the in-app item, and hands push and
e-mail to a background task (``claim.tasks.enqueue`` on commit). Users with the daily digest get no
per-event e-mail; the digest collects the unread items instead.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from celery import shared_task
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import connections, router, transaction
from django.utils import timezone

import claim.tasks
from games.models import Game, Seat
from games.realtime.presence import present_pairs
from games.service.clock import turn_start
from games.service.payload import seats_payload

from . import live as live_notes
from . import texts
from .endpoints import EndpointRefused, endpoint_problem, public_session
from .models import DEFAULTS, Delivery, Notification, NotifySettings, Preference, PushSubscription, ReminderLog

log = logging.getLogger("games.notify")
_channels_sql: dict[tuple[str, int, int], str] = {}


def channels(user_ids: list[int], event: str) -> dict[int, tuple[bool, bool, bool]]:
    """(in-app, push, e-mail) per user for ``event``, in one query for all users: the user's preference
    (or the event's default), push only with a subscription to push to, e-mail only with an address and
    no daily digest (no delivery task is queued for a channel that cannot deliver)."""
    got = channels_for(user_ids, [event])
    return {u: got[(u, event)] for u in user_ids}


def channels_for(user_ids: Iterable[int], events: Iterable[str]) -> dict[tuple[int, str], tuple[bool, bool, bool]]:
    """:func:`channels` for several events at once: ``{(user id, event): (in-app, push, e-mail)}`` for
    every user and event given, in one query."""
    user_ids, events = list(dict.fromkeys(user_ids)), list(dict.fromkeys(events))
    if not user_ids or not events:
        return {}
    user_model = get_user_model()
    connection = connections[router.db_for_read(Preference)]
    key = (connection.vendor, len(user_ids), len(events))
    sql = _channels_sql.get(key)
    if sql is None:
        qn = connection.ops.quote_name

        def table(model: Any) -> str:
            return qn(model._meta.db_table)

        def col(alias: str, model: Any, name: str) -> str:
            return f"{alias}.{qn(model._meta.get_field(name).column)}"

        uid = col("u", user_model, user_model._meta.pk.name)
        event = col("p", Preference, "event")
        match = f"{event} = %s" if len(events) == 1 else f"{event} IN ({', '.join(['%s'] * len(events))})"
        sql = _channels_sql[key] = (
            f"SELECT {uid}, {col('u', user_model, 'email')}, {event}, {col('p', Preference, 'inapp')}, "
            f"{col('p', Preference, 'push')}, {col('p', Preference, 'email')}, "
            f"EXISTS (SELECT 1 FROM {table(PushSubscription)} s WHERE {col('s', PushSubscription, 'user')} = {uid}), "
            f"EXISTS (SELECT 1 FROM {table(NotifySettings)} n WHERE {col('n', NotifySettings, 'user')} = {uid} "
            f"AND {col('n', NotifySettings, 'email_digest')} = %s) "
            f"FROM {table(user_model)} u LEFT JOIN {table(Preference)} p "
            f"ON ({col('p', Preference, 'user')} = {uid} AND {match}) "
            f"WHERE {uid} IN ({', '.join(['%s'] * len(user_ids))})"
        )
    with connection.cursor() as cursor:
        cursor.execute(sql, [True, *events, *user_ids])
        rows = cursor.fetchall()
    reach: dict[int, tuple[bool, bool]] = {}  # user: (can push, can e-mail)
    chosen: dict[tuple[int, str], tuple[Any, Any, Any]] = {}  # the user's preference rows
    for pk, address, pref_event, inapp, push, email, has_push, digest in rows:
        reach[pk] = (bool(has_push), bool(address) and not digest)
        if pref_event is not None:
            chosen[(pk, pref_event)] = (inapp, push, email)
    out: dict[tuple[int, str], tuple[bool, bool, bool]] = {}
    for event_name in events:
        default = DEFAULTS.get(event_name, (True, False, False))
        for u in user_ids:
            if u not in reach:  # no such user: in-app by default, nowhere to deliver
                out[(u, event_name)] = (default[0], False, False)
                continue
            can_push, can_mail = reach[u]
            inapp, push, email = chosen.get((u, event_name), default)  # no preference row: the default
            out[(u, event_name)] = (bool(inapp), bool(push) and can_push, bool(email) and can_mail)
    return out


#: One notification to send: (user id, title, body, data), and optionally what it says for any language
#: (``texts.spec``, kept in ``Notification.render``).
Item = tuple[int, str, str, "dict[str, Any] | None"] | tuple[int, str, str, "dict[str, Any] | None", "dict[str, Any]"]


def notify(user: Any, event: str, game_id: int | None, title: str, body: str = "",
           data: dict[str, Any] | None = None) -> Notification | None:
    """Notify one user (a User or its id). Returns the notification, or None if nothing was sent."""
    notes = notify_many(event, game_id, [(getattr(user, "pk", user), title, body, data)])
    return notes[0] if notes else None


def notify_many(event: str, game_id: int | None, items: list[Item]) -> list[Notification]:
    """Notify several users of one event of one game, cheaply: users looking at the game are dropped first
    (one cache round trip, no query); then one query for the channels of the others (:func:`channels`)
    and one INSERT for all the notifications. Push and
    e-mail go to a background task on commit; in-app items are pushed to the user's sockets on commit."""
    return notify_groups([(event, game_id, items)])


#: One :func:`notify_many` call: (event, game id, items).
Group = tuple[str, "int | None", list[Item]]


def notify_groups(groups: list[Group]) -> list[Notification]:
    """:func:`notify_many` for several ``(event, game_id, items)`` at once, with the same outcome as one
    call per group in that order (the same notifications, created in the same order), but one cache
    round trip for the presence of every (user, game), one query for the channels of every (user,
    event), one INSERT for all notifications and one live push for all in-app items. Nothing is written
    before that INSERT, so a failure leaves nothing behind; what follows it runs on commit and is robust."""
    groups = [(event, game_id, items) for event, game_id, items in groups if items]
    if not groups:
        return []
    present = present_pairs({(u, game_id) for _, game_id, items in groups for u, *_ in items})
    if present:
        groups = [(event, game_id, [it for it in items if (it[0], game_id) not in present])
                  for event, game_id, items in groups]
        groups = [group for group in groups if group[2]]
        if not groups:
            return []
    wanted = channels_for([u for _, _, items in groups for u, *_ in items], [event for event, _, _ in groups])
    notes: list[Notification] = []
    delivery: list[tuple[bool, bool]] = []
    for event, game_id, items in groups:
        for user_id, title, body, data, *kept in items:
            inapp, push, email = wanted[(user_id, event)]
            if not (inapp or push or email):
                continue
            notes.append(Notification(user_id=user_id, event=event, game_id=game_id, title=title, body=body,
                                      data=data or {}, render=kept[0] if kept else {}, inbox=inapp))
            delivery.append((push, email))
    if not notes:
        return []
    Notification.objects.bulk_create(notes)
    for note, (push, email) in zip(notes, delivery, strict=True):
        if push or email:
            transaction.on_commit(partial(claim.tasks.enqueue, deliver_task, note.pk, push, email), robust=True)
    live = [(note.user_id, note_payload(note)) for note in notes if note.inbox]
    if live:
        transaction.on_commit(lambda: live_notes.push_to_sockets(live), robust=True)
    return notes


def notify_game(event: str, game_id: int, user_ids: list[int], title: str, body: str,
                data: dict[str, Any] | None = None, **values: Any) -> list[Notification]:
    """Notify players of one game in their own language (:mod:`games.notify.texts` keys ``title`` and
    ``body``), naming the game and each recipient's opponents, with the game's link in ``data["url"]``."""
    kind = Game.objects.filter(pk=game_id).values_list("kind", flat=True).first()
    if kind is None:
        return []
    rows = list(Seat.objects.filter(game_id=game_id).select_related("user").order_by("index"))
    seen = seats_payload(rows, None)
    languages = dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "language"))
    items: list[Item] = []
    for uid in user_ids:
        others = [texts.person(s["name"]) if s["type"] == "user" else texts.ai_seat(s["index"])
                  for row, s in zip(rows, seen, strict=True) if row.user_id != uid and s["name"]]
        kept = texts.spec(title, body, kind, game_id, others, **values)
        items.append((uid, *texts.render(languages.get(uid), kept), {"url": texts.game_url(game_id), **(data or {})},
                      kept))
    return notify_many(event, game_id, items)


def _iso(dt: datetime | None) -> str | None:
    return dt.isoformat().replace("+00:00", "Z") if dt else None


def note_text(n: Notification, language: str | None) -> tuple[str, str]:
    """The ``(title, body)`` of ``n`` in ``language`` (:func:`texts.render` of ``n.render``); the text stored at
    creation when it keeps nothing to render (made before issue 33) or what it keeps does not render."""
    if n.render:
        try:
            return texts.render(language, n.render)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            log.warning("notification %s: stored text shown, its render does not render", n.pk)
    return n.title, n.body


def note_payload(n: Notification, language: str | None = None) -> dict[str, Any]:
    """An inbox item, as ``GET /api/v1/notifications`` lists it (in the reader's language) and the socket pushes
    it (``language`` None: the text made for its recipient a moment ago)."""
    title, body = note_text(n, language) if language else (n.title, n.body)
    return {"id": n.pk, "event": n.event, "game_id": n.game_id, "title": title, "body": body, "data": n.data,
            "created_at": _iso(n.created_at), "read": n.read_at is not None}


def deliver(notification_id: int, push: bool, email: bool) -> None:
    note = Notification.objects.filter(pk=notification_id).select_related("user", "game").first()
    if note is None:
        return
    if push:
        for sub in PushSubscription.objects.filter(user=note.user):
            send_push(sub, note)
    if email and note.user.email:
        send_email(note.user, email_subject(note), _email_body(note), note)


def _sent_text(note: Notification) -> tuple[str, str]:
    """What a push or e-mail says: the note in its recipient's language at the time it is sent."""
    return note_text(note, note.user.language)


def email_subject(note: Notification) -> str:
    """Fixed product text in the recipient's language naming the game only (:func:`texts.email_subject`):
    the note's title may carry a player's name, which stays in the body, quoted."""
    game = note.game
    tournament, number = (note.data or {}).get("tournament_id"), (note.data or {}).get("round")
    return texts.email_subject(note.user.language, note.event, game.kind if game else None, note.game_id,
                               tournament if isinstance(tournament, int) else None,
                               number if isinstance(number, int) else None)


def _url(note: Notification) -> str:
    """Where a push or e-mail leads: the PWA's hash routes (``/#/game/7``, a tournament's ``/#/tournaments/3``, the
    inbox ``/#/notes``); the service worker opens this URL (frontend/scripts/sw-template.js)."""
    base = settings.FRONTEND_URL.rstrip("/")
    tournament = (note.data or {}).get("tournament_id")
    if note.event in texts.TOURNAMENT_EVENTS and note.event != "tournament_game" and isinstance(tournament, int):
        return f"{base}{texts.tournament_url(tournament)}"  # the tournament's page
    if note.event == "chat_message" and note.game_id:
        return f"{base}{texts.chat_url(note.game_id)}"  # the table with its chat open
    return f"{base}/#/game/{note.game_id}" if note.game_id else f"{base}/#/notes"


def _email_body(note: Notification) -> str:
    """The note's title and text (players' names in quotes, :func:`texts.quoted`) and the link."""
    title, body = _sent_text(note)
    text = f"{title}\n{body}" if body else title
    return f"{text}\n\n{_url(note)}\n"


def send_push(sub: PushSubscription, note: Notification) -> bool:
    """One Web Push message. Expired subscriptions (404/410) are deleted; every failure is recorded."""
    # pywebpush (with aiohttp) costs ~0.15 s to import: only the processes that send pushes pay it.
    from pywebpush import WebPushException, webpush  # noqa: PLC0415

    if not settings.VAPID_PRIVATE_KEY:
        Delivery.objects.create(notification=note, user=note.user, channel="push", ok=False,
                                error="Web Push is not configured on this server.", target=sub.endpoint[:200])
        return False
    problem = endpoint_problem(sub.endpoint)  # registered before the endpoint rules (games/notify/endpoints.py)
    if problem:
        Delivery.objects.create(notification=note, user=note.user, channel="push", ok=False, error=problem[:400],
                                target=sub.endpoint[:200])
        sub.delete()
        return False
    title, body = _sent_text(note)
    payload = json.dumps({"title": title, "body": body, "event": note.event, "game_id": note.game_id,
                          "url": _url(note)})
    try:
        webpush(subscription_info={"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
                data=payload, vapid_private_key=settings.VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.VAPID_SUBJECT}, ttl=24 * 3600, timeout=10,
                requests_session=public_session())
    except WebPushException as exc:
        code = getattr(exc.response, "status_code", None)
        # The status only: the push service's answer (its body) is never stored or shown.
        error = f"The push service refused the message (HTTP {code})." if code else "The push service failed."
        Delivery.objects.create(notification=note, user=note.user, channel="push", ok=False, status_code=code,
                                error=error, target=sub.endpoint[:200])
        if code in (404, 410):
            log.info("push subscription %s expired (%s): removed", sub.pk, code)
            sub.delete()
        return False
    except EndpointRefused as exc:  # resolves to a non-public address: never contacted
        Delivery.objects.create(notification=note, user=note.user, channel="push", ok=False, error=str(exc)[:400],
                                target=sub.endpoint[:200])
        return False
    except Exception as exc:  # network errors: recorded by kind only (no text from the far side), kept
        Delivery.objects.create(notification=note, user=note.user, channel="push", ok=False,
                                error=f"Could not reach the push service ({type(exc).__name__}).",
                                target=sub.endpoint[:200])
        return False
    sub.last_ok_at = timezone.now()
    sub.save(update_fields=["last_ok_at"])
    Delivery.objects.create(notification=note, user=note.user, channel="push", ok=True, status_code=201,
                            target=sub.endpoint[:200])
    return True


def send_email(user: Any, subject: str, body: str, note: Notification | None = None) -> bool:
    try:
        send_mail(f"[claim] {subject}", body, settings.DEFAULT_FROM_EMAIL, [user.email])
    except Exception as exc:
        Delivery.objects.create(notification=note, user=user, channel="email", ok=False,
                                error=f"{type(exc).__name__}: {exc}"[:400], target=user.email[:200])
        return False
    Delivery.objects.create(notification=note, user=user, channel="email", ok=True, target=user.email[:200])
    return True


# ----------------------------------------------------------------------------------------- reminders, digest

REMINDER_GAP = timedelta(hours=12)
THRESHOLDS = (10, 50)


def send_reminders(now: datetime | None = None) -> int:
    """deadline_near at 50 % and 10 % of the turn's time left, at most one per game and user per 12 h."""
    now = now or timezone.now()
    sent = 0
    games = Game.objects.filter(status=Game.Status.ACTIVE, deadline__gt=now)
    for game in games.iterator():
        start, deadline = turn_start(game), game.deadline
        if start is None or deadline is None or deadline <= start:  # (deadline__gt above: never None)
            continue
        total = (deadline - start).total_seconds()
        left = (deadline - now).total_seconds()
        due = next((t for t in THRESHOLDS if left <= total * t / 100), None)
        if due is None:
            continue
        for seat in Seat.objects.filter(game=game, to_act=True, user__isnull=False, ai_level__isnull=True):
            user_id = seat.user_id
            assert user_id is not None  # user__isnull=False
            logs = ReminderLog.objects.filter(game=game, user_id=user_id)
            if logs.filter(version=game.version, threshold=due).exists():
                continue
            if logs.filter(sent_at__gt=now - REMINDER_GAP).exists():
                continue
            ReminderLog.objects.create(game=game, user_id=user_id, version=game.version, threshold=due,
                                       sent_at=now)
            hours = max(int(left // 3600), 0)
            notify_game("deadline_near", game.pk, [user_id], "deadline.title", "deadline.body",
                        data={"deadline": deadline.isoformat(), "percent_left": due}, hours=hours)
            sent += 1
    return sent


def digest_text(user: Any, since: datetime) -> str | None:
    items = list(Notification.objects.filter(user=user, created_at__gt=since, read_at__isnull=True)
                 .order_by("created_at"))
    if not items:
        return None
    lines = [f"Hello {user.public_name}, here is what happened in your games:", ""]
    for n in items:
        where = f" (game {n.game_id})" if n.game_id else ""
        title, body = note_text(n, user.language)
        lines.append(f"- {title}{where}: {body}" if body else f"- {title}{where}")
    lines += ["", settings.FRONTEND_URL.rstrip("/") + "/"]
    return "\n".join(lines)


def send_digests(now: datetime | None = None) -> int:
    """The daily digest: one e-mail per subscribed user per 24 h with their unread notifications."""
    now = now or timezone.now()
    sent = 0
    for st in NotifySettings.objects.filter(email_digest=True).select_related("user"):
        if st.last_digest_at and now - st.last_digest_at < timedelta(hours=24):
            continue
        since = st.last_digest_at or now - timedelta(hours=24)
        text = digest_text(st.user, since)
        st.last_digest_at = now
        st.save(update_fields=["last_digest_at"])
        if text and st.user.email:
            send_email(st.user, texts.text(st.user.language, "email.digest"), text)
            sent += 1
    return sent


# The background tasks (``games.notify.tasks`` names them for Celery): defined here, beside what they run, so
# that enqueueing a delivery does not import the tasks module and the tasks module imports only this one.

@shared_task(acks_late=True, name="notify.deliver")
def deliver_task(notification_id: int, push: bool, email: bool) -> None:
    deliver(notification_id, push, email)


@shared_task(acks_late=True, name="notify.send_reminders")
def send_reminders_task() -> int:
    return send_reminders()


@shared_task(acks_late=True, name="notify.send_digests")
def send_digests_task() -> int:
    return send_digests()
