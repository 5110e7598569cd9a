from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import checks, openapi, services  # noqa: F401 - checks, openapi: the deploy checks, the token scheme
        from .oauth import connect_signals

        connect_signals()  # a revoked OAuth token's sockets and streams close
        services.connect_signals()  # so do a deactivated or deleted account's
