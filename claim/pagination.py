"""The API's pagination: DRF's ``limit``/``offset`` with bounds (docs/security.md, "Input").

DRF's ``LimitOffsetPagination`` takes any ``limit`` and ``offset`` that parse as integers; one beyond
PostgreSQL's bigint (``limit=67382452360409202688``) reached the query and answered 500. ``limit`` is
clamped to :data:`MAX_LIMIT` (DRF's ``max_limit``), and an ``offset`` beyond :data:`MAX_OFFSET` is a 400.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination

MAX_LIMIT = 200
MAX_OFFSET = 1_000_000


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT
    limit_query_description = f"Number of results to return per page (at most {MAX_LIMIT})."
    offset_query_description = f"The initial index from which to return the results (at most {MAX_OFFSET})."

    def get_limit(self, request: Any) -> int | None:
        """A ``limit`` of digits, at least 1 (a larger one is clamped to :data:`MAX_LIMIT`); else 400."""
        raw = request.query_params.get(self.limit_query_param)
        if raw is not None and raw != "" and not (raw.isascii() and raw.isdigit() and int(raw) >= 1):
            raise ValidationError({self.limit_query_param: ["limit must be a whole number of at least 1."]})
        return super().get_limit(request)

    def get_offset(self, request: Any) -> int:
        raw = request.query_params.get(self.offset_query_param, "")
        if (raw != "" and not (raw.isascii() and raw.isdigit())) or len(raw) > len(str(MAX_OFFSET)) \
                or super().get_offset(request) > MAX_OFFSET:
            raise ValidationError({self.offset_query_param: [f"offset must be from 0 to {MAX_OFFSET}."]})
        return super().get_offset(request)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        """``limit`` >= 1 (clamped to :data:`MAX_LIMIT`, so any larger value is taken), ``offset`` 0..MAX."""
        params = super().get_schema_operation_parameters(view)
        for param in params:
            if param["name"] == self.limit_query_param:
                param["schema"] = {**param["schema"], "minimum": 1}
            else:
                param["schema"] = {**param["schema"], "minimum": 0, "maximum": MAX_OFFSET}
        return params
