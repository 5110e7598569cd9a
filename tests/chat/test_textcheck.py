"""Invariants of free chat text (games/chat/textcheck.py) and of the schema's pattern for it (games/chat/api.py)."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from games.chat.api import TEXT_PATTERN
from games.chat.textcheck import BIDI_CONTROLS, MAX_LENGTH, problem

PATTERN = re.compile(TEXT_PATTERN)


@given(st.text(max_size=300))
def test_accepted_text_is_short_plain_and_one_line(raw):
    text = raw.strip()
    if problem(text) is None:
        assert 0 < len(text) <= MAX_LENGTH
        assert not any(unicodedata.category(c) in ("Cc", "Cs") or c in BIDI_CONTROLS for c in text)


@given(st.text(min_size=1, max_size=MAX_LENGTH))
def test_every_text_the_schema_allows_is_taken(raw):
    if PATTERN.match(raw):
        assert problem(raw.strip()) is None
