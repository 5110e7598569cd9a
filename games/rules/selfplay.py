"""Self-play: complete games with uniformly random legal moves, one ``claim.record/1`` per line.

    python -m games.rules.selfplay --game claim --games 1000 --seed 7 [--with-legal]
                                   [--seats N] [--factions a,b,c,d,e]
    python -m games.rules.selfplay --game claim-mix --seats 4 --games 100
    python -m games.rules.selfplay --game inheritors --seats 3 --games 100 --seed 1

``--seats 3|4`` plays the 3-4 player variant of ``claim-mix`` (one pair + 5 singles, M3), or
Inheritors with that many seats (2-4, I3.1); Inheritors prints ``inheritors.record/1`` records.

Every move is chosen uniformly among the *distinct* legal moves (``legal_moves``). With
``--with-legal`` each entry of ``moves`` also carries ``"legal"``: every legal move the seat had.
``claim-mix`` draws a random valid faction choice per game unless ``--factions`` fixes it.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator, Sequence

import orjson

from games.rules.base import JSON, RulesError
from games.rules.cards import FACTION_NAMES
from games.rules.claim import core
from games.rules.claim.core import OVER, SEER_PRIZE, SEER_TOP
from games.rules.claim.engine import ClaimRules
from games.rules.claim.options import random_mix
from games.rules.claim.serial import move_json
from games.rules.rand import randbelow
from games.rules.registry import AnyRules, get_rules


def random_record(rules: ClaimRules, options: JSON, seed: int, rng: random.Random,
                  with_legal: bool = False, seats: int = 2) -> JSON:
    """One complete game set up from ``seed``, moves drawn from ``rng``; returns its record."""
    st = rules.setup(options, seats, seed)
    log = st.moves
    legal_lists: list[list[int]] = []
    legal = core.legal
    play = core.play
    apply_move = core.apply_move
    randrange = randbelow(rng)  # rng.randrange's draws
    while st.phase != OVER:
        seat = st.turn
        # cards, a Seer choice (T3.5b) or a Giant choice (M6.5), as the engine lists them
        opts = [SEER_PRIZE, SEER_TOP] if st.seer >= 0 else sorted(set(legal(st)), reverse=st.smash_seat >= 0)
        m = opts[randrange(len(opts))]
        if m >= 0:
            play(st, m)
        else:
            apply_move(st, m)
        log.append((seat, m))
        if with_legal:
            legal_lists.append(opts)
    record = rules.record(st)
    if with_legal:
        for entry, opts in zip(record["moves"], legal_lists, strict=True):
            entry["legal"] = [move_json(o) for o in opts]
    return record


def random_engine_record(rules: AnyRules, options: JSON, seats: int, seed: int, rng: random.Random,
                         with_legal: bool = False, max_moves: int = 20000) -> JSON:
    """One complete game of any engine through the :class:`Rules` interface only (Inheritors):
    each step, the lowest seat to act plays a uniformly random legal move."""
    st = rules.setup(options, seats, seed)
    legal_lists: list[list[JSON]] = []
    for _ in range(max_moves):
        if rules.is_over(st):
            break
        seat = min(rules.to_act(st))
        legal = rules.legal_moves(st, seat)
        if not legal:
            raise RulesError(f"seat {seat} must act but has no legal move")
        st, _events = rules.apply(st, seat, legal[rng.randrange(len(legal))])
        if with_legal:
            legal_lists.append([dict(m) for m in legal])
    else:
        raise RulesError(f"no end after {max_moves} moves")
    record = rules.record(st)
    if with_legal:
        for entry, seat_legal in zip(record["moves"], legal_lists, strict=True):
            entry["legal"] = seat_legal
    return record


def generate(game: str, games: int, seed: int, *, with_legal: bool = False, seats: int = 2,
             factions: Sequence[str] | None = None) -> Iterator[JSON]:
    """Records of ``games`` random games (deterministic for a given ``seed``)."""
    rules = get_rules(game)
    if not isinstance(rules, ClaimRules):  # Inheritors: the generic interface
        options = rules.normalize_options({}, seats)
        rng = random.Random(seed)
        for _ in range(games):
            yield random_engine_record(rules, options, seats, rng.getrandbits(63), rng, with_legal)
        return
    fixed = None
    if factions is not None:
        fixed = rules.normalize_options({"factions": list(factions)}, seats)
    else:
        rules.normalize_options(None if game != "claim-mix" else {"factions": _example_mix(seats)}, seats)
    rng = random.Random(seed)
    for _ in range(games):
        if fixed is not None:
            options = fixed
        elif game == "claim-mix":
            options = {"factions": [FACTION_NAMES[f] for f in random_mix(rng, seats)]}
        else:
            options = {}
        yield random_record(rules, options, rng.getrandbits(63), rng, with_legal, seats)


def _example_mix(seats: int = 2) -> list[str]:
    if seats == 2:
        return ["knight", "goblin", "undead", "dwarf", "doppelganger"]
    return ["knight", "goblin", "undead", "dwarf", "doppelganger", "dragon", "troll"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.rules.selfplay", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="claim", help="claim, claim2, claim-mix or inheritors")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--with-legal", action="store_true",
                        help="add every legal move of the seat to each move")
    parser.add_argument("--seats", type=int, default=2, help="2; 3 or 4 with claim-mix (M3) or inheritors (I3.1)")
    parser.add_argument("--factions", help="claim-mix: comma-separated factions, e.g. "
                        "knight,goblin,undead,dragon,seer")
    args = parser.parse_args(argv)
    factions = [f.strip() for f in args.factions.split(",")] if args.factions else None
    try:
        # orjson writes the text ``json.dumps(record, separators=(",", ":"))`` writes for a record (text keys,
        # small integers, ASCII card ids; tests/rules/test_records.py compares them)
        out = sys.stdout
        dumps = orjson.dumps
        for record in generate(args.game, args.games, args.seed, with_legal=args.with_legal,
                               seats=args.seats, factions=factions):
            out.write(dumps(record).decode())
            out.write("\n")
    except RulesError as exc:
        parser.exit(2, f"error: {exc}\n")
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
