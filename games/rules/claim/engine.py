"""The rich (JSON) interface of Claim, Claim 2 and the mix (see :mod:`games.rules.base`).

``claim-mix`` also takes 3-4 seats (claim-combined.md M3-M7; trick ends in :mod:`.multi`, our
rulings in :mod:`.multiplayer_rulings`); those games carry ``"reconstructed_rules": true`` in
options, views and results, and 4-seat games ``"teams": [[0, 2], [1, 3]]``.

``apply`` copies the state, validates the move (player-readable errors) and runs the fast core
(:mod:`games.rules.claim.core`). Views, events, results and records are built here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

from games.rules.base import JSON, GameInfo
from games.rules.cards import (
    CARD_ID,
    DOPPELGANGER,
    FACTION_ALIASES,
    FACTION_NAMES,
    FACTION_TITLES,
    GNOME,
    card_title,
    deck_for,
    parse_card,
)
from games.rules.claim import core, multi
from games.rules.claim import multiplayer_rulings as mr
from games.rules.claim.core import OVER, PHASE1, SEER_PRIZE, SEER_TOP, Core, is_smash, smash_move, smash_target
from games.rules.claim.options import check_seats, faction_ids, normalize
from games.rules.claim.scoring import faction_vote, piles_by_faction
from games.rules.claim.serial import (
    RECORD_FORMAT,
    codes,
    ids,
    last_to_json,
    moves_json,
    result_of,
    sorted_ids,
    state_from_json,
    state_to_json,
)
from games.rules.claim.shapes import MOVE_SHAPES
from games.rules.claim.types import ClaimEvent, ClaimKind, ClaimMove, ClaimResult, ClaimView
from games.rules.errors import IllegalMove, NotYourTurn, RulesError
from games.rules.moveshape import Shape
from games.rules.rand import shuffle

_UNKNOWN_PLAY = 'unknown move: expected {"play": card}'
_UNKNOWN_SEER = (
    'you won with a Seer: choose {"seer": "prize"} to keep the prize or {"seer": "top"} '
    "to take the top card of the deck"
)


def _smash_text(st: Core) -> str:
    cands = multi.smash_candidates(st)
    gnome = card_title(GNOME * 16 + st.smash_left[0])
    seats = " or ".join(f'{{"smash": {s}}}' for s in cands)
    return (f"your Giant smashes a {gnome}: choose whose, {seats} "
            f"(seats {', '.join(map(str, cands))} have one)")


class ClaimRules:
    """One registered game kind ("claim", "claim2" or "claim-mix"): a
    ``Rules[Core, ClaimMove, ClaimView, ClaimEvent, ClaimResult]`` (:mod:`games.rules.base`)."""

    move_shapes: tuple[Shape, ...] = MOVE_SHAPES

    def __init__(self, kind: str, title: str) -> None:
        self.kind = kind
        # M3: only the combined deck (claim-mix) has enough cards for 3-4 players
        self.info = GameInfo(kind=kind, title=title, min_seats=2,
                             max_seats=4 if kind == "claim-mix" else 2,
                             record_format=RECORD_FORMAT)

    def __repr__(self) -> str:
        return f"<ClaimRules {self.kind}>"

    # ------------------------------------------------------------------ setup

    def normalize_options(self, options: Mapping[str, Any] | None, seats: int) -> JSON:
        return normalize(self.kind, options, seats)

    def setup(self, options: Mapping[str, Any] | None, seats: int, seed: int) -> Core:
        factions = faction_ids(self.normalize_options(options, seats))
        rng = random.Random(seed)
        deck = deck_for(factions)
        shuffle(rng, deck)  # C3.1 (rng.shuffle's draws)
        if seats == 2:
            first_leader = rng.randrange(seats)  # C3.3 [R] random from the seed
            # C3.2 deal 13 each; the remaining 26 form the deck (top card first)
            hands = [deck[13 * s:13 * (s + 1)] for s in range(seats)]
            return core.new_core(self.kind, factions, hands, deck[13 * seats:], first_leader)
        first_leader = mr.first_leader(rng, seats)  # M3.5 [R]
        k = multi.HAND_SIZE[seats]  # M3.2 12 (3 players) / 9 (4 players) each; 36 remain
        hands = [deck[k * s:k * (s + 1)] for s in range(seats)]
        return core.new_core(self.kind, factions, hands, deck[k * seats:], first_leader)

    def from_deal(self, factions: Sequence[str], hands: Sequence[Sequence[str]],
                  deck: Sequence[str], first_leader: int) -> Core:
        """A game from an explicit deal (records, tests). Sizes are not checked."""
        fids = tuple(sorted(FACTION_ALIASES[f] for f in factions))
        check_seats(len(hands), self.kind)
        return core.new_core(self.kind, fids, [codes(h) for h in hands], codes(deck),
                             int(first_leader))

    # ------------------------------------------------------------------ play

    def to_act(self, state: Core) -> frozenset[int]:
        return frozenset() if state.phase == OVER else frozenset((state.turn,))

    def legal_moves(self, state: Core, seat: int) -> list[ClaimMove]:
        if state.phase == OVER or seat != state.turn:
            return []
        if state.seer >= 0:
            return [{"seer": "prize"}, {"seer": "top"}]
        if state.smash_seat >= 0:
            return [{"smash": s} for s in multi.smash_candidates(state)]  # M6.5
        return [{"play": CARD_ID[c]} for c in sorted(set(core.legal(state)))]

    def _parse(self, st: Core, seat: int, move: Mapping[str, Any]) -> int:
        """The core move for ``move`` or an :class:`IllegalMove` with a reason for the player."""
        if st.phase == OVER:
            raise IllegalMove("the game is over")
        if seat != st.turn:
            raise NotYourTurn("it is not your turn")
        if st.smash_seat >= 0:
            return self._parse_smash(st, move)
        if not isinstance(move, Mapping) or len(move) != 1:
            raise IllegalMove(_UNKNOWN_SEER if st.seer >= 0 else _UNKNOWN_PLAY)
        if st.seer >= 0:
            choice = move.get("seer")
            if choice == "prize":
                return SEER_PRIZE
            if choice == "top":
                return SEER_TOP
            raise IllegalMove(_UNKNOWN_SEER)
        if "play" not in move:
            if "seer" in move:
                raise IllegalMove("there is no Seer choice to make now: play a card")
            if "smash" in move:
                raise IllegalMove("there is no Giant choice to make now: play a card")
            raise IllegalMove(_UNKNOWN_PLAY)
        try:
            card = parse_card(move["play"])
        except KeyError:
            raise IllegalMove(f"unknown card {move['play']!r}") from None
        hand = st.hands[seat]
        if card not in hand:
            raise IllegalMove(f"you don't hold {card_title(card)}")
        if card not in core.legal(st):
            lf = st.played[0] >> 4
            held = ", ".join(card_title(c) for c in sorted(set(hand)) if c >> 4 == lf)
            extra = ""
            if lf != DOPPELGANGER and st.has_doppel:
                extra = " (or play a Doppelganger)"  # C6.5a
            raise IllegalMove(f"you must follow {FACTION_TITLES[lf]}{extra}: you hold {held}")
        return card

    def _parse_smash(self, st: Core, move: Mapping[str, Any]) -> int:
        """M6.5 the pending Giant choice: ``{"smash": seat}`` naming one of the candidates."""
        if not isinstance(move, Mapping) or len(move) != 1 or "smash" not in move:
            raise IllegalMove(_smash_text(st))
        target = move["smash"]
        if not isinstance(target, int) or isinstance(target, bool) \
                or target not in multi.smash_candidates(st):
            raise IllegalMove(f"{target!r} is not a seat you may choose: {_smash_text(st)}")
        return smash_move(target)

    def apply(self, state: Core, seat: int, move: Mapping[str, Any]) -> tuple[Core, list[ClaimEvent]]:
        cmove = self._parse(state, seat, move)
        st = state.copy()
        events: list[ClaimEvent] = []
        phase_before = st.phase
        completed = True
        if is_smash(cmove):
            core.giant_choice(st, smash_target(cmove), rec=True)
            smashed = (st.last or {}).get("smashed")
            events.append({"type": "smash", "seat": seat, "from": smash_target(cmove),
                           "gnome": CARD_ID[smashed[-1]] if smashed else None})
            completed = False  # the trick was already reported
        elif cmove < 0:
            core.seer_choice(st, cmove == SEER_TOP, rec=True)
            events.append({"type": "seer", "seat": seat,
                           "choice": "top" if cmove == SEER_TOP else "prize"})
        else:
            core.play(st, cmove, rec=True)
            events.append({"type": "play", "seat": seat, "card": CARD_ID[cmove]})
            if st.seer >= 0:
                # T3.5 the winner won with a Seer: the trick waits for their choice
                events.append({"type": "seer_pending", "seat": st.seer})
                completed = False
            else:
                completed = not st.played
        st.moves.append((seat, cmove))
        if completed:
            last = last_to_json(st.last)
            assert last is not None
            events.append({"type": "trick", **last})
            blind = last.get("blind_draw")
            if blind is not None:
                events.append({"type": "blind_draw", "seat": blind})
            for s in last.get("blind_draws", ()):  # M5.2 3-4 seats: one per other player
                events.append({"type": "blind_draw", "seat": s})
            if st.phase == PHASE1:
                events.append({"type": "prize", "card": CARD_ID[st.prize]})
        if st.smash_seat >= 0:
            # M6.5 the winner chooses whose Gnome the next Giant smashes
            events.append({"type": "smash_pending", "seat": st.smash_seat,
                           "gnome": CARD_ID[GNOME * 16 + st.smash_left[0]],
                           "candidates": multi.smash_candidates(st)})
        elif st.phase != phase_before and st.phase not in (OVER, PHASE1):
            events.append({"type": "phase", "phase": st.phase, "leader": st.leader})
        if st.phase == OVER and state.phase != OVER:
            events.append({"type": "game_over", "result": result_of(st)})
        return st, events

    def is_over(self, state: Core) -> bool:
        return state.phase == OVER

    def result(self, state: Core) -> ClaimResult | None:
        return result_of(state) if state.phase == OVER else None

    # ------------------------------------------------------------------ views

    def view(self, state: Core, seat: int | None) -> ClaimView:
        st = state
        over = st.phase == OVER
        phase = PHASE1 if st.phase == PHASE1 else 2
        factions = st.factions
        by = [piles_by_faction(p, factions) for p in st.score]
        v: ClaimView = {
            "game": cast(ClaimKind, st.kind),
            "factions": [FACTION_NAMES[f] for f in factions],
            "seats": st.seats,
            "seat": seat,
            "phase": phase,
            "over": over,
            "trick": st.trick_no if over else st.trick_no + 1,
            "to_act": sorted(self.to_act(st)),
            "leader": st.leader,
            "hand_counts": [len(h) for h in st.hands],
            "follower_counts": [len(f) for f in st.followers],
            # C2.4 known cards of each follower pile (phase 1) / hand (phase 2): prizes received
            "public_followers": [sorted_ids(p) for p in st.public_followers],
            "deck_count": len(st.deck) - st.dpos,
            "prize": CARD_ID[st.prize] if st.prize >= 0 else None,
            "current_trick": [{"seat": (st.leader + i) % st.seats, "card": CARD_ID[c]}
                              for i, c in enumerate(st.played)],
            "seer_pending": st.seer if st.seer >= 0 else None,
            # M6.5 a Giant choice the trick's winner owes (3-4 seats): whose Gnome to smash
            "smash_pending": ({"seat": st.smash_seat, "gnome": CARD_ID[GNOME * 16 + st.smash_left[0]],
                               "candidates": multi.smash_candidates(st),
                               "later": [CARD_ID[GNOME * 16 + x] for x in st.smash_left[1:]]}
                              if st.smash_seat >= 0 else None),
            "score": [{FACTION_NAMES[f]: ids(b[f]) for f in factions} for b in by],
            "gnome_rows": [sorted_ids(r) for r in st.gnomes],
            "troll_pool": sorted_ids(st.pool),
            "discard": sorted_ids(st.discard),
            "smashed": sorted_ids(st.smashed),
            "last_trick": last_to_json(st.last),
            "voids": public_voids(st),
            "leading": self._leading(st, by),
            "result": self.result(st),
        }
        if seat is not None and 0 <= seat < st.seats:
            v["hand"] = sorted_ids(st.hands[seat])
            v["followers"] = sorted_ids(st.followers[seat])
            v["legal_moves"] = self.legal_moves(st, seat)
            # T3.5 cards this seat saw with a Seer peek (in the opponent's pile/hand, unplayed)
            v["peeked_cards"] = sorted_ids(st.peeked[seat])
            if st.seer == seat:
                v["peek"] = CARD_ID[st.deck[st.dpos]]  # T3.5a the winner looks at the top card
        if st.seats != 2:
            # M3-M7 partly reconstructed: clients show "our rulings where the sheet is unclear"
            v["reconstructed_rules"] = mr.RECONSTRUCTED_RULES
            teams = mr.teams_for(st.seats)
            v["teams"] = [list(t) for t in teams] if teams else None
        if over:
            v["revealed"] = {
                "hands": [ids(h) for h in st.dealt],
                "deck": ids(st.deck),
                "first_leader": st.first_leader,
            }
        return v

    def spectator_view(self, state: Core) -> ClaimView:
        """The view of someone who is no player (``view(state, None)``): counts of hands, followers and deck,
        the face-up prize, played and scored cards, the piles' public prizes (C2.4, T3.5c), deduced voids
        (C4.2b) and the last trick; never a hand, a blind draw (C5.5), the deck (C3.1) or a Seer peek (T3.5a)
        while the game runs."""
        return self.view(state, None)

    def _leading(self, st: Core, by: list[dict[int, list[int]]]) -> dict[str, int | None]:
        """Who would win each faction's vote right now (score piles + Gnome rows)."""
        if st.seats != 2:
            return multi.leading_n(st, FACTION_NAMES)  # 3 seats: a seat; 4 seats: a team
        if st.gnomes[0] or st.gnomes[1]:
            by = [piles_by_faction(st.score[s] + st.gnomes[s], st.factions) for s in range(st.seats)]
        return {FACTION_NAMES[f]: faction_vote(by[0][f], by[1][f]) for f in st.factions}

    # ------------------------------------------------------------------ records and JSON

    def record(self, state: Core) -> JSON:
        st = state
        res = self.result(st)
        if st.seats != 2:
            return self._record_n(st, res)
        return {
            "format": RECORD_FORMAT,
            "game": st.kind,
            "factions": [FACTION_NAMES[f] for f in st.factions],
            "seats": st.seats,
            "hands": [ids(h) for h in st.dealt],
            "deck": ids(st.deck),
            "first_leader": st.first_leader,
            "moves": moves_json(st.moves),
            "result": None if res is None else {
                "winner": res["winner"], "votes": res["votes"], "score": res["score"],
            },
        }

    def _record_n(self, st: Core, res: ClaimResult | None) -> JSON:
        """``claim.record/1`` of a 3-4 seat game: ``"seats": 3 | 4``, ``"teams"`` with 4 seats and
        ``winners``/``ranks`` in the result (docs/records.md)."""
        out: JSON = {
            "format": RECORD_FORMAT,
            "game": st.kind,
            "factions": [FACTION_NAMES[f] for f in st.factions],
            "seats": st.seats,
        }
        teams = mr.teams_for(st.seats)
        if teams:
            out["teams"] = [list(t) for t in teams]
        out.update({
            "reconstructed_rules": mr.RECONSTRUCTED_RULES,
            "hands": [ids(h) for h in st.dealt],
            "deck": ids(st.deck),
            "first_leader": st.first_leader,
            "moves": moves_json(st.moves),
            "result": None if res is None else {
                "winner": res["winner"], "winners": res["winners"], "ranks": res["ranks"],
                "votes": res["votes"], "score": res["score"],
            },
        })
        return out

    def from_record(self, record: Mapping[str, Any], upto: int | None = None) -> Core:
        """Rebuild the state of a ``claim.record/1`` after its first ``upto`` moves (all if None).

        Every move is validated; an inconsistent record raises :class:`IllegalMove`.
        """
        if record.get("format") != RECORD_FORMAT:
            raise RulesError(f"not a {RECORD_FORMAT} record")
        if record.get("game") != self.kind:
            raise RulesError(f"record is for {record.get('game')!r}, not {self.kind!r}")
        st = self.from_deal(record["factions"], record["hands"], record["deck"],
                            record["first_leader"])
        moves = record["moves"] if upto is None else record["moves"][:upto]
        for i, m in enumerate(moves):
            try:
                cmove = self._parse(st, m["seat"], m["move"])
            except IllegalMove as exc:
                raise IllegalMove(f"move {i + 1}: {exc}") from None
            core.apply_move(st, cmove, rec=True)
            st.moves.append((int(m["seat"]), cmove))
        return st

    def replay_record(self, record: Mapping[str, Any]) -> JSON | None:
        """The result obtained by replaying a record (compare with ``record["result"]``)."""
        result: JSON | None = self.record(self.from_record(record))["result"]
        return result

    def to_json(self, state: Core) -> JSON:
        return state_to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> Core:
        return state_from_json(data)


def public_voids(st: Core) -> list[list[str]]:
    """Per seat, the factions it is known to hold none of in the current phase (sorted names), deduced from
    the public plays: a follower who did not follow the led faction (C4.2b) or a Doppelganger lead (C4.3)
    had none of it, and a hand only shrinks within a phase (C5, C7). A Doppelganger played on another
    faction's lead shows nothing (C4.2a: it may replace the led faction). Read from the move log (every
    play is public), so it is the same for every seat and for spectators."""
    n = st.seats
    voids: list[set[int]] = [set() for _ in range(n)]
    if st.phase == OVER:
        return [[] for _ in range(n)]
    in_phase = st.trick_no * n + len(st.played)  # the card plays of this phase are the last ones of the log
    plays: list[tuple[int, int]] = []  # the last in_phase card plays, read from the end (not the Seer choices, T3.5b)
    for m in reversed(st.moves):
        if len(plays) == in_phase:
            break
        if m[1] >= 0:
            plays.append(m)
    plays.reverse()
    lead = -1
    for i, (seat, card) in enumerate(plays):
        if i % n == 0:
            lead = card
            continue
        lf, f = lead >> 4, card >> 4
        if f != lf and (f != DOPPELGANGER or lf == DOPPELGANGER):
            voids[seat].add(lf)
    return [sorted(FACTION_NAMES[f] for f in v) for v in voids]
