"""Ratings and leaderboards (issue 6): Glicko-2 for 2 seats, OpenSkill for 3-4 seats/partnerships.

See docs/correspondence.md. :func:`games.ratings.service.rating_for` is the helper the game payload uses.
"""
