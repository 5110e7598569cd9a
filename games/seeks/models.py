from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Seek(models.Model):
    """A standing wish to play: kind, options, seats, time control, rated, rating window, reliability."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        MATCHED = "matched", "Matched"
        CANCELLED = "cancelled", "Cancelled"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks")
    kind = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    seats = models.PositiveSmallIntegerField(default=2)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    time_control = models.JSONField(null=True, blank=True,
                                    help_text="A bank clock (the create request's time_control); "
                                              "null: days_per_move (or unlimited).")
    rated = models.BooleanField(default=True)
    watchable = models.BooleanField(default=False, help_text="The player lets others watch the game (issue 35; the "
                                                             "request's default is true). The game is watchable "
                                                             "when every seek paired into it says so.")
    rating_range = models.PositiveIntegerField(null=True, blank=True, help_text="± rating points; null: any.")
    min_reliability = models.PositiveSmallIntegerField(default=0)
    bots_welcome = models.BooleanField(default=False, help_text="A human's seek may be paired with a bot account's.")
    quick = models.BooleanField(default=False, help_text="'Play now': an AI game after ai_fallback_at.")
    ai_fallback_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    matched_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [
            models.Index(fields=["status", "kind", "seats"], name="seek_open"),
            # The lobby's keyset pages (and the periodic pairing's order): open seeks only, oldest first.
            models.Index(fields=["created_at", "id"], name="seek_lobby", condition=models.Q(status="open")),
        ]
