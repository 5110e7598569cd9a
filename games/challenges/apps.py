from django.apps import AppConfig


class ChallengesConfig(AppConfig):
    name = "games.challenges"
    label = "challenges"
    default_auto_field = "django.db.models.BigAutoField"
