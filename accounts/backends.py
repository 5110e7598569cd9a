"""The authentication backend: Django's ``ModelBackend``, with the session's user read by one SELECT compiled
once (:mod:`claim.rowsql`), as a token's user is (accounts/authentication.py). Every request of the PWA reads
it, its moves included (docs/performance.md).

The username is looked up by the one rule of :mod:`accounts.lookup` (canonical forms: NFKC and case folding),
the rule the login limits key on (accounts/throttles.py), not by the database's ``UPPER``/``LIKE``.

``claim.settings`` lists it first and Django's ``ModelBackend`` second, for the sessions that name that one; a
wrong password ends here (``PermissionDenied``), so it is hashed once, not once per backend."""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from claim.rowsql import JoinedSelect

from .lookup import user_for_login
from .models import User

_USER_BY_ID = JoinedSelect(User, [], where="t0.id = %s")


class UserBackend(ModelBackend):
    def authenticate(self, request: Any, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> User | None:
        """The account ``username`` resolves to (:func:`accounts.lookup.user_for_login`) if ``password`` is its
        password and it may log in; else ``PermissionDenied`` (no other backend tries). Without a password: None."""
        if username is None:
            username = kwargs.get(User.USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = user_for_login(username, request)
        if user is None:
            User().set_password(password)  # hash once all the same: an unknown name takes as long (Django #20760)
        elif user.check_password(password) and self.user_can_authenticate(user):
            return user
        raise PermissionDenied

    async def aauthenticate(self, request: Any, username: str | None = None, password: str | None = None,
                            **kwargs: Any) -> User | None:
        return await sync_to_async(self.authenticate)(request, username=username, password=password, **kwargs)

    def get_user(self, user_id: Any) -> User | None:
        found = _USER_BY_ID.fetch([user_id])
        user = found[0] if found else None
        return user if user is not None and self.user_can_authenticate(user) else None
