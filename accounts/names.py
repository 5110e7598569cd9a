"""Names that read alike (issue 32): the comparison keys of usernames and display names, and the AI seats' names.

Two names *read alike* when they share a key. A name's keys are built from its Unicode confusable skeleton
(UTS #39, ICU's ``SpoofChecker.getSkeleton`` through PyICU) after NFKC and with runs of white space made one
space (a browser shows "a  b" as "a b"), and ignore letter case. Letter case and look-alike letters do not
commute (``MlKE`` with a small L looks like ``MIKE``, a case variant of ``Mike``; ``rnike`` looks like ``mike``
but ``RNIKE`` not like ``MIKE``), so a name has up to three keys: the skeleton of the case-folded skeleton of the
name as written, of its lower case and of its capitals. The price: a few names that differ by ``i`` and ``l``
alone ("Ali", "All") read alike too. Stored per user (``accounts.models.NameKey``), the keys make "is this
name another player's?" one indexed lookup.

The AI seats are named by their seat, "Ada (AI)", "Boris (AI)"... (``games.service.payload.AI_SEAT_NAMES``; the
web app shows "Ada (KI)" in German and "Ada" where space is tight); before issue 33 they were "AI (Squire)",
"AI (Knight) 2". A name *reads as an AI seat* (:func:`reads_as_ai_seat`) when one of its keys, with white space
removed, starts with the key of "AI (" ("Al (Bob)", "A I (King)"); when its first word (what the web app shows
of a name where space is tight), its ends' punctuation aside, is an AI seat's name ("Ada", "ADA Lovelace",
"Cle0", "(Boris)"); or when the word "AI" or "KI" (by key: "Al", "ai", "[AI]", Greek capitals...) stands right
before or after an AI seat's name or the name of an AI level ("Ada (AI)", "[AI] King", "King (KI)",
"AI-Knight"), or is written together with it ("AIKing", "SquireAI", "AdaKI"). Words are runs of letters, digits
and combining marks.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

import icu

#: The AI levels' names, as ``games.ai.LEVELS`` has them (accounts does not import games; a test compares).
AI_LEVEL_NAMES = ("Squire", "Knight", "King")
#: The AI seats' names, as ``games.service.payload.AI_SEAT_NAMES`` has them (a test compares).
AI_SEAT_NAMES = ("Ada", "Boris", "Cleo", "Dario")
#: The word for the AI in the languages of the site (en and cs "AI", de "KI").
AI_WORDS = ("AI", "KI")
#: Names the site itself shows for a player: a deleted account's (``accounts.services.DELETED_NAME``; a test
#: compares). Nobody may take one, nor a name that reads like it.
SYSTEM_NAMES = ("Deleted player",)

_CHECKER = icu.SpoofChecker()  # configured once, then only read: safe to share between threads (ICU)


def skeleton(text: str) -> str:
    """The UTS #39 confusable skeleton of ``text`` (ICU's data; ``0`` and ``O``, ``I`` and ``l`` share one)."""
    return _CHECKER.getSkeleton(0, text)


def name_keys(name: str) -> frozenset[str]:
    """The comparison keys of ``name`` (see the module's docstring); none for a blank name."""
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    if not text:
        return frozenset()
    return frozenset(skeleton(skeleton(form).casefold()) for form in (text, text.lower(), text.upper()))


def _keys_of(words: Iterable[str]) -> frozenset[str]:
    return frozenset(key for word in words for key in name_keys(word))


_AI_KEYS = _keys_of(AI_WORDS)
_SEAT_KEYS = _keys_of(AI_SEAT_NAMES)
_LEVEL_KEYS = _keys_of(AI_LEVEL_NAMES) | _SEAT_KEYS  # the words "AI" may not stand next to
_JOINED_KEYS = frozenset(a + b for ai in _AI_KEYS for level in _LEVEL_KEYS for a, b in ((ai, level), (level, ai)))
_AI_PREFIXES = tuple(ai + skeleton("(") for ai in name_keys("AI"))


_SYSTEM_KEYS = _keys_of(SYSTEM_NAMES)


def is_system_name(name: str) -> bool:
    """Whether ``name`` reads like one of :data:`SYSTEM_NAMES` (a shared key)."""
    return not _SYSTEM_KEYS.isdisjoint(name_keys(name))


def _words(key: str) -> list[str]:
    """The runs of letters, digits and combining marks of ``key``, in order."""
    words: list[str] = []
    current: list[str] = []
    for ch in key + " ":
        if ch.isalnum() or unicodedata.category(ch).startswith("M"):
            current.append(ch)
        elif current:
            words.append("".join(current))
            current = []
    return words


def _first_word(name: str) -> str:
    """The first white-space separated word of ``name`` (after NFKC), without the punctuation at its ends."""
    parts = unicodedata.normalize("NFKC", name).split()
    if not parts:
        return ""
    word = parts[0]
    keep = [i for i, ch in enumerate(word) if ch.isalnum() or unicodedata.category(ch).startswith("M")]
    return word[keep[0]:keep[-1] + 1] if keep else ""


def reads_as_ai_seat(name: str) -> bool:
    """Whether ``name`` could be read as an AI seat's name (the rule of the module's docstring)."""
    first = _first_word(name)
    if first and not _SEAT_KEYS.isdisjoint(name_keys(first)):
        return True
    for key in name_keys(name):
        if "".join(key.split()).startswith(_AI_PREFIXES):
            return True
        words = _words(key)
        for index, word in enumerate(words):
            if word in _JOINED_KEYS:
                return True
            neighbours = words[max(index - 1, 0):index] + words[index + 1:index + 2]
            if word in _AI_KEYS and _LEVEL_KEYS.intersection(neighbours):
                return True
    return False
