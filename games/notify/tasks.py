"""Celery tasks of the notifications app."""

from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True, name="notify.deliver")
def deliver_task(notification_id: int, push: bool, email: bool) -> None:
    from .service import deliver

    deliver(notification_id, push, email)


@shared_task(acks_late=True, name="notify.send_reminders")
def send_reminders_task() -> int:
    from .service import send_reminders

    return send_reminders()


@shared_task(acks_late=True, name="notify.send_digests")
def send_digests_task() -> int:
    from .service import send_digests

    return send_digests()
