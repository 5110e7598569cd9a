"""Table chat (issue 35): one line of a game's players' or spectators' room, a player's read marker, and a report
of a line or a player to the operator (handled in the Django admin: games/chat/admin.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

ROOMS = ("players", "spectators")
REPORT_REASONS = ("spam", "abuse", "cheating", "other")
REPORT_STATUSES = ("open", "resolved")


class ChatMessage(models.Model):
    """One line: a quick phrase (``phrase``, its code: shown in each reader's language) or free text (``text``).
    ``hidden`` lines (an operator hid them) are left out everywhere but the admin and the author's data export."""

    class Room(models.TextChoices):
        PLAYERS = "players", "Players"
        SPECTATORS = "spectators", "Spectators"

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat_messages", db_index=False)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages")
    room = models.CharField(max_length=10, choices=Room.choices)
    phrase = models.CharField(max_length=16, null=True, blank=True)
    text = models.CharField(max_length=140, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    hidden = models.BooleanField(default=False)

    class Meta:
        # History pages, unread counts and the record read ranges of (game, room, id): never a game's whole chat.
        indexes = [models.Index(fields=["game", "room", "id"], name="chat_game_room_id")]
        constraints = [models.CheckConstraint(
            condition=(models.Q(phrase__isnull=True) & models.Q(text__isnull=False))
            | (models.Q(phrase__isnull=False) & models.Q(text__isnull=True)), name="chat_phrase_xor_text")]

    def __str__(self) -> str:
        return f"Chat {self.pk} in game {self.game_id} ({self.room})"


class ChatRead(models.Model):
    """How far a player has read the players' room of a game (``POST /games/{id}/chat/read``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False)
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    last_id = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="chat_read_unique")]


class Report(models.Model):
    """A user's report of another user (and optionally one of their lines, in one game) to the operator."""

    class Reason(models.TextChoices):
        SPAM = "spam", "Spam"
        ABUSE = "abuse", "Abuse"
        CHEATING = "cheating", "Cheating"
        OTHER = "other", "Other"

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        RESOLVED = "resolved", "Resolved"

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_received")
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    message = models.ForeignKey(ChatMessage, null=True, blank=True, on_delete=models.SET_NULL, related_name="reports")
    reason = models.CharField(max_length=10, choices=Reason.choices)
    note = models.CharField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "-created_at"], name="report_queue")]

    def __str__(self) -> str:
        return f"Report {self.pk} ({self.reason}, {self.status})"
