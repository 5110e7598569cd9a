"""The Django admin's form for OAuth applications offers only what this server supports (docs/accounts.md).

django-oauth-toolkit's admin lists every grant type and OIDC signing algorithm it knows, but here only the
authorization code grant works: the implicit and password grants are refused (RFC 9700 settings, claim/settings.py),
client credentials make tokens without a user (which accounts.oauth refuses), the device and OIDC hybrid flows
have no endpoint, and OIDC is off. ``OAUTH2_PROVIDER["APPLICATION_ADMIN_CLASS"]`` names this class; DOT's admin
module imports it when it registers the application model (so this module imports DOT's admin, never the other
way round at import time).
"""

from __future__ import annotations

from typing import Any

from oauth2_provider.admin import ApplicationAdmin
from oauth2_provider.forms import ApplicationForm
from oauth2_provider.models import AbstractApplication

#: The grant types and OIDC algorithms the form offers.
GRANT_TYPES = [AbstractApplication.GRANT_AUTHORIZATION_CODE]
ALGORITHMS = [AbstractApplication.NO_ALGORITHM]


class OAuthApplicationForm(ApplicationForm):
    """DOT's form, its choices narrowed to :data:`GRANT_TYPES` and :data:`ALGORITHMS` (a posted other value is
    refused like any invalid choice)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, allowed in (("authorization_grant_type", GRANT_TYPES), ("algorithm", ALGORITHMS)):
            field = self.fields.get(name)
            if field is not None:
                field.choices = [(value, label) for value, label in field.choices if value in allowed]
        grant = self.fields.get("authorization_grant_type")
        if grant is not None and not self.instance.pk:
            grant.initial = AbstractApplication.GRANT_AUTHORIZATION_CODE


class OAuthApplicationAdmin(ApplicationAdmin):
    form = OAuthApplicationForm
