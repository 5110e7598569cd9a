"""Users (case-insensitively unique usernames, profile fields) and personal API tokens."""

from __future__ import annotations

import hashlib
import secrets
from typing import ClassVar
from zoneinfo import available_timezones

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone

from .names import name_keys
from .scopes import SCOPES  # noqa: F401 - the one scope list (personal tokens and OAuth)

LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("cs", "Čeština")]
TIME_ZONES = sorted(available_timezones())


class CaseInsensitiveUserManager(UserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> User:  # login is case-insensitive too
        return self.get(username__iexact=username)


class User(AbstractUser):
    display_name = models.CharField(max_length=40, blank=True)
    language = models.CharField(max_length=2, choices=LANGUAGES, default="en")
    time_zone = models.CharField(max_length=64, default="UTC")
    is_bot = models.BooleanField(default=False, help_text="Bot accounts play via the API and are shown as bots.")
    hide_presence = models.BooleanField(default=False, help_text="Never show others that this user is online.")
    chat_banned = models.BooleanField(default=False, help_text="Set by an operator: this user may not send chat.")

    objects: ClassVar[CaseInsensitiveUserManager] = CaseInsensitiveUserManager()

    class Meta:
        constraints = [models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique")]

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    def save(self, *args, **kwargs) -> None:
        """Save, and keep this user's :class:`NameKey` rows those of its username and display name (skipped
        when ``update_fields`` names neither, as a login's ``last_login`` update)."""
        super().save(*args, **kwargs)
        fields = kwargs.get("update_fields")
        if fields is None or {"username", "display_name"} & set(fields):
            NameKey.sync(self)


class NameKey(models.Model):
    """One comparison key (accounts.names.name_keys) of a user's username or display name.

    "Does this name read like another player's?" is then one lookup of the indexed ``key`` column, however
    many players there are. A user has at most six rows (three keys per name), usually one to three.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="name_keys")
    key = models.TextField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="accounts_namekey_user_key_unique")]

    @staticmethod
    def keys_of(user: User) -> frozenset[str]:
        return name_keys(user.username) | name_keys(user.display_name)

    @classmethod
    def sync(cls, user: User) -> None:
        """Make ``user``'s rows the keys of its current names (one SELECT; writes only what changed)."""
        want = cls.keys_of(user)
        have = set(cls.objects.filter(user=user).values_list("key", flat=True))
        if have - want:
            cls.objects.filter(user=user, key__in=have - want).delete()
        if want - have:
            NameKey.objects.bulk_create([NameKey(user=user, key=key) for key in want - have], ignore_conflicts=True)

    @classmethod
    def taken(cls, name: str, except_user: User | None = None) -> bool:
        """Whether another user's username or display name reads like ``name`` (a shared key): an index
        lookup of at most three keys."""
        rows = cls.objects.filter(key__in=name_keys(name))
        if except_user is not None and except_user.pk:
            rows = rows.exclude(user_id=except_user.pk)
        return rows.exists()


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class ApiToken(models.Model):
    """A personal API token. Only its SHA-256 digest is stored; the secret is shown once.

    Format: ``clm_<prefix>_<secret>``; ``prefix`` (8 hex chars) finds the row, the digest of the
    whole string is compared in constant time.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)
    prefix = models.CharField(max_length=8, unique=True)
    digest = models.CharField(max_length=64)
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    @classmethod
    def issue(cls, user: User, name: str, scopes: list[str]) -> tuple[ApiToken, str]:
        """Create a token; returns the row and the plain secret (shown to the user once)."""
        while True:
            prefix = secrets.token_hex(4)
            if not cls.objects.filter(prefix=prefix).exists():
                break
        plain = f"clm_{prefix}_{secrets.token_urlsafe(32)}"
        token = cls.objects.create(user=user, name=name, prefix=prefix, digest=_digest(plain), scopes=sorted(scopes))
        return token, plain

    @classmethod
    def parse_prefix(cls, plain: str) -> str | None:
        parts = plain.split("_", 2)
        if len(parts) != 3 or parts[0] != "clm" or len(parts[1]) != 8:
            return None
        return parts[1]

    def matches(self, plain: str) -> bool:
        return secrets.compare_digest(self.digest, _digest(plain))


class Relation(models.Model):
    """One user's stance towards another: a follow, a block or a mute (accounts.relations reads them).

    * **follow**: ``user`` follows ``other``; two follows, each way, make friends.
    * **block**: no challenges, invitations, chat or seek pairing between the two, in either direction.
    * **mute**: ``other``'s chat lines are hidden from ``user`` (``other`` is not told).
    """

    FOLLOW = "follow"
    BLOCK = "block"
    MUTE = "mute"
    KINDS = [(FOLLOW, "follow"), (BLOCK, "block"), (MUTE, "mute")]

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="relations")
    other = models.ForeignKey(User, on_delete=models.CASCADE, related_name="relations_to")
    kind = models.CharField(max_length=6, choices=KINDS)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "other"], name="accounts_relation_unique"),
            models.CheckConstraint(condition=~models.Q(user=models.F("other")), name="accounts_relation_not_self"),
        ]
        indexes = [
            models.Index(fields=["other", "kind", "user"], name="accounts_relation_to"),
            # keyset pages by relation id, newest first (games/social: GET /following, /blocks, /mutes, /friends
            # and /followers): one index range per page, whatever the length of the list
            models.Index(fields=["user", "kind", "id"], name="accounts_relation_page"),
            models.Index(fields=["other", "kind", "id"], name="accounts_relation_to_page"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.other_id}"
