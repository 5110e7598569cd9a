"""Free chat text is plain text of at most 140 characters (issue 35): what a line may hold."""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext

MAX_LENGTH = 140
#: Bidi embeddings, overrides (U+202A to U+202E) and isolates (U+2066 to U+2069): they reorder what follows on the
#: reader's screen (a name or a link shown backwards), so a line never carries them.
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def problem(text: str) -> str | None:
    """Why ``text`` (already stripped) may not be sent, or None."""
    if not text:
        return gettext("The text is empty: write something, or send a quick phrase.")
    if len(text) > MAX_LENGTH:
        return gettext("The text has {count} characters; at most {most} are allowed.").format(count=len(text),
                                                                                             most=MAX_LENGTH)
    for ch in text:
        if 0xD800 <= ord(ch) <= 0xDFFF:
            return gettext("The text holds a broken character (a lone UTF-16 surrogate).")
        if ch in BIDI_CONTROLS:
            return gettext("The text holds the direction control {code}; chat is plain text.").format(
                code=f"U+{ord(ch):04X}")
        if unicodedata.category(ch) == "Cc":
            return gettext("The text holds the control character {code}: chat is one line of plain text.").format(
                code=f"U+{ord(ch):04X}")
    return None
