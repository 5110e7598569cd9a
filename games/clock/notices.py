"""Notices the clock sends through the notifications app."""

from __future__ import annotations

from datetime import datetime

from games.notify.service import notify_game


def vacation_used(user_id: int, game_id: int, until: datetime) -> None:
    notify_game("vacation_used", game_id, [user_id], "vacation.title", "vacation.body",
                data={"until": until.isoformat()}, until=f"{until:%Y-%m-%d %H:%M}")


def seat_replaced(user_ids: list[int], game_id: int) -> None:
    """3-4 seats: the players whose time ran out, now played by the AI (they may still watch the game)."""
    notify_game("seat_replaced", game_id, user_ids, "replaced.title", "replaced.body")
