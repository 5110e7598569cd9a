"""The authentication backend: Django's ``ModelBackend``, with the session's user read by one SELECT compiled
once (:mod:`claim.rowsql`), as a token's user is (accounts/authentication.py). Every request of the PWA reads
it, its moves included (docs/performance.md).

``claim.settings`` lists it first and Django's ``ModelBackend`` second, for the sessions that name that one; a
wrong password ends here (``PermissionDenied``), so it is hashed once, not once per backend."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from claim.rowsql import JoinedSelect

from .models import User

_USER_BY_ID = JoinedSelect(User, [], where="t0.id = %s")


class UserBackend(ModelBackend):
    def authenticate(self, request: Any, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> User | None:
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None and password is not None:
            raise PermissionDenied
        return user

    def get_user(self, user_id: Any) -> User | None:
        found = _USER_BY_ID.fetch([user_id])
        user = found[0] if found else None
        return user if user is not None and self.user_can_authenticate(user) else None
