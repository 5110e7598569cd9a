"""Clocks, deadlines, vacation, reliability (issue 6). The timeout transaction is games/service/clock.py."""
