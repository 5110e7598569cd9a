"""The API answers in JSON whatever ``Accept`` says (docs/security.md, "Errors").

Only JSON renderers are configured (no browsable HTML API), and a request whose ``Accept`` names nothing a
view renders (``Accept: text/html``) gets the view's first renderer instead of a 406: a client that asked
for a page still reads a plain JSON answer or error, never an HTML page.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer


class JSONWhateverAccept(DefaultContentNegotiation):
    def select_renderer(self, request: Any, renderers: Iterable[BaseRenderer],
                        format_suffix: str | None = None) -> tuple[BaseRenderer, str]:
        choices = list(renderers)  # DRF passes the view's renderers as a list
        try:
            return super().select_renderer(request, choices, format_suffix)
        except NotAcceptable:
            return choices[0], choices[0].media_type
