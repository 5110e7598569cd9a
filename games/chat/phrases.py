"""Quick phrases (issue 35): sent as a code, shown in each reader's language (``User.language``: en, de, cs)."""

from __future__ import annotations

CODES = ("hello", "good_luck", "have_fun", "well_played", "good_game", "thanks", "sorry_slow", "no_hurry", "oops",
         "rematch")

TEXTS: dict[str, dict[str, str]] = {
    "en": {"hello": "Hello!", "good_luck": "Good luck!", "have_fun": "Have fun!", "well_played": "Well played!",
           "good_game": "Good game!", "thanks": "Thanks!", "sorry_slow": "Sorry, slow this week.",
           "no_hurry": "No hurry.", "oops": "Oops!", "rematch": "Rematch?"},
    "de": {"hello": "Hallo!", "good_luck": "Viel Glück!", "have_fun": "Viel Spaß!", "well_played": "Gut gespielt!",
           "good_game": "Gutes Spiel!", "thanks": "Danke!", "sorry_slow": "Sorry, diese Woche bin ich langsam.",
           "no_hurry": "Keine Eile.", "oops": "Hoppla!", "rematch": "Revanche?"},
    "cs": {"hello": "Ahoj!", "good_luck": "Hodně štěstí!", "have_fun": "Ať se hra líbí!",
           "well_played": "Dobře zahráno!", "good_game": "Dobrá hra!", "thanks": "Díky!",
           "sorry_slow": "Promiň, tento týden hraju pomalu.", "no_hurry": "Nespěchej.", "oops": "Jejda!",
           "rematch": "Odveta?"},
}


def text(code: str, language: str | None) -> str:
    """The phrase ``code`` in ``language`` (English for any other language)."""
    return TEXTS.get(language or "en", TEXTS["en"])[code]


def listing(language: str | None) -> list[dict[str, str]]:
    """Every phrase, in order, as ``ChatPhrase``: ``{"code", "text"}``."""
    return [{"code": code, "text": text(code, language)} for code in CODES]
