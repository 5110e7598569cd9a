"""Claim for 3 and 4 players (claim-combined.md M3-M7): the N-seat end of a trick and scoring.

The core (:mod:`games.rules.claim.core`) handles legal moves and turn order for any number of
seats; when a trick with more than 2 seats is complete it calls :func:`complete_trick` here
(and :func:`seer_choice_done` after a pending Seer choice). The 2-player code paths (core and the
fast playout) never come here. Every [R] ruling used below is a function of
:mod:`games.rules.claim.multiplayer_rulings` (named by clause id).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.rules.cards import DWARF, GIANT, GNOME, SEER, TROLL
from games.rules.claim import multiplayer_rulings as R
from games.rules.claim.scoring import piles_by_faction
from games.rules.claim.state import OVER, PHASE1, PHASE2, Core, _reveal_prize, _trick_cards, score_undead
from games.rules.claim.types import ClaimResult

#: Deal per seat count (C3.2 / M3.2): 13 / 12 / 9 cards each; 26 / 36 / 36 remain in the deck.
HAND_SIZE = {2: 13, 3: 12, 4: 9}


def complete_trick(st: Core, rec: bool) -> None:
    """A trick of ``st.seats`` > 2 cards is complete (``st.played``): M4.4 winner, M4.6 next leader,
    then phase 1 (M5) or phase 2 (M6)."""
    played = st.played
    n = st.seats
    widx = R.trick_winner(played)  # M4.4
    winner = (st.leader + widx) % n
    nxt = (st.leader + R.next_leader(played, widx)) % n  # M4.6 / T3.3
    if st.phase == PHASE1:
        if played[widx] >> 4 == SEER:
            # T3.5a / M5.4 the winner won with a real Seer: peek and choose (an explicit move)
            st.seer = winner
            st.seer_next = nxt
            st.turn = winner
            return
        finish_phase1(st, winner, nxt, False, False, rec)
    else:
        finish_phase2(st, widx, winner, nxt, rec)


def seer_choice_done(st: Core, take_top: bool, rec: bool) -> None:
    """M5.4 the pending Seer winner has chosen."""
    winner = st.seer
    nxt = st.seer_next
    st.seer = -1
    st.seer_next = -1
    finish_phase1(st, winner, nxt, True, take_top, rec)


def finish_phase1(st: Core, winner: int, nxt: int, seer: bool, take_top: bool, rec: bool) -> None:
    """M5 end of a phase-1 trick (order M2.5e): Seer choice -> prize and N-1 deck cards -> played
    Undead to the winner's score pile -> discard -> next leader, next prize or phase 2."""
    n = st.seats
    prize = st.prize
    followers = st.followers
    deck = st.deck
    if seer:
        # M5.4 [R] the first player left of the winner gets the card the winner did not take
        prize_to, top_to, blind = R.seer_receivers(winner, n, take_top)
        top = deck[st.dpos]
        st.dpos += 1
        followers[top_to].append(top)
        if top_to != winner:
            st.peeked[winner].append(top)  # the Seer winner has seen this card
    else:
        prize_to, top_to, blind = winner, -1, R.phase1_receivers(winner, n)  # M5.2
    followers[prize_to].append(prize)
    st.public_followers[prize_to].append(prize)  # C2.4 / T3.5c the prize's destination is public
    drawers = [top_to] if (seer and top_to != winner) else []
    for s in blind:  # M5.2 blind draws clockwise from the winner's left
        followers[s].append(deck[st.dpos])
        st.dpos += 1
        drawers.append(s)
    played = st.played
    undead, discarded = score_undead(st, winner, played)  # M5.3 / C6.3
    st.trick_no += 1
    if rec:
        st.last = {
            "phase": 1,
            "trick": st.trick_no,
            "cards": _trick_cards(st, played),
            "winner": winner,
            "next_leader": nxt,
            "prize": prize,
            "prize_to": prize_to,
            "blind_draws": drawers,  # seats that got a face-down deck card, in drawing order
            "seer": ({"seat": winner, "choice": "top" if take_top else "prize"} if seer else None),
            "undead_scored": undead,
            "discarded": discarded,
        }
    st.played = []
    st.leader = nxt
    st.turn = nxt
    if st.hands[nxt]:
        _reveal_prize(st)  # C5.2
    else:
        # M5.1 hands and deck are empty; M6.1 followers become the hands.
        st.prize = -1
        st.phase = PHASE2
        st.trick_no = 0
        st.hands = st.followers
        st.followers = [[] for _ in range(n)]
        st.leader = st.turn = R.phase2_first_leader(nxt)  # M5.6


def finish_phase2(st: Core, widx: int, winner: int, nxt: int, rec: bool) -> None:
    """M6 end of a phase-2 trick (order M2.5f): Dwarves to the lowest-ranked card of the side that
    lost, Gnomes to the winner's row, Trolls to the pool, the rest to the winner's score pile ->
    Troll pickup -> Giant smashes (the winner may owe a choice, M6.5) -> next trick or the end."""
    n = st.seats
    played = st.played
    sw = st.score[winner]
    dwarves = [c for c in played if c >> 4 == DWARF]
    dwarves_to: int | None = None
    if dwarves:
        dwarves_to = R.dwarf_recipient(played, widx, st.leader, n)  # M6.3 [R]
        st.score[dwarves_to].extend(dwarves)
    gnomes = [c for c in played if c >> 4 == GNOME]
    trolls = [c for c in played if c >> 4 == TROLL]
    st.gnomes[winner].extend(gnomes)  # M6.4 / T3.1a
    st.pool.extend(trolls)  # M6.6 / T3.4b
    sw.extend(c for c in played if c >> 4 not in (DWARF, GNOME, TROLL))  # M6.2
    last_trick = not st.hands[0]
    pickup: list[int] = []
    if st.pool:
        if last_trick:
            pickup = st.pool[:]  # T3.4d
            st.pool.clear()
        else:
            m = max(st.pool)  # T3.4b/c the single highest pooled Troll
            st.pool.remove(m)
            pickup = [m]
        sw.extend(pickup)
    st.trick_no += 1
    if rec:
        st.last = {
            "phase": 2,
            "trick": st.trick_no,
            "cards": _trick_cards(st, played),
            "winner": winner,
            "next_leader": nxt,
            "dwarves_to": dwarves_to,  # M6.3 the lowest-ranked card of the side that lost
            "dwarves_to_loser": dwarves,
            "gnomes_to_row": gnomes,
            "trolls_to_pool": trolls,
            "troll_pickup": pickup,
            "smashed": [],
            "smashed_from": [],
        }
    st.smash_seat = winner
    st.smash_left = [c & 15 for c in played if c >> 4 == GIANT]  # M6.5 in play order
    st.played = []
    st.leader = nxt
    _resolve_giants(st, rec)


def smash_candidates(st: Core) -> list[int]:
    """M6.5 the seats the pending Giant winner may choose from (empty when nothing is pending)."""
    if st.smash_seat < 0 or not st.smash_left:
        return []
    return R.giant_candidates(st.smash_seat, st.smash_left[0], st.seats, st.gnomes)


def giant_choice_done(st: Core, target: int, rec: bool) -> None:
    """M6.5 the pending Giant winner chose ``target`` (one of :func:`smash_candidates`)."""
    value = st.smash_left.pop(0)
    _smash(st, target, value, rec)
    _resolve_giants(st, rec)


def _smash(st: Core, target: int, value: int, rec: bool) -> None:
    g = GNOME * 16 + value
    st.gnomes[target].remove(g)
    st.smashed.append(g)
    if rec and st.last is not None:
        # a new dict: Core.copy shares ``last`` with the state before the move
        st.last = {**st.last, "smashed": [*st.last["smashed"], g],
                   "smashed_from": [*st.last["smashed_from"], target]}


def _resolve_giants(st: Core, rec: bool) -> None:
    """M6.5 each Giant the winner collected smashes one Gnome of its value, in play order: at once
    with one candidate, nothing with none; with several the winner must choose (``{"smash": seat}``),
    so the game waits for that seat. Then the next trick, or T3.1b and the end after the last."""
    winner = st.smash_seat
    while st.smash_left:
        cands = R.giant_candidates(winner, st.smash_left[0], st.seats, st.gnomes)
        if len(cands) > 1:
            st.turn = winner  # the winner's explicit move
            return
        value = st.smash_left.pop(0)
        if cands:
            _smash(st, cands[0], value, rec)
    st.smash_seat = -1
    if not st.hands[0]:
        for s in range(st.seats):  # T3.1b
            if st.gnomes[s]:
                st.score[s].extend(st.gnomes[s])
                st.gnomes[s] = []
        st.phase = OVER
        st.turn = -1
    else:
        st.turn = st.leader


# --------------------------------------------------------------------------- scoring and views


def team_piles(piles: Sequence[Sequence[int]]) -> list[list[int]]:
    """M7.3 the combined cards of each partnership (4 seats)."""
    return [[*piles[a], *piles[b]] for a, b in R.TEAMS_4]


def result_n(st: Core, ids: Callable[[Sequence[int]], list[str]], faction_names: Sequence[str]) -> ClaimResult:
    """M7 scoring breakdown for 3-4 seats (``ids`` converts codes to card ids)."""
    factions = st.factions
    by = [piles_by_faction(st.score[s], factions) for s in range(st.seats)]
    counts = [{faction_names[f]: len(b[f]) for f in factions} for b in by]
    score = [{faction_names[f]: ids(b[f]) for f in factions} for b in by]
    if st.seats == 4:
        team_by = [piles_by_faction(p, factions) for p in team_piles(st.score)]
        d = R.decide_teams(team_by, factions)
        team = d["winning_team"]
        return {
            "winner": None,  # a team wins: see "winners" / "winning_team"
            "winners": [] if team is None else list(R.TEAMS_4[team]),
            "ranks": [1] * 4 if team is None else [1 if s % 2 == team else 2 for s in range(4)],
            "teams": [list(t) for t in R.TEAMS_4],
            "winning_team": team,
            "votes": {faction_names[f]: d["votes"][f] for f in factions},  # team index or None
            "votes_won": d["votes_won"],
            "cards_for": d["cards_for"],
            "team_counts": [{faction_names[f]: len(b[f]) for f in factions} for b in team_by],
            "counts": counts,
            "score": score,
            "reason": d["reason"],
            "reconstructed_rules": R.RECONSTRUCTED_RULES,
        }
    d3 = R.decide_three(by, factions)
    winners = d3["winners"]
    return {
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": winners,
        "ranks": d3["ranks"],
        "votes": {faction_names[f]: d3["votes"][f] for f in factions},  # seat or None
        "votes_won": d3["votes_won"],
        "cards_for": d3["cards_for"],
        "counts": counts,
        "score": score,
        "reason": d3["reason"],
        "reconstructed_rules": R.RECONSTRUCTED_RULES,
    }


def winners_n(st: Core) -> list[int]:
    """Only the winning seats (random playouts): M7.1-M7.3."""
    factions = st.factions
    if st.seats == 4:
        team_by = [piles_by_faction(p, factions) for p in team_piles(st.score)]
        team = R.decide_teams(team_by, factions)["winning_team"]
        return [] if team is None else list(R.TEAMS_4[team])
    by = [piles_by_faction(st.score[s], factions) for s in range(st.seats)]
    return R.decide_three(by, factions)["winners"]


def leading_n(st: Core, faction_names: Sequence[str]) -> dict[str, int | None]:
    """Who would win each faction's vote right now (3 seats: a seat; 4 seats: a team index)."""
    factions = st.factions
    piles = [st.score[s] + st.gnomes[s] for s in range(st.seats)]
    if st.seats == 4:
        team_by = [piles_by_faction(p, factions) for p in team_piles(piles)]
        votes = R.decide_teams(team_by, factions)["votes"]
    else:
        votes = R.decide_three([piles_by_faction(p, factions) for p in piles], factions)["votes"]
    return {faction_names[f]: votes[f] for f in factions}
