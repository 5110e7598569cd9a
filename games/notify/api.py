"""``/api/v1/notifications``: inbox, read marks, preferences, push subscriptions, failed deliveries."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import SessionRequired
from accounts.openapi import error_responses
from claim import refusals
from claim.api_errors import error_body
from claim.strict_fields import ClosedSerializer, StrictBooleanField, StrictCharField, StrictIntegerField
from games.api.permissions import GameScopes

from . import schema
from .endpoints import endpoint_pattern, endpoint_problem
from .models import DEFAULTS, EVENTS, Delivery, Notification, NotifySettings, Preference, PushSubscription
from .service import note_payload

TAGS = ["notifications"]
ENDPOINT_TAKEN = ("This push endpoint is registered to another account: turn notifications off in that account "
                  "(or log it out) on this browser first.")


def _iso(dt: Any) -> str | None:
    return dt.isoformat().replace("+00:00", "Z") if dt else None




class InboxView(APIView):
    @extend_schema(tags=TAGS, responses={200: schema.InboxSerializer, **schema.READ},
                   summary="Your in-app notifications, newest first",
                   parameters=[OpenApiParameter("unread", bool, required=False)])
    def get(self, request):
        qs = Notification.objects.filter(user=request.user, inbox=True)
        unread_only = request.query_params.get("unread", "false")
        if unread_only not in ("true", "false", "1", "0"):
            raise ValidationError({"unread": [refusals.not_a_boolean("unread")]})
        if unread_only in ("true", "1"):
            qs = qs.filter(read_at__isnull=True)
        unread = Notification.objects.filter(user=request.user, inbox=True, read_at__isnull=True).count()
        return Response({"unread": unread, "results": [note_payload(n, request.user.language) for n in qs[:100]]})


class ReadSerializer(ClosedSerializer):
    ids = serializers.ListField(child=StrictIntegerField(), required=False)
    game = StrictIntegerField(required=False, min_value=1,
                              help_text="Every notification of this game (the web app sends it when the game opens).")
    all = StrictBooleanField(required=False, default=False)


class ReadView(APIView):
    @extend_schema(tags=TAGS, request=ReadSerializer, responses={200: schema.MarkedSerializer, **schema.WRITE},
                   summary="Mark notifications read (ids, those of a game, or all)")
    def post(self, request):
        ser = ReadSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        qs = Notification.objects.filter(user=request.user, read_at__isnull=True)
        if not data["all"]:
            qs = qs.filter(game_id=data["game"]) if "game" in data else qs.filter(pk__in=data.get("ids") or [])
        return Response({"marked": qs.update(read_at=timezone.now())})


_CHANNELS_SCHEMA = {"type": "object", "additionalProperties": False,
                    "properties": {ch: {"type": "boolean"} for ch in ("inapp", "push", "email")}}


@extend_schema_field({"type": "object", "additionalProperties": False,
                      "properties": {event: _CHANNELS_SCHEMA for event in EVENTS}})
class EventPrefsField(serializers.DictField):
    """``{event: {channel: true|false}}``: known events and channels only (``validate_events``)."""


class PrefSerializer(ClosedSerializer):
    email_digest = StrictBooleanField(required=False)
    events = EventPrefsField(child=serializers.DictField(child=StrictBooleanField()), required=False)

    def validate_events(self, value):
        for event, channels in value.items():
            if event not in EVENTS:
                raise serializers.ValidationError(f"unknown event {event!r}; events are {sorted(EVENTS)}.")
            bad = set(channels) - {"inapp", "push", "email"}
            if bad:
                raise serializers.ValidationError(f"{event}: unknown channel(s) {sorted(bad)}.")
        return value


def prefs_payload(user: Any) -> dict[str, Any]:
    stored = {p.event: p for p in Preference.objects.filter(user=user)}
    events = {}
    for event, (inapp, push, email) in DEFAULTS.items():
        p = stored.get(event)
        events[event] = {"inapp": p.inapp, "push": p.push, "email": p.email} if p else \
            {"inapp": inapp, "push": push, "email": email}
    st = NotifySettings.objects.filter(user=user).first()
    return {"email_digest": bool(st and st.email_digest), "events": events,
            "vapid_public_key": settings.VAPID_PUBLIC_KEY or None}


class PreferencesView(APIView):
    @extend_schema(tags=TAGS, responses={200: schema.PreferencesOutSerializer, **schema.READ},
                   summary="Your notification preferences")
    def get(self, request):
        return Response(prefs_payload(request.user))

    @extend_schema(tags=TAGS, request=PrefSerializer, responses={200: schema.PreferencesOutSerializer, **schema.WRITE},
                   summary="Change preferences per event and channel, or the daily digest",
                   description="Only `email_digest` and `events` may be sent: any other key is refused (400). "
                               "A bot silences in-app items on its socket with `{\"type\": \"notifications\", "
                               "\"enabled\": false}` (docs/realtime.md), or here with `inapp: false` per event.")
    def patch(self, request):
        ser = PrefSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        if "email_digest" in data:
            NotifySettings.objects.update_or_create(user=request.user, defaults={"email_digest": data["email_digest"]})
        for event, channels in (data.get("events") or {}).items():
            inapp, push, email = DEFAULTS[event]
            pref, _ = Preference.objects.get_or_create(user=request.user, event=event,
                                                       defaults={"inapp": inapp, "push": push, "email": email})
            for ch, on in channels.items():
                setattr(pref, ch, on)
            pref.save()
        return Response(prefs_payload(request.user))


class SubscriptionKeysSerializer(serializers.Serializer):
    p256dh = StrictCharField(max_length=200)
    auth = StrictCharField(max_length=100)  # the column's length (a longer one was a 500)


@extend_schema_field({"type": "string", "format": "uri", "maxLength": 800, "pattern": endpoint_pattern()})
class PushEndpointField(serializers.URLField):
    """A push endpoint; the schema's pattern states the rules ``validate_endpoint`` checks (with their messages)."""


class SubscriptionSerializer(serializers.Serializer):
    endpoint = PushEndpointField(max_length=800)
    keys = SubscriptionKeysSerializer()

    def validate_endpoint(self, value):
        problem = endpoint_problem(value)
        if problem:
            raise serializers.ValidationError(problem)
        return value


class PushSubscriptionsView(APIView):
    """A browser's Web Push subscriptions: session only, so a leaked token cannot have the player's notifications
    pushed to a subscription of its own."""

    permission_classes = [IsAuthenticated, GameScopes, SessionRequired]

    @extend_schema(tags=TAGS, request=SubscriptionSerializer,
                   responses={201: schema.SubscriptionOutSerializer, 409: error_responses(409)[409], **schema.WRITE},
                   summary="Register this browser's Web Push subscription (PushSubscription.toJSON())",
                   description="The endpoint must be an https URL of a known Web Push service "
                               "(docs/security.md); one registered to another account answers 409 "
                               "`endpoint_taken`. Session login only (the web app): API tokens get 403 "
                               "`session_required`.")
    def post(self, request):
        ser = SubscriptionSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        with transaction.atomic():
            sub = PushSubscription.objects.select_for_update().filter(endpoint=d["endpoint"]).first()
            if sub is not None and sub.user_id != request.user.pk:  # never take another user's subscription
                return Response(error_body("endpoint_taken", ENDPOINT_TAKEN), status=status.HTTP_409_CONFLICT)
            sub, _ = PushSubscription.objects.update_or_create(
                endpoint=d["endpoint"], user=request.user,
                defaults={"p256dh": d["keys"]["p256dh"], "auth": d["keys"]["auth"]})
        return Response({"id": sub.pk, "endpoint": sub.endpoint}, status=status.HTTP_201_CREATED)

    @extend_schema(tags=TAGS, request=SubscriptionSerializer, responses={204: None, **schema.READ},
                   summary="Remove a Web Push subscription", description="Session login only.")
    def delete(self, request):
        PushSubscription.objects.filter(user=request.user, endpoint=request.data.get("endpoint", "")).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeliveriesView(APIView):
    @extend_schema(tags=TAGS, responses={200: schema.DeliveriesSerializer, **schema.READ},
                   summary="Recent failed deliveries (push, e-mail)")
    def get(self, request):
        rows = Delivery.objects.filter(user=request.user, ok=False)[:50]
        return Response({"results": [{"channel": d.channel, "status_code": d.status_code, "error": d.error,
                                      "notification_id": d.notification_id, "at": _iso(d.created_at)}
                                     for d in rows]})
