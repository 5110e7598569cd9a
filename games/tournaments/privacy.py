"""The tournaments' part of the data export (``personal_data_requested``): the user's entries, newest tournament
first (one range of the ``entry_user`` index per page), and league memberships, newest league first (the
``league_member_user`` index). An account's deletion withdraws it from its tournaments
(:func:`games.tournaments.service.on_account_deleting`); its entries stay, naming the anonymous account."""

from __future__ import annotations

from typing import Any

from accounts.privacy import Section, below, iso

from .models import Entry, LeagueMember


def _entries(user: Any, before: Any, limit: int) -> list[dict[str, Any]]:
    rows = below(Entry.objects.filter(user=user).select_related("tournament"), before, limit, field="tournament_id")
    return [{"id": e.tournament_id, "tournament": e.tournament.name, "joined_at": iso(e.joined_at),
             "withdrawn_at": iso(e.withdrawn_at), "timeouts": e.timeouts, "seed": e.seed, "rating": e.rating}
            for e in rows]


def _memberships(user: Any, before: Any, limit: int) -> list[dict[str, Any]]:
    rows = below(LeagueMember.objects.filter(user=user).select_related("league"), before, limit, field="league_id")
    return [{"id": m.league_id, "league": m.league.name, "joined_at": iso(m.joined_at), "position": m.position,
             "division": m.division, "left_at": iso(m.left_at)} for m in rows]


def personal_data_sections(sender: Any, **kwargs: Any) -> list[Section]:
    return [Section("tournament_entries", "The tournaments you entered, by tournament id.", _entries),
            Section("league_memberships", "The leagues you are a member of, by league id (your past seasons' "
                    "games are your division tournaments' entries).", _memberships)]
