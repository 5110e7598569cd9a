"""Spectating (issue 35): the spectator's game payload, who may watch, the spectator counts and the REST
endpoints ``GET /games/{id}/watch`` and ``GET /watch`` (docs/api.md, "Spectating")."""
