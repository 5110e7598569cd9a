from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("notifications", api.InboxView.as_view(), name="notifications"),
    path("notifications/read", api.ReadView.as_view(), name="notifications-read"),
    path("notifications/preferences", api.PreferencesView.as_view(), name="notifications-preferences"),
    path("notifications/push-subscriptions", api.PushSubscriptionsView.as_view(), name="notifications-push"),
    path("notifications/deliveries", api.DeliveriesView.as_view(), name="notifications-deliveries"),
]
