from django.apps import AppConfig


class ClockConfig(AppConfig):
    name = "games.clock"
    label = "clock"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import game_changed

        from . import receivers

        game_changed.connect(receivers.on_game_changed, dispatch_uid="clock.on_game_changed")
