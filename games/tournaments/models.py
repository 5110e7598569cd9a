"""Tournaments (issue 36): the tournament, its entries, its games and byes. The rules are pure
(:mod:`games.tournaments.core`); :mod:`games.tournaments.service` keeps these rows.

A tournament game is an ordinary :class:`~games.models.Game` (created started, watchable, rated if the tournament
is, its clock marked ``GameClock.tournament``: no vacation, no pause, no abort) named by one
:class:`TournamentGame`. Its result is copied onto that row once (``finished``, ``places``, ``timed_out``) under the
tournament's lock, so the standings are computed from this app's rows alone and cached on the tournament.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
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
    min_reliability = models.PositiveSmallIntegerField(default=0, help_text="Entrants' reliability (0-100) at least "
                                                       "this (games/clock/reliability.py); 0: no condition.")
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

    def division_of_league(self) -> tuple[str, int, int] | None:
        """``(league name, season number, division from 1)`` when this is a league division's round robin, else
        None (read through ``league_division``: select ``league_division__season__league`` with it)."""
        try:
            division = self.league_division  # type: ignore[attr-defined]  # LeagueDivision's one-to-one
        except ObjectDoesNotExist:
            return None
        return division.place()

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


# ----------------------------------------------------------------------------------------------- leagues

class League(models.Model):
    """A seasonal league (docs/tournaments.md, "League"): one 2-seat kind with its options and time control, divisions
    of ``division_size``, seasons of ``season_days``; at a season's end ``movers`` go up and down
    (:func:`games.tournaments.core.league.next_season`). Each season's division is a round-robin :class:`Tournament`
    (:class:`LeagueDivision`), so its games, standings, forfeits and adjudication are the tournaments'."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for a season to start"
        RUNNING = "running", "A season is running"
        CLOSED = "closed", "Closed"

    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True, help_text="Engine options of every game.")
    control = models.CharField(max_length=8, choices=Tournament.Control.choices, default=Tournament.Control.DAYS)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True, choices=DAYS_PER_MOVE_CHOICES)
    initial_seconds = models.PositiveIntegerField(default=0)
    increment_seconds = models.PositiveIntegerField(default=0)
    cap_seconds = models.PositiveIntegerField(default=0)
    rated = models.BooleanField(default=True)
    division_size = models.PositiveSmallIntegerField(help_text="Players per division (the lowest may differ).")
    season_days = models.PositiveSmallIntegerField(help_text="A season's length; games still running then are "
                                                   "adjudicated.")
    movers = models.PositiveSmallIntegerField(help_text="Promoted and relegated per division at a season's end.")
    max_members = models.PositiveSmallIntegerField()
    rating_min = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_max = models.PositiveSmallIntegerField(null=True, blank=True)
    min_reliability = models.PositiveSmallIntegerField(default=0)
    bots_allowed = models.BooleanField(default=False)
    starts_at = models.DateTimeField(help_text="The first season's start (later ones follow at once).")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    closing = models.BooleanField(default=False, help_text="Set by an operator: no season after the current one.")
    featured = models.BooleanField(default=False, help_text="Set by an operator: shown first.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="leagues_created",
                                   db_index=False)
    created_at = models.DateTimeField(default=timezone.now)
    current_season = models.PositiveSmallIntegerField(default=0, help_text="The number of the running or last "
                                                      "season (0: none yet).")
    member_count = models.PositiveSmallIntegerField(default=0, help_text="Members (those leaving at the season's "
                                                    "end included).")

    class Meta:
        indexes = [
            models.Index(fields=["status", "-id"], name="league_status"),
            models.Index(fields=["created_by", "status"], name="league_creator"),
        ]

    def __str__(self) -> str:
        return f"League {self.pk} ({self.name}, {self.status})"


class LeagueMember(models.Model):
    """A player in a league. ``position``: their place on the ladder (0 = the best) from the last season change, null
    for a newcomer not placed yet; ``division``: their division in the running season (0 = the top), null while
    waiting; ``left_at``: they left during a season (dropped at its end)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="members", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="league_memberships",
                             db_index=False)
    joined_at = models.DateTimeField(default=timezone.now)
    position = models.PositiveIntegerField(null=True, blank=True)
    division = models.PositiveSmallIntegerField(null=True, blank=True)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "user"], name="league_member_unique_user")]
        indexes = [models.Index(fields=["user", "-league"], name="league_member_user")]

    def __str__(self) -> str:
        return f"Member {self.user_id} of league {self.league_id}"


class LeagueSeason(models.Model):
    """One season of a league: from ``starts_at`` to ``ends_at`` (games still running then are adjudicated);
    ``finished_at`` once promotion and relegation were applied, recorded in ``moves``."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons", db_index=False)
    number = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    moves = models.JSONField(default=list, blank=True, help_text="At the end: per player ``user_id``, ``division`` "
                             "(null: a newcomer), ``rank`` in it, ``to`` (the next season's division; null: dropped).")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "number"], name="league_season_unique_number")]
        indexes = [models.Index(fields=["ends_at"], name="league_season_running",
                                condition=models.Q(finished_at__isnull=True))]

    def __str__(self) -> str:
        return f"Season {self.number} of league {self.league_id}"


class LeagueDivision(models.Model):
    """A division of a season: its players in ladder order at the start, and its round-robin :class:`Tournament`
    (created in its own transaction right after the season's rows: null until then)."""

    season = models.ForeignKey(LeagueSeason, on_delete=models.CASCADE, related_name="divisions", db_index=False)
    number = models.PositiveSmallIntegerField(help_text="0 = the top division.")
    players = models.JSONField(help_text="User ids in ladder order at the season's start.")
    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, null=True, blank=True,
                                      related_name="league_division")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["season", "number"], name="league_division_unique_number")]

    def place(self) -> tuple[str, int, int]:
        """``(league name, season number, division from 1)`` (select ``season__league`` with it)."""
        return self.season.league.name, self.season.number, self.number + 1

    def __str__(self) -> str:
        return f"Division {self.number} of season {self.season_id}"


#: For the OpenAPI enums (claim/settings.py, ENUM_NAME_OVERRIDES).
TOURNAMENT_STATUSES = [value for value, _ in Tournament.Status.choices]
TOURNAMENT_FORMATS = [value for value, _ in Tournament.Format.choices]
LEAGUE_STATUSES = [value for value, _ in League.Status.choices]
