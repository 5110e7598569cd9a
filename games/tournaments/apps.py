from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "games.tournaments"
    label = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Follow the games: a tournament game that ends is recorded and may complete its round (the game
        service's ``game_committed``, games/signals.py); an account deleted withdraws from its tournaments; the data
        export lists the user's entries."""
        from accounts.signals import account_deleting, personal_data_requested
        from games import signals

        from . import privacy, receivers, service

        service.tournament_full.connect(receivers.on_tournament_full, dispatch_uid="games.tournaments.start")
        signals.game_committed.connect(receivers.on_game_committed, dispatch_uid="games.tournaments.game_ended")
        account_deleting.connect(receivers.on_account_deleting, dispatch_uid="games.tournaments.deleting")
        personal_data_requested.connect(privacy.personal_data_sections, dispatch_uid="games.tournaments.sections")
