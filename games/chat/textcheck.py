"""Free chat text is plain text of at most 140 characters (issue 35): what a line may hold."""

from __future__ import annotations

import unicodedata

MAX_LENGTH = 140
#: Bidi embeddings, overrides (U+202A to U+202E) and isolates (U+2066 to U+2069): they reorder what follows on the
#: reader's screen (a name or a link shown backwards), so a line never carries them.
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def problem(text: str) -> str | None:
    """Why ``text`` (already stripped) may not be sent, or None."""
    if not text:
        return "The text is empty: write something, or send a quick phrase."
    if len(text) > MAX_LENGTH:
        return f"The text has {len(text)} characters; at most {MAX_LENGTH} are allowed."
    for ch in text:
        if 0xD800 <= ord(ch) <= 0xDFFF:
            return "The text holds a broken character (a lone UTF-16 surrogate)."
        if ch in BIDI_CONTROLS:
            return f"The text holds the direction control U+{ord(ch):04X}; chat is plain text."
        if unicodedata.category(ch) == "Cc":
            return f"The text holds the control character U+{ord(ch):04X}: chat is one line of plain text."
    return None
