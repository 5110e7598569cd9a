"""The game state of Inheritors and the low-level zone operations (draw, refill, stacks).

The state is a plain dataclass of JSON-compatible fields; :meth:`InheritorsState.clone` makes
the copy that :func:`apply` works on, so the caller's state is never mutated.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Final, Literal

from . import cards as C
from . import data
from .types import DrawEvent, InheritorsEvent, InheritorsResult

JSONDict = dict[str, Any]

#: How many recent public events the state keeps for views.
LOG_LIMIT = 30

Phase = Literal["pre", "post", "over"]
PRE: Final = "pre"  # pre-action claim window + choice of action (I4.1 steps 1-2)
POST: Final = "post"  # post-action claim window (I4.1 step 3)
OVER: Final = "over"


@dataclass
class InheritorsState:
    """Full (secret) state. Seats are 0..seats-1 clockwise."""

    seats: int
    options: JSONDict
    colours: list[str]  # active realm colours (I3.2)
    removed_colour: str | None
    deck: list[str]  # top first
    hands: list[list[str]]
    stacks: list[dict[str, list[str]]]  # seat -> colour -> card ids bottom..top
    market: list[list[str]]  # three piles, bottom..top (I6.1)
    removed: list[str]  # the public Removed area (I7.1)
    box: list[str]  # small cards not used in this game
    quest_row: list[str]  # face down; order fixed at setup, the first is taken (I5.4.3)
    quests: list[list[str]]  # owned quests per seat
    honor_row: list[str]
    honors: list[list[str]]  # claimed honors per seat
    clan_row: list[str]
    clan_attached: dict[str, list[str]]  # clan id -> attached cards (I8.4)
    clans: list[str | None]  # owned clan per seat
    start_player: int
    current: int
    phase: Phase = PRE
    pending: list[JSONDict] = field(default_factory=list)  # decision frames, top = last
    spy_honor: bool = False  # H8 condition met this turn (I9.3)
    extra_turn: bool = False  # Agent (I7.6)
    end_triggered: bool = False  # I11.1, never undone (I11.3)
    turn: int = 1
    rat_top: list[Any] | None = None  # [seat, card] the Rat owner put on the deck (I13)
    skip_plays: list[str] = field(default_factory=list)  # cards placed by a skip-play (I7.9)
    log: list[InheritorsEvent] = field(default_factory=list)
    moves: list[JSONDict] = field(default_factory=list)
    setup: JSONDict = field(default_factory=dict)
    seed: int | None = None
    result: InheritorsResult | None = None

    # ---------------------------------------------------------------- copying / JSON
    def clone(self) -> InheritorsState:
        return InheritorsState(
            seats=self.seats,
            options=self.options,  # never mutated after setup
            colours=self.colours,  # never mutated after setup
            removed_colour=self.removed_colour,
            deck=list(self.deck),
            hands=[list(h) for h in self.hands],
            stacks=[{c: list(s) for c, s in st.items()} for st in self.stacks],
            market=[list(p) for p in self.market],
            removed=list(self.removed),
            box=self.box,  # never mutated after setup
            quest_row=list(self.quest_row),
            quests=[list(q) for q in self.quests],
            honor_row=list(self.honor_row),
            honors=[list(h) for h in self.honors],
            clan_row=list(self.clan_row),
            clan_attached={k: list(v) for k, v in self.clan_attached.items()},
            clans=list(self.clans),
            start_player=self.start_player,
            current=self.current,
            phase=self.phase,
            pending=[_deep(f) for f in self.pending],
            spy_honor=self.spy_honor,
            extra_turn=self.extra_turn,
            end_triggered=self.end_triggered,
            turn=self.turn,
            rat_top=list(self.rat_top) if self.rat_top is not None else None,
            skip_plays=list(self.skip_plays),
            log=list(self.log),  # events are never mutated
            moves=list(self.moves),  # entries are never mutated
            setup=self.setup,  # never mutated after setup
            seed=self.seed,
            result=self.result,
        )

    def to_json(self) -> JSONDict:
        return {f.name: _deep(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_json(cls, obj: JSONDict) -> InheritorsState:
        names = {f.name for f in fields(cls)}
        kwargs = {k: _deep(v) for k, v in obj.items() if k in names}
        return cls(**kwargs)

    # ---------------------------------------------------------------- queries
    def top(self, seat: int, colour: str) -> int:
        """I0.3 top value of ``seat``'s stack of ``colour``; 0 if there is none."""
        stack = self.stacks[seat].get(colour)
        if not stack:
            return 0
        value = C.CARDS[stack[-1]].value
        assert value is not None
        return value

    def tops(self, seat: int) -> dict[str, int]:
        return {c: self.top(seat, c) for c in self.colours}

    def others(self, seat: int) -> list[int]:
        """The other seats, clockwise starting with ``seat``'s left neighbour."""
        return [(seat + i) % self.seats for i in range(1, self.seats)]

    def last_seat(self) -> int:
        """I11.2 the seat immediately before the start player."""
        return (self.start_player - 1) % self.seats

    def all_card_ids(self) -> list[str]:
        """Every small card in every zone (conservation, I14.1)."""
        out = list(self.deck) + list(self.removed) + list(self.box)
        for h in self.hands:
            out += h
        for st in self.stacks:
            for s in st.values():
                out += s
        for p in self.market:
            out += p
        for v in self.clan_attached.values():
            out += v
        return out

    # ---------------------------------------------------------------- events
    def emit(self, events: list[InheritorsEvent], event: InheritorsEvent) -> None:
        events.append(event)
        self.log.append(event)
        if len(self.log) > LOG_LIMIT:
            del self.log[: len(self.log) - LOG_LIMIT]

    # ---------------------------------------------------------------- zone operations
    def take_from_deck(self) -> str | None:
        """Remove and return the top card of the deck (None if empty).

        I11.1(b): the deck becoming empty triggers the end, for any reason.
        """
        if not self.deck:
            return None
        cid = self.deck.pop(0)
        if self.rat_top is not None and self.rat_top[1] == cid:
            self.rat_top = None
        if not self.deck:
            self.end_triggered = True
        return cid

    def draw(self, seat: int, n: int, events: list[InheritorsEvent], reason: str = "") -> int:
        """I6.6 draw up to ``n`` cards; returns how many were drawn. The event gives the count only."""
        got = 0
        for _ in range(n):
            cid = self.take_from_deck()
            if cid is None:
                break
            self.hands[seat].append(cid)
            got += 1
        ev: DrawEvent = {"type": "draw", "seat": seat, "count": got}
        if reason:
            ev["reason"] = reason
        self.emit(events, ev)
        return got

    def refill(self, pile: int, events: list[InheritorsEvent]) -> None:
        """I6.5 [R] (AMB-08) reveal/refill procedure for one empty pile.

        Turn over the top card of the deck; an advocate goes to Removed and the next card is
        turned over; the first non-advocate becomes the pile's only card. Empty deck: stays empty.
        """
        if self.market[pile]:
            return
        while True:
            cid = self.take_from_deck()
            if cid is None:
                self.emit(events, {"type": "refill", "pile": pile, "card": None})
                return
            if C.is_advocate(cid):
                self.removed.append(cid)
                self.emit(events, {"type": "reveal_removed", "pile": pile, "card": cid})
                continue
            self.market[pile].append(cid)
            self.emit(events, {"type": "refill", "pile": pile, "card": cid})
            return

    def refill_all(self, piles: list[int], events: list[InheritorsEvent]) -> None:
        """Refill the given piles (those emptied by taking cards) in pile order."""
        for p in sorted(set(piles)):
            if not self.market[p]:
                self.refill(p, events)

    def take_pile(self, seat: int, pile: int, events: list[InheritorsEvent], reason: str) -> list[str]:
        """Move a whole market pile into ``seat``'s hand (public: the cards were public, I13)."""
        taken = self.market[pile]
        self.market[pile] = []
        self.hands[seat].extend(taken)
        self.emit(events, {"type": "take_pile", "seat": seat, "pile": pile, "cards": list(taken),
                           "reason": reason})
        return taken

    def discard_to_market(self, seat: int, cid: str, pile: int, events: list[InheritorsEvent],
                          reason: str) -> None:
        """I6.3 put a card from hand on top of a market pile (empty allowed)."""
        self.hands[seat].remove(cid)
        self.market[pile].append(cid)
        self.emit(events, {"type": "discard", "seat": seat, "card": cid, "pile": pile,
                           "reason": reason})


def _deep(x: Any) -> Any:
    """Deep copy of a JSON-like structure (dicts, lists, tuples -> lists, scalars)."""
    if isinstance(x, dict):
        return {k: _deep(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_deep(v) for v in x]
    return x


def colour_name(colour: str) -> str:
    return data.COLOUR_NAMES.get(colour, colour)
