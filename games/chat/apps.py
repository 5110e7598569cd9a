from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "games.chat"
    label = "chat"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register the chat's parts of the inbox summaries (``unread_chat``) and of the public record (``chat``)
        with the game service's hooks, and the chat's part of the data export and of an account's deletion."""
        from accounts.signals import account_deleting, personal_data_requested

        from . import privacy, service

        service.connect()
        personal_data_requested.connect(privacy.personal_data_sections, dispatch_uid="games.chat.privacy.sections")
        account_deleting.connect(privacy.on_account_deleting, dispatch_uid="games.chat.privacy.deleting")
