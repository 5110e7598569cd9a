"""The export of one's own personal data (GDPR art. 15 and 20): ``GET /api/v1/accounts/me/data`` (docs/accounts.md).

The export is one JSON document: the account's own fields, then **sections**, one per kind of record held about
the user (API tokens, OAuth tokens, and what the games app holds: games, ratings, notifications...). Each
section holds at most :data:`PAGE_SIZE` records, newest first (by id), and, when there are more, the address of
the next page (``GET /api/v1/accounts/me/data/{section}?before=<id>``). A section's page is one query on an index
that leads with the user (an ``id < before`` range on it where the index also holds the id), so neither the
export nor a page can make the server read a whole history at once.

Accounts knows its own sections; the other apps add theirs by answering
:data:`accounts.signals.personal_data_requested` with a list of :class:`Section` (accounts does not import
games: ``games.privacy`` answers).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_refresh_token_model

from .models import ApiToken, Relation, User
from .signals import personal_data_requested

#: Records per section in the export and in each page of a section.
PAGE_SIZE = 100
FORMAT = "claim-personal-data/1"

#: ``page(user, before, limit)``: at most ``limit`` records of the user with an id below ``before`` (all if
#: None), highest id first; each a JSON-ready dict with an ``id`` (an integer, or text: ``Section.text_ids``).
PageFunction = Callable[[User, Any, int], list[dict[str, Any]]]


@dataclass(frozen=True)
class Section:
    """One kind of record about the user: its name in the export, what it is, and how to read a page of it."""

    name: str
    description: str
    page: PageFunction
    text_ids: bool = False  # ids are short text (a challenge's), not integers


def iso(value: Any) -> str | None:
    """A datetime as ISO 8601 (None stays None)."""
    return value.isoformat() if value is not None else None


def below(queryset: Any, before: Any, limit: int, field: str = "id") -> list[Any]:
    """``limit`` rows of ``queryset`` with ``field`` below ``before``, highest first."""
    if before is not None:
        queryset = queryset.filter(**{f"{field}__lt": before})
    return list(queryset.order_by(f"-{field}")[:limit])


def _tokens(user: User, before: Any, limit: int) -> list[dict[str, Any]]:
    return [{"id": t.pk, "name": t.name, "prefix": t.prefix, "scopes": t.scopes, "created_at": iso(t.created_at),
             "last_used_at": iso(t.last_used_at), "revoked_at": iso(t.revoked_at)}
            for t in below(ApiToken.objects.filter(user=user), before, limit)]


def _oauth_access(user: User, before: Any, limit: int) -> list[dict[str, Any]]:
    rows = below(get_access_token_model().objects.filter(user=user).select_related("application"), before, limit)
    return [{"id": t.pk, "app": t.application.name if t.application else None, "scope": t.scope,
             "created_at": iso(t.created), "expires_at": iso(t.expires)} for t in rows]


def _oauth_refresh(user: User, before: Any, limit: int) -> list[dict[str, Any]]:
    rows = below(get_refresh_token_model().objects.filter(user=user).select_related("application"), before, limit)
    return [{"id": t.pk, "app": t.application.name if t.application else None, "created_at": iso(t.created),
             "revoked_at": iso(t.revoked)} for t in rows]


def _relations(kind: str) -> PageFunction:
    """A page of the players the user follows, blocks or mutes (``kind``): a range of the index (user, kind, id)."""

    def page(user: User, before: Any, limit: int) -> list[dict[str, Any]]:
        rows = below(Relation.objects.filter(user=user, kind=kind).select_related("other"), before, limit)
        return [{"id": r.pk, "user_id": r.other_id, "username": r.other.username, "created_at": iso(r.created_at)}
                for r in rows]

    return page


OWN_SECTIONS = (
    Section("api_tokens", "Your personal API tokens (their metadata: the secret is never stored).", _tokens),
    Section("oauth_access_tokens", "Access tokens of the apps you authorized (OAuth; metadata only).", _oauth_access),
    Section("oauth_refresh_tokens", "Refresh tokens of the apps you authorized (OAuth; metadata only).",
            _oauth_refresh),
    # issue 35: one's own stances towards others (who follows or blocks you is theirs)
    Section("following", "The players you follow (since created_at).", _relations(Relation.FOLLOW)),
    Section("blocks", "The players you block.", _relations(Relation.BLOCK)),
    Section("mutes", "The players you mute.", _relations(Relation.MUTE)),
)


def sections() -> dict[str, Section]:
    """Every section, by name: accounts' own, then those the other apps answer the signal with."""
    found = {s.name: s for s in OWN_SECTIONS}
    for _receiver, answer in personal_data_requested.send(sender=User):
        # a receiver answers a list of sections (django-stubs type a receiver's answer str | None)
        for section in cast("list[Section] | None", answer) or []:
            found[section.name] = section
    return found


def account_fields(user: User) -> dict[str, Any]:
    """The user row's personal fields (never the password hash)."""
    return {"id": user.pk, "username": user.username, "display_name": user.display_name, "email": user.email,
            "first_name": user.first_name, "last_name": user.last_name, "language": user.language,
            "time_zone": user.time_zone, "is_bot": user.is_bot, "hide_presence": user.hide_presence,
            "date_joined": iso(user.date_joined), "last_login": iso(user.last_login)}


def section_page(user: User, section: Section, before: Any, base: str) -> dict[str, Any]:
    """``{"description", "items", "next"}``: one page of ``section`` (one row more is read to know if there is
    a next page); ``base`` is the address of the section's pages."""
    rows = section.page(user, before, PAGE_SIZE + 1)
    items = rows[:PAGE_SIZE]
    following = f"{base}?before={items[-1]['id']}" if len(rows) > PAGE_SIZE else None
    return {"description": section.description, "items": items, "next": following}


def parse_before(section: Section, raw: str | None) -> Any:
    """The ``before`` query parameter for ``section``: None, a positive integer, or (``text_ids``) up to 40
    letters, digits, '-' and '_'; anything else raises ValueError with a sentence for the client."""
    if raw is None or raw == "":
        return None
    if section.text_ids:
        if len(raw) <= 40 and raw.isascii() and raw.replace("-", "").replace("_", "").isalnum():
            return raw
        raise ValueError("before must be an id of this section (letters, digits, '-' and '_').")
    if raw.isascii() and raw.isdigit() and len(raw) <= 18 and int(raw) >= 1:
        return int(raw)
    raise ValueError("before must be an id of this section (a positive whole number).")


def export(user: User, base: str) -> dict[str, Any]:
    """The whole export document; ``base`` is the export's address (a section's pages are under it)."""
    return {
        "format": FORMAT,
        "generated_at": iso(timezone.now()),
        "account": account_fields(user),
        "sections": {name: section_page(user, s, None, f"{base}/{name}") for name, s in sections().items()},
    }
