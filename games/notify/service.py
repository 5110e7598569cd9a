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
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from .models import DEFAULTS, Delivery, Notification, NotifySettings, Preference, PushSubscription

log = logging.getLogger("games.notify")
PRESENCE_TTL = 90  # seconds; the consumer refreshes it while the game is open


def presence_key(user_id: int, game_id: int) -> str:
    return f"presence:{user_id}:{game_id}"


def mark_present(user_id: int, game_id: int, ttl: int = PRESENCE_TTL) -> None:
    """The user has the game open right now (call on subscribe and on every client message/ping)."""
    cache.set(presence_key(user_id, game_id), 1, ttl)


def mark_absent(user_id: int, game_id: int) -> None:
    cache.delete(presence_key(user_id, game_id))


def is_present(user_id: int, game_id: int | None) -> bool:
    return game_id is not None and cache.get(presence_key(user_id, game_id)) is not None


def preference(user_id: int, event: str) -> tuple[bool, bool, bool]:
    pref = Preference.objects.filter(user_id=user_id, event=event).first()
    if pref is None:
        return DEFAULTS.get(event, (True, False, False))
    return pref.inapp, pref.push, pref.email


def digest_on(user_id: int) -> bool:
    return NotifySettings.objects.filter(user_id=user_id, email_digest=True).exists()


def notify(user: Any, event: str, game_id: int | None, title: str, body: str = "",
           data: dict[str, Any] | None = None) -> Notification | None:
    """Notify one user (a User or its id). Returns the notification, or None if nothing was sent."""
    user_id = getattr(user, "pk", user)
    if is_present(user_id, game_id):
        return None
    inapp, push, email = preference(user_id, event)
    if email and digest_on(user_id):
        email = False  # the daily digest carries it
    if not (inapp or push or email):
        return None
    note = Notification.objects.create(user_id=user_id, event=event, game_id=game_id, title=title, body=body,
                                       data=data or {}, inbox=inapp)
    if push or email:
        from claim.tasks import enqueue

        from .tasks import deliver_task

        nid = note.pk
        transaction.on_commit(lambda: enqueue(deliver_task, nid, push, email), robust=True)
    return note


def deliver(notification_id: int, push: bool, email: bool) -> None:
    note = Notification.objects.filter(pk=notification_id).select_related("user").first()
    if note is None:
        return
    if push:
        for sub in PushSubscription.objects.filter(user=note.user):
            send_push(sub, note)
    if email and note.user.email:
        send_email(note.user, note.title, _email_body(note), note)


def _url(note: Notification) -> str:
    base = settings.FRONTEND_URL.rstrip("/")
    return f"{base}/games/{note.game_id}" if note.game_id else f"{base}/"


def _email_body(note: Notification) -> str:
    return f"{note.body}\n\n{_url(note)}\n"


def send_push(sub: PushSubscription, note: Notification) -> bool:
    """One Web Push message. Expired subscriptions (404/410) are deleted; every failure is recorded."""
    from pywebpush import WebPushException, webpush

    if not settings.VAPID_PRIVATE_KEY:
        Delivery.objects.create(notification=note, user=note.user, channel="push", ok=False,
                                error="Web Push is not configured on this server.", target=sub.endpoint[:200])
        return False
    payload = json.dumps({"title": note.title, "body": note.body, "event": note.event, "game_id": note.game_id,
                          "url": _url(note)})
    try:
        webpush(subscription_info={"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
                data=payload, vapid_private_key=settings.VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.VAPID_SUBJECT}, ttl=24 * 3600, timeout=10)
    except WebPushException as exc:
        code = getattr(exc.response, "status_code", None)
        Delivery.objects.create(notification=note, user=note.user, channel="push", ok=False, status_code=code,
                                error=str(exc)[:400], target=sub.endpoint[:200])
        if code in (404, 410):
            log.info("push subscription %s expired (%s): removed", sub.pk, code)
            sub.delete()
        return False
    except Exception as exc:  # network errors: recorded, the subscription is kept
        Delivery.objects.create(notification=note, user=note.user, channel="push", ok=False,
                                error=f"{type(exc).__name__}: {exc}"[:400], target=sub.endpoint[:200])
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
    from games.models import Game, Seat
    from games.service.clock import _turn_start

    from .models import ReminderLog

    now = now or timezone.now()
    sent = 0
    games = Game.objects.filter(status=Game.Status.ACTIVE, deadline__gt=now)
    for game in games.iterator():
        start = _turn_start(game)
        if start is None or game.deadline <= start:
            continue
        total = (game.deadline - start).total_seconds()
        left = (game.deadline - now).total_seconds()
        due = next((t for t in THRESHOLDS if left <= total * t / 100), None)
        if due is None:
            continue
        for seat in Seat.objects.filter(game=game, to_act=True, user__isnull=False, ai_level__isnull=True):
            logs = ReminderLog.objects.filter(game=game, user_id=seat.user_id)
            if logs.filter(version=game.version, threshold=due).exists():
                continue
            if logs.filter(sent_at__gt=now - REMINDER_GAP).exists():
                continue
            ReminderLog.objects.create(game=game, user_id=seat.user_id, version=game.version, threshold=due,
                                       sent_at=now)
            hours = max(int(left // 3600), 0)
            notify(seat.user_id, "deadline_near", game.pk, title="Your deadline is near",
                   body=f"About {hours} h left for your move in game {game.pk}.",
                   data={"deadline": game.deadline.isoformat(), "percent_left": due})
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
        lines.append(f"- {n.title}{where}: {n.body}" if n.body else f"- {n.title}{where}")
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
            send_email(st.user, "Your daily digest", text)
            sent += 1
    return sent
