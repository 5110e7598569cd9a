"""The JSON shapes of Claim, Claim 2 and the mix: moves, events, views and results, as ``TypedDict`` s.

Each type is exactly the JSON an engine gives (and the API serves): card ids are strings such as
``"knight-7"``, seats are integers, factions are their names (``"knights"``). Keys that only 3-4 seat games
(claim-combined.md M3-M7) or only one phase have are ``NotRequired``.
"""

# No ``from __future__ import annotations``: at run time (the shape tests, schema generators) ``NotRequired``
# is seen only in evaluated annotations.
from typing import Literal, NotRequired, TypeAlias, TypedDict

SeerChoice = Literal["prize", "top"]
#: The kinds this engine plays (``ClaimView.game``).
ClaimKind = Literal["claim", "claim2", "claim-mix"]

# ---------------------------------------------------------------------------------------------- moves


class PlayMove(TypedDict):
    """C4-C6: play a card of your hand."""

    play: str


class SeerMove(TypedDict):
    """T3.5b: after winning a trick with a Seer, keep the prize or take the deck's top card."""

    seer: SeerChoice


class SmashMove(TypedDict):
    """M6.5 (3-4 seats): the seat whose Gnome the Giant smashes."""

    smash: int


ClaimMove: TypeAlias = PlayMove | SeerMove | SmashMove

# ---------------------------------------------------------------------------------------------- tricks


class TrickCard(TypedDict):
    seat: int
    card: str


class SeerOutcome(TypedDict):
    seat: int
    choice: SeerChoice


class TrickSummary(TypedDict):
    """A completed trick: the common keys, then phase 1's (C5, M5) or phase 2's (C6, M6)."""

    phase: int  # 1 or 2
    trick: int  # its number in the phase, from 1
    cards: list[TrickCard]  # in play order
    winner: int
    next_leader: int
    # phase 1
    prize: NotRequired[str]
    prize_to: NotRequired[int]
    blind_draw: NotRequired[int | None]  # 2 seats: the seat that got a face-down deck card
    blind_draws: NotRequired[list[int]]  # 3-4 seats: those seats, in drawing order (M5.2)
    seer: NotRequired[SeerOutcome | None]
    undead_scored: NotRequired[list[str]]
    discarded: NotRequired[list[str]]
    # phase 2
    dwarves_to: NotRequired[int | None]  # 3-4 seats (M6.3)
    dwarves_to_loser: NotRequired[list[str]]
    gnomes_to_row: NotRequired[list[str]]
    trolls_to_pool: NotRequired[list[str]]
    troll_pickup: NotRequired[list[str]]
    smashed: NotRequired[list[str]]
    smashed_from: NotRequired[list[int]]  # 3-4 seats: whose Gnome each smash took (M6.5)


# ---------------------------------------------------------------------------------------------- results


class ClaimResult(TypedDict):
    """C8 / T4 (2 seats) or M7 (3-4 seats) scoring breakdown; 3-4 seats add the optional keys."""

    winner: int | None  # None: a draw, a shared win (see winners) or a team's win (4 seats)
    votes: dict[str, int | None]  # faction -> the seat (4 seats: the team) it voted for
    counts: list[dict[str, int]]  # per seat: cards of each faction in its score pile
    score: list[dict[str, list[str]]]  # per seat: the cards of each faction
    reason: str
    winners: NotRequired[list[int]]
    ranks: NotRequired[list[int]]  # per seat, 1 = best
    votes_won: NotRequired[list[int]]  # per seat (4 seats: per team)
    cards_for: NotRequired[list[int]]
    reconstructed_rules: NotRequired[bool]
    teams: NotRequired[list[list[int]]]  # 4 seats: [[0, 2], [1, 3]]
    winning_team: NotRequired[int | None]
    team_counts: NotRequired[list[dict[str, int]]]


# ---------------------------------------------------------------------------------------------- events


class PlayEvent(TypedDict):
    type: Literal["play"]
    seat: int
    card: str


class SeerEvent(TypedDict):
    type: Literal["seer"]
    seat: int
    choice: SeerChoice


class SeerPendingEvent(TypedDict):
    """T3.5: the trick waits for the Seer winner's choice."""

    type: Literal["seer_pending"]
    seat: int


class TrickEvent(TrickSummary):
    type: Literal["trick"]


class BlindDrawEvent(TypedDict):
    type: Literal["blind_draw"]
    seat: int


class PrizeEvent(TypedDict):
    """C5.2: the next prize is revealed."""

    type: Literal["prize"]
    card: str


# "from" is a Python keyword: the functional form.
SmashEvent = TypedDict("SmashEvent", {"type": Literal["smash"], "seat": int, "from": int, "gnome": str | None})


class SmashPendingEvent(TypedDict):
    """M6.5: the trick's winner chooses whose Gnome the next Giant smashes."""

    type: Literal["smash_pending"]
    seat: int
    gnome: str
    candidates: list[int]


class PhaseEvent(TypedDict):
    type: Literal["phase"]
    phase: int
    leader: int


class GameOverEvent(TypedDict):
    type: Literal["game_over"]
    result: ClaimResult


ClaimEvent: TypeAlias = (PlayEvent | SeerEvent | SeerPendingEvent | TrickEvent | BlindDrawEvent | PrizeEvent
                         | SmashEvent | SmashPendingEvent | PhaseEvent | GameOverEvent)

# ---------------------------------------------------------------------------------------------- views


class SmashPending(TypedDict):
    seat: int
    gnome: str
    candidates: list[int]
    later: list[str]  # the Gnomes later Giants of the trick smash


class Revealed(TypedDict):
    """After the end: the deal."""

    hands: list[list[str]]
    deck: list[str]
    first_leader: int


class ClaimView(TypedDict):
    """What one seat (or a spectator, ``seat`` null) may know; the keys of a seat's own are optional (absent
    for a spectator)."""

    game: ClaimKind
    factions: list[str]
    seats: int
    seat: int | None
    phase: int
    over: bool
    trick: int
    to_act: list[int]
    leader: int
    hand_counts: list[int]
    follower_counts: list[int]
    public_followers: list[list[str]]  # C2.4 known cards of each follower pile / hand
    deck_count: int
    prize: str | None
    current_trick: list[TrickCard]
    seer_pending: int | None
    smash_pending: SmashPending | None
    score: list[dict[str, list[str]]]
    gnome_rows: list[list[str]]
    troll_pool: list[str]
    discard: list[str]
    smashed: list[str]
    last_trick: TrickSummary | None
    voids: list[list[str]]
    leading: dict[str, int | None]
    result: ClaimResult | None
    # the seat's own
    hand: NotRequired[list[str]]
    followers: NotRequired[list[str]]
    legal_moves: NotRequired[list[ClaimMove]]
    peeked_cards: NotRequired[list[str]]
    peek: NotRequired[str]  # T3.5a the Seer winner's look at the top card
    # 3-4 seats
    reconstructed_rules: NotRequired[bool]
    teams: NotRequired[list[list[int]] | None]
    # after the end
    revealed: NotRequired[Revealed]
