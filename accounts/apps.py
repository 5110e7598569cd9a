from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import checks, openapi  # noqa: F401 - registers the deploy checks and the bearer-token scheme
        from .oauth import connect_signals

        connect_signals()  # a revoked OAuth token's sockets and streams close
