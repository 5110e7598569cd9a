"""The API's scopes: one list for personal tokens and OAuth access tokens (docs/api.md, "Authentication").

django-oauth-toolkit reads it through ``accounts.oauth.ApiScopes`` (``OAUTH2_PROVIDER["SCOPES_BACKEND_CLASS"]``).
"""

from __future__ import annotations

# Token scopes (issue 4): read games, play as a human through the API, play as a bot account.
SCOPES = {
    "games:read": "Read your games, views, history and records.",
    "games:play": "Create, join and play games, resign, offer aborts.",
    "bot:play": "Play as a bot account (the account must be flagged as a bot).",
    "account:read": "Read your profile.",
    "chat:read": "Read the chat of your games (and of games you watch).",
    "chat:write": "Write in the chat of your games, and report players.",
    # issue 35: follows, blocks and mutes (games/social); never implied by bot:play
    "social": "Follow, block and mute players; list your friends, follows, followers, blocks and mutes.",
}

#: What an OAuth authorization asks for when the app names no scope.
DEFAULT_SCOPES = ("games:read",)
