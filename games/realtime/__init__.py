"""Real-time game events: the publisher (called by the game service after each commit) and the
WebSocket consumer at ``/ws/``. Protocol: docs/realtime.md."""
