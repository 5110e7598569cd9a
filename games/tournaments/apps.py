from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "games.tournaments"
    label = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Follow the games: a tournament game that ends is recorded and may complete its round (the game
        service's ``game_committed``, games/signals.py); an account deleted withdraws from its tournaments; the data
        export lists the user's entries; the tournaments' own signals become notifications and typed events, and
        the socket's ``watch_tournament`` asks whether a tournament exists."""
        from accounts.signals import account_deleting, personal_data_requested
        from games import signals
        from games.realtime import tournament_watch

        from . import privacy, receivers, service
        from . import signals as announce

        service.tournament_full.connect(receivers.on_tournament_full, dispatch_uid="games.tournaments.start")
        signals.game_committed.connect(receivers.on_game_committed, dispatch_uid="games.tournaments.game_ended")
        account_deleting.connect(receivers.on_account_deleting, dispatch_uid="games.tournaments.deleting")
        personal_data_requested.connect(privacy.personal_data_sections, dispatch_uid="games.tournaments.sections")
        # what the followers are told, after the commit (games/tournaments/news.py)
        for signal, receiver in ((announce.starting_soon, receivers.on_starting_soon),
                                 (announce.started, receivers.on_started),
                                 (announce.round_paired, receivers.on_round_paired),
                                 (announce.games_created, receivers.on_games_created),
                                 (announce.standings_changed, receivers.on_standings_changed),
                                 (announce.finished, receivers.on_finished),
                                 (announce.cancelled, receivers.on_cancelled)):
            signal.connect(receiver, dispatch_uid=f"games.tournaments.news.{receiver.__name__}")
        tournament_watch.register_lookup(receivers.tournament_exists)
