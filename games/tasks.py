"""Celery tasks of the games app. Started only through :func:`claim.tasks.enqueue`, on commit."""

from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True, name="games.play_ai_turn")
def play_ai_turn_task(game_id: int, version: int) -> bool:
    """Play the AI's move at ``version``.

    Idempotent: a redelivered or duplicate task finds that the version moved on and does nothing.
    """
    from games.service import play_ai_turn

    return play_ai_turn(game_id, version)


@shared_task(acks_late=True, name="games.resume_ai_turns")
def resume_ai_turns_task(idle_seconds: float = 120.0) -> int:
    """Safety net for Celery beat: re-enqueue AI turns of games idle for ``idle_seconds`` with an AI to act."""
    from games.service.moves import resume_ai_turns

    return len(resume_ai_turns(idle_seconds))


@shared_task(acks_late=True, name="games.game_changed")
def game_changed_task(changes: list[list]) -> None:
    """Run the ``games.signals.game_changed`` receivers (ratings, clocks, notifications) off the
    request path, for a batch of ``[game_id, version, status]`` changes: receivers with a batch
    handler get the whole batch in one call, the others one call per change (``games.signals``)."""
    from games.signals import dispatch_game_changes

    dispatch_game_changes(changes)
