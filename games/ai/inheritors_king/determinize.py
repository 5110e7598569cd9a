"""Determinization for Inheritors: full states consistent with one seat's view (I13), never its true state.

What a seat knows (``rules.view(state, seat)``): its hand and quests, every tableau, the market, Removed, the
clan and honor rows, hand / quest / deck / quest-row counts, the top pending decision, the recent public log and,
for the Rat owner, the card it put on the deck. The rest is hidden: other hands, other seats' quests, the quest
row, the deck order, other seats' secret Saboteur choices.

:class:`Knowledge` reads the view once: the *unseen* cards (every card of this game - the active colours'
influence cards and relics, the tomes, the basic advocates for this many seats, the cards attached to the clans
in play - minus every card the view shows) and the unseen quests (the quests of the active colours minus its own).
:meth:`Knowledge.sample` deals them at random with the right counts (other hands, deck; other seats' quests,
quest row) and builds an :class:`InheritorsState` on which the engine can play on.

Simplifications (documented in docs/ai.md): cards an opponent took publicly (a market pile, a clan's attached
cards) are dealt like any unseen card; the pending stack is rebuilt from the top frame in the view, the
Agent's remaining effects (from this turn's log) and the frames the engine always puts below (the advocate's
``after_advocate``, the Saboteur's ``take_pile``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.inheritors import cards as C
from games.rules.inheritors import data
from games.rules.inheritors.state import InheritorsState, JSONDict

PILES = (0, 1, 2)
#: Pending frames opened by an advocate's effect: the engine keeps ``after_advocate`` below them.
ADVOCATE_FRAMES = frozenset({"skip_play", "spy", "advisor", "agent", "saboteur_discard"})


def game_cards(colours: Sequence[str], seats: int, clans_in_play: Sequence[str]) -> list[str]:
    """Every small card in play in a game with these active colours, seats and clans (I3.2-I3.7, I8.4)."""
    active = set(colours)
    attached = {cid for clan in clans_in_play for cid in data.CLANS[clan]["attached"]}
    out = []
    for cid, c in C.CARDS.items():
        if c.kind in (C.INFLUENCE, C.RELIC):
            keep = c.colour in active
        elif c.kind == C.TOME:
            keep = True
        elif c.kind == C.BASIC_ADVOCATE:
            keep = c.min_players <= seats
        else:  # special advocates and epics: only those attached to a clan in play
            keep = cid in attached
        if keep:
            out.append(cid)
    return out


def _this_turn(log: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The public events since the current turn began (the log keeps the last few dozen)."""
    out: list[Mapping[str, Any]] = []
    for ev in reversed(log):
        if ev.get("type") in ("turn", "setup"):
            break
        out.append(ev)
    out.reverse()
    return out


class Knowledge:
    """One seat's information, read from its view; :meth:`sample` deals the hidden part."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        if view.get("seat") is None:
            raise ValueError("the King needs a seat's view, not a spectator's")
        self.view = view
        self.seat = int(view["seat"])
        self.seats = int(view["seats"])
        players = view["players"]
        self.hand: list[str] = list(view.get("hand", []))
        self.hand_counts = [int(p["hand_count"]) for p in players]
        self.quest_counts = [int(p["quest_count"]) for p in players]
        clans_in_play = [c["clan"] for c in view["clan_row"]] + [p["clan"] for p in players if p["clan"]]
        seen: set[str] = set(self.hand)
        for p in players:
            for st in p["stacks"].values():
                seen.update(st["cards"])
        for pile in view["market"]:
            seen.update(pile)
        seen.update(view["removed"])
        for c in view["clan_row"]:
            seen.update(c["attached"])
        self.deck_top: str | None = view.get("deck_top")
        self.unseen = sorted(cid for cid in game_cards(view["colours"], self.seats, clans_in_play)
                             if cid not in seen and cid != self.deck_top)
        active = set(view["colours"])
        mine = {q["id"] for q in view.get("quests", [])}
        self.my_quests = [q["id"] for q in view.get("quests", [])]
        self.unseen_quests = sorted(q for q, d in data.QUESTS.items()
                                    if (d["tie"] is None or d["tie"] in active) and q not in mine)
        self.deck_count = int(view["deck_count"])
        self.quest_row_count = int(view["quest_row_count"])
        hidden = sum(self.hand_counts[s] for s in range(self.seats) if s != self.seat)
        if hidden + self.deck_count - (1 if self.deck_top else 0) != len(self.unseen):
            raise ValueError(f"the view does not add up: {len(self.unseen)} unseen cards for {hidden} in other "
                             f"hands and {self.deck_count} in the deck")
        self.turn_log = _this_turn(view.get("log", []))

    def sample(self, rng: random.Random) -> InheritorsState:
        """One full state consistent with the view, the hidden cards and quests dealt at random."""
        v = self.view
        pool = list(self.unseen)
        rng.shuffle(pool)
        hands: list[list[str]] = []
        for s in range(self.seats):
            if s == self.seat:
                hands.append(list(self.hand))
            else:
                n = self.hand_counts[s]
                hands.append(pool[:n])
                del pool[:n]
        deck = ([self.deck_top] if self.deck_top else []) + pool
        quests_pool = list(self.unseen_quests)
        rng.shuffle(quests_pool)
        quests: list[list[str]] = []
        for s in range(self.seats):
            if s == self.seat:
                quests.append(list(self.my_quests))
            else:
                n = self.quest_counts[s]
                quests.append(quests_pool[:n])
                del quests_pool[:n]
        quest_row = quests_pool[: self.quest_row_count]
        players = v["players"]
        return InheritorsState(
            seats=self.seats,
            options=dict(v["options"]),
            colours=list(v["colours"]),
            removed_colour=v["removed_colour"],
            deck=deck,
            hands=hands,
            stacks=[{c: list(st["cards"]) for c, st in p["stacks"].items()} for p in players],
            market=[list(p) for p in v["market"]],
            removed=list(v["removed"]),
            box=[],
            quest_row=quest_row,
            quests=quests,
            honor_row=[h["id"] for h in v["honor_row"]],
            honors=[list(p["honors"]) for p in players],
            clan_row=[c["clan"] for c in v["clan_row"]],
            clan_attached={c["clan"]: list(c["attached"]) for c in v["clan_row"]},
            clans=[p["clan"] for p in players],
            start_player=int(v["start_player"]),
            current=int(v["current"]),
            phase=v["phase"],
            pending=self._pending(hands, rng),
            spy_honor=self._spy_honor(),
            extra_turn=self._extra_turn(),
            end_triggered=bool(v["end_triggered"]),
            turn=int(v["turn"]),
            rat_top=[self.seat, self.deck_top] if self.deck_top else None,
        )

    def _advocates_this_turn(self) -> list[str]:
        return [str(ev.get("advocate")) for ev in self.turn_log if ev.get("type") == "advocate"]

    def _spy_honor(self) -> bool:
        """H8's condition (I9.3): a Spy placed a card of value >= 2 in the active seat's tableau this turn."""
        cur = int(self.view["current"])
        return any(ev.get("type") == "spy" and ev.get("seat") == cur and ev.get("answer")
                   and int(ev.get("value") or 0) >= 2 for ev in self.turn_log)

    def _extra_turn(self) -> bool:
        """The Agent's extra turn (I7.6) is owed when an Agent was played this turn (and not yet taken)."""
        return "agent" in self._advocates_this_turn()

    def _pending(self, hands: list[list[str]], rng: random.Random) -> list[JSONDict]:
        p = self.view.get("pending")
        if not p:
            return []
        kind = p["kind"]
        owner = int(p["seat"])
        frames: list[JSONDict] = []
        if kind in ADVOCATE_FRAMES or (kind == "take_pile" and p.get("reason") == "saboteur"):
            frames.append({"kind": "after_advocate", "seat": owner})
        if kind != "agent" and "agent" in self._advocates_this_turn():
            used = sum(1 for ev in self.turn_log if ev.get("type") == "agent_effect")
            if used < 2:
                frames.append({"kind": "agent", "seat": owner, "left": 2 - used})
        top: JSONDict = {"kind": kind, "seat": owner}
        if kind == "quest_discard":
            top["chosen"] = list(p.get("chosen", []))
        elif kind == "skip_play":
            top["condition"] = p["condition"]
        elif kind == "advisor":
            top["left"] = int(p["left"])
            top["emptied"] = [i for i in PILES if not self.view["market"][i]]
        elif kind == "agent":
            top["left"] = int(p["left"])
        elif kind == "take_pile":
            top["reason"] = p["reason"]
        elif kind == "saboteur_discard":
            frames.append({"kind": "take_pile", "seat": owner, "reason": "saboteur"})
            need = {str(s): int(n) for s, n in p["need"].items()}
            chosen: dict[str, list[list[Any]]] = {}
            for key, count in p.get("chosen_count", {}).items():
                s = int(key)
                if s == self.seat:
                    chosen[key] = [list(c) for c in p.get("your_choices", [])]
                else:  # secret choices: some of its (dealt) cards, random piles
                    chosen[key] = [[cid, rng.choice(PILES)] for cid in hands[s][: int(count)]]
            top["need"] = need
            top["chosen"] = {k: chosen.get(k, []) for k in need}
        frames.append(top)
        return frames
