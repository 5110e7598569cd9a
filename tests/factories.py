"""The one way tests make users: ``make_user(name, **fields)`` saves a ``User`` with a known password.

Needs Django set up (it imports the models): pytest-django does that before collecting, except in the
pure ``-p no:django`` runs, whose tests make no users.
"""

from __future__ import annotations

import itertools
from typing import Any

from accounts.models import User

PASSWORD = "Correct-horse-42"  # passes the password validators; log in with it

_serial = itertools.count(1)


def make_user(username: str | None = None, *, password: str = PASSWORD, **fields: Any) -> User:
    """A saved user named ``username`` (default ``user<n>``, unique in the run) with ``password``.

    ``email`` defaults to ``<username in lower case>@example.org`` (``email=""``: none); other ``fields``
    (``is_bot``, ``display_name``, ``language``, ``is_active``…) go to ``create_user`` as given.
    """
    name = username or f"user{next(_serial)}"
    fields.setdefault("email", f"{name.lower()}@example.org")
    return User.objects.create_user(username=name, password=password, **fields)
