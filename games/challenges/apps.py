from django.apps import AppConfig


class ChallengesConfig(AppConfig):
    name = "games.challenges"
    label = "challenges"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import game_changed

        from . import lifecycle

        game_changed.connect(lifecycle.on_game_changed, dispatch_uid="challenges.lifecycle")
