"""Signals of the accounts app, for the apps that act on a user's credentials without accounts knowing them.

``credentials_changed`` (``user_id``) is sent after the commit of a change that may end some of the user's
credentials (a token revoked, a session logged out, a password changed or reset): the socket consumer makes
every open socket of the user check its credential again (``games.apps`` connects
``games.realtime.publish.on_credentials_changed``).
"""

from __future__ import annotations

from django.dispatch import Signal

credentials_changed = Signal()
