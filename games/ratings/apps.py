from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "games.ratings"
    label = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import game_changed, game_starting

        from . import receivers

        game_changed.connect(receivers.on_game_changed, dispatch_uid="ratings.on_game_changed")
        game_starting.connect(receivers.on_game_starting, dispatch_uid="ratings.on_game_starting")
