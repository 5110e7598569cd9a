from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Subscribe the publisher and the task starters to the service's commit signals, in this order:
        push the new version, queue ``game_changed``, then start the AI's turn (``games.signals``); and the
        sockets to the accounts' ``credentials_changed``."""
        from accounts.signals import credentials_changed

        from . import signals, tasks
        from .realtime import publish

        signals.game_committed.connect(publish.on_game_committed, dispatch_uid="games.realtime.publish")
        signals.game_committed.connect(tasks.on_game_committed, dispatch_uid="games.tasks.game_changed")
        signals.ai_turn_due.connect(tasks.on_ai_turn_due, dispatch_uid="games.tasks.ai_turn")
        credentials_changed.connect(publish.on_credentials_changed, dispatch_uid="games.realtime.recheck")
