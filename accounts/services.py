"""Account operations behind the API views: registration, password resets, tokens, bot upgrade, deletion."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.tokens import default_token_generator
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.db.models.signals import post_delete, post_save
from django.utils import timezone
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode
from django.utils.translation import gettext_lazy as _
from oauth2_provider.models import get_access_token_model, get_grant_model, get_refresh_token_model

from claim.tasks import enqueue

from .lookup import users_with_email
from .models import ApiToken, Relation, User
from .oauth import revoke_all_for_user
from .signals import account_deleting, recheck_sockets
from .tasks import send_password_reset_email

MAX_ACTIVE_TOKENS = 20
#: Said in the request's language (locale/, docs/api.md "Errors"), as every message of the accounts forms.
USERNAME_TAKEN = _("This username is taken.")


class UsernameTaken(Exception):
    pass


def register_user(
    *, username: str, password: str, email: str = "", display_name: str = "", language: str = "en",
    time_zone: str = "UTC",
) -> User:
    """Create an account; raises UsernameTaken if the name exists in any letter case.

    The serializer checks first for a friendly message; the case-insensitive unique index is what
    decides when two sign-ups of the same name race.
    """
    try:
        with transaction.atomic():
            return User.objects.create_user(
                username=username, password=password, email=email, display_name=display_name,
                language=language, time_zone=time_zone,
            )
    except IntegrityError as exc:
        raise UsernameTaken(username) from exc


# --- Password reset -------------------------------------------------------------------------------

def users_for_reset(email: str):
    """Active accounts with this e-mail (canonical forms equal: :mod:`accounts.lookup`, the rule the reset
    limit keys on) that can log in with a password."""
    return [u for u in users_with_email(email) if u.has_usable_password()]


def request_password_reset(email: str) -> int:
    """Queue a reset e-mail to every matching account; returns how many (never shown to the client)."""
    users = users_for_reset(email)
    for user in users:
        enqueue(send_password_reset_email, user.pk)
    return len(users)


def user_for_reset_link(uid: str, token: str) -> User | None:
    """The account a reset link belongs to, or None if the link is invalid, used or expired."""
    try:
        pk = int(force_str(urlsafe_base64_decode(uid)))
    except (TypeError, ValueError, OverflowError):
        return None
    user = User.objects.filter(pk=pk, is_active=True).first()
    if user is None or not default_token_generator.check_token(user, token):
        return None
    return user


# --- Tokens ---------------------------------------------------------------------------------------

def revoke_token(token: ApiToken) -> None:
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        recheck_sockets(token.user_id)


def set_new_password(user: User, password: str, *, reset: bool) -> None:
    """A changed (``reset=False``) or reset password. Other sessions end (Django's session hash); a reset
    also revokes every API token and OAuth token, since whoever asked for it may not have been the only one holding the
    old password. Sockets of ended credentials close within seconds (:func:`recheck_sockets`)."""
    with transaction.atomic():
        user.set_password(password)
        user.save(update_fields=["password"])
        if reset:
            ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(revoked_at=timezone.now())
            revoke_all_for_user(user)  # and every OAuth app's tokens
        recheck_sockets(user.pk)


# --- Deactivation and deletion -------------------------------------------------------------------

def on_user_saved(sender: Any, instance: User, created: bool = False, **kwargs: Any) -> None:
    """``post_save`` of a user (the Django admin's form, ``user.save()``): an inactive account's sockets and
    streams re-check their credential after the commit, and close (4401). A bulk ``QuerySet.update`` sends no
    signal: the sockets' own sweep finds those accounts (games.realtime.watch)."""
    if not created and not instance.is_active:
        recheck_sockets(instance.pk)


def on_user_deleted(sender: Any, instance: User, **kwargs: Any) -> None:
    """``post_delete`` of a user (the admin's delete, a queryset's ``delete()``): their sockets and streams close."""
    recheck_sockets(instance.pk)


def connect_signals() -> None:
    post_save.connect(on_user_saved, sender=User, dispatch_uid="accounts.services.on_user_saved")
    post_delete.connect(on_user_deleted, sender=User, dispatch_uid="accounts.services.on_user_deleted")


#: The public name of every deleted account (docs/accounts.md, "Deleting your account").
DELETED_NAME = "Deleted player"
#: Usernames of deleted accounts begin with this; registration cannot make one (a username starts with a letter or
#: a digit: accounts.serializers.USERNAME_RULES).
DELETED_PREFIX = "_deleted_"


def delete_account(user: User) -> None:
    """Delete the account (GDPR art. 17), in one transaction.

    The other apps end what they hold of the user first (:data:`accounts.signals.account_deleting`: running games
    resigned or aborted by the game service, seeks and challenges ended, notifications, push subscriptions,
    vacation and ratings deleted). Then every API token and OAuth grant, and every follow, block and mute of the
    user or towards them, is deleted, and the user row becomes an anonymous "deleted player": a fresh username
    ``_deleted_<random>`` (the old one is free again), the display name :data:`DELETED_NAME`, no e-mail, names or
    last login, an unusable password (which ends every session: Django's session hash no longer matches), not
    active, no staff rights. The row stays so that finished games keep their seats for the opponents. After the
    commit, the user's sockets and streams close (4401)."""
    with transaction.atomic():
        account_deleting.send(sender=User, user=user)
        ApiToken.objects.filter(user=user).delete()
        # the user's follows, blocks and mutes and everyone's towards them (the row stays: no CASCADE); nothing
        # needs telling (relation_changed's receivers act on relations added)
        Relation.objects.filter(Q(user=user) | Q(other=user)).delete()
        get_refresh_token_model().objects.filter(user=user).delete()
        get_access_token_model().objects.filter(user=user).delete()
        get_grant_model().objects.filter(user=user).delete()
        user.groups.clear()
        user.user_permissions.clear()
        user.username = f"{DELETED_PREFIX}{secrets.token_hex(8)}"
        user.display_name = DELETED_NAME
        user.email = user.first_name = user.last_name = ""
        user.last_login = None
        user.is_active = user.is_staff = user.is_superuser = False
        user.set_unusable_password()
        user.save()  # post_save of an inactive user: its sockets and streams re-check after the commit


# --- Bot accounts ---------------------------------------------------------------------------------

def has_game_records(user: User) -> bool:
    """Whether any row of the games app refers to this user (seats, games created, moves…).

    Generic on purpose: the games app defines its own models; any reference means the account has
    taken part in play, so it can no longer become a bot.
    """
    # (field name, model) of each reverse relation: its related model is the model class with the field
    relations = [(rel.field.name, model) for rel in user._meta.related_objects
                 if isinstance(model := rel.related_model, type) and model._meta.app_label == "games"]
    if not relations:
        return False
    tables = set(connection.introspection.table_names())  # a table not migrated yet holds no records
    for name, model in relations:
        if model._meta.db_table in tables and model._default_manager.filter(**{name: user}).exists():
            return True
    return False


class HasGames(Exception):
    pass


def upgrade_to_bot(user: User) -> User:
    """Flag the account as a bot (irreversible). Raises HasGames if it has ever played."""
    if user.is_bot:
        return user
    if has_game_records(user):
        raise HasGames(user.username)
    user.is_bot = True
    user.save(update_fields=["is_bot"])
    return user
