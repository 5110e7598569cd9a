"""Seeks and ranked asynchronous matchmaking (issue 6). See docs/correspondence.md."""
