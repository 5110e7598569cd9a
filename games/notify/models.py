"""Inbox items, preferences, push subscriptions, delivery records, reminder log."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

EVENTS = {
    "your_turn": "It is your turn",
    "opponent_moved": "An opponent moved",
    "deadline_near": "Your deadline is near",
    "game_over": "A game ended",
    "match_found": "A match was found",
    "challenge_received": "You were challenged",
    "vacation_used": "Vacation was used",
    "seat_replaced": "You ran out of time and the AI took your seat",
    "chat_message": "A player wrote in a game's chat",
    "tournament_starting": "A tournament you entered starts within the hour",
    "tournament_game": "A new game of yours in a tournament",
    "tournament_round": "A round of your tournament was paired (your game or your bye)",
    "tournament_finished": "A tournament you played ended: your place",
    "tournament_cancelled": "A tournament you entered was cancelled",
}
CHANNELS = ("inapp", "push", "email")
# Defaults per event: (in-app, push, e-mail)
DEFAULTS = {
    "your_turn": (True, True, False),
    "opponent_moved": (True, False, False),
    "deadline_near": (True, True, True),
    "game_over": (True, True, False),
    "match_found": (True, True, True),
    "challenge_received": (True, True, True),
    "vacation_used": (True, True, True),
    "seat_replaced": (True, True, True),
    "chat_message": (True, True, False),
    # Tournaments (issue 36): a round's own game is pushed (tournament_game), so its pairing is in-app only.
    "tournament_starting": (True, True, True),
    "tournament_game": (True, True, False),
    "tournament_round": (True, False, False),
    "tournament_finished": (True, True, True),
    "tournament_cancelled": (True, True, True),
}


class Notification(models.Model):
    """One notification of one user. ``title`` and ``body`` are its text in the user's language when it was made
    (push and e-mail, and the fallback); ``render`` keeps its keys and names so the inbox shows it in the reader's
    language (``games.notify.service.note_text``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    event = models.CharField(max_length=24)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    title = models.CharField(max_length=120)
    body = models.CharField(max_length=400, blank=True)
    data = models.JSONField(default=dict, blank=True)
    render = models.JSONField(default=dict, blank=True, help_text=(
        "What it says, for any language (games.notify.texts.spec); empty: only the stored title and body."))
    inbox = models.BooleanField(default=True, help_text="Shown in the in-app inbox.")
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "-created_at"], name="notification_inbox")]


class Preference(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notify_prefs")
    event = models.CharField(max_length=24)
    inapp = models.BooleanField(default=True)
    push = models.BooleanField(default=True)
    email = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "event"], name="pref_unique_event")]


class NotifySettings(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notify_settings")
    email_digest = models.BooleanField(default=False, help_text="One e-mail a day instead of per-event e-mails.")
    last_digest_at = models.DateTimeField(null=True, blank=True)


class PushSubscription(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=800, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(default=timezone.now)
    last_ok_at = models.DateTimeField(null=True, blank=True)


class Delivery(models.Model):
    """One attempt to deliver a notification by push or e-mail; failures stay visible to the user."""

    notification = models.ForeignKey(Notification, null=True, blank=True, on_delete=models.CASCADE,
                                     related_name="deliveries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="deliveries")
    channel = models.CharField(max_length=8)
    ok = models.BooleanField()
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=400, blank=True)
    target = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]


class ReminderLog(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    version = models.PositiveIntegerField()
    threshold = models.PositiveSmallIntegerField(help_text="Percent of the turn's time left: 50 or 10.")
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user", "version", "threshold"],
                                               name="reminder_unique")]
