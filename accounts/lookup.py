"""The one rule that matches a typed username or e-mail address to the stored one, for logging in, the login
limits, password resets and the player a path names (``/users/{username}``): both sides in their
:func:`canonical` form (NFKC, case folding, NFKC again: Unicode's caseless matching of compatibility forms) must
be equal.

So ``SISIRCP``, ``sisircp`` with long s (U+017F, NFKC ``s``) and in full-width letters are ``sisircp``, while
``sisircp`` with dotless i (U+0131: case folding keeps it) is another name, on PostgreSQL and SQLite alike.
Neither database's ``UPPER``/``LIKE`` decides (PostgreSQL's ``UPPER`` maps U+0131 to ``I``, SQLite's folds ASCII
only): the database only narrows the candidates through the unique ``LOWER(username)`` index, and Python
compares canonical forms.

Registration allows ``[A-Za-z0-9_-]`` only, whose canonical form is its ASCII lower case: for every such
name the candidates are exact. A name made in the admin with other letters is found when typed in a case
the database's ``LOWER`` folds alike (never a wrong account: the canonical forms decide).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.db.models.functions import Lower
from django.utils.translation import gettext

from .models import User

_MEMO = "_claim_login_lookup"
#: The longest name the login accepts (``LoginSerializer``, the username column): a longer one names no account.
MAX_TYPED = 150


def no_player_called(username: str) -> str:
    """The refusal of a typed name that names no active player (a challenge's ``to``, a profile's path, a chat
    report), in the request's language; the name quoted as typed (its first :data:`MAX_TYPED` characters)."""
    return gettext("No player is called {name}.").format(name=repr(username[:MAX_TYPED]))


def canonical(value: str) -> str:
    """``value`` as the lookups compare it: NFKC, case folded, NFKC again (stable under repetition)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", value).casefold())


def _lower_variants(value: str) -> list[str]:
    """The strings the database's ``LOWER`` of a matching stored value may equal."""
    return sorted({canonical(value), value.lower(), unicodedata.normalize("NFKC", value).lower()})


def user_for_login(name: str, request: Any = None) -> User | None:
    """The account ``name`` signs in to, active or not, or None: the user whose canonical username is
    ``canonical(name)`` (of two such, the one spelt exactly as typed, else the older).

    One indexed query (the unique ``LOWER(username)`` index: O(log users)); with ``request`` the answer is
    kept on the Django request, so the login throttles and the backend share it.
    """
    raw = getattr(request, "_request", request)
    memo = getattr(raw, _MEMO, None) if raw is not None else None
    if memo is not None and memo[0] == name:
        return memo[1]
    key = canonical(name)
    found: User | None = None
    if key and len(name) <= MAX_TYPED:
        candidates = [u for u in User.objects.alias(lname=Lower("username"))
                      .filter(lname__in=_lower_variants(name)).order_by("pk")
                      if canonical(u.username) == key]
        found = next((u for u in candidates if u.username == name), candidates[0] if candidates else None)
    if raw is not None:
        setattr(raw, _MEMO, (name, found))
    return found


def active_user_named(name: str) -> User | None:
    """The active account called ``name`` by the login's rule (:func:`user_for_login`: canonical forms, the
    unique ``LOWER(username)`` index), or None: how a path's ``{username}`` names a player (games/social)."""
    found = user_for_login(name)
    return found if found is not None and found.is_active else None


def users_with_email(email: str) -> list[User]:
    """Active accounts whose canonical e-mail is ``canonical(email)``.

    The ``email`` column has no index: this reads the users table (as the ``iexact`` lookup it replaces did).
    """
    key = canonical(email)
    if not key:
        return []
    rows = User.objects.alias(lemail=Lower("email")).filter(lemail__in=_lower_variants(email), is_active=True)
    return [u for u in rows if canonical(u.email) == key]
