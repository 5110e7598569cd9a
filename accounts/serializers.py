"""Request and response shapes of the accounts API."""

from __future__ import annotations

import unicodedata

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import exceptions, serializers

from claim.strict_fields import ClosedSerializer, StrictCharField

from .models import LANGUAGES, SCOPES, TIME_ZONES, ApiToken, User

_TIME_ZONE_SET = frozenset(TIME_ZONES)
LANGUAGE_CODES = [code for code, _ in LANGUAGES]
LANGUAGE_ERRORS = {"invalid_choice": f"Choose a language: {', '.join(LANGUAGE_CODES)}."}
USERNAME_RULES = "2 to 30 characters: letters, digits, '_' and '-', starting with a letter or digit."
WRONG_CREDENTIALS = "Wrong username or password."
INVALID_RESET_LINK = "This reset link is invalid or has expired."


def validate_time_zone(value: str) -> str:
    if value not in _TIME_ZONE_SET:
        raise serializers.ValidationError(
            f"Unknown time zone '{value}': use an IANA name such as 'Europe/Prague' or 'UTC'."
        )
    return value


DISPLAY_NAME_RULES = ("at most 40 characters, without control, bidi or zero-width characters, and without "
                      "mixing Latin, Greek and Cyrillic letters; not another player's username, and not starting "
                      "with \"AI (\" (the AI seats' names)")
#: Scripts whose letters look alike (Latin A, Greek Alpha, Cyrillic A): a name takes letters of one of them only.
LOOKALIKE_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")


def _folded(value: str) -> str:
    return unicodedata.normalize("NFKC", value).casefold().strip()


def _lookalike_scripts(value: str) -> set[str]:
    """Which of :data:`LOOKALIKE_SCRIPTS` the letters of ``value`` are written in (by their Unicode names)."""
    return {script for ch in value if ch.isalpha()
            for script in LOOKALIKE_SCRIPTS if unicodedata.name(ch, "").startswith(script + " ")}


def check_display_name(value: str, user: User | None, username: str | None) -> str:
    """The display-name rules (docs/security.md): no control / format (bidi, zero-width) / private or
    unassigned characters, no "AI (...)" prefix, and not a username other than the user's own, ignoring case
    and compatibility forms."""
    for ch in value:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise serializers.ValidationError(
                f"A display name cannot contain the character U+{ord(ch):04X}: {DISPLAY_NAME_RULES}.")
    folded = _folded(value)
    if not folded:
        return value.strip()
    if len(_lookalike_scripts(folded)) > 1:  # "alice" with a Cyrillic a, "AI (King)" with a Greek Alpha
        raise serializers.ValidationError(
            f"A display name cannot mix Latin, Greek and Cyrillic letters: {DISPLAY_NAME_RULES}.")
    if "".join(folded.split()).startswith("ai("):  # "AI (King)", "ai(knight)", "A I (King)"
        raise serializers.ValidationError(f'A display name cannot start with "AI (": {DISPLAY_NAME_RULES}.')
    own = _folded(username or (user.username if user else ""))
    if folded != own:
        taken = User.objects.filter(username__iexact=unicodedata.normalize("NFKC", value).strip())
        if user is not None and user.pk:
            taken = taken.exclude(pk=user.pk)
        if taken.exists():
            raise serializers.ValidationError(
                f"That display name is another player's username: {DISPLAY_NAME_RULES}.")
    return value.strip()


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
        help_text=f"Shown instead of the username when set: {DISPLAY_NAME_RULES}."
    )
    email = serializers.EmailField(required=False, allow_blank=True, max_length=254,
                                   help_text="Used only for password resets.")
    username = serializers.CharField(read_only=True,
                                     help_text=f"Chosen at registration (cannot change); {USERNAME_RULES}")

    class Meta:
        model = User
        fields = ["id", "username", "display_name", "email", "language", "time_zone", "is_bot", "date_joined"]
        read_only_fields = ["id", "username", "is_bot", "date_joined"]

    def validate_display_name(self, value: str) -> str:
        return check_display_name(value, self.instance, None)


class RegisterSerializer(ClosedSerializer):
    username = StrictCharField(
        min_length=2,
        max_length=30,
        validators=[RegexValidator(r"^[A-Za-z0-9][A-Za-z0-9_-]*\Z", f"Usernames are {USERNAME_RULES}")],
        help_text=f"Unique regardless of letter case; {USERNAME_RULES}",
    )
    password = _password_field(help_text="Checked by the password rules (length, common, numeric, similarity).")
    email = serializers.EmailField(required=False, allow_blank=True, default="", max_length=254)
    display_name = StrictCharField(max_length=40, required=False, allow_blank=True, default="",
                                         help_text=f"Shown instead of the username when set: {DISPLAY_NAME_RULES}.")
    language = serializers.ChoiceField(
        choices=LANGUAGES, required=False, default="en", error_messages=LANGUAGE_ERRORS
    )
    time_zone = StrictCharField(max_length=64, required=False, default="UTC", validators=[validate_time_zone])

    def validate_username(self, value: str) -> str:
        from .services import USERNAME_TAKEN

        if User.objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError(USERNAME_TAKEN)
        return value

    def validate(self, attrs):
        attrs["display_name"] = check_display_name(attrs["display_name"], None, attrs["username"])
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
            raise serializers.ValidationError("Your old password is not correct.")
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
        from .services import user_for_reset_link

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
        from .services import MAX_ACTIVE_TOKENS

        active = ApiToken.objects.filter(user=self.context["user"], revoked_at__isnull=True).count()
        if active >= MAX_ACTIVE_TOKENS:
            raise serializers.ValidationError(
                f"You have {active} active tokens, the most allowed: revoke one you no longer use first."
            )
        return attrs
