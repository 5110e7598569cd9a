"""``review``: the progress of a review, on the sockets and account streams of the users who requested it.

``{"type": "review", "game_id", "status", "progress": {"done", "total"}}``, pushed when the computation starts,
after each decision and when it is done or failed (best effort like every push: ``GET /games/{id}/review`` has
it all). Only a finished game ever has a review, so nothing of the kind is told while a game runs.
"""

from __future__ import annotations

from typing import cast

from games.realtime.lifecycle import EVENT_MESSAGE
from games.realtime.publish import send_to_groups, user_group
from games.realtime.types import ReviewEvent, ReviewStatus

from .models import Review


def review_frame(review: Review) -> ReviewEvent:
    return {"type": "review", "game_id": review.game_id, "status": cast(ReviewStatus, review.status),
            "progress": {"done": review.done, "total": review.total}}


def push(review: Review) -> None:
    """Tell the review's listeners where it stands. Never raises."""
    frame = review_frame(review)
    send_to_groups([(user_group(int(uid)), {"type": EVENT_MESSAGE, "frame": frame}) for uid in review.listeners],
                   f"review event of game {review.game_id}")
