"""Notices the clock sends (through the notifications app when it is installed)."""

from __future__ import annotations

from datetime import datetime


def vacation_used(user_id: int, game_id: int, until: datetime) -> None:
    from django.apps import apps

    if not apps.is_installed("games.notify"):
        return
    from games.notify.service import notify

    notify(user_id, "vacation_used", game_id, title="Vacation used",
           body=f"Your deadline in game {game_id} passed; vacation moved it to {until:%Y-%m-%d %H:%M} UTC.",
           data={"until": until.isoformat()})
