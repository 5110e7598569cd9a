"""What notifications say, in the recipient's language (en, de, cs): in-app, push and e-mail alike.

Each text names the game ("Claim #12") and the other player(s); every notification of a game carries
the link that opens it (``data["url"]``: the PWA's ``/#/game/<id>``; push and e-mail use the same).

A player's name is free text chosen by that player, so it is always shown in quotes (:func:`quoted`,
the language's own quotation marks), and an e-mail's subject is fixed product text naming the game only
(``email.<event>``, :func:`email_subject`): no name a player chose ever reads as a message of the site
(issue 22: an invitation's subject read "Reset password: evil.example/…").

A notification is kept as what it says (``Notification.render``, :func:`spec`): its title and body keys, the
game, and the people named in it (a person's own name, an AI seat by its seat), so that the in-app inbox shows
it in the reader's language of the moment (:func:`render`), and a push or e-mail in the recipient's language
when it is sent; the text rendered at creation stays stored beside it (older notifications have only that).

A tournament's notification (issue 36, :func:`tournament_spec`) keeps the tournament's id and name; the name, chosen
by its creator, is shown quoted like a player's, and its e-mail subject names the tournament by number only
("Tournament #3 starts soon"); it links to the tournament's page (:func:`tournament_url`) or its game.
"""

from __future__ import annotations

from typing import Any

from games.service.payload import AI_SEAT_NAMES

KINDS: dict[str, dict[str, str]] = {
    "en": {"claim": "Claim", "claim2": "Claim 2", "claim-mix": "Claim mix", "inheritors": "Inheritors"},
    "de": {"claim": "Claim", "claim2": "Claim 2", "claim-mix": "Claim-Mix", "inheritors": "Inheritors"},
    "cs": {"claim": "Claim", "claim2": "Claim 2", "claim-mix": "Claim mix", "inheritors": "Inheritors"},
}

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "game": "{kind} #{id}",
        "and": " and ",
        "someone": "Someone",
        "ai": "the AI",
        "quote": "\u201c{}\u201d",
        "division_name": "{league} \u00b7 season {season} \u00b7 division {division}",
        "ai_seat": "{name} (AI)",
        "email.your_turn": "Your turn in {game}",
        "email.opponent_moved": "A move in {game}",
        "email.deadline_near": "Your deadline is near in {game}",
        "email.game_over": "{game} is over",
        "email.match_found": "Match found: {game}",
        "email.challenge_received": "A challenge to {game}",
        "email.vacation_used": "Vacation used in {game}",
        "email.seat_replaced": "You ran out of time in {game}",
        "email.digest": "Your daily digest",
        "email.other": "News from your games",
        "challenge.title": "{name} challenges you to {game}",
        "challenge.body": "Tap to accept or decline.",
        "your_turn.title": "Your turn in {game}",
        "your_turn.body": "{name} moved. Tap to play against {opponents}.",
        "your_turn.body_start": "The game against {opponents} is on. Tap to play.",
        "moved.title": "{name} moved in {game}",
        "moved.body": "Tap to see the table.",
        "over.win": "You won {game}",
        "over.loss": "You lost {game}",
        "over.draw": "Draw in {game}",
        "over.other": "{game} is over",
        "over.body": "Against {opponents}. Tap to see the result.",
        "match.title": "Match found: {game}",
        "match.body": "You play against {opponents}. Tap to play.",
        "deadline.title": "Your deadline is near in {game}",
        "deadline.body": "About {hours} h left for your move against {opponents}.",
        "vacation.title": "Vacation used in {game}",
        "vacation.body": "Your deadline passed; vacation moved it to {until} UTC.",
        "replaced.title": "You ran out of time in {game}",
        "replaced.body": "The AI plays your seat now. You can still follow the game and see its result.",
        "email.chat_message": "A new chat line in {game}",
        "chat.title": "{name} wrote in {game}",
        "chat.body": "Tap to read the chat at the table.",
        "email.tournament_starting": "Tournament #{id} starts soon",
        "email.tournament_game": "Your new tournament game: {game}",
        "email.tournament_round": "Tournament #{id}: round {round} is paired",
        "email.tournament_finished": "Tournament #{id} is over",
        "email.tournament_cancelled": "Tournament #{id} was cancelled",
        "tstart.title": "{tournament} starts soon",
        "tstart.body": "It starts at {at} UTC, with {players} players entered. Tap to see it.",
        "tgame.title": "Your game in {tournament}: {game}",
        "tgame.body": "Round {round} against {opponents}. Tap to play.",
        "tround.title": "Round {round} of {tournament} is paired",
        "tround.body_game": "You play against {opponents}. Tap to see the round.",
        "tround.body_bye": "You have a bye this round. Tap to see the round.",
        "tfinished.title": "{tournament} is over",
        "tfinished.body": "You finished in place {place} of {players}. Tap to see the standings.",
        "tcancelled.title": "{tournament} was cancelled",
        "tcancelled.body_creator": "Its creator called it off before the start.",
        "tcancelled.body_too_few": "Too few players entered: {players} of the {needed} needed.",
    },
    "de": {
        "game": "{kind} #{id}",
        "and": " und ",
        "someone": "Jemand",
        "ai": "die KI",
        "quote": "\u201e{}\u201c",
        "division_name": "{league} \u00b7 Saison {season} \u00b7 Liga {division}",
        "ai_seat": "{name} (KI)",
        "email.your_turn": "Du bist am Zug in {game}",
        "email.opponent_moved": "Ein Zug in {game}",
        "email.deadline_near": "Deine Frist läuft bald ab in {game}",
        "email.game_over": "{game} ist beendet",
        "email.match_found": "Gegner gefunden: {game}",
        "email.challenge_received": "Eine Herausforderung zu {game}",
        "email.vacation_used": "Urlaub genutzt in {game}",
        "email.seat_replaced": "Deine Zeit in {game} ist abgelaufen",
        "email.digest": "Deine tägliche Übersicht",
        "email.other": "Neues aus deinen Partien",
        "challenge.title": "{name} fordert dich zu {game} heraus",
        "challenge.body": "Tippe, um anzunehmen oder abzulehnen.",
        "your_turn.title": "Du bist am Zug in {game}",
        "your_turn.body": "{name} hat gezogen. Tippe, um gegen {opponents} zu spielen.",
        "your_turn.body_start": "Die Partie gegen {opponents} läuft. Tippe, um zu spielen.",
        "moved.title": "{name} hat in {game} gezogen",
        "moved.body": "Tippe, um den Tisch zu sehen.",
        "over.win": "Du hast {game} gewonnen",
        "over.loss": "Du hast {game} verloren",
        "over.draw": "Unentschieden in {game}",
        "over.other": "{game} ist beendet",
        "over.body": "Gegen {opponents}. Tippe, um das Ergebnis zu sehen.",
        "match.title": "Gegner gefunden: {game}",
        "match.body": "Du spielst gegen {opponents}. Tippe, um zu spielen.",
        "deadline.title": "Deine Frist läuft bald ab in {game}",
        "deadline.body": "Noch etwa {hours} h für deinen Zug gegen {opponents}.",
        "vacation.title": "Urlaub genutzt in {game}",
        "vacation.body": "Deine Frist war abgelaufen; der Urlaub hat sie auf {until} UTC verschoben.",
        "replaced.title": "Deine Zeit in {game} ist abgelaufen",
        "replaced.body": ("Die KI spielt jetzt deinen Platz. Du kannst die Partie weiter verfolgen und ihr "
                          "Ergebnis sehen."),
        "email.chat_message": "Neue Chat-Nachricht in {game}",
        "chat.title": "{name} hat in {game} geschrieben",
        "chat.body": "Tippe, um den Chat am Tisch zu lesen.",
        "email.tournament_starting": "Turnier #{id} beginnt bald",
        "email.tournament_game": "Deine neue Turnierpartie: {game}",
        "email.tournament_round": "Turnier #{id}: Runde {round} ist gepaart",
        "email.tournament_finished": "Turnier #{id} ist beendet",
        "email.tournament_cancelled": "Turnier #{id} wurde abgesagt",
        "tstart.title": "{tournament} beginnt bald",
        "tstart.body": "Es beginnt um {at} UTC, mit {players} angemeldeten Spielern. Tippe, um es zu sehen.",
        "tgame.title": "Deine Partie in {tournament}: {game}",
        "tgame.body": "Runde {round} gegen {opponents}. Tippe, um zu spielen.",
        "tround.title": "Runde {round} von {tournament} ist gepaart",
        "tround.body_game": "Du spielst gegen {opponents}. Tippe, um die Runde zu sehen.",
        "tround.body_bye": "Du hast in dieser Runde spielfrei. Tippe, um die Runde zu sehen.",
        "tfinished.title": "{tournament} ist beendet",
        "tfinished.body": "Du bist auf Platz {place} von {players}. Tippe, um die Tabelle zu sehen.",
        "tcancelled.title": "{tournament} wurde abgesagt",
        "tcancelled.body_creator": "Der Veranstalter hat es vor dem Beginn abgesagt.",
        "tcancelled.body_too_few": "Zu wenige Anmeldungen: {players} von {needed} nötigen Spielern.",
    },
    "cs": {
        "game": "{kind} #{id}",
        "and": " a ",
        "someone": "Někdo",
        "ai": "AI",
        "quote": "\u201e{}\u201c",
        "division_name": "{league} \u00b7 sez\u00f3na {season} \u00b7 divize {division}",
        "ai_seat": "{name} (AI)",
        "email.your_turn": "Jsi na tahu ve hře {game}",
        "email.opponent_moved": "Tah ve hře {game}",
        "email.deadline_near": "Blíží se tvůj termín ve hře {game}",
        "email.game_over": "Hra {game} skončila",
        "email.match_found": "Soupeř nalezen: {game}",
        "email.challenge_received": "Výzva ke hře {game}",
        "email.vacation_used": "Použita dovolená ve hře {game}",
        "email.seat_replaced": "Došel ti čas ve hře {game}",
        "email.digest": "Tvůj denní přehled",
        "email.other": "Novinky z tvých her",
        "challenge.title": "{name} tě vyzývá ke hře {game}",
        "challenge.body": "Klepni pro přijetí nebo odmítnutí.",
        "your_turn.title": "Jsi na tahu ve hře {game}",
        "your_turn.body": "{name} táhl(a). Klepni a hraj proti: {opponents}.",
        "your_turn.body_start": "Hra proti: {opponents} začala. Klepni a hraj.",
        "moved.title": "{name} táhl(a) ve hře {game}",
        "moved.body": "Klepni pro zobrazení stolu.",
        "over.win": "Vyhrál(a) jsi hru {game}",
        "over.loss": "Prohrál(a) jsi hru {game}",
        "over.draw": "Remíza ve hře {game}",
        "over.other": "Hra {game} skončila",
        "over.body": "Proti: {opponents}. Klepni pro zobrazení výsledku.",
        "match.title": "Soupeř nalezen: {game}",
        "match.body": "Hraješ proti: {opponents}. Klepni a hraj.",
        "deadline.title": "Blíží se tvůj termín ve hře {game}",
        "deadline.body": "Na tah proti: {opponents} zbývá asi {hours} h.",
        "vacation.title": "Použita dovolená ve hře {game}",
        "vacation.body": "Tvůj termín uplynul; dovolená ho posunula na {until} UTC.",
        "replaced.title": "Došel ti čas ve hře {game}",
        "replaced.body": "Tvé místo teď hraje AI. Hru můžeš dál sledovat a uvidíš její výsledek.",
        "email.chat_message": "Nová zpráva v chatu hry {game}",
        "chat.title": "{name} napsal(a) ve hře {game}",
        "chat.body": "Klepni a přečti si chat u stolu.",
        "email.tournament_starting": "Turnaj #{id} brzy začíná",
        "email.tournament_game": "Tvá nová turnajová hra: {game}",
        "email.tournament_round": "Turnaj #{id}: kolo {round} je nalosováno",
        "email.tournament_finished": "Turnaj #{id} skončil",
        "email.tournament_cancelled": "Turnaj #{id} byl zrušen",
        "tstart.title": "Turnaj {tournament} brzy začíná",
        "tstart.body": "Začíná v {at} UTC, přihlášených hráčů: {players}. Klepni a podívej se.",
        "tgame.title": "Tvá hra v turnaji {tournament}: {game}",
        "tgame.body": "Kolo {round} proti: {opponents}. Klepni a hraj.",
        "tround.title": "Kolo {round} turnaje {tournament} je nalosováno",
        "tround.body_game": "Hraješ proti: {opponents}. Klepni a podívej se na kolo.",
        "tround.body_bye": "V tomto kole máš volno. Klepni a podívej se na kolo.",
        "tfinished.title": "Turnaj {tournament} skončil",
        "tfinished.body": "Skončil(a) jsi na {place}. místě z {players}. Klepni a podívej se na pořadí.",
        "tcancelled.title": "Turnaj {tournament} byl zrušen",
        "tcancelled.body_creator": "Jeho zakladatel ho před začátkem zrušil.",
        "tcancelled.body_too_few": "Přihlásilo se málo hráčů: {players} z potřebných {needed}.",
    },
}


def lang_of(language: str | None) -> str:
    return language if language in TEXTS else "en"


def text(language: str | None, key: str, **values: Any) -> str:
    lang = lang_of(language)
    return TEXTS[lang][key].format(**values)


def game_name(language: str | None, kind: str, game_id: int) -> str:
    lang = lang_of(language)
    return text(lang, "game", kind=KINDS[lang].get(kind, kind), id=game_id)


def quoted(language: str | None, name: str) -> str:
    """A player's own name in the language's quotation marks: “Bob” (en), „Bob“ (de, cs)."""
    return TEXTS[lang_of(language)]["quote"].format(name)


def email_subject(language: str | None, event: str, kind: str | None, game_id: int | None,
                  tournament_id: int | None = None, round_number: int | None = None) -> str:
    """The subject of a notification e-mail: fixed product text and the game's name ("Claim #12"), or a
    tournament's number ("Tournament #3", never its name: its creator chose it), never a player's name or any
    other text a user chose."""
    key = f"email.{event}"
    game = game_name(language, kind, game_id) if kind is not None and game_id is not None else ""
    if event in TOURNAMENT_EVENTS:
        if key not in TEXTS[lang_of(language)] or tournament_id is None or (event == "tournament_game" and not game):
            key = "email.other"
        return text(language, key, game=game, id=tournament_id, round=round_number or "")
    if key not in TEXTS[lang_of(language)] or kind is None or game_id is None:
        key = "email.other"
    return text(language, key, game=game)


def names(language: str | None, items: list[str]) -> str:
    """"Bob", "Bob and Carol", "Bob, Carol and the AI"."""
    if not items:
        return text(language, "someone")
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + text(language, "and") + items[-1]


def game_url(game_id: int | None) -> str:
    """The PWA's route to the game (relative: the in-app inbox and the service worker resolve it)."""
    return f"/#/game/{game_id}" if game_id else "/#/notes"


def tournament_url(tournament_id: int) -> str:
    """The PWA's route to a tournament's page (the tournaments' notifications but ``tournament_game``)."""
    return f"/#/tournaments/{tournament_id}"


#: The tournaments' notifications (issue 36, docs/tournaments.md): their ``data`` carries ``tournament_id``.
TOURNAMENT_EVENTS = frozenset({"tournament_starting", "tournament_game", "tournament_round", "tournament_finished",
                               "tournament_cancelled"})


def chat_url(game_id: int) -> str:
    """The PWA's route to the game with its chat open (``chat_message``; frontend/src/router.ts keeps the query
    out of the route's argument)."""
    return f"/#/game/{game_id}?chat=1"


#: Who a stored notification names: a person by their own name at the time (``{"name": "Bob"}``, shown quoted)
#: or an AI seat by its index (``{"ai": 1}``, shown as the seat's name in the reader's language: "Boris (KI)").
NameRef = dict[str, Any]


def person(name: str) -> NameRef:
    return {"name": name}


def ai_seat(index: int) -> NameRef:
    return {"ai": index}


def shown(language: str | None, ref: NameRef) -> str:
    """How ``ref`` reads in ``language``: a person's name quoted, an AI seat's own name with the language's "AI"."""
    if "ai" in ref:
        index = int(ref["ai"])
        return text(language, "ai_seat", name=AI_SEAT_NAMES[index % len(AI_SEAT_NAMES)])
    return quoted(language, str(ref.get("name", "")))


def spec(title: str, body: str, kind: str, game_id: int, opponents: list[NameRef], name: NameRef | None = None,
         **values: Any) -> dict[str, Any]:
    """What ``Notification.render`` keeps of a game's notification: enough for :func:`render` in any language."""
    return {"title": title, "body": body, "kind": kind, "game": game_id, "opponents": opponents, "name": name,
            "values": values}


def tournament_spec(title: str, body: str, tournament_id: int, tournament_name: str, *, kind: str | None = None,
                    game_id: int | None = None, opponents: list[NameRef] | None = None,
                    division: tuple[str, int, int] | None = None, **values: Any) -> dict[str, Any]:
    """What ``Notification.render`` keeps of a tournament's notification (issue 36): the tournament by its id and
    its name at the time (a name its creator chose: shown quoted, :func:`quoted`), and its game if it names one.
    A league division's round robin (``division``: the league's name, the season, the division from 1) is named
    from those in the reader's language, as the PWA names it."""
    tournament: dict[str, Any] = {"id": tournament_id, "name": tournament_name}
    if division is not None:
        tournament["division"] = {"league": division[0], "season": division[1], "division": division[2]}
    return {"title": title, "body": body, "tournament": tournament,
            "kind": kind, "game": game_id, "opponents": opponents or [], "name": None, "values": values}


def render(language: str | None, kept: dict[str, Any]) -> tuple[str, str]:
    """The ``(title, body)`` of a kept notification (:func:`spec`, :func:`tournament_spec`) in ``language``."""
    lang = lang_of(language)
    who = kept.get("name")
    values = {"opponents": names(lang, [shown(lang, ref) for ref in kept.get("opponents") or []]),
              "name": shown(lang, who) if who else text(lang, "someone"), **(kept.get("values") or {})}
    if "tournament" in kept:
        division = kept["tournament"].get("division")
        name = text(lang, "division_name", **division) if division else str(kept["tournament"]["name"])
        values["tournament"] = quoted(lang, name)
    if (kept.get("kind") is not None and kept.get("game") is not None) or "tournament" not in kept:
        values["game"] = game_name(lang, kept["kind"], kept["game"])
    body = kept.get("body")
    return text(lang, kept["title"], **values), text(lang, body, **values) if body else ""
