"""Who may read and write which room of a game's chat (docs/api.md, "Chat").

* Players: the users with a joined seat, and those whose seat the AI took when their time ran out
  (``games.service.access.departed``). They read and write the players' room from the start, and the
  spectators' room after the end.
* Spectators: other users of a game that :func:`games.spectate.access.may_watch` allows (watchable, started, no
  block with a player: one implementation, the watch endpoints' and the socket's). They read and write the
  spectators' room, and read the players' room after the end.
* A finished game is public (its record, chat included, is): any user reads both rooms of it.
"""

from __future__ import annotations

from games.spectate.access import may_watch

__all__ = ["may_watch"]
