"""Conditional ``GET`` of the public records (issue #32): ``ETag`` on the answer, ``If-None-Match`` → 304.

Django's own check (``django.utils.cache.get_conditional_response``: RFC 9110's weak comparison, ``*``, lists
of tags) decides; the view computes the ETag first, without reading or building a record, and builds the
body only when the tag does not match.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpResponseBase
from django.utils.cache import get_conditional_response
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

#: The request and response headers of a conditional read, for ``extend_schema(parameters=…)``.
CONDITIONAL = [
    OpenApiParameter("If-None-Match", OpenApiTypes.STR, location=OpenApiParameter.HEADER, required=False,
                     description="The `ETag` of the copy you hold: 304 with no body if it is still current."),
    OpenApiParameter("ETag", OpenApiTypes.STR, location=OpenApiParameter.HEADER, response=[200, 304],
                     description="A strong tag of this answer's body; send it back in `If-None-Match`."),
]


def conditional(request: Any, etag: str, build: Callable[[], HttpResponseBase]) -> HttpResponseBase:
    """304 Not Modified if ``request`` (Django's, or DRF's wrapping it) names ``etag`` in ``If-None-Match``,
    else ``build()``; either way with the ``ETag`` header."""
    raw = getattr(request, "_request", request)
    response = get_conditional_response(raw, etag=etag) or build()
    response["ETag"] = etag
    return response
