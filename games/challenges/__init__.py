"""Challenges: an offer to play one game, to a user or open to anyone (docs/api.md, "Challenges")."""
