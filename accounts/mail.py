"""The password-reset e-mail: its link (to the PWA's reset page) and its text, in the account's language."""

from __future__ import annotations

import logging
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import send_mail
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from .checks import LOGGING_EMAIL_BACKENDS
from .models import User

log = logging.getLogger(__name__)


def reset_link(user: User) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return f"{settings.FRONTEND_URL.rstrip('/')}/reset-password?{urlencode({'uid': uid, 'token': token})}"


def send_password_reset_mail(user: User) -> None:
    if not (settings.EMBEDDED or settings.DEBUG) and settings.EMAIL_BACKEND in LOGGING_EMAIL_BACKENDS:
        # A working reset link must not land in a production log (check --deploy warns: claim.W001).
        log.warning("password-reset e-mail for user %s not sent: EMAIL_BACKEND writes mail to the log", user.pk)
        return
    hours = settings.PASSWORD_RESET_TIMEOUT // 3600
    with translation.override(user.language or settings.LANGUAGE_CODE):
        subject = _("Reset your claim password")
        body = _(
            "Hello %(name)s,\n\n"
            "someone (hopefully you) asked to reset the password of your claim account '%(username)s'.\n"
            "Choose a new password here:\n\n%(link)s\n\n"
            "The link works once and for %(hours)d hours. If you didn't ask for this, ignore this e-mail: "
            "your password stays as it is.\n"
        ) % {"name": user.public_name, "username": user.username, "link": reset_link(user), "hours": hours}
    send_mail(subject, body, None, [user.email])
