from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Subscribe the publisher and the task starters to the service's commit signals, in this order:
        push the new version, queue ``game_changed``, then start the AI's turn (``games.signals``); and the
        sockets to the accounts' ``credentials_changed``; the games app's part of the data export and of an
        account's deletion (games.privacy)."""
        from accounts.signals import account_deleting, credentials_changed, personal_data_requested

        from . import privacy, signals, tasks
        from .realtime import publish

        signals.game_committed.connect(publish.on_game_committed, dispatch_uid="games.realtime.publish")
        signals.game_committed.connect(tasks.on_game_committed, dispatch_uid="games.tasks.game_changed")
        signals.ai_turn_due.connect(tasks.on_ai_turn_due, dispatch_uid="games.tasks.ai_turn")
        credentials_changed.connect(publish.on_credentials_changed, dispatch_uid="games.realtime.recheck")
        personal_data_requested.connect(privacy.personal_data_sections, dispatch_uid="games.privacy.sections")
        account_deleting.connect(privacy.on_account_deleting, dispatch_uid="games.privacy.deleting")
