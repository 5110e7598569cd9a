from django.apps import AppConfig


class SeeksConfig(AppConfig):
    name = "games.seeks"
    label = "seeks"
    default_auto_field = "django.db.models.BigAutoField"
