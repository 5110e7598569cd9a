"""The JSON shapes of Inheritors: moves, events, views and results, as ``TypedDict`` s.

Each type is exactly the JSON the engine gives (and the API serves): cards, clans, honors and quests are
their string ids, seats and market piles (0-2) integers. Move shapes are also declared for the checks
before the engine (:mod:`.shapes`); what each move means is in :mod:`.engine` and :mod:`.pending`.
"""

# No ``from __future__ import annotations``: at run time (the shape tests, schema generators) ``NotRequired``
# is seen only in evaluated annotations.
from typing import Any, Literal, NotRequired, TypeAlias, TypedDict

AgentEffect = Literal["conspirator", "spy", "advisor"]
ActionName = Literal["play", "discard_draw", "discard_take", "quest", "advocate", "pass"]

# ---------------------------------------------------------------------------------------------- moves
# I4.2 claims in a window


class ClaimClanMove(TypedDict):
    claim_clan: str


class ClaimHonorMove(TypedDict):
    claim_honor: str
    cards: NotRequired[list[str]]  # H6/H7: the three cards to reveal


# I5 actions (pre-action window)


class CardActionMove(TypedDict):
    """A1 play an influence card, A5 play an advocate."""

    action: Literal["play", "advocate"]
    card: str


class DiscardActionMove(TypedDict):
    """A2 discard to a pile and draw two; A4 the first of a quest's three discards."""

    action: Literal["discard_draw", "quest"]
    card: str
    pile: int


class DiscardTakeMove(TypedDict):
    """A3 discard to ``pile``, take the whole pile ``take``."""

    action: Literal["discard_take"]
    card: str
    pile: int
    take: int


class QuestMove(TypedDict):
    """A4 all three discards at once."""

    action: Literal["quest"]
    cards: list[str]
    piles: list[int]


# "pass" is a Python keyword: the functional form. I4.3: only with an empty hand.
PassMove = TypedDict("PassMove", {"pass": Literal[True]})


class EndTurnMove(TypedDict):
    """Post-action window: end the turn."""

    end_turn: Literal[True]


# pending decisions (games.rules.inheritors.pending)


class PlayMove(TypedDict):
    """Wolf: a second influence card."""

    play: str


class SkipMove(TypedDict):
    """Wolf: no second card."""

    skip: Literal[True]


class DiscardMove(TypedDict):
    """Quest (2nd and 3rd card) and Saboteur discards."""

    discard: str
    pile: int


class SkipPlayMove(TypedDict):
    """Conspirator, Ambassador: place a card with a skip-play."""

    skip_play: str


class AskMove(TypedDict):
    """Spy: a player and a colour."""

    ask: int
    colour: str


class TakeCardMove(TypedDict):
    """Advisor: a market card."""

    take_card: str


class TakePileMove(TypedDict):
    """Saboteur, Lynx: a whole market pile."""

    take_pile: int


class AgentEffectMove(TypedDict):
    agent_effect: AgentEffect


class PutBackMove(TypedDict):
    """Rat: a card from the hand on top of the deck."""

    put_back: str


InheritorsMove: TypeAlias = (
    ClaimClanMove | ClaimHonorMove | CardActionMove | DiscardActionMove | DiscardTakeMove | QuestMove | PassMove
    | EndTurnMove | PlayMove | SkipMove | DiscardMove | SkipPlayMove | AskMove | TakeCardMove | TakePileMove
    | AgentEffectMove | PutBackMove
)

# ---------------------------------------------------------------------------------------------- results


class ScoreRow(TypedDict):
    """I12.7 one seat's breakdown S1-S5 and total."""

    influence: int
    tomes: int
    relics: int
    quests: int
    honors: int
    total: int


class Tiebreak(TypedDict):
    """I12.6 (AMB-31) the keys compared, per seat, and what decided."""

    order: list[str]
    keys: list[list[int]]
    decided_by: Literal["tomes", "hand", "shared"] | None


class InheritorsResult(TypedDict):
    winner: int | None  # None: a shared win (see winners)
    winners: list[int]
    ranks: list[int]  # per seat, 1 = best
    scores: list[ScoreRow]
    tiebreak: Tiebreak


# ---------------------------------------------------------------------------------------------- events


class SetupEvent(TypedDict):
    type: Literal["setup"]
    start_player: int
    market: list[list[str]]
    removed: list[str]


class ActionEvent(TypedDict):
    type: Literal["action"]
    seat: int
    action: ActionName


class SeatEvent(TypedDict):
    """Events that name only the seat: a quest taken (which stays secret, I10.1), the Rat's card put back,
    a Saboteur choice (card and pile stay secret), the end of a turn, an extra turn."""

    type: Literal["take_quest", "rat_put_back", "saboteur_choice", "end_turn", "extra_turn"]
    seat: int


class TurnEvent(TypedDict):
    type: Literal["turn"]
    seat: int
    turn: int


class EndTriggeredEvent(TypedDict):
    """I11.1: the last round has begun; ``last_seat`` plays the last turn."""

    type: Literal["end_triggered"]
    last_seat: int


class GameOverEvent(TypedDict):
    type: Literal["game_over"]
    result: InheritorsResult


class AdvocateEvent(TypedDict):
    type: Literal["advocate"]
    seat: int
    card: str
    advocate: str


class SpyEvent(TypedDict):
    """I7.3: the question and the (public) answer; all null when the Spy had nothing to ask."""

    type: Literal["spy"]
    seat: int
    target: int | None
    colour: str | None
    value: int | None
    answer: str | None


class EffectEvent(TypedDict):
    """The Agent's chosen effect; a skip-play effect that could not be used."""

    type: Literal["agent_effect", "effect_skipped"]
    seat: int
    effect: str


class ClaimClanEvent(TypedDict):
    type: Literal["claim_clan"]
    seat: int
    clan: str
    cards: list[str]  # the attached cards, to the claimer's hand


class ClaimHonorEvent(TypedDict):
    type: Literal["claim_honor"]
    seat: int
    honor: str
    revealed: NotRequired[list[str]]  # public (I13)


class DrawEvent(TypedDict):
    """I6.6: only the count is public."""

    type: Literal["draw"]
    seat: int
    count: int
    reason: NotRequired[str]


class RefillEvent(TypedDict):
    """I6.5: the pile's new card (null: the deck is empty); an advocate turned over goes to Removed."""

    type: Literal["refill", "reveal_removed"]
    pile: int
    card: str | None


class CardMoveEvent(TypedDict):
    """A market card taken (Advisor) or a hand card discarded to the market."""

    type: Literal["take_card", "discard"]
    seat: int
    card: str
    pile: int
    reason: str


class TakePileEvent(TypedDict):
    type: Literal["take_pile"]
    seat: int
    pile: int
    cards: list[str]
    reason: str


class PlaceEvent(TypedDict):
    type: Literal["place"]
    seat: int
    card: str
    how: str
    from_seat: NotRequired[int]  # the card came from another seat (Spy)


InheritorsEvent: TypeAlias = (
    SetupEvent | ActionEvent | SeatEvent | TurnEvent | EndTriggeredEvent | GameOverEvent | AdvocateEvent
    | SpyEvent | EffectEvent | ClaimClanEvent | ClaimHonorEvent | DrawEvent | RefillEvent | CardMoveEvent
    | TakePileEvent | PlaceEvent
)

# ---------------------------------------------------------------------------------------------- views


class StackView(TypedDict):
    top: int
    cards: list[str]  # bottom..top


class PlayerView(TypedDict):
    seat: int
    stacks: dict[str, StackView]  # colour -> stack
    clan: str | None
    honors: list[str]
    quest_count: int
    hand_count: int


class PendingView(TypedDict):
    """The decision the game waits for (:mod:`.pending`); the keys after ``seat`` belong to some kinds."""

    kind: str
    seat: int
    waiting: NotRequired[list[int]]  # saboteur_discard: seats that still choose
    need: NotRequired[dict[str, int]]
    chosen_count: NotRequired[dict[str, int]]
    your_choices: NotRequired[list[list[Any]]]  # [card, pile] pairs, the viewer's own
    chosen: NotRequired[list[str]]  # quest_discard: the cards already discarded (public on the market)
    left: NotRequired[int]  # advisor, agent
    condition: NotRequired[str]  # skip_play
    reason: NotRequired[str]  # take_pile


class HonorView(TypedDict):
    id: str
    text: str


class ClanView(TypedDict):
    clan: str
    name: str
    colour: str
    attached: list[str]


class QuestView(TypedDict):
    id: str
    text: str
    vp: int


class InheritorsView(TypedDict):
    """What one seat (or a spectator, ``seat`` null) may know (I13); after the end everything."""

    game: Literal["inheritors"]
    seat: int | None
    seats: int
    options: dict[str, Any]
    colours: list[str]
    colour_names: dict[str, str]
    removed_colour: str | None
    start_player: int
    last_seat: int
    current: int
    turn: int
    phase: Literal["pre", "post", "over"]
    to_act: list[int]
    pending: PendingView | None
    end_triggered: bool
    over: bool
    players: list[PlayerView]
    market: list[list[str]]
    removed: list[str]
    deck_count: int
    quest_row_count: int
    honor_row: list[HonorView]
    clan_row: list[ClanView]
    log: list[InheritorsEvent]  # the recent public events
    provisional: dict[str, str]
    # a seat's own
    hand: NotRequired[list[str]]
    quests: NotRequired[list[QuestView]]
    deck_top: NotRequired[str]  # I13: the card the Rat owner put on the deck
    # after the end
    result: NotRequired[InheritorsResult | None]
    hands: NotRequired[list[list[str]]]
    all_quests: NotRequired[list[list[str]]]
    quest_row: NotRequired[list[str]]
    deck: NotRequired[list[str]]
