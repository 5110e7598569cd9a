"""The tournaments' signals (issue 36): what the service and the beat send, inside their transaction, at the points
a tournament's followers care about. The service imports none of its subscribers:
:mod:`games.tournaments.receivers` (connected in ``TournamentsConfig.ready``) turns them into notifications and typed
events, **after the commit** (a transaction that rolls back announces nothing). Every signal's sender is
:class:`~games.tournaments.models.Tournament` and each carries ``tournament_id``; the receivers read what they tell
from the committed rows.

* ``starting_soon``: by the beat (:func:`games.tournaments.reminders.remind_due`), once per tournament.
* ``started``: the start (seeded; its first games are made in the same transaction).
* ``round_paired`` (``round``, ``byes``: user ids): a round of a Swiss or table tournament was paired (the first
  at the start).
* ``games_created`` (``round``, ``games``: ``[(game id, [user ids by seat])]``): a round's games were made (all of
  a round robin's at the start, one signal per round).
* ``standings_changed``: a result was recorded, or a player withdrew while it runs.
* ``finished``: the last round's last game ended (or too few players were left to pair another).
* ``cancelled`` (``reason``, ``by``): called off before the start by its creator (``creator``, ``by`` their id) or
  too few players at the start (``too_few``, ``by`` None).
"""

from __future__ import annotations

from django.dispatch import Signal

starting_soon = Signal()
started = Signal()
round_paired = Signal()
games_created = Signal()
standings_changed = Signal()
finished = Signal()
cancelled = Signal()
