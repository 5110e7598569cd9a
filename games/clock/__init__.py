"""Clocks beyond the game's own deadline arithmetic (games/service/clock.py): deadlines that passed, +time,
pauses (service.py), vacation, reliability, the beat task and the API (issue 6)."""
