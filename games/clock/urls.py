from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("games/<id:game_id>/clock", api.ClockView.as_view(), name="game-clock"),
    path("games/<id:game_id>/clock/give-time", api.GiveTimeView.as_view(), name="game-clock-give-time"),
    path("games/<id:game_id>/clock/pause", api.PauseView.as_view(), name="game-clock-pause"),
    path("games/<id:game_id>/clock/resume", api.ResumeView.as_view(), name="game-clock-resume"),
    path("vacation", api.VacationView.as_view(), name="vacation"),
    path("vacation/periods", api.VacationPeriodsView.as_view(), name="vacation-periods"),
    path("vacation/periods/<id:period_id>", api.VacationPeriodView.as_view(), name="vacation-period"),
]
