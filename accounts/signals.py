"""Signals of the accounts app, for the apps that act on a user's credentials or data without accounts knowing them.

``credentials_changed`` (``user_id``) is sent after the commit of a change that may end some of the user's
credentials (a token revoked, a session logged out, a password changed or reset, the account deactivated or
deleted): the socket consumer makes every open socket of the user check its credential again (``games.apps``
connects ``games.realtime.publish.on_credentials_changed``).

``account_deleting`` (``user``) is sent inside the transaction of an account's deletion, before accounts
anonymizes the user row (:func:`accounts.services.delete_account`): each receiver ends what its app holds of
the user (running games resigned or aborted, seeks and challenges ended, notifications, push subscriptions,
vacation and ratings deleted; ``games.privacy.on_account_deleting``). A receiver that raises undoes the deletion.

``relation_changed`` (``user_id``, ``kind``, ``other_id``, ``added``) is sent after the commit of a follow, block or
mute being added or removed (:mod:`accounts.relations`): a block ends the watching of each other's games and a
follow tells the user followed (the receivers are games'; accounts knows none of them).

``personal_data_requested`` (``user``) is sent by the data export (:mod:`accounts.privacy`): each receiver returns
a list of :class:`accounts.privacy.Section` (``games.privacy.personal_data_sections``).
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

credentials_changed = Signal()
account_deleting = Signal()
personal_data_requested = Signal()
relation_changed = Signal()


def recheck_sockets(user_id: int) -> None:
    """After the commit, send :data:`credentials_changed`: every open socket of the user re-checks its credential
    and closes (4401) if its token was revoked or its session ended (docs/security.md)."""
    transaction.on_commit(lambda: credentials_changed.send(sender=None, user_id=user_id))
