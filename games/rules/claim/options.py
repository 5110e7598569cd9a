"""Game options of the Claim family: which 5 factions are in the deck (C1.1, T1.1, M1, M2.1)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.base import InvalidOptions
from games.rules.cards import (
    CLAIM2_FACTIONS,
    CLAIM_FACTIONS,
    FACTION_ALIASES,
    FACTION_NAMES,
    FACTION_TITLES,
    PAIRS,
    SINGLES,
)

KINDS = ("claim", "claim2", "claim-mix")
FIXED_FACTIONS: dict[str, tuple[int, ...]] = {"claim": CLAIM_FACTIONS, "claim2": CLAIM2_FACTIONS}
_PAIR_TEXT = "Knights+Goblins or Gnomes+Giants"
_SINGLES_TEXT = ", ".join(FACTION_NAMES[f] for f in SINGLES)


def check_seats(seats: int) -> None:
    if seats != 2:
        raise InvalidOptions(
            f"this game is for 2 players here, not {seats} (3-4 players are not supported yet)"
        )


def validate_mix(names: Any) -> tuple[int, ...]:
    """M1.2 / M1.4 / M2.1: exactly one pair plus 3 singles. Returns faction ids, canonical order."""
    if not isinstance(names, Sequence) or isinstance(names, str | bytes):
        raise InvalidOptions('"factions" must be a list of 5 faction names')
    chosen: list[int] = []
    for name in names:
        key = name.strip().lower() if isinstance(name, str) else None
        if key is None or key not in FACTION_ALIASES:
            raise InvalidOptions(f"unknown faction {name!r}")
        f = FACTION_ALIASES[key]
        if f in chosen:
            raise InvalidOptions(f"faction {FACTION_NAMES[f]!r} is chosen twice")
        chosen.append(f)
    pairs = []
    for a, b in PAIRS:
        if (a in chosen) != (b in chosen):  # M1.2 a pair is never split
            raise InvalidOptions(
                f"{FACTION_TITLES[a]} and {FACTION_TITLES[b]} are a pair: choose both or neither"
            )
        if a in chosen:
            pairs.append((a, b))
    if len(pairs) != 1:  # M1.2 exactly one pair
        raise InvalidOptions(
            f"choose exactly one pair ({_PAIR_TEXT}), you chose {'both' if pairs else 'none'}"
        )
    singles = [f for f in chosen if f in SINGLES]
    if len(singles) != 3:  # M2.1
        raise InvalidOptions(
            f"choose exactly 3 single factions (from {_SINGLES_TEXT}), you chose {len(singles)}"
        )
    return tuple(sorted(chosen))


def normalize(kind: str, options: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
    check_seats(seats)
    opts = dict(options or {})
    unknown = sorted(set(opts) - {"factions"})
    if unknown:
        raise InvalidOptions(f"unknown option {unknown[0]!r}")
    if kind == "claim-mix":
        if "factions" not in opts or opts["factions"] is None:
            raise InvalidOptions(
                f'claim-mix needs the option "factions": one pair ({_PAIR_TEXT}) '
                f"plus 3 of {_SINGLES_TEXT}"
            )
        factions = validate_mix(opts["factions"])
    else:
        factions = FIXED_FACTIONS[kind]
        if opts.get("factions") is not None:
            given = opts["factions"]
            try:
                ok = sorted(FACTION_ALIASES[str(n).strip().lower()] for n in given) == sorted(factions)
            except (KeyError, TypeError):
                ok = False
            if not ok:
                raise InvalidOptions(
                    f"{kind} always uses {', '.join(FACTION_NAMES[f] for f in factions)}; "
                    "use claim-mix to choose factions"
                )
    return {"factions": [FACTION_NAMES[f] for f in factions]}


def faction_ids(normalized: Mapping[str, Any]) -> tuple[int, ...]:
    return tuple(sorted(FACTION_ALIASES[n] for n in normalized["factions"]))


def random_mix(rng: random.Random) -> tuple[int, ...]:
    """A uniformly random valid 2-player mix: one pair + 3 singles (M2.1)."""
    pair = PAIRS[rng.randrange(2)]
    singles = rng.sample(SINGLES, 3)
    return tuple(sorted((*pair, *singles)))
