"""Deployment checks of ``manage.py check --deploy`` (docs/security.md, "What is logged")."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register

LOGGING_EMAIL_BACKENDS = ("django.core.mail.backends.console.EmailBackend",
                          "django.core.mail.backends.filebased.EmailBackend")


@register(Tags.security, deploy=True)
def email_backend_sends_mail(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """Outside the embedded run, the console (or file) e-mail backend writes every password-reset e-mail,
    a working link included, into the worker's log instead of sending it."""
    if settings.EMBEDDED or settings.DEBUG or settings.EMAIL_BACKEND not in LOGGING_EMAIL_BACKENDS:
        return []
    return [Warning(
        f"EMAIL_BACKEND is {settings.EMAIL_BACKEND}: password-reset e-mails (with working reset links) and "
        "notifications are written to the log instead of being sent.",
        hint="Set EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend and EMAIL_HOST (README).",
        id="claim.W001",
    )]
