"""The refusals of a bad query parameter or field value, in the request's language (one text for each).

``name`` is the parameter as the client sent it (never translated); the texts are in the project's catalogs
(``locale/``). Each function answers the text; the caller raises it in its own error type.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _


def not_an_integer(name: str) -> str:
    return _("%(name)s must be an integer.") % {"name": name}


def not_between(name: str, low: int, high: int) -> str:
    return _("%(name)s must be between %(low)s and %(high)s.") % {"name": name, "low": low, "high": high}


def negative(name: str) -> str:
    return _("%(name)s must be 0 or more.") % {"name": name}


def not_a_boolean(name: str) -> str:
    return _("%(name)s must be true or false.") % {"name": name}


def not_one_of(name: str, choices: Iterable[str]) -> str:
    return _("%(name)s must be one of %(choices)s.") % {"name": name, "choices": ", ".join(choices)}


def not_a_date(name: str) -> str:
    return _("%(name)s must be an ISO date (2026-11-29) or date-time.") % {"name": name}
