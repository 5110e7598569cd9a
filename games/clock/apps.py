from django.apps import AppConfig


class ClockConfig(AppConfig):
    name = "games.clock"
    label = "clock"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.service.clock import set_vacation_reader
        from games.signals import game_changed

        from . import receivers
        from .vacation import periods_of

        game_changed.connect(receivers.on_game_changed, dispatch_uid="clock.on_game_changed")
        set_vacation_reader(periods_of)  # the clocks in the game payloads show booked vacation
