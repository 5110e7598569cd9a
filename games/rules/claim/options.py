"""Game options of the Claim family: which factions are in the deck (C1.1, T1.1, M1, M2.1, M3.1).

2 seats: 5 factions (52 cards). 3-4 seats (``claim-mix`` only): one pair + 5 singles = 7 factions,
72 cards (M3.1); the normalized options then also carry ``"reconstructed_rules": true`` (the
3-4 player rules are partly our rulings, see :mod:`games.rules.claim.multiplayer_rulings`).
"""

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


MULTI_SEATS = (3, 4)
_TITLES = {"claim": "Claim", "claim2": "Claim 2", "claim-mix": "Claim + Claim 2"}


def singles_for(seats: int) -> int:
    """How many single factions a mix needs: 3 with 2 players (M2.1), 5 with 3-4 players (M3.1)."""
    return 3 if seats == 2 else 5


def check_seats(seats: int, kind: str = "claim-mix") -> None:
    """2 players for every kind; 3-4 players only with the combined deck (``claim-mix``, M3.1)."""
    if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 4:
        raise InvalidOptions(f"Claim is played by 2, 3 or 4 players, not {seats}")
    if seats != 2 and kind != "claim-mix":
        # M3.1 the 3-4 player game needs both boxes: one box has only 52 cards (5 factions)
        raise InvalidOptions(
            f"{_TITLES.get(kind, kind)} alone is for 2 players: {seats} players need both boxes "
            "(use claim-mix with one pair and 5 single factions, 72 cards)"
        )


def validate_mix(names: Any, seats: int = 2) -> tuple[int, ...]:
    """M1.2 / M1.4 / M2.1 / M3.1: exactly one pair plus 3 singles (2 players) or 5 singles (3-4
    players). Returns faction ids, canonical order."""
    n_singles = singles_for(seats)
    if not isinstance(names, Sequence) or isinstance(names, str | bytes):
        raise InvalidOptions(f'"factions" must be a list of {n_singles + 2} faction names')
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
    if len(singles) != n_singles:  # M2.1 (2 players) / M3.1 (3-4 players)
        who = "" if seats == 2 else (
            f" for {seats} players (one pair + 3 singles is the mix for 2 players)")
        raise InvalidOptions(
            f"choose exactly {n_singles} single factions{who} (from {_SINGLES_TEXT}), "
            f"you chose {len(singles)}"
        )
    return tuple(sorted(chosen))


def normalize(kind: str, options: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
    check_seats(seats, kind)
    opts = dict(options or {})
    # 3-4 players: the flag "reconstructed_rules" is ours (always true); it is accepted back so
    # that normalized options can be normalized again.
    known = {"factions"} if seats == 2 else {"factions", "reconstructed_rules"}
    unknown = sorted(set(opts) - known)
    if unknown:
        raise InvalidOptions(f"unknown option {unknown[0]!r}")
    if kind == "claim-mix":
        if "factions" not in opts or opts["factions"] is None:
            who = "" if seats == 2 else f" for {seats} players"
            raise InvalidOptions(
                f'claim-mix needs the option "factions"{who}: one pair ({_PAIR_TEXT}) '
                f"plus {singles_for(seats)} of {_SINGLES_TEXT}"
            )
        factions = validate_mix(opts["factions"], seats)
        if seats != 2:
            return {"factions": [FACTION_NAMES[f] for f in factions], "reconstructed_rules": True}
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


def random_mix(rng: random.Random, seats: int = 2) -> tuple[int, ...]:
    """A uniformly random valid mix: one pair + 3 singles (M2.1) or + 5 singles (M3.1, 3-4 seats).

    With the default ``seats=2`` the random draws are exactly those of the 2-player version."""
    pair = PAIRS[rng.randrange(2)]
    singles = rng.sample(SINGLES, singles_for(seats))
    return tuple(sorted((*pair, *singles)))
