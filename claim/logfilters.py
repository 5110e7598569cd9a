"""Secrets never reach the server's logs (docs/security.md, "What is logged").

A socket client may authenticate with ``/ws/?token=clm_…``; uvicorn writes the path with its query string
into the access log and into its "WebSocket /ws/?token=… [accepted]" lines. :class:`RedactSecrets` replaces
the value of every ``token``-like query parameter (``token``, ``access_token``, ``code``…) in those records
with ``[redacted]`` before any handler formats them.
"""

from __future__ import annotations

import logging
import re

SECRET_PARAM = re.compile(r"(?i)\b((?:access_|refresh_)?token|code|uid|password)=([^&\s\"']+)")
SERVER_LOGGERS = ("uvicorn.access", "uvicorn.error", "django.request", "django.server")


def redact(text: str) -> str:
    return SECRET_PARAM.sub(r"\1=[redacted]", text)


class RedactSecrets(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def redact_tokens_in_server_logs() -> None:
    """Install :class:`RedactSecrets` on the server's loggers (idempotent)."""
    for name in SERVER_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())
