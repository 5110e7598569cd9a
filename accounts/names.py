"""Names that read alike (issue 32): the comparison keys of usernames and display names, and the AI seats' names.

Two names *read alike* when they share a key. A name's keys are built from its Unicode confusable skeleton
(UTS #39, ICU's ``SpoofChecker.getSkeleton`` through PyICU) after NFKC and with runs of white space made one
space (a browser shows "a  b" as "a b"), and ignore letter case. Letter case and look-alike letters do not
commute (``MlKE`` with a small L looks like ``MIKE``, a case variant of ``Mike``; ``rnike`` looks like ``mike``
but ``RNIKE`` not like ``MIKE``), so a name has up to three keys: the skeleton of the case-folded skeleton of the
name as written, of its lower case and of its capitals. The price: a few names that differ by ``i`` and ``l``
alone ("Ali", "All") read alike too. Stored per user (``accounts.models.NameKey``), the keys make "is this
name another player's?" one indexed lookup.

The AI seats are shown as "AI (Squire)", "AI (Knight) 2"... (``games.service.payload``). A name *reads as an
AI seat* (:func:`reads_as_ai_seat`) when one of its keys, with white space removed, starts with the key of
"AI (" ("Al (Bob)", "A I (King)"), or when the word "AI" (by key: "Al", "ai", "[AI]", Greek capitals...) stands right
before or after the name of an AI level ("[AI] King", "King (AI)", "AI-Knight"), or is written together with it
("AIKing", "SquireAI"). Words are runs of letters, digits and combining marks.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

import icu

#: The AI levels' names, as ``games.ai.LEVELS`` has them (accounts does not import games; a test compares).
AI_LEVEL_NAMES = ("Squire", "Knight", "King")
AI_WORD = "AI"
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


_AI_KEYS = name_keys(AI_WORD)
_LEVEL_KEYS = _keys_of(AI_LEVEL_NAMES)
_JOINED_KEYS = frozenset(a + b for ai in _AI_KEYS for level in _LEVEL_KEYS for a, b in ((ai, level), (level, ai)))
_AI_PREFIXES = tuple(ai + skeleton("(") for ai in _AI_KEYS)


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


def reads_as_ai_seat(name: str) -> bool:
    """Whether ``name`` could be read as an AI seat's name (the rule of the module's docstring)."""
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
