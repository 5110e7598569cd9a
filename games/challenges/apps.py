from django.apps import AppConfig


class ChallengesConfig(AppConfig):
    name = "games.challenges"
    label = "challenges"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Two-seat rematch offers are challenges: register them with the game service (games/challenges/rematch.py)."""
        from . import rematch

        rematch.connect()
