"""Notifications (issue 6): in-app inbox, Web Push, e-mail, preferences, reminders, daily digest."""
