"""Games, seats, the move log and the per-version history (issue 4).

A game is fully described by ``(kind, options, seat_count, seed, moves)``; ``state`` is a cache
of the engine state (``rules.to_json``) that :func:`games.service.replay_log` can rebuild.

Hidden information: ``seed``, ``state`` and ``Move.response`` (the mover's own view, with their
hand) are never serialized for anyone but the server before the game ends. Public, per-version
history lives in :class:`GameEvent` (engine events are public by contract). A game's clock beyond days
per move (bank, pause, extra time) is :class:`GameClock`; the users whose seat was handed to the AI when
their time ran out are :class:`SeatDeparture` (both written by the service's and the clock app's
transactions under the game's row lock). An ended game's public record, serialized once, is
:class:`GameRecord`.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

DAYS_PER_MOVE_CHOICES = [(1, "1 day"), (2, "2 days"), (3, "3 days"), (5, "5 days"), (7, "7 days"), (14, "14 days")]


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)  # 12 URL-safe characters, 72 bits


def new_seed() -> int:
    return secrets.randbits(62)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    kind = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    seat_count = models.PositiveSmallIntegerField(default=2)
    seed = models.BigIntegerField(default=new_seed, help_text="Secret until the game ends.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    version = models.PositiveIntegerField(default=0)
    move_count = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True, help_text="Engine state cache (secret until the end).")
    result = models.JSONField(null=True, blank=True)
    ended_reason = models.CharField(max_length=16, blank=True, default="")  # normal|resigned|aborted
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    rated = models.BooleanField(default=False)
    watchable = models.BooleanField(
        default=False, help_text="Whether others may watch (the spectator view only); the creator's choice.")
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True, choices=DAYS_PER_MOVE_CHOICES)
    deadline = models.DateTimeField(null=True, blank=True)
    invite_code = models.CharField(max_length=24, unique=True, default=new_invite_code)
    rematch_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches")

    class Meta:
        ordering = ["-updated_at"]
        # No index on updated_at: every move sets it, and a changed indexed column makes PostgreSQL write a
        # new entry in every index of the row instead of a heap-only (HOT) update (docs/performance.md, ninth
        # round). Lists of games are per user (the seats' index) or by status.
        indexes = [
            models.Index(fields=["status", "deadline"], name="game_status_deadline"),
            # "Now playing" (GET /watch): running watchable games, newest first, all kinds or one; keyed by id
            # (never updated_at, so a move stays a heap-only update), one index range per page.
            models.Index(fields=["-id"], name="game_now_playing",
                         condition=models.Q(status="active", watchable=True)),
            models.Index(fields=["kind", "-id"], name="game_now_playing_kind",
                         condition=models.Q(status="active", watchable=True)),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.kind}, {self.status})"

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)


class Seat(models.Model):
    """One seat of a game: a user (invited until ``joined_at`` is set), an AI, or still open."""

    class Outcome(models.TextChoices):
        WIN = "win", "Win"
        LOSS = "loss", "Loss"
        DRAW = "draw", "Draw"

    # No single-column index on game: seat_unique_index (game, index) leads with it. The user's index does not
    # hold to_act, which every move changes: the seat's update stays heap-only (HOT), no index entries.
    # finished_at (the game's, copied when it finishes) is indexed: it changes once, in the finishing transaction.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="game_seats",
        db_index=False,
    )
    ai_level = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(null=True, blank=True)
    to_act = models.BooleanField(default=False, help_text="Denormalized from the engine for the inbox.")
    abort_offered = models.BooleanField(default=False)
    outcome = models.CharField(max_length=4, choices=Outcome.choices, blank=True, default="")
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    rating = models.JSONField(null=True, blank=True, help_text="The seat's rating when the game started.")
    finished_at = models.DateTimeField(null=True, blank=True,
                                       help_text="The game's finished_at once it finished (not when aborted).")

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=models.Q(user__isnull=False), name="seat_unique_user"
            ),
        ]
        indexes = [
            models.Index(fields=["user"], name="seat_user"),
            # A player's finished games, newest first (the export): only seats of finished games are in it.
            models.Index(fields=["user", "-finished_at", "-game"], name="seat_user_finished",
                         condition=models.Q(finished_at__isnull=False)),
            # A player's games not finished (the inbox: open, active; aborted ones too, few): none of its
            # columns changes on a move, so moves stay heap-only updates.
            models.Index(fields=["user", "game"], name="seat_user_current",
                         condition=models.Q(finished_at__isnull=True)),
        ]

    def __str__(self) -> str:
        return f"Seat {self.index} of game {self.game_id}"

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None

    @property
    def joined(self) -> bool:
        return self.joined_at is not None


class GameRecord(models.Model):
    """The public record of an ended game (``games.service.record_payload``), serialized once as compact JSON.

    Written in the transaction that finishes the game (``games.service.records``), or on the first read for a
    game that ended before records were stored (and for aborted games). An ended game never changes, so the
    text is served as it is: ``GET /games/{id}/record`` and the export (issue #32)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="stored_record")
    body = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"Record of game {self.game_id}"


class Move(models.Model):
    """The move log (the truth). ``response`` is the mover's first answer, replayed on retries."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves",
                             db_index=False)  # move_unique_number (game, number) leads with it
    number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()
    client_id = models.CharField(max_length=64, null=True, blank=True)
    version = models.PositiveIntegerField(help_text="The game version this move produced.")
    created_at = models.DateTimeField(default=timezone.now)
    response = models.JSONField(null=True, blank=True, help_text="The mover's own view: secret.")

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="move_unique_number"),
            models.UniqueConstraint(
                fields=["game", "seat", "client_id"], condition=models.Q(client_id__isnull=False),
                name="move_unique_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"Move {self.number} of game {self.game_id}"


class GameEvent(models.Model):
    """What happened at one version of a game: public events only (engine events or service events)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events",
                             db_index=False)  # event_unique_version (game, version) leads with it
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=16)  # created|joined|move|resigned|abort|...
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    events = models.JSONField(default=list)
    move = models.OneToOneField(Move, null=True, blank=True, on_delete=models.CASCADE, related_name="history")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "version"]
        constraints = [models.UniqueConstraint(fields=["game", "version"], name="event_unique_version")]

    def __str__(self) -> str:
        return f"Game {self.game_id} v{self.version} {self.type}"


class GameClock(models.Model):
    """Optional companion of a game. Days per move live on ``Game.days_per_move`` (the service sets
    ``Game.deadline``); a bank clock is kept here and its deadline is written by the clock receiver. A tournament
    game always has one (``tournament``: its clock takes no vacation and no pause, and it cannot be aborted)."""

    class Control(models.TextChoices):
        DAYS = "days", "Days per move"
        BANK = "bank", "Bank with increment"
        UNLIMITED = "unlimited", "Unlimited"

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="clock")
    control = models.CharField(max_length=10, choices=Control.choices, default=Control.DAYS)
    initial_seconds = models.PositiveIntegerField(default=0, help_text="Bank: starting time per seat.")
    increment_seconds = models.PositiveIntegerField(default=0, help_text="Bank: added after each own move.")
    cap_seconds = models.PositiveIntegerField(default=0, help_text="Bank: the bank never grows above this.")
    bonus_seconds = models.JSONField(default=list, blank=True, help_text="Bank: time given per seat (+time).")
    pause_requests = models.JSONField(default=list, blank=True, help_text="Seats that asked for a pause.")
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_remaining = models.FloatField(null=True, blank=True, help_text="Seconds left when the pause began.")
    paused_version = models.PositiveIntegerField(null=True, blank=True)
    tournament = models.BooleanField(default=False, help_text="A tournament game (games.tournaments): no vacation, "
                                     "no pause, no abort.")
    # Bank snapshot, rewritten after every version by the clock receiver (games.clock.service.sync_bank_deadline):
    # each seat's bank (bonus excluded) when the current turn started, that instant, and the version.
    # The game payload extends it by one version in memory, so a move's answer needs no history query.
    banks = models.JSONField(default=list, blank=True, help_text="Bank: seconds per seat at the turn start.")
    turn_started_at = models.DateTimeField(null=True, blank=True)
    synced_version = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "clock_gameclock"  # the table it had in the clock app

    def __str__(self) -> str:
        return f"Clock of game {self.game_id} ({self.control})"


class SeatDeparture(models.Model):
    """A user who left a game: timed out in a 3-4 player game and replaced by an AI."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="departures")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="departures")
    reason = models.CharField(max_length=16, default="timeout")
    replaced_by_ai = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "clock_seatdeparture"  # the table it had in the clock app
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="departure_unique_seat")]
