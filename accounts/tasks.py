"""Background work of the accounts app (dispatched with :func:`claim.tasks.enqueue`)."""

from __future__ import annotations

from celery import shared_task

from .mail import send_password_reset_mail
from .models import User


@shared_task(name="accounts.send_password_reset_email", ignore_result=True)
def send_password_reset_email(user_id: int) -> None:
    """Sent off the request path: a slow mail server must neither block the request nor reveal,
    by timing, that an account exists."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.email or not user.has_usable_password():
        return
    send_password_reset_mail(user)
