"""Blocks (issue 35) in play: what a block added ends between two users, whoever blocked whom.

``accounts.signals.relation_changed`` is sent after the commit of a block (accounts.relations); this module's
receiver (connected by ``games.apps``) then

* cancels the pending challenges between the two, either way, rematch offers included
  (:func:`games.challenges.service.cancel_between`: the usual ``challenge_cancelled`` events), and
* calls off every open game holding both of them, joined or invited (:func:`games.service.lifecycle.call_off_blocked`:
  an ``aborted`` entry by no seat, pushed to the players as any version).

Games already started go on (the chat hides the lines between the two, games/chat). What a block refuses from then
on (new challenges, invitations, joins, rematches, seek pairings, the lobby) is checked where each is made:
games/challenges/service.py, games/service/lifecycle.py, games/seeks/service.py and lobby.py. Each step is its own
transaction; a failure is logged and the other step still runs (the refusals hold either way).
"""

from __future__ import annotations

import logging
from typing import Any

from accounts.models import Relation

from .challenges.service import cancel_between
from .service.lifecycle import call_off_blocked

log = logging.getLogger("games.blocks")


def on_relation_changed(sender: Any = None, *, user_id: int, kind: str, other_id: int, added: bool,
                        **kwargs: Any) -> None:
    """``relation_changed`` receiver: a block added ends the challenges and open games between the two."""
    if kind != Relation.BLOCK or not added:
        return
    try:
        cancelled = cancel_between(user_id, other_id)
    except Exception:
        log.exception("block %s/%s: pending challenges not cancelled", user_id, other_id)
        cancelled = 0
    try:
        called_off = call_off_blocked(user_id, other_id)
    except Exception:
        log.exception("block %s/%s: open games not called off", user_id, other_id)
        called_off = []
    if cancelled or called_off:
        log.info("block %s/%s: %d challenge(s) cancelled, open games called off: %s", user_id, other_id, cancelled,
                 called_off)
