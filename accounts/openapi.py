"""OpenAPI pieces: the bearer-token security scheme and the shared error envelope.

The error components (``ApiError``/``ApiErrorDetail``) describe ``claim.api_errors``; other apps
may reuse :func:`error_responses` so the schema has one error shape.
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.BearerTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "clm_<prefix>_<secret>",
            "description": "A personal API token (create one at POST /api/v1/accounts/tokens with a session "
            "login). Each endpoint's description names the scope a token needs.",
        }


class ApiErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Machine-readable: invalid, not_authenticated, throttled, …")
    message = serializers.CharField(help_text="A sentence a person can act on.")
    # A field named "fields": DRF's serializer metaclass takes it out of the class attributes, so it does not
    # replace Serializer.fields (djangorestframework-stubs cannot express that).
    fields = serializers.DictField(  # type: ignore[assignment]
        child=serializers.JSONField(), required=False, help_text="Validation errors: messages per field."
    )
    retry_after = serializers.IntegerField(required=False, help_text="Seconds to wait (429 only).")


class ApiErrorSerializer(serializers.Serializer):
    error = ApiErrorDetailSerializer()


_DESCRIPTIONS = {
    400: "Invalid input: `error.fields` has the messages per field.",
    401: "Not authenticated, or the bearer token is malformed, unknown or revoked (`WWW-Authenticate: Bearer`).",
    403: "Forbidden: missing token scope, a token used where a session login is required, or a failed CSRF check.",
    404: "Not found.",
    409: "Conflict with the current state.",
    429: "Rate limited: see `Retry-After` (seconds) and `error.retry_after`.",
}


def error_responses(*codes: int, **descriptions: str) -> dict[int, OpenApiResponse]:
    """``{400: OpenApiResponse(ApiError, …), …}``; override a description with ``d403="…"``."""
    return {
        code: OpenApiResponse(ApiErrorSerializer, description=descriptions.get(f"d{code}", _DESCRIPTIONS[code]))
        for code in codes
    }


RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    OpenApiTypes.INT,
    location=OpenApiParameter.HEADER,
    response=[429],
    description="Seconds until the next attempt is allowed.",
)
