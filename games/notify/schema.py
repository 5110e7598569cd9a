"""Response shapes of the notification endpoints (documentation: the OpenAPI schema)."""

from __future__ import annotations

from rest_framework import serializers

from accounts.openapi import error_responses

from .models import EVENTS


class NotificationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    event = serializers.CharField(help_text=f"One of: {', '.join(sorted(EVENTS))}.")
    game_id = serializers.IntegerField(allow_null=True)
    title = serializers.CharField()
    body = serializers.CharField()
    # A field named "data": DRF's serializer metaclass takes it out of the class attributes, so it does not
    # replace Serializer.data (djangorestframework-stubs cannot express that).
    data = serializers.DictField()  # type: ignore[assignment]
    created_at = serializers.DateTimeField()
    read = serializers.BooleanField()


class InboxSerializer(serializers.Serializer):
    unread = serializers.IntegerField(help_text="Unread items in the inbox (all of them, not only those listed).")
    results = NotificationSerializer(many=True, help_text="At most 100, newest first.")


class MarkedSerializer(serializers.Serializer):
    marked = serializers.IntegerField(help_text="How many were marked read now.")


class ChannelsSerializer(serializers.Serializer):
    inapp = serializers.BooleanField()
    push = serializers.BooleanField()
    email = serializers.BooleanField()


class PreferencesOutSerializer(serializers.Serializer):
    email_digest = serializers.BooleanField()
    events = serializers.DictField(child=ChannelsSerializer(), help_text="Per event: the channels it goes to.")
    vapid_public_key = serializers.CharField(allow_null=True, help_text="For PushManager.subscribe (null: no push).")


class SubscriptionOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    endpoint = serializers.CharField()


class DeliverySerializer(serializers.Serializer):
    channel = serializers.CharField()
    status_code = serializers.IntegerField(allow_null=True)
    error = serializers.CharField(allow_blank=True)
    notification_id = serializers.IntegerField(allow_null=True)
    at = serializers.DateTimeField()


class DeliveriesSerializer(serializers.Serializer):
    results = DeliverySerializer(many=True, help_text="The 50 most recent failures.")


READ = error_responses(401, 403, 429)
WRITE = error_responses(400, 401, 403, 429)
