"""``GET /api/v1/bots/online``: the bot accounts connected right now."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.openapi import error_responses

from . import online_bots


class OnlineBotSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField(help_text="The name shown for the bot (its username if none is set).")


class OnlineBotsSerializer(serializers.Serializer):
    results = OnlineBotSerializer(many=True)


class OnlineBotsView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(tags=["bots"], operation_id="bots_online", summary="Bot accounts online now",
                   description="Bots with an open event socket (that pings at least every 60 s) or NDJSON "
                               "event stream, by username (at most 200). Public. Challenge one with "
                               "`POST /challenges` `{\"to\": \"<username>\"}`.",
                   responses={200: OnlineBotsSerializer, **error_responses(429)})
    def get(self, request):
        return Response({"results": [{"username": b.username, "display_name": b.public_name}
                                     for b in online_bots()]})
