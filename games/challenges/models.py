from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone


def new_challenge_id() -> str:
    """Challenge ids are random (10 characters): an open challenge is accepted by whoever has its id."""
    return secrets.token_urlsafe(8)[:10]


class Challenge(models.Model):
    """An offer by ``challenger`` to play one two-seat game, to ``to`` (a user) or open (``to`` null)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        CANCELLED = "cancelled", "Cancelled"
        EXPIRED = "expired", "Expired"

    id = models.CharField(primary_key=True, max_length=12, default=new_challenge_id, editable=False)
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_made")
    to = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                           related_name="challenges_received")
    is_open = models.BooleanField(default=False, help_text="Made to anyone (``to`` is set when accepted).")
    kind = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    time_control = models.JSONField(help_text="The create request's time_control, normalized.")
    rated = models.BooleanField(default=False)
    watchable = models.BooleanField(default=False, help_text="Whether others may watch the game (issue 35; the "
                                                             "request's default is true).")
    seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The challenger's seat; null: random.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    decline_reason = models.CharField(max_length=20, blank=True)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    rematch_of = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="rematch_challenges",
                                   help_text="The finished game this challenge offers a rematch of (its players).")
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "id"]
        indexes = [
            models.Index(fields=["to", "status"], name="challenge_incoming"),
            models.Index(fields=["challenger", "status"], name="challenge_outgoing"),
            models.Index(fields=["status", "expires_at"], name="challenge_expiry"),
        ]


#: For the OpenAPI enum (claim/settings.py, ENUM_NAME_OVERRIDES).
CHALLENGE_STATUSES = [value for value, _ in Challenge.Status.choices]
