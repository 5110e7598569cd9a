"""Tournaments (issue 36): the tournament, its entries, its games and byes. The rules are pure
(:mod:`games.tournaments.core`); :mod:`games.tournaments.service` keeps these rows.

A tournament game is an ordinary :class:`~games.models.Game` (created started, watchable, rated if the tournament
is, its clock marked ``GameClock.tournament``: no vacation, no pause, no abort) named by one
:class:`TournamentGame`. Its result is copied onto that row once (``finished``, ``places``, ``timed_out``) under the
tournament's lock, so the standings are computed from this app's rows alone and cached on the tournament.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models import DAYS_PER_MOVE_CHOICES


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "Round robin"
        SWISS = "swiss", "Swiss"
        TABLES = "tables", "Tables (3-4 seats)"

    class Status(models.TextChoices):
        OPEN = "open", "Open for entries"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    class Control(models.TextChoices):
        DAYS = "days", "Days per move"
        BANK = "bank", "Bank with increment"

    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True, help_text="Engine options of every game.")
    format = models.CharField(max_length=12, choices=Format.choices)
    rounds = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Swiss and tables: rounds to play.")
    # The time control of every game, as a game stores it: days per move on the game, a bank on its clock.
    control = models.CharField(max_length=8, choices=Control.choices, default=Control.DAYS)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True, choices=DAYS_PER_MOVE_CHOICES)
    initial_seconds = models.PositiveIntegerField(default=0)
    increment_seconds = models.PositiveIntegerField(default=0)
    cap_seconds = models.PositiveIntegerField(default=0)
    rated = models.BooleanField(default=True)
    max_players = models.PositiveSmallIntegerField()
    min_players = models.PositiveSmallIntegerField()
    rating_min = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_max = models.PositiveSmallIntegerField(null=True, blank=True)
    bots_allowed = models.BooleanField(default=False)
    starts_at = models.DateTimeField(null=True, blank=True, help_text="Null: starts when full.")
    max_game_days = models.PositiveSmallIntegerField(default=30, help_text="A game still running after this many "
                                                     "days is adjudicated.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="tournaments_created", db_index=False)
    featured = models.BooleanField(default=False, help_text="Set by an operator: shown first.")
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    reminded_at = models.DateTimeField(null=True, blank=True, help_text="When its entrants were told it starts "
                                       "soon (tournament_starting: once).")
    current_round = models.PositiveSmallIntegerField(default=0)
    player_count = models.PositiveSmallIntegerField(default=0, help_text="Entries (withdrawn ones included).")
    standings = models.JSONField(default=list, blank=True, help_text="Cached: rewritten with every result.")
    crosstable = models.JSONField(default=list, blank=True, help_text="Cached: rewritten with every result.")

    class Meta:
        indexes = [
            models.Index(fields=["status", "-id"], name="tournament_status"),
            models.Index(fields=["-id"], name="tournament_featured", condition=models.Q(featured=True)),
            # The per-user limit: a creator's tournaments not finished.
            models.Index(fields=["created_by", "status"], name="tournament_creator"),
            # The beat task: open tournaments whose start time has come.
            models.Index(fields=["starts_at"], name="tournament_due", condition=models.Q(status="open")),
        ]

    def __str__(self) -> str:
        return f"Tournament {self.pk} ({self.name}, {self.status})"


class Entry(models.Model):
    """A user in a tournament: entered while it was open; ``withdrawn_at`` once they withdrew or lost two games
    on time (out: not paired again, their unfinished games forfeited)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries",
                             db_index=False)
    joined_at = models.DateTimeField(default=timezone.now)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    timeouts = models.PositiveSmallIntegerField(default=0, help_text="Games lost on time in this tournament.")
    seed = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Seed order (0 = first), at the start.")
    rating = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Rating in the pool at the start.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="entry_unique_user")]
        indexes = [models.Index(fields=["user", "-tournament"], name="entry_user")]

    def __str__(self) -> str:
        return f"Entry of user {self.user_id} in tournament {self.tournament_id}"


class TournamentGame(models.Model):
    """One game of a tournament: its round and board, the players by seat (user ids, kept when the AI takes a
    timed-out seat), and once it ended the places per seat (1 = best) and who lost on time."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games", db_index=False)
    round = models.PositiveSmallIntegerField()
    board = models.PositiveSmallIntegerField()
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="tournament_game")
    players = models.JSONField(help_text="User ids by seat.")
    ends_by = models.DateTimeField(help_text="Adjudicated if still running then (max_game_days after the start).")
    finished = models.BooleanField(default=False)
    places = models.JSONField(null=True, blank=True, help_text="Places by seat (1 = best) once it ended.")
    timed_out = models.JSONField(default=list, blank=True, help_text="User ids who lost this game on time.")
    adjudicated = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "round", "board"], name="tgame_unique_board")]
        indexes = [
            # The adjudication task: games still running past their tournament's maximum duration.
            models.Index(fields=["ends_by"], name="tgame_running", condition=models.Q(finished=False)),
        ]

    def __str__(self) -> str:
        return f"Round {self.round} board {self.board} of tournament {self.tournament_id}"


class Bye(models.Model):
    """A round a player sat out (an odd number in a Swiss, tables that cannot seat everyone): it scores as the
    format says (docs/tournaments.md)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="byes", db_index=False)
    round = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", db_index=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "round", "user"], name="bye_unique_user")]

    def __str__(self) -> str:
        return f"Bye of user {self.user_id} in round {self.round} of tournament {self.tournament_id}"


#: For the OpenAPI enums (claim/settings.py, ENUM_NAME_OVERRIDES).
TOURNAMENT_STATUSES = [value for value, _ in Tournament.Status.choices]
TOURNAMENT_FORMATS = [value for value, _ in Tournament.Format.choices]
