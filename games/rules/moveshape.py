"""Exact move shapes: every game declares the JSON shapes its moves may take (pure Python, no Django).

A move is refused *before* an engine sees it unless it matches one of its game's shapes exactly: the same
keys (no unknown or missing key), each value of its declared type (short text without control characters,
NUL or lone surrogates; a bounded integer; ``true``; a short list of those). Nothing nested deeper than
such a list is ever accepted, so an engine never copies or walks attacker-sized structures.

``check_move(shapes, move)`` raises :class:`MalformedMove` (a :class:`~games.rules.base.RulesError`) whose
message names the problem and lists the shapes the game accepts. The service calls it once, before the
engine, for every move a client sends (``games.service.moves.checked_apply``: the Django view and the fast
move path both go through it).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.rules.errors import RulesError

MAX_TEXT = 64  # longest id of any game (cards, honors, clans, choices) is far shorter
MAX_KEYS = 8


class MalformedMove(RulesError):
    """The move does not have any shape its game declares; the message says what is wrong."""


def text_problem(value: Any, max_length: int = MAX_TEXT) -> str | None:
    """Why ``value`` is not acceptable short text (``None`` when it is): a string of 1..max_length
    characters without control, format (bidi, zero-width), surrogate or private-use characters."""
    if not isinstance(value, str):
        return "must be text"
    if not value or len(value) > max_length:
        return f"must be 1 to {max_length} characters"
    for ch in value:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            return f"contains a forbidden character (U+{ord(ch):04X})"
    return None


@dataclass(frozen=True)
class Text:
    """Short text; with ``choices``, exactly one of them."""

    choices: tuple[str, ...] = ()
    label: str = "text"

    def problem(self, value: Any) -> str | None:
        if self.choices:
            if isinstance(value, str) and value in self.choices:
                return None
            return "must be one of " + ", ".join(f'"{c}"' for c in self.choices)
        return text_problem(value)

    def describe(self) -> str:
        return "|".join(f'"{c}"' for c in self.choices) if self.choices else self.label


@dataclass(frozen=True)
class Int:
    """An integer (not a boolean) in ``lo..hi``."""

    lo: int
    hi: int
    label: str = ""

    def problem(self, value: Any) -> str | None:
        if type(value) is not int or not self.lo <= value <= self.hi:
            return f"must be a whole number from {self.lo} to {self.hi}"
        return None

    def describe(self) -> str:
        return self.label or f"{self.lo}-{self.hi}"


@dataclass(frozen=True)
class TrueFlag:
    """Exactly ``true``."""

    def problem(self, value: Any) -> str | None:
        return None if value is True else "must be true"

    def describe(self) -> str:
        return "true"


@dataclass(frozen=True)
class ListOf:
    """A list of exactly ``length`` items of one scalar type."""

    item: Text | Int
    length: int

    def problem(self, value: Any) -> str | None:
        if not isinstance(value, list) or len(value) != self.length:
            return f"must be a list of {self.length} items"
        for i, item in enumerate(value):
            problem = self.item.problem(item)
            if problem:
                return f"item {i} {problem}"
        return None

    def describe(self) -> str:
        return f"[{self.length} x {self.item.describe()}]"


FieldType = Text | Int | TrueFlag | ListOf


@dataclass(frozen=True)
class Shape:
    """One move shape: its required keys and types, and optional keys."""

    required: Mapping[str, FieldType]
    optional: Mapping[str, FieldType] = field(default_factory=dict)

    def keys_match(self, keys: set[str]) -> bool:
        return set(self.required) <= keys <= set(self.required) | set(self.optional)

    def problem(self, move: Mapping[str, Any]) -> str | None:
        for key, value in move.items():
            kind = self.required.get(key) or self.optional[key]
            problem = kind.problem(value)
            if problem:
                return f'"{key}" {problem}'
        return None

    def describe(self) -> str:
        parts = [f'"{k}": {t.describe()}' for k, t in self.required.items()]
        parts += [f'"{k}"?: {t.describe()}' for k, t in self.optional.items()]
        return "{" + ", ".join(parts) + "}"


def describe(shapes: Sequence[Shape]) -> str:
    return "; ".join(s.describe() for s in shapes)


def check_move(shapes: Sequence[Shape], move: Any) -> None:
    """Refuse ``move`` unless it matches one of ``shapes`` exactly (:class:`MalformedMove` says why)."""
    if not isinstance(move, Mapping) or not move:
        raise MalformedMove(f"a move must be a non-empty JSON object, one of: {describe(shapes)}")
    if len(move) > MAX_KEYS or not all(isinstance(k, str) for k in move):
        raise MalformedMove(f"this game has no move of that shape: expected one of {describe(shapes)}")
    for key in move:
        problem = text_problem(key, 32)
        if problem:
            raise MalformedMove(f"a move key {problem}")
    keys = set(move)
    candidates = [s for s in shapes if s.keys_match(keys)]
    if not candidates:
        known = sorted({k for s in shapes for k in (*s.required, *s.optional)})
        unknown = sorted(keys - set(known))
        what = (f"unknown key{'s' if len(unknown) > 1 else ''} " + ", ".join(f'"{k}"' for k in unknown)
                if unknown else "this combination of keys is not a move")
        raise MalformedMove(f"{what}: expected one of {describe(shapes)}")
    problems = [s.problem(move) for s in candidates]
    if all(problems):
        raise MalformedMove(f"{problems[0]} (a move of the shape {candidates[0].describe()})")
