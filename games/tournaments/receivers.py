"""What the tournaments app follows (``games.tournaments.apps`` connects these):

* ``games.signals.game_committed``: a version of a game committed. Only the end of a game matters here (a
  move's commit returns at once, no query): the game's result goes to the tournament in the background
  (``tournaments.record_game``, :func:`games.tournaments.service.record_game`), which finds the tournament
  game by its one-to-one with the game and ignores every other game.
* :data:`games.tournaments.service.tournament_full`: the start goes to the background (``tournaments.start``).
* ``accounts.signals.account_deleting``: the account leaves its tournaments (withdraws from the running ones).
"""

from __future__ import annotations

from typing import Any

from claim import tasks as claim_tasks
from games.models import Game
from games.service import is_tournament_game

from . import service
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
