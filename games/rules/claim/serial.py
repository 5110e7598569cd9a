"""Conversions between core codes and JSON (card ids), for states, trick summaries and results."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from games.rules.base import JSON
from games.rules.cards import CARD_ID, FACTION_ALIASES, FACTION_NAMES, parse_card
from games.rules.claim.core import SEER_PRIZE, SEER_TOP, Core, is_smash, new_core, smash_move, smash_target
from games.rules.claim.multi import result_n
from games.rules.claim.scoring import decide, piles_by_faction
from games.rules.claim.types import ClaimMove, ClaimResult, TrickSummary
from games.rules.errors import RulesError

STATE_FORMAT = "claim.state/1"
RECORD_FORMAT = "claim.record/1"


_CARD_ID = CARD_ID.__getitem__


def ids(cards: Sequence[int]) -> list[str]:
    return list(map(_CARD_ID, cards))


def sorted_ids(cards: Sequence[int]) -> list[str]:
    """Ids sorted by faction (canonical order) then value (hands and piles as players sort them)."""
    return list(map(_CARD_ID, sorted(cards)))


def move_json(m: int) -> ClaimMove:
    """The JSON move of a core move (card, Seer choice T3.5b, Giant choice M6.5)."""
    if m >= 0:
        return {"play": CARD_ID[m]}
    if is_smash(m):
        return {"smash": smash_target(m)}
    return {"seer": "top" if m == SEER_TOP else "prize"}


def moves_json(moves: Sequence[tuple[int, int]]) -> list[JSON]:
    """The JSON move log (``[{"seat": s, "move": {...}}]``, records and states) of ``Core.moves``."""
    return [{"seat": seat, "move": {"play": CARD_ID[m]} if m >= 0 else move_json(m)} for seat, m in moves]


def core_move_of(move: Mapping[str, Any]) -> int:
    """The core move of a JSON move of a stored log (inverse of :func:`move_json`)."""
    if "play" in move:
        return parse_card(move["play"])
    if "smash" in move:
        return smash_move(int(move["smash"]))
    return SEER_TOP if move["seer"] == "top" else SEER_PRIZE


def codes(values: Sequence[Any]) -> list[int]:
    try:
        return [parse_card(v) for v in values]
    except KeyError as exc:
        raise RulesError(f"unknown card {exc.args[0]!r}") from None


# Keys of a trick summary that hold seat numbers, not cards (3-4 seats, M5.2 / M6.5).
_SEAT_LISTS = frozenset(("blind_draws", "smashed_from"))


def last_to_json(last: Mapping[str, Any] | None) -> TrickSummary | None:
    """The JSON of a trick summary (``Core.last``: cards as codes, built in :mod:`.core` and :mod:`.multi`)."""
    if last is None:
        return None
    out: JSON = {}
    for key, value in last.items():
        if key in _SEAT_LISTS:
            out[key] = list(value)
        elif key == "cards":
            out[key] = [{"seat": s, "card": CARD_ID[c]} for s, c in value]
        elif key == "prize":
            out[key] = CARD_ID[value]
        elif isinstance(value, list):
            out[key] = ids(value)
        else:
            out[key] = value
    return cast(TrickSummary, out)


def last_from_json(data: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if data is None:
        return None
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in _SEAT_LISTS:
            out[key] = list(value)
        elif key == "cards":
            out[key] = [(d["seat"], parse_card(d["card"])) for d in value]
        elif key == "prize":
            out[key] = parse_card(value)
        elif isinstance(value, list):
            out[key] = codes(value)
        elif isinstance(value, dict):
            out[key] = dict(value)
        else:
            out[key] = value
    return out


_LIST_FIELDS = ("hands", "followers", "public_followers", "peeked", "score", "gnomes")
_FLAT_FIELDS = ("pool", "discard", "smashed", "played")
_INT_FIELDS = ("seats", "dpos", "phase", "trick_no", "leader", "turn", "seer", "seer_next",
               "first_leader")


def state_to_json(st: Core) -> JSON:
    data: JSON = {
        "format": STATE_FORMAT,
        "kind": st.kind,
        "factions": [FACTION_NAMES[f] for f in st.factions],
        "deck": ids(st.deck),
        "prize": CARD_ID[st.prize] if st.prize >= 0 else None,
        "dealt": [ids(h) for h in st.dealt],
        "last": last_to_json(st.last),
        "moves": moves_json(st.moves),
    }
    for name in _LIST_FIELDS:
        data[name] = [ids(z) for z in getattr(st, name)]
    for name in _FLAT_FIELDS:
        data[name] = ids(getattr(st, name))
    for name in _INT_FIELDS:
        data[name] = getattr(st, name)
    if st.smash_seat >= 0:  # M6.5 a pending Giant choice (absent otherwise: older states read the same)
        data["smash_seat"] = st.smash_seat
        data["smash_left"] = list(st.smash_left)
    return data


def state_from_json(data: Mapping[str, Any]) -> Core:
    if data.get("format") != STATE_FORMAT:
        raise RulesError(f"not a {STATE_FORMAT} state")
    factions = tuple(FACTION_ALIASES[n] for n in data["factions"])
    st = new_core(data["kind"], factions, [codes(h) for h in data["dealt"]], codes(data["deck"]),
                  data["first_leader"])
    for name in _LIST_FIELDS:
        setattr(st, name, [codes(z) for z in data[name]])
    for name in _FLAT_FIELDS:
        setattr(st, name, codes(data[name]))
    for name in _INT_FIELDS:
        setattr(st, name, int(data[name]))
    st.smash_seat = int(data.get("smash_seat", -1))
    st.smash_left = [int(v) for v in data.get("smash_left", ())]
    st.prize = parse_card(data["prize"]) if data["prize"] is not None else -1
    st.last = last_from_json(data["last"])
    st.moves = [(int(m["seat"]), core_move_of(m["move"])) for m in data["moves"]]
    return st


def result_of(st: Core) -> ClaimResult:
    """C8 / T4 / M2.4 scoring breakdown (valid at any time; the game result once over).
    3-4 seats: M7 (:func:`games.rules.claim.multi.result_n`)."""
    if st.seats != 2:
        return result_n(st, ids, FACTION_NAMES)
    factions = st.factions
    by = [piles_by_faction(st.score[s], factions) for s in range(st.seats)]
    winner, votes, reason = decide(by, factions)
    return {
        "winner": winner,
        "votes": {FACTION_NAMES[f]: votes[f] for f in factions},
        "counts": [{FACTION_NAMES[f]: len(b[f]) for f in factions} for b in by],
        "score": [{FACTION_NAMES[f]: ids(b[f]) for f in factions} for b in by],
        "reason": reason,
    }
