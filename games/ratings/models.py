"""Ratings per pool, their history, and one row per rated game (the exactly-once guard)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Rating(models.Model):
    """A player's (or an AI level's) rating in one pool.

    ``rating``/``deviation`` are on the display scale for both systems (Glicko-2 natively; OpenSkill
    mu·60, sigma·60); ``volatility`` is Glicko-2 only, ``mu``/``sigma`` OpenSkill only.
    """

    class System(models.TextChoices):
        GLICKO2 = "glicko2", "Glicko-2"
        OPENSKILL = "openskill", "OpenSkill"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="ratings")
    ai_level = models.PositiveSmallIntegerField(null=True, blank=True)
    pool = models.CharField(max_length=40)
    system = models.CharField(max_length=10, choices=System.choices)
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField(default=0.06)
    mu = models.FloatField(null=True, blank=True)
    sigma = models.FloatField(null=True, blank=True)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    last_game_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "pool"], condition=models.Q(user__isnull=False),
                                    name="rating_unique_user_pool"),
            models.UniqueConstraint(fields=["ai_level", "pool"], condition=models.Q(ai_level__isnull=False),
                                    name="rating_unique_ai_pool"),
            models.CheckConstraint(condition=models.Q(user__isnull=False) ^ models.Q(ai_level__isnull=False),
                                   name="rating_user_xor_ai"),
        ]
        indexes = [models.Index(fields=["pool", "-rating"], name="rating_leaderboard")]

    def __str__(self) -> str:
        who = f"user {self.user_id}" if self.user_id else f"AI {self.ai_level}"
        return f"{who} {self.pool}: {self.rating:.0f}±{self.deviation:.0f}"


class RatedGame(models.Model):
    """One row per game that has been rated: the unique game id makes rating exactly-once."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="rating_record")
    pool = models.CharField(max_length=40)
    rated_at = models.DateTimeField(default=timezone.now)
    humans_rated = models.BooleanField(default=True, help_text="False: only the AI levels' ratings moved.")


class RatingHistory(models.Model):
    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="history")
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    before = models.FloatField()
    after = models.FloatField()
    deviation = models.FloatField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["rating", "game"], name="history_unique_game")]
        # a pool's latest changes (public profiles, games/social): one index range of the rating, however long
        indexes = [models.Index(fields=["rating", "-created_at", "-id"], name="history_rating_latest")]
