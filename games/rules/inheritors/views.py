"""Per-seat views (I13): exactly what a seat may know. ``seat=None`` is a spectator.

Never in a running game's view: another seat's hand or quests, the quest row's contents, the
deck order (except the card the Rat owner just put on top, for that owner only), another seat's
secret Saboteur choices. After the end everything is revealed.
"""

from __future__ import annotations

from . import data
from .state import OVER, InheritorsState, _deep
from .types import InheritorsView, PendingView, PlayerView, StackView


def _stacks(state: InheritorsState, seat: int) -> dict[str, StackView]:
    return {c: {"top": state.top(seat, c), "cards": list(s)} for c, s in state.stacks[seat].items()}


def _pending(state: InheritorsState, viewer: int | None) -> PendingView | None:
    if not state.pending:
        return None
    frame = state.pending[-1]
    kind = frame["kind"]
    out: PendingView = {"kind": kind, "seat": frame["seat"]}
    if kind == "saboteur_discard":
        out["waiting"] = sorted(int(s) for s, n in frame["need"].items() if len(frame["chosen"][s]) < n)
        out["need"] = dict(frame["need"])
        out["chosen_count"] = {s: len(v) for s, v in frame["chosen"].items()}
        if viewer is not None and str(viewer) in frame["chosen"]:
            out["your_choices"] = _deep(frame["chosen"][str(viewer)])
    elif kind == "quest_discard":
        out["chosen"] = list(frame["chosen"])  # already public on the market
    elif kind in ("advisor", "agent"):
        out["left"] = frame["left"]
    elif kind == "skip_play":
        out["condition"] = frame["condition"]
    elif kind == "take_pile":
        out["reason"] = frame["reason"]
    return out


def view(state: InheritorsState, seat: int | None, acting: frozenset[int]) -> InheritorsView:
    over = state.phase == OVER
    players: list[PlayerView] = []
    for s in range(state.seats):
        players.append({
            "seat": s,
            "stacks": _stacks(state, s),
            "clan": state.clans[s],
            "honors": list(state.honors[s]),
            "quest_count": len(state.quests[s]),
            "hand_count": len(state.hands[s]),
        })
    v: InheritorsView = {
        "game": "inheritors",
        "seat": seat,
        "seats": state.seats,
        "options": _deep(state.options),
        "colours": list(state.colours),
        "colour_names": {c: data.COLOUR_NAMES[c] for c in state.colours},
        "removed_colour": state.removed_colour,
        "start_player": state.start_player,
        "last_seat": state.last_seat(),
        "current": state.current,
        "turn": state.turn,
        "phase": state.phase,
        "to_act": sorted(acting),
        "pending": _pending(state, seat),
        "end_triggered": state.end_triggered,
        "over": over,
        "players": players,
        "market": [list(p) for p in state.market],
        "removed": list(state.removed),
        "deck_count": len(state.deck),
        "quest_row_count": len(state.quest_row),
        "honor_row": [{"id": h, "text": data.HONORS[h]} for h in state.honor_row],
        "clan_row": [{"clan": c, "name": data.CLANS[c]["name"], "colour": data.CLANS[c]["colour"],
                      "attached": list(state.clan_attached.get(c, []))} for c in state.clan_row],
        "log": _deep(state.log),
        "provisional": dict(data.PROVISIONAL),
    }
    if seat is not None:
        v["hand"] = list(state.hands[seat])
        v["quests"] = [{"id": q, "text": data.QUESTS[q]["text"], "vp": data.QUESTS[q]["vp"]}
                       for q in state.quests[seat]]
        if (state.rat_top is not None and state.rat_top[0] == seat and state.deck
                and state.deck[0] == state.rat_top[1]):
            v["deck_top"] = state.rat_top[1]  # I13: the Rat owner knows the card it put back
    if over:
        v["result"] = _deep(state.result)
        v["hands"] = [list(h) for h in state.hands]
        v["all_quests"] = [list(q) for q in state.quests]
        v["quest_row"] = list(state.quest_row)
        v["deck"] = list(state.deck)
    return v
