"""The API answers in JSON whatever ``Accept`` says (docs/security.md, "Errors").

Only JSON renderers are configured (no browsable HTML API), and a request whose ``Accept`` names nothing a
view renders (``Accept: text/html``) gets the view's first renderer instead of a 406: a client that asked
for a page still reads a plain JSON answer or error, never an HTML page.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation


class JSONWhateverAccept(DefaultContentNegotiation):
    def select_renderer(self, request: Any, renderers: list[Any], format_suffix: str | None = None) -> Any:
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except NotAcceptable:
            return renderers[0], renderers[0].media_type
