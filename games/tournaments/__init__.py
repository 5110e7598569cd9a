"""Tournaments and leagues (issue 36). :mod:`games.tournaments.core` holds the pure functions (pairing, standings,
promotion, adjudication); the service, models and endpoints are built on it."""
