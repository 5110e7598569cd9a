"""The API's one request parser: JSON, bounded (docs/security.md, "Input").

DRF's ``JSONParser`` hands ``json.load`` whatever arrives: a body nested a thousand deep raises
``RecursionError`` (a 500), and strings may carry NUL or lone surrogates that PostgreSQL, the logs and the
engines then choke on. This parser refuses, with 400 ``parse_error`` naming the problem:

* nesting deeper than :data:`MAX_DEPTH` (objects and lists),
* any string (key or value) with NUL or a lone surrogate (``"\\ud800"`` is valid JSON, not valid text),
* ``NaN`` / ``Infinity`` (not JSON) and numbers of more than :data:`MAX_NUMBER_DIGITS` digits.

Every API view parses with it (``DEFAULT_PARSER_CLASSES``): JSON only, a form post gets 415.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 16
MAX_NUMBER_DIGITS = 40


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _int(text: str) -> int:
    if len(text) > MAX_NUMBER_DIGITS:
        raise ValueError(f"a number of more than {MAX_NUMBER_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS:
        raise ValueError(f"a number of more than {MAX_NUMBER_DIGITS} characters")
    return float(text)


def text_problem(value: str) -> str | None:
    """Why ``value`` cannot be stored as text (NUL, a lone surrogate), or ``None``."""
    if "\x00" in value:
        return "contains a NUL character"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "contains a lone surrogate (not valid Unicode text)"
    return None


def structure_problem(data: Any, max_depth: int = MAX_DEPTH) -> str | None:
    """Why parsed JSON ``data`` is refused (too deep, bad text), or ``None``; iterative, any size."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            problem = text_problem(value)
            if problem:
                return f"a string {problem}"
        elif isinstance(value, (dict, list)):
            if depth > max_depth:
                return f"nested deeper than {max_depth} levels"
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(key, str):
                    stack.append((key, depth))
                stack.append((item, depth + 1))
    return None


def loads(text: str) -> Any:
    """``json.loads`` with this module's limits; raises ``ValueError`` naming the problem."""
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_int=_int, parse_float=_float)
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels") from None
    problem = structure_problem(data)
    if problem:
        raise ValueError(problem)
    return data


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser with the limits above."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = stream.read().decode(encoding) if stream is not None else ""
        except UnicodeDecodeError:
            raise ParseError(f"JSON parse error - the body is not valid {encoding}") from None
        try:
            return loads(text)
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
