"""The hidden-card spy: what each seat (and a stranger) could know at a moment of a game, computed from the true
engine state, independently of what the server sends; and a check of a received body against it.

* Claim, Claim 2, Claim mix: ``tests.service.conftest.hidden_card_ids`` (other seats' hands and follower piles,
  the undealt deck, minus everything that seat has seen or that was ever public).
* Inheritors: other seats' hands, the deck and the face-down quest row, minus every card that was ever in a
  public zone (tableaux, market, removed area, honor and clan rows, attached cards), in this seat's own hand or
  quests, or named by a public engine event, at any earlier moment of the game.

The seed (and with it the deck order) must never appear before the end either.
"""

from __future__ import annotations

import json
import re
from typing import Any

from games.models import Game, GameEvent, Move
from games.rules.registry import get_rules
from tests.service.conftest import hidden_card_ids

CLAIM_KINDS = {"claim", "claim2", "claim-mix"}
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _strings(data: Any) -> set[str]:
    return set(_STRING.findall(json.dumps(data)))


class GameTracker:
    """The states of one game after 0, 1, 2, ... moves, rebuilt from its log incrementally."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rules = get_rules(game.kind)
        self.states: list[Any] = []
        self.public: list[set[str]] = []  # inheritors: public knowledge accumulated up to move k
        self.own: list[dict[int, set[str]]] = []
        self._hidden: dict[tuple[int, int | None], set[str]] = {}
        self._now: tuple[str, int] | None = None

    def refresh(self) -> None:
        """Read the game's status and move count once for the bodies checked next (until the next refresh):
        callers that check a batch of bodies received since their last request save two queries per body."""
        self._now = None
        self._now = self.now()

    def now(self) -> tuple[str, int]:
        """(status, move count) of the game: from the last ``refresh``, else from the database."""
        if self._now is not None:
            return self._now
        status, count = Game.objects.filter(pk=self.game.pk).values_list("status", "move_count").get()
        return status, count

    def _extend(self, upto: int) -> None:
        if not self.states:
            self.states.append(self.rules.setup(self.game.options, self.game.seat_count, self.game.seed))
            self._remember(self.states[0], set())
        if len(self.states) > upto:
            return
        rows = list(Move.objects.filter(game=self.game, number__gt=len(self.states) - 1, number__lte=upto)
                    .order_by("number").values_list("seat", "move"))
        for seat, move in rows:
            state, events = self.rules.apply(self.states[-1], seat, move)
            self.states.append(state)
            self._remember(state, _strings(events))

    def _remember(self, st: Any, event_strings: set[str]) -> None:
        if self.game.kind in CLAIM_KINDS:
            return
        public = set(self.public[-1]) if self.public else set()
        public |= event_strings
        for stacks in st.stacks:
            for pile in stacks.values():
                public.update(pile)
        for pile in st.market:
            public.update(pile)
        public.update(st.removed)
        public.update(st.honor_row)
        public.update(st.clan_row)
        for cards in st.clan_attached.values():
            public.update(cards)
        for honors in st.honors:
            public.update(honors)
        own = {s: set(self.own[-1][s]) if self.own else set() for s in range(st.seats)}
        for s in range(st.seats):
            own[s].update(st.hands[s])
            own[s].update(st.quests[s])
        self.public.append(public)
        self.own.append(own)

    def state(self, move_count: int) -> Any:
        self._extend(move_count)
        return self.states[move_count]

    def hidden(self, move_count: int, seat: int | None) -> set[str]:
        key = (move_count, seat)
        if key not in self._hidden:
            self._hidden[key] = self._compute_hidden(move_count, seat)
        return self._hidden[key]

    def _compute_hidden(self, move_count: int, seat: int | None) -> set[str]:
        st = self.state(move_count)
        if self.game.kind in CLAIM_KINDS:
            return hidden_card_ids(st, seat)
        secret: set[str] = set(st.deck) | set(st.quest_row)
        for s in range(st.seats):
            if s != seat:
                secret.update(st.hands[s])
        known = set(self.public[move_count])
        if seat is not None:
            known |= self.own[move_count][seat]
        return secret - known


def move_count_of(body: Any, game_id: int) -> int | None:
    """The move count a body describes (a game view, an error carrying one, or a socket message)."""
    if isinstance(body, dict):
        if body.get("type") == "game" or ("view" in body and "game_id" in body and "version" in body):
            return move_count_of(body.get("view"), game_id)
        if body.get("id") == game_id and "move_count" in body:
            return body["move_count"]
        err = body.get("error")
        if isinstance(err, dict) and isinstance(err.get("view"), dict):
            return err["view"].get("move_count")
    return None


class Spy:
    """Collects every body one party received about one game and checks it at once against the true state."""

    def __init__(self, tracker: GameTracker, seat: int | None, who: str) -> None:
        self.tracker, self.seat, self.who = tracker, seat, who
        self.checked = 0

    def check(self, body: Any, where: str) -> None:
        game = self.tracker.game
        status, stored_count = self.tracker.now()
        count = move_count_of(body, game.pk)
        if status == Game.Status.FINISHED and count is None:
            return  # after the end everything is public (the record)
        if count is None:
            count = stored_count
        if count >= stored_count and status == Game.Status.FINISHED and \
                isinstance(body, dict) and (body.get("status") == "finished" or
                                            (body.get("view") or {}).get("status") == "finished"):
            return  # the body of the final version: the game is over, the record is public
        text = json.dumps(body)
        hidden = self.tracker.hidden(count, self.seat)
        leaked = sorted(c for c in hidden if f'"{c}"' in text)
        assert not leaked, (f"{self.who} ({where}, {game.kind} game {game.pk}, move {count}): hidden cards "
                            f"{leaked} in {text[:600]}")
        assert str(game.seed) not in text, f"{self.who} ({where}): the seed of game {game.pk} leaked"
        self.checked += 1


def public_events_count(game: Game) -> int:
    return GameEvent.objects.filter(game=game).count()
