"""What the tournaments app follows (``games.tournaments.apps`` connects these):

* ``games.signals.game_committed``: a version of a game committed. Only the end of a game matters here (a
  move's commit returns at once, no query): the game's result goes to the tournament in the background
  (``tournaments.record_game``, :func:`games.tournaments.service.record_game`), which finds the tournament
  game by its one-to-one with the game and ignores every other game.
* :data:`games.tournaments.service.tournament_full`: the start goes to the background (``tournaments.start``).
* ``accounts.signals.account_deleting``: the account leaves its tournaments (withdraws from the running ones).
* :mod:`games.tournaments.signals` (sent inside the service's and the beat's transactions): after the commit,
  the notifications and typed events of :mod:`games.tournaments.news` (a rolled-back transaction tells nothing).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction

from claim import tasks as claim_tasks
from games.models import Game
from games.service import is_tournament_game

from . import news, service
from .models import Tournament
from .tasks import record_game_task, start_tournament_task

ENDED = (Game.Status.FINISHED, Game.Status.ABORTED)


def on_game_committed(sender: Any, game_id: int, version: int, status: str, **kwargs: Any) -> None:
    if status not in ENDED:
        return
    game = kwargs.get("game")
    if game is not None and Game.clock.is_cached(game) and not is_tournament_game(game):
        return  # the committed game's clock says it is no tournament's: nothing to look up
    claim_tasks.enqueue(record_game_task, game_id)


def on_account_deleting(sender: Any, user: Any, **kwargs: Any) -> None:
    service.on_account_deleting(user)


def on_tournament_full(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    claim_tasks.enqueue(start_tournament_task, tournament_id)


def _after_commit(work: Any, **arguments: Any) -> None:
    transaction.on_commit(partial(work, **arguments), robust=True)


def on_starting_soon(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    _after_commit(news.starting_soon, tournament_id=tournament_id)


def on_started(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    _after_commit(news.started, tournament_id=tournament_id)


def on_round_paired(sender: Any, tournament_id: int, round: int, byes: list[int], **kwargs: Any) -> None:
    _after_commit(news.round_paired, tournament_id=tournament_id, round_number=round, byes=list(byes))


def on_games_created(sender: Any, tournament_id: int, round: int, games: list[tuple[int, list[int]]],
                     **kwargs: Any) -> None:
    _after_commit(news.games_created, tournament_id=tournament_id, round_number=round, games=list(games))


def on_standings_changed(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    _after_commit(news.standings_changed, tournament_id=tournament_id)


def on_finished(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    _after_commit(news.finished, tournament_id=tournament_id)


def on_cancelled(sender: Any, tournament_id: int, reason: str, by: int | None = None, **kwargs: Any) -> None:
    _after_commit(news.cancelled, tournament_id=tournament_id, reason=reason, by=by)


def tournament_exists(tournament_id: int) -> bool:
    """The lookup of the socket's ``watch_tournament`` (games/realtime/tournament_watch.py)."""
    return Tournament.objects.filter(pk=tournament_id).exists()
