"""A game's stored review (one per game; issue 37)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models import Game

REVIEW_STATUSES = ("queued", "running", "done", "failed")
#: At most this many users hear a review's progress events (its first requesters); the others read it.
MAX_LISTENERS = 50


class Review(models.Model):
    """The review of an ended game: ``decisions`` (the API's ``ReviewDecision`` objects, in game order) once done;
    ``done``/``total`` the progress; ``listeners`` the user ids told of its progress (the requesters)."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="review")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="+")
    listeners = models.JSONField(default=list, blank=True)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    playouts = models.PositiveIntegerField(default=0, help_text="The budget per decision, in playouts.")
    decisions = models.JSONField(default=list, blank=True)
    error = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    touched_at = models.DateTimeField(default=timezone.now, help_text="Queued, started or progressed last.")
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Review of game {self.game_id} ({self.status})"
