"""REST API of the game service (issue 4)."""
