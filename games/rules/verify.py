"""Check published game records: replay each through the engine, say whether it is legal and
reproduces its result.

    python -m games.rules.verify FILE [FILE ...]     (``-`` reads standard input)
    python -m games.rules.verify --quiet records.ndjson

Input is NDJSON: one record per line (blank lines are skipped): the record itself, or the answer of
``GET /games/{id}/record`` / a line of the export as served (the record is its ``record``).
Any mix of ``claim.record/1``
(``claim``, ``claim2``, ``claim-mix`` with 2-4 seats; docs/records.md) and ``inheritors.record/1``
(2-4 seats; docs/records-inheritors.md). For every record it prints one line: ``OK`` (every move
legal, the game over, the stored result reproduced exactly) or ``FAIL`` with the first problem in
words; then a summary. The exit status is 0 when every record is OK and 1 on any problem
(including a file that cannot be read); malformed input never ends in a traceback.

What is checked, beyond replaying the moves with the engine's own rules:

* the record's shape (format, game, seats, options, the fields the format lists);
* the deal uses exactly the cards of the game (no card missing or doubled, hand and deck sizes),
  the first leader / start player is a seat, 4-seat Claim lists the teams ``[[0, 2], [1, 3]]`` and
  3-4 seat Claim carries ``"reconstructed_rules": true``;
* Inheritors: the derived ``setup.market`` / ``setup.removed`` equal what the deck gives (I3.9);
* the game is over after the last move (a truncated record fails) and no move follows the end; a game that
  ended by resignation, time or abort (``ended_reason``) is not over, and its result is the one that end
  decides (:func:`decided_result`);
* every move has one of the exact shapes its game declares (:mod:`games.rules.moveshape`, as the
  service checks them);
* the stored ``result`` equals the replayed one, field by field (the first difference is named).

Pure Python over :mod:`games.rules` (no Django).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from games.rules.base import RulesError
from games.rules.cards import CARD_ID, FACTION_ALIASES, deck_for
from games.rules.claim import multi
from games.rules.claim import multiplayer_rulings as mr
from games.rules.claim.engine import ClaimRules
from games.rules.claim.serial import RECORD_FORMAT as CLAIM_FORMAT
from games.rules.inheritors import cards as icards
from games.rules.inheritors.engine import InheritorsRules
from games.rules.inheritors.setup import state_from_setup
from games.rules.moveshape import check_move
from games.rules.registry import get_rules

INHERITORS_FORMAT = "inheritors.record/1"
CLAIM_KINDS = ("claim", "claim2", "claim-mix")
MAX_MOVES = 100_000  # far above any real game (Claim: at most 108 moves, Inheritors: a few hundred)


class Problem(Exception):
    """What is wrong with one record, in words; ``kind`` groups the summary."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


# The summary's groups of problems.
MALFORMED, DEAL, ILLEGAL, UNFINISHED, RESULT = "malformed", "bad deal", "illegal move", "unfinished", \
    "result differs"


@dataclass
class Outcome:
    number: int  # 1-based record number
    line: int  # 1-based line in its file
    source: str
    label: str  # "claim-mix, 4 seats"
    ok: bool
    text: str  # "87 moves legal, result reproduced (winners [1, 3])" or the problem
    kind: str | None = None


@dataclass
class Summary:
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def ok(self) -> int:
        return sum(1 for o in self.outcomes if o.ok)

    def by_kind(self) -> Counter[str]:
        return Counter(o.kind for o in self.outcomes if not o.ok and o.kind)

    def by_label(self) -> Counter[str]:
        return Counter(o.label for o in self.outcomes)


# --------------------------------------------------------------------------- shape helpers


def _need(rec: Mapping[str, Any], key: str, types: type | tuple[type, ...], where: str = "") -> Any:
    if key not in rec:
        raise Problem(MALFORMED, f"{where}{key!r} is missing")
    value = rec[key]
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in _tuple(types)):
        names = " or ".join(t.__name__ for t in _tuple(types))
        raise Problem(MALFORMED, f"{where}{key!r} must be {names}, not {_short(value)}")
    return value


def _tuple(types: type | tuple[type, ...]) -> tuple[type, ...]:
    return types if isinstance(types, tuple) else (types,)


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, separators=(",", ":")) if _jsonable(value) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


def _str_list(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise Problem(MALFORMED, f"{what} must be a list of card ids")
    return value


def _moves(rec: Mapping[str, Any]) -> list[tuple[int, Mapping[str, Any]]]:
    moves = _need(rec, "moves", list)
    if len(moves) > MAX_MOVES:
        raise Problem(MALFORMED, f"{len(moves)} moves: more than any game can have ({MAX_MOVES})")
    out = []
    for i, m in enumerate(moves, 1):
        if not isinstance(m, Mapping):
            raise Problem(MALFORMED, f"move {i} must be an object {{\"seat\": s, \"move\": {{...}}}}")
        seat = _need(m, "seat", int, f"move {i}: ")
        move = _need(m, "move", Mapping, f"move {i}: ")
        out.append((seat, move))
    return out


def first_difference(stored: Any, replayed: Any, path: str = "result") -> str | None:
    """The first place where two JSON values differ, in words (``None`` if equal)."""
    if isinstance(stored, Mapping) and isinstance(replayed, Mapping):
        for key in sorted(set(stored) | set(replayed), key=str):
            if key not in replayed:
                return f"{path}.{key} is in the record but not in the replayed result"
            if key not in stored:
                return f"{path}.{key} is missing (the replay gives {_short(replayed[key])})"
            d = first_difference(stored[key], replayed[key], f"{path}.{key}")
            if d:
                return d
        return None
    if isinstance(stored, list) and isinstance(replayed, list) and len(stored) == len(replayed):
        for i, (a, b) in enumerate(zip(stored, replayed, strict=True)):
            d = first_difference(a, b, f"{path}[{i}]")
            if d:
                return d
        return None
    if stored == replayed and type(stored) is type(replayed):
        return None
    return f"{path}: the record says {_short(stored)}, the replay gives {_short(replayed)}"


def _replay(rules: Any, state: Any, moves: Sequence[tuple[int, Mapping[str, Any]]], *, to_end: bool = True) -> Any:
    for i, (seat, move) in enumerate(moves, 1):
        if rules.is_over(state):
            raise Problem(ILLEGAL, f"move {i} (seat {seat}) comes after the end of the game "
                                   f"({i - 1} moves end it)")
        try:
            check_move(rules.move_shapes, move)  # the shapes the service accepts, before the engine
            state, _ = rules.apply(state, seat, move)
        except RulesError as exc:
            raise Problem(ILLEGAL, f"move {i} (seat {seat}, {_short(dict(move))}): {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise Problem(ILLEGAL, f"move {i} (seat {seat}, {_short(dict(move))}) is not a move of this "
                                   f"game ({type(exc).__name__}: {exc})") from None
    if to_end and not rules.is_over(state):
        raise Problem(UNFINISHED, f"the game is not over after the last of its {len(moves)} moves "
                                  f"(seat {sorted(rules.to_act(state))} to act)")
    if not to_end and rules.is_over(state):
        raise Problem(RESULT, f"the record says the game ended by {_ended_by(state, None)}, but its "
                              f"{len(moves)} moves play it to the end")
    return state


#: How a game can end before its last move (the service's ``resign``, the clock's timeout, ``abort``, a
#: tournament's ``adjudicate``).
EARLY_ENDS = ("resigned", "timeout", "aborted", "adjudicated")


def _ended_by(_state: Any, rec: Mapping[str, Any] | None) -> str:
    if rec is None:
        return "resignation, time or abort"
    reason = rec.get("ended_reason")
    if reason is None and isinstance(rec.get("result"), Mapping):
        reason = rec["result"].get("reason")
    return reason if reason in EARLY_ENDS else "play"


def decided_result(reason: str, seats: int, stored: Mapping[str, Any]) -> dict[str, Any]:
    """The result the site writes for a game that ended by ``reason`` (:data:`EARLY_ENDS`), rebuilt from the
    seat(s) the stored result names: a resignation makes every other seat win; a timeout in a 2-seat game makes
    the other seat win (both out of time: a draw); an abort has no winner."""
    if reason == "aborted":
        return {"winner": None, "winners": [], "reason": "aborted"}
    if reason == "adjudicated":
        ranks = _need(stored, "ranks", list, "result: ")
        if len(ranks) != seats or any(isinstance(r, bool) or not isinstance(r, int) or r < 1 for r in ranks):
            raise Problem(RESULT, f"result.ranks {_short(ranks)}: a place from 1 for each of the {seats} seats")
        won = [s for s in range(seats) if ranks[s] == 1]
        won = [] if len(won) == seats else won
        return {"winner": won[0] if len(won) == 1 else None, "winners": won, "ranks": list(ranks),
                "reason": "adjudicated"}
    if reason == "resigned":
        quitter = _need(stored, "resigned", int, "result: ")
        _seat(quitter, seats, "resigned")
        others = [s for s in range(seats) if s != quitter]
        return {"winner": others[0] if len(others) == 1 else None, "winners": others,
                "ranks": [2 if s == quitter else 1 for s in range(seats)], "reason": "resigned", "resigned": quitter}
    if seats != 2:
        raise Problem(RESULT, "only a 2-seat game ends on time: with 3-4 seats the AI takes the late seat")
    late = _need(stored, "timeout", (int, list), "result: ")
    if isinstance(late, list):
        if sorted(late) != [0, 1]:
            raise Problem(RESULT, f"result.timeout {_short(late)}: a list names both seats, [0, 1]")
        return {"winner": None, "winners": [], "ranks": [1, 1], "reason": "timeout", "timeout": late}
    _seat(late, seats, "timeout")
    return {"winner": 1 - late, "winners": [1 - late], "ranks": [1 if s != late else 2 for s in range(2)],
            "reason": "timeout", "timeout": late}


def _seat(value: int, seats: int, what: str) -> None:
    if isinstance(value, bool) or not 0 <= value < seats:
        raise Problem(RESULT, f"result.{what} {_short(value)} is not a seat (0-{seats - 1})")


def _finish(rules: Any, state: Any, moves: Sequence[tuple[int, Mapping[str, Any]]], rec: Mapping[str, Any],
            seats: int) -> str:
    """Replay the moves and check the stored result: the played one, or the one an early end decides."""
    reason = _ended_by(state, rec)
    if reason == "play":
        state = _replay(rules, state, moves)
        replayed = rules.record(state)["result"]
        _check_result(rec, replayed)
        return f"{len(moves)} moves legal, result reproduced ({_claim_outcome(replayed)})"
    _replay(rules, state, moves, to_end=False)
    stored = rec.get("result")
    if not isinstance(stored, Mapping):
        raise Problem(RESULT, "the record has no result (a finished game's record carries one)")
    _check_result(rec, decided_result(reason, seats, stored))
    return f"{len(moves)} moves legal, ended {reason} ({_claim_outcome(stored)})"


def _check_result(rec: Mapping[str, Any], replayed: Any) -> None:
    if "result" not in rec or rec["result"] is None:
        raise Problem(RESULT, "the record has no result (a finished game's record carries one)")
    diff = first_difference(rec["result"], replayed)
    if diff:
        raise Problem(RESULT, diff)


# --------------------------------------------------------------------------- Claim


def verify_claim(rec: Mapping[str, Any]) -> tuple[str, str]:
    """``(label, text)`` for a valid ``claim.record/1``; raises :class:`Problem`."""
    game = _need(rec, "game", str)
    if game not in CLAIM_KINDS:
        raise Problem(MALFORMED, f"game {game!r} is not a {CLAIM_FORMAT} game ({', '.join(CLAIM_KINDS)})")
    rules = get_rules(game)
    assert isinstance(rules, ClaimRules)
    seats = _need(rec, "seats", int)
    label = f"{game}, {seats} seats"
    if not rules.info.min_seats <= seats <= rules.info.max_seats:
        raise Problem(MALFORMED, f"{game} is played by {rules.info.min_seats}-{rules.info.max_seats} "
                                 f"players, not {seats}")
    factions = _str_list(_need(rec, "factions", list), "'factions'")
    try:
        options = rules.normalize_options({"factions": factions}, seats)
    except RulesError as exc:
        raise Problem(DEAL, f"factions: {exc}") from None
    teams = mr.teams_for(seats)
    if teams is not None and rec.get("teams") != [list(t) for t in teams]:
        raise Problem(DEAL, f"4 players play in the teams [[0, 2], [1, 3]] (M3.4); the record says "
                            f"{_short(rec.get('teams'))}")
    if teams is None and "teams" in rec:
        raise Problem(DEAL, f"'teams' only belongs to 4-seat records, this one has {seats} seats")
    if seats > 2 and rec.get("reconstructed_rules") is not True:
        raise Problem(DEAL, "a 3-4 seat record must carry \"reconstructed_rules\": true")
    hands_raw = _need(rec, "hands", list)
    if len(hands_raw) != seats:
        raise Problem(DEAL, f"{len(hands_raw)} hands for {seats} seats")
    hands = [_str_list(h, f"hand {s}") for s, h in enumerate(hands_raw)]
    deck = _str_list(_need(rec, "deck", list), "'deck'")
    size = multi.HAND_SIZE[seats]
    for s, h in enumerate(hands):
        if len(h) != size:
            raise Problem(DEAL, f"seat {s} was dealt {len(h)} cards; {seats} players get {size} each")
    fids = tuple(FACTION_ALIASES[f] for f in options["factions"])
    expected = Counter(CARD_ID[c] for c in deck_for(fids))
    dealt = Counter(c for h in hands for c in h) + Counter(deck)
    if dealt != expected:
        extra = sorted((dealt - expected).elements())
        missing = sorted((expected - dealt).elements())
        raise Problem(DEAL, "the deal does not use exactly the game's cards: "
                            + "; ".join(x for x in (f"extra {', '.join(extra[:5])}" if extra else "",
                                                    f"missing {', '.join(missing[:5])}" if missing else "") if x))
    first = _need(rec, "first_leader", int)
    if not 0 <= first < seats:
        raise Problem(DEAL, f"first_leader {first} is not a seat (0-{seats - 1})")
    moves = _moves(rec)
    try:
        state = rules.from_deal(options["factions"], hands, deck, first)
    except RulesError as exc:
        raise Problem(DEAL, str(exc)) from None
    return label, _finish(rules, state, moves, rec, seats)


def _claim_outcome(res: Mapping[str, Any]) -> str:
    winners = res.get("winners")
    if winners is not None:
        return f"winners {winners}" if winners else "draw"
    return "draw" if res.get("winner") is None else f"winner {res['winner']}"


# --------------------------------------------------------------------------- Inheritors

_SETUP_KEYS: dict[str, type | tuple[type, ...]] = {
    "seats": int, "options": Mapping, "colours": list, "quest_row": list, "box_quests": list,
    "honor_row": list, "box_honors": list, "clan_row": list, "box_clans": list, "clan_attached": Mapping,
    "box": list, "hands": list, "deck": list, "start_player": int,
}


def verify_inheritors(rec: Mapping[str, Any]) -> tuple[str, str]:
    game = _need(rec, "game", str)
    if game != "inheritors":
        raise Problem(MALFORMED, f"game {game!r} is not an {INHERITORS_FORMAT} game (inheritors)")
    rules = get_rules("inheritors")
    assert isinstance(rules, InheritorsRules)
    seats = _need(rec, "seats", int)
    label = f"inheritors, {seats} seats"
    options = _need(rec, "options", Mapping)
    try:
        normal = rules.normalize_options(options, seats)
    except RulesError as exc:
        raise Problem(MALFORMED, f"options: {exc}") from None
    setup = _need(rec, "setup", Mapping)
    for key, types in _SETUP_KEYS.items():
        _need(setup, key, types, "setup: ")
    if setup["seats"] != seats or dict(setup["options"]) != normal:
        raise Problem(DEAL, "setup.seats / setup.options differ from the record's seats / options")
    hands = setup["hands"]
    if len(hands) != seats:
        raise Problem(DEAL, f"{len(hands)} hands for {seats} seats")
    piles = [_str_list(h, f"setup hand {s}") for s, h in enumerate(hands)]
    piles.append(_str_list(setup["deck"], "setup.deck"))
    piles.append(_str_list(setup["box"], "setup.box"))
    for clan, cards in setup["clan_attached"].items():
        piles.append(_str_list(cards, f"setup.clan_attached[{clan!r}]"))
    used = Counter(c for p in piles for c in p)
    expected = Counter(list(icards.CARDS))
    if used != expected:
        extra = sorted((used - expected).elements())
        missing = sorted((expected - used).elements())
        raise Problem(DEAL, "the setup does not hold each card of the game exactly once: "
                            + "; ".join(x for x in (f"extra {', '.join(extra[:5])}" if extra else "",
                                                    f"missing {', '.join(missing[:5])}" if missing else "") if x))
    if not 0 <= setup["start_player"] < seats:
        raise Problem(DEAL, f"start_player {setup['start_player']} is not a seat (0-{seats - 1})")
    moves = _moves(rec)
    try:
        state = state_from_setup(setup)
    except (RulesError, KeyError, TypeError, ValueError) as exc:
        raise Problem(DEAL, f"the setup cannot be built: {exc}") from None
    for key in ("market", "removed"):  # derived data (I3.9): must be what the deck gives
        if key in setup and setup[key] != state.setup[key]:
            raise Problem(DEAL, f"setup.{key} is {_short(setup[key])} but the deck gives "
                                f"{_short(state.setup[key])} (I3.9)")
    return label, _finish(rules, state, moves, rec, seats)


# --------------------------------------------------------------------------- driver

VERIFIERS = {CLAIM_FORMAT: verify_claim, INHERITORS_FORMAT: verify_inheritors}


def verify_record(rec: Any) -> tuple[str, str]:
    """``(label, text)`` for a valid record of any supported format; raises :class:`Problem`."""
    if not isinstance(rec, Mapping):
        raise Problem(MALFORMED, f"a record must be a JSON object, not {type(rec).__name__}")
    if "format" not in rec and isinstance(rec.get("record"), Mapping):
        rec = _unwrap(rec)
    fmt = rec.get("format")
    check = VERIFIERS.get(fmt) if isinstance(fmt, str) else None
    if check is None:
        raise Problem(MALFORMED, f"unknown format {_short(fmt)} (known: {', '.join(VERIFIERS)})")
    return check(rec)


def _unwrap(served: Mapping[str, Any]) -> Mapping[str, Any]:
    """The record inside an answer of ``GET /games/{id}/record`` or a line of the export (``record``, beside
    the game's id, seats and dates); the answer's own result must be the record's."""
    inner: Mapping[str, Any] = served["record"]
    if "result" in served and served["result"] != inner.get("result"):
        raise Problem(RESULT, "the answer's result differs from its record's result")
    return inner


def verify_line(text: str) -> tuple[str, str]:
    try:
        rec = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise Problem(MALFORMED, f"not JSON: {exc}") from None
    return verify_record(rec)


def _label_of(text: str) -> str:
    try:
        rec = json.loads(text)
        if isinstance(rec, Mapping) and isinstance(rec.get("game"), str):
            seats = rec.get("seats")
            return f"{rec['game']}, {seats} seats" if isinstance(seats, int) else rec["game"]
    except (ValueError, RecursionError):
        pass
    return "?"


def verify_lines(lines: Iterable[str], source: str = "-", start: int = 1) -> Iterator[Outcome]:
    """One :class:`Outcome` per non-blank line (numbered from ``start``)."""
    number = start - 1
    for lineno, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text:
            continue
        number += 1
        try:
            label, msg = verify_line(text)
            yield Outcome(number, lineno, source, label, True, msg)
        except Problem as exc:
            yield Outcome(number, lineno, source, _label_of(text), False, str(exc), exc.kind)
        except Exception as exc:  # a record the checks above did not foresee
            yield Outcome(number, lineno, source, _label_of(text), False,
                          f"malformed record ({type(exc).__name__}: {exc})", MALFORMED)


def report(outcome: Outcome, out: TextIO) -> None:
    where = f"line {outcome.line}" if outcome.source == "-" else f"{outcome.source}:{outcome.line}"
    status = "OK  " if outcome.ok else "FAIL"
    out.write(f"{status} record {outcome.number} ({where}, {outcome.label}): {outcome.text}\n")


def summary_text(s: Summary) -> str:
    n = len(s.outcomes)
    bad = n - s.ok
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(s.by_kind().items()))
    labels = ", ".join(f"{k}: {v}" for k, v in sorted(s.by_label().items()))
    head = f"{n} record{'s' if n != 1 else ''}: {s.ok} OK, {bad} with problems"
    return head + (f" ({kinds})" if kinds else "") + (f". By game: {labels}." if labels else ".")


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.rules.verify", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", metavar="FILE", help="NDJSON file of records; - = stdin")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only problems and the summary")
    args = parser.parse_args(argv)
    out = out or sys.stdout
    summary = Summary()
    unreadable = 0
    for name in args.files:
        try:
            if name == "-":
                _run(verify_lines(stdin or sys.stdin, "-", len(summary.outcomes) + 1), summary, out, args.quiet)
            else:
                with open(name, encoding="utf-8") as fh:
                    _run(verify_lines(fh, name, len(summary.outcomes) + 1), summary, out, args.quiet)
        except OSError as exc:
            out.write(f"FAIL {name}: cannot read it ({exc.strerror or exc})\n")
            unreadable += 1
        except UnicodeDecodeError as exc:
            out.write(f"FAIL {name}: not UTF-8 text ({exc.reason} at byte {exc.start}); "
                      f"the records before it are counted\n")
            unreadable += 1
    text = summary_text(summary)
    if not summary.outcomes:
        text += " No records found: each line of the file must be one JSON record."
    if unreadable:
        text += f" {unreadable} file(s) could not be read completely."
    out.write(text + "\n")
    return 0 if summary.outcomes and summary.ok == len(summary.outcomes) and not unreadable else 1


def _run(outcomes: Iterable[Outcome], summary: Summary, out: TextIO, quiet: bool) -> None:
    for o in outcomes:
        summary.outcomes.append(o)
        if not (quiet and o.ok):
            report(o, out)


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:  # pragma: no cover
        raise SystemExit(130) from None
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        raise SystemExit(1) from None
