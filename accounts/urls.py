"""Account endpoints under /api/v1/accounts/ (docs/accounts.md)."""

from __future__ import annotations

from django.urls import path

from . import oauth_views, views

app_name = "accounts"

urlpatterns = [
    path("csrf", views.CsrfView.as_view(), name="csrf"),
    path("register", views.RegisterView.as_view(), name="register"),
    path("login", views.LoginView.as_view(), name="login"),
    path("logout", views.LogoutView.as_view(), name="logout"),
    path("me", views.MeView.as_view(), name="me"),
    path("me/data", views.MyDataView.as_view(), name="my-data"),
    path("me/data/<str:section>", views.MyDataSectionView.as_view(), name="my-data-section"),
    path("me/delete", views.AccountDeleteView.as_view(), name="account-delete"),
    path("password/change", views.PasswordChangeView.as_view(), name="password-change"),
    path("password/reset", views.PasswordResetView.as_view(), name="password-reset"),
    path("password/reset/confirm", views.PasswordResetConfirmView.as_view(), name="password-reset-confirm"),
    path("scopes", views.ScopesView.as_view(), name="scopes"),
    path("tokens", views.TokenListView.as_view(), name="tokens"),
    path("tokens/<id:token_id>", views.TokenDetailView.as_view(), name="token-detail"),
    path("oauth/apps", oauth_views.AuthorizedAppListView.as_view(), name="oauth-apps"),
    path("oauth/apps/<id:app_id>", oauth_views.AuthorizedAppDetailView.as_view(), name="oauth-app-detail"),
    path("bot/upgrade", views.BotUpgradeView.as_view(), name="bot-upgrade"),
]
