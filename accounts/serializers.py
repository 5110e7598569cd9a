"""Request and response shapes of the accounts API."""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import RegexValidator
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import exceptions, serializers

from claim.strict_fields import ClosedSerializer, StrictBooleanField, StrictCharField

from . import services
from .models import LANGUAGES, SCOPES, TIME_ZONES, ApiToken, NameKey, User
from .names import AI_LEVEL_NAMES, AI_SEAT_NAMES, SYSTEM_NAMES, is_system_name, reads_as_ai_seat
from .services import USERNAME_TAKEN, user_for_reset_link

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

_TIME_ZONE_SET = frozenset(TIME_ZONES)
LANGUAGE_CODES = [code for code, _ in LANGUAGES]
LANGUAGE_ERRORS: dict[str, StrOrPromise] = {"invalid_choice": f"Choose a language: {', '.join(LANGUAGE_CODES)}."}
# The accounts forms' messages are said in the request's language (Accept-Language: en, de, cs; locale/), the
# schema's help texts in English. A message is one whole sentence to translate; lists of names are placeholders.
USERNAME_RULES = _("2 to 30 characters: letters, digits, '_' and '-', starting with a letter or digit.")
WRONG_CREDENTIALS = _("Wrong username or password.")
INVALID_RESET_LINK = _("This reset link is invalid or has expired.")


#: Django's own short-password message (MinimumLengthValidator), which Django 5.2's Czech catalog lacks: named here
#: so that ``makemessages`` keeps its translation in locale/cs (tests/accounts/test_api_language.py reads it).
DJANGO_SHORT_PASSWORD = ngettext_lazy("This password is too short. It must contain at least %d character.",
                                      "This password is too short. It must contain at least %d characters.", 8)


def validate_time_zone(value: str) -> None:
    if value not in _TIME_ZONE_SET:
        raise serializers.ValidationError(
            f"Unknown time zone '{value}': use an IANA name such as 'Europe/Prague' or 'UTC'."
        )


_NAME_LISTS = {"seats": ", ".join(AI_SEAT_NAMES), "levels": ", ".join(AI_LEVEL_NAMES),
               "system": " or ".join(map(repr, SYSTEM_NAMES))}
DISPLAY_NAME_RULES = format_lazy(_(
    "at most 40 characters, without control, bidi or zero-width characters, and without mixing Latin, Greek and "
    "Cyrillic letters; not reading like another player's username or display name (letter case and letters that "
    "look alike, such as I and l or O and 0, count as the same), not reading as an AI seat's name (not starting "
    "with \"AI (\" nor with {seats}, no \"AI\" or \"KI\" next to those or to {levels}), and not {system}"),
    **_NAME_LISTS)
#: Scripts whose letters look alike (Latin A, Greek Alpha, Cyrillic A): a name takes letters of one of them only.
LOOKALIKE_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")
USERNAME_INVALID = format_lazy(_("Usernames are {rules}"), rules=USERNAME_RULES)
USERNAME_AI_SEAT = format_lazy(_(
    "A username cannot read as an AI seat's name: it cannot start with \"AI (\" nor with {seats} (the AI seats' "
    "names), nor put \"AI\" or \"KI\" next to those or to {levels}, in any letters that look alike."), **_NAME_LISTS)
USERNAME_SYSTEM = format_lazy(_(
    "A username cannot read like {system}: the site shows that name for deleted accounts."), **_NAME_LISTS)
USERNAME_LOOKS_TAKEN = _(
    "This username looks like another player's username or display name (letter case and look-alike letters "
    "aside): choose another one.")
DISPLAY_NAME_AI_SEAT = format_lazy(_(
    "A display name cannot read as an AI seat's name: it cannot start with \"AI (\" nor with {seats} (the AI "
    "seats' names), nor put \"AI\" or \"KI\" next to those or to {levels}, in any letters that look alike: "
    "{rules}."), rules=DISPLAY_NAME_RULES, **_NAME_LISTS)
DISPLAY_NAME_SYSTEM = format_lazy(_(
    "A display name cannot read like {system}: the site shows that name for deleted accounts."), **_NAME_LISTS)
DISPLAY_NAME_LOOKS_TAKEN = format_lazy(_(
    "That display name looks like another player's username or display name (letter case and look-alike letters "
    "aside): {rules}."), rules=DISPLAY_NAME_RULES)
DISPLAY_NAME_SCRIPTS = format_lazy(_("A display name cannot mix Latin, Greek and Cyrillic letters: {rules}."),
                                   rules=DISPLAY_NAME_RULES)
DISPLAY_NAME_HELP = format_lazy("Shown instead of the username when set: {}.", DISPLAY_NAME_RULES)
DISPLAY_NAME_CHARACTER = _("A display name cannot contain the character U+{code}: {rules}.")


def _lookalike_scripts(value: str) -> set[str]:
    """Which of :data:`LOOKALIKE_SCRIPTS` the letters of ``value`` are written in (by their Unicode names)."""
    return {script for ch in value if ch.isalpha()
            for script in LOOKALIKE_SCRIPTS if unicodedata.name(ch, "").startswith(script + " ")}


def check_display_name(value: str, user: User | None) -> str:
    """The display-name rules (docs/security.md), in this order: no control / format (bidi, zero-width) /
    private or unassigned characters; letters of one of Latin, Greek and Cyrillic; not read as an AI seat
    (accounts.names.reads_as_ai_seat) nor like a name the site shows (accounts.names.SYSTEM_NAMES); and no
    comparison key (accounts.names.name_keys) shared with another user's username or display name (one indexed
    lookup of NameKey). ``user``: the account being edited, whose own names are not "another player's" (None
    at registration: the new account has no names stored yet, so its own username is fine too)."""
    for ch in value:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise serializers.ValidationError(DISPLAY_NAME_CHARACTER.format(code=f"{ord(ch):04X}",
                                                                            rules=DISPLAY_NAME_RULES))
    folded = unicodedata.normalize("NFKC", value).casefold().strip()
    if not folded:
        return value.strip()
    if len(_lookalike_scripts(folded)) > 1:  # "alice" with a Cyrillic a, "AI (King)" with a Greek Alpha
        raise serializers.ValidationError(DISPLAY_NAME_SCRIPTS)
    if reads_as_ai_seat(value):  # "AI (King)", "Al (King)", "A I (King)", "[AI] King", "KingAI"
        raise serializers.ValidationError(DISPLAY_NAME_AI_SEAT)
    if is_system_name(value):
        raise serializers.ValidationError(DISPLAY_NAME_SYSTEM)
    if NameKey.taken(value, except_user=user):  # "Bob" when bob exists, "B0b", "rnallory" for mallory
        raise serializers.ValidationError(DISPLAY_NAME_LOOKS_TAKEN)
    return value.strip()


def check_username_lookalike(value: str) -> str:
    """A new username must not read as an AI seat nor like another player's username or display name (the
    display names' rules of accounts.names; an exact match in any letter case is USERNAME_TAKEN first)."""
    if reads_as_ai_seat(value):
        raise serializers.ValidationError(USERNAME_AI_SEAT)
    if is_system_name(value):
        raise serializers.ValidationError(USERNAME_SYSTEM)
    if NameKey.taken(value):
        raise serializers.ValidationError(USERNAME_LOOKS_TAKEN)
    return value


def check_password_strength(password: str, user: User, field: str) -> None:
    try:
        password_validation.validate_password(password, user=user)
    except DjangoValidationError as exc:
        raise serializers.ValidationError({field: list(exc.messages)}) from exc


def _password_field(**kwargs) -> serializers.CharField:
    return serializers.CharField(write_only=True, trim_whitespace=False, style={"input_type": "password"}, **kwargs)


class ProfileSerializer(ClosedSerializer, serializers.ModelSerializer):
    language = serializers.ChoiceField(choices=LANGUAGES, required=False, error_messages=LANGUAGE_ERRORS)
    time_zone = StrictCharField(
        max_length=64, required=False, validators=[validate_time_zone], help_text="IANA time zone, e.g. Europe/Prague."
    )
    display_name = StrictCharField(
        max_length=40, required=False, allow_blank=True,
        help_text=DISPLAY_NAME_HELP
    )
    email = serializers.EmailField(required=False, allow_blank=True, max_length=254,
                                   help_text="Used only for password resets.")
    username = serializers.CharField(
        read_only=True, help_text=format_lazy("Chosen at registration (cannot change); {}", USERNAME_RULES))
    hide_presence = StrictBooleanField(
        required=False, help_text="Never show others whether you are online: friends lists and profiles then say "
                                  "neither online nor offline (`online` false in `GET /friends`, null on your "
                                  "profile). Default false.")

    class Meta:
        model = User
        fields = ["id", "username", "display_name", "email", "language", "time_zone", "is_bot", "date_joined",
                  "hide_presence"]
        read_only_fields = ["id", "username", "is_bot", "date_joined"]

    def validate_display_name(self, value: str) -> str:
        return check_display_name(value, self.instance)


class RegisterSerializer(ClosedSerializer):
    username = StrictCharField(
        min_length=2,
        max_length=30,
        validators=[RegexValidator(r"^[A-Za-z0-9][A-Za-z0-9_-]*\Z", USERNAME_INVALID)],
        help_text=format_lazy("Unique regardless of letter case; {}", USERNAME_RULES),
    )
    password = _password_field(help_text="Checked by the password rules (length, common, numeric, similarity).")
    email = serializers.EmailField(required=False, allow_blank=True, default="", max_length=254)
    display_name = StrictCharField(max_length=40, required=False, allow_blank=True, default="",
                                         help_text=DISPLAY_NAME_HELP)
    language = serializers.ChoiceField(
        choices=LANGUAGES, required=False, default="en", error_messages=LANGUAGE_ERRORS
    )
    time_zone = StrictCharField(max_length=64, required=False, default="UTC", validators=[validate_time_zone])

    def validate_username(self, value: str) -> str:
        if User.objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError(USERNAME_TAKEN)
        return check_username_lookalike(value)

    def validate(self, attrs):
        attrs["display_name"] = check_display_name(attrs["display_name"], None)
        candidate = User(username=attrs["username"], email=attrs["email"], display_name=attrs["display_name"])
        check_password_strength(attrs["password"], candidate, "password")
        return attrs


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="Any letter case.")
    password = _password_field(max_length=4096)


class PasswordChangeSerializer(serializers.Serializer):
    old_password = _password_field(max_length=4096)
    new_password = _password_field()

    def validate_old_password(self, value: str) -> str:
        if not self.context["user"].check_password(value):
            raise serializers.ValidationError(_("Your old password is not correct."))
        return value

    def validate(self, attrs):
        check_password_strength(attrs["new_password"], self.context["user"], "new_password")
        return attrs


class PasswordResetSerializer(serializers.Serializer):
    email = serializers.EmailField(max_length=254)


class PasswordResetConfirmSerializer(serializers.Serializer):
    uid = serializers.CharField(max_length=64, help_text="The `uid` query parameter of the reset link.")
    token = serializers.CharField(max_length=128, help_text="The `token` query parameter of the reset link.")
    new_password = _password_field()

    def validate(self, attrs):
        user = user_for_reset_link(attrs["uid"], attrs["token"])
        if user is None:
            raise serializers.ValidationError(INVALID_RESET_LINK)
        check_password_strength(attrs["new_password"], user, "new_password")
        attrs["user"] = user
        return attrs


class CsrfSerializer(serializers.Serializer):
    csrf_token = serializers.CharField(help_text="Also set as the `csrftoken` cookie; send it as `X-CSRFToken`.")


class ScopeSerializer(serializers.Serializer):
    scope = serializers.CharField()
    description = serializers.CharField()


@extend_schema_field({"type": "array", "items": {"type": "string", "enum": sorted(SCOPES)}, "minItems": 1})
class ScopeListField(serializers.ListField):
    child = serializers.CharField(max_length=40)


class TokenSerializer(serializers.ModelSerializer):
    scopes = serializers.ListField(child=serializers.CharField(), read_only=True)

    class Meta:
        model = ApiToken
        fields = ["id", "name", "scopes", "prefix", "created_at", "last_used_at", "revoked_at"]
        read_only_fields = fields


class TokenCreatedSerializer(TokenSerializer):
    token = serializers.CharField(read_only=True, help_text="The secret: shown only in this response, store it now.")

    class Meta(TokenSerializer.Meta):
        fields = [*TokenSerializer.Meta.fields, "token"]
        read_only_fields = fields


class TokenCreateSerializer(ClosedSerializer):
    name = serializers.CharField(max_length=60, help_text="What the token is for, e.g. 'my bot'.")
    scopes = ScopeListField(allow_empty=False, help_text="A subset of the scopes listed by GET /accounts/scopes.")

    def validate_scopes(self, value: list[str]) -> list[str]:
        unknown = sorted(set(value) - set(SCOPES))
        if unknown:
            raise serializers.ValidationError(
                f"Unknown scope(s): {', '.join(unknown)}. Choose from: {', '.join(sorted(SCOPES))}."
            )
        if "bot:play" in value and not self.context["user"].is_bot:
            # 403, not 400: the request is well formed, the account may not have this scope.
            raise exceptions.PermissionDenied(
                "The scope bot:play is only for bot accounts: upgrade this account first "
                "(POST /api/v1/accounts/bot/upgrade, only possible before it has played), or use games:play.",
                code="bot_account_required",
            )
        return sorted(set(value))

    def validate(self, attrs):
        active = ApiToken.objects.filter(user=self.context["user"], revoked_at__isnull=True).count()
        if active >= services.MAX_ACTIVE_TOKENS:
            raise serializers.ValidationError(
                f"You have {active} active tokens, the most allowed: revoke one you no longer use first."
            )
        return attrs


# --- Your data: the export and the account's deletion (accounts/privacy.py, docs/accounts.md) ------------------

class AccountDeleteSerializer(ClosedSerializer):
    password = _password_field(max_length=4096, help_text="Your current password, to confirm the deletion.")

    def validate_password(self, value: str) -> str:
        if not self.context["user"].check_password(value):
            raise serializers.ValidationError(_("Your password is not correct: the account was not deleted."))
        return value


class PersonalDataAccountSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    email = serializers.CharField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    language = serializers.CharField()
    time_zone = serializers.CharField()
    is_bot = serializers.BooleanField()
    hide_presence = serializers.BooleanField()
    date_joined = serializers.DateTimeField()
    last_login = serializers.DateTimeField(allow_null=True)


class PersonalDataPageSerializer(serializers.Serializer):
    description = serializers.CharField(help_text="What the section's records are.")
    items = serializers.ListField(child=serializers.DictField(), help_text="At most 100 records, newest (highest "
                                  "`id`) first; each has an `id`.")
    next = serializers.CharField(allow_null=True, help_text="The address of the next page (`?before=<id>`), or "
                                 "null when this is the last.")


class PersonalDataSerializer(serializers.Serializer):
    format = serializers.CharField(help_text="claim-personal-data/1")
    generated_at = serializers.DateTimeField()
    account = PersonalDataAccountSerializer()
    sections = serializers.DictField(child=PersonalDataPageSerializer(), help_text="The first page of each section, "
                                     "by name: api_tokens, oauth_access_tokens, oauth_refresh_tokens, following, "
                                     "blocks, mutes, games, ratings, "
                                     "rating_history, seat_departures, seeks, challenges, notifications, "
                                     "notification_deliveries, notification_preferences, notification_settings, "
                                     "push_subscriptions, reminders, vacation, vacation_periods, vacation_uses.")
