"""The typed events of a user's ``/ws/`` socket and account NDJSON stream (``GET /stream/events``), as ``TypedDict`` s.

Every frame the server pushes to a user's group ``user.<id>`` as a typed event (``client.event``: challenges, game
lifecycle, rematch offers, invitations, chat, follows, tournaments), the ``notification`` frame and the stream's last
``error`` line have their shape here (and the socket's tournament watch messages); the OpenAPI components of the
stream's lines (``StreamEventLine``, games/stream_schema.py) are built from these by the builder of
:mod:`games.api.typed_schema`. A field that is a REST answer's object (a ``GameSummary``, a ``Challenge``...) is
annotated with :class:`SchemaRef`: the schema refers to that serializer's component, so a client generated from the
schema has one type for both.

No Django import: the modules that build the frames (games/challenges/events.py, games/chat/events.py,
games/realtime/lifecycle.py, games/realtime/invitations.py, games/social/events.py, games/tournaments/news.py)
annotate them with these types.
"""

# No ``from __future__ import annotations``: the schema builder reads ``NotRequired`` from evaluated annotations.
from typing import Annotated, Any, Literal, NotRequired, TypeAlias, TypedDict

from games.schema_ref import SchemaRef

GameSummaryJSON: TypeAlias = Annotated[dict[str, Any], SchemaRef("GameSummary")]
ChallengeJSON: TypeAlias = Annotated[dict[str, Any], SchemaRef("Challenge")]
RematchOfferJSON: TypeAlias = Annotated[dict[str, Any], SchemaRef("RematchOffer")]
NotificationJSON: TypeAlias = Annotated[dict[str, Any], SchemaRef("Notification")]
PublicUserJSON: TypeAlias = Annotated[dict[str, Any], SchemaRef("PublicUser")]
ChatLineJSON: TypeAlias = Annotated[dict[str, Any], SchemaRef("ChatLine")]
ReviewProgressJSON: TypeAlias = Annotated[dict[str, Any], SchemaRef("ReviewProgress")]  # {"done", "total"}

ChallengeChange: TypeAlias = Literal["challenge_created", "challenge_received", "challenge_accepted",
                                     "challenge_declined", "challenge_cancelled", "challenge_expired"]


class StreamChallengeEvent(TypedDict):
    """A change of a challenge the caller made or received: `challenge_received` (to the user challenged),
    `challenge_created` (to the challenger's other devices), then `challenge_accepted` (with `game_id`),
    `challenge_declined` (with `decline_reason`), `challenge_cancelled` or `challenge_expired` (to both)."""

    type: ChallengeChange
    challenge: ChallengeJSON


class StreamLifecycleEvent(TypedDict):
    """A game of the caller started (its last seat was filled) or ended (finished or aborted); `game` is its inbox
    entry (`GET /games`)."""

    type: Literal["game_started", "game_finished"]
    game_id: int
    game: GameSummaryJSON


class StreamRematchOffer(TypedDict):
    """The rematch offer of a finished game of the caller changed (offered, accepted, declined, cancelled,
    expired): the game view's `rematch_offer`."""

    type: Literal["rematch_offer"]
    game_id: int
    rematch_offer: RematchOfferJSON


class InvitationReceivedEvent(TypedDict):
    """The caller was invited by username to a seat of an open game (`POST /games` with a `user` opponent, or the
    rematch of a 3-4 seat game): `by` created it, `game` is its inbox entry (the caller's seat not `joined` yet).
    Accept with `POST /games/{id}/join`; decline with `POST /games/{id}/abort` (calls the game off for everyone).
    Once per invitation, to the invited user only."""

    type: Literal["invitation_received"]
    game_id: int
    by: PublicUserJSON
    game: GameSummaryJSON


class InvitationCancelledEvent(TypedDict):
    """An invitation the caller had not accepted is gone: `reason` `aborted`, the game was called off before it
    started (by its creator, another invited player, or the caller on another device). `game` is its inbox entry
    (`status` `aborted`). An invited seat is held for its user, so a game never starts without them."""

    type: Literal["invitation_cancelled"]
    game_id: int
    reason: Literal["aborted"]
    game: GameSummaryJSON


class ChatEvent(TypedDict):
    """A new chat line of a game the caller plays or watches, in the caller's language (docs/api.md, "Chat");
    also on the game's own NDJSON stream."""

    type: Literal["chat"]
    game_id: int
    message: ChatLineJSON


class ChatHiddenEvent(TypedDict):
    """An operator hid chat line `message_id` of the game: remove it."""

    type: Literal["chat_hidden"]
    game_id: int
    message_id: int


class SpectatorsEvent(TypedDict):
    """To a game's players: how many sockets and streams watch it now (sent when it changes)."""

    type: Literal["spectators"]
    game_id: int
    count: int


class FollowedEvent(TypedDict):
    """Someone new follows the caller (`PUT /users/{username}/follow`; not told when the caller blocks or mutes
    them, and once an hour at most per follower). Follow back to be friends."""

    type: Literal["followed"]
    by: PublicUserJSON


ReviewStatus: TypeAlias = Literal["queued", "running", "done", "failed"]


class ReviewEvent(TypedDict):
    """A game review the caller requested (`POST /games/{id}/review`) progressed: `running` with `progress`
    (decisions done / total) as it goes, then `done` (read `GET /games/{id}/review`) or `failed` (request it
    again). Only ever for a finished game."""

    type: Literal["review"]
    game_id: int
    status: ReviewStatus
    progress: ReviewProgressJSON


TournamentWhat: TypeAlias = Literal["starting_soon", "started", "round_paired", "new_game", "standings", "finished",
                                   "cancelled"]


class TournamentEvent(TypedDict):
    """A tournament the caller entered changed (docs/tournaments.md, "Notifications and live updates"); a socket that
    watches a tournament (`{"type": "watch_tournament"}`) gets its events too, but `new_game` only reaches the game's
    players. `what`: `starting_soon` (it starts within the hour), `started`, `round_paired` (`round`: a Swiss or
    table round was paired), `new_game` (`game_id`, `round`: a game of yours was created), `standings` (a result
    or a withdrawal changed the standings; `round`: the current round), `finished`, `cancelled`. Re-read
    `GET /tournaments/{id}` (and `/games`) for what changed."""

    type: Literal["tournament"]
    tournament_id: int
    what: TournamentWhat
    round: int | None
    game_id: int | None


class WatchTournamentMessage(TypedDict):
    """Socket, client to server: watch a tournament's page live (its `tournament` events but the personal
    `new_game`), or stop (`unwatch_tournament`). Answered `watching_tournament` / `unwatched_tournament`; an
    `error` with `code` `bad_request` (no valid `tournament_id`), `not_found` (no such tournament) or
    `too_many` (at most 10 per socket). `id` (optional) comes back in the direct reply."""

    type: Literal["watch_tournament", "unwatch_tournament"]
    tournament_id: int
    id: NotRequired[str | int]


class WatchingTournamentReply(TypedDict):
    """Socket, server to client: the answer to `watch_tournament` / `unwatch_tournament` (`unwatched_tournament`
    also for a tournament not watched), with the message's `id` if it had one."""

    type: Literal["watching_tournament", "unwatched_tournament"]
    tournament_id: int
    id: NotRequired[str | int]


class SocketError(TypedDict):
    """Socket, server to client: a message refused (the socket stays open). `code` where the refusal has one
    (`bad_request`, `not_found`, `too_many` for the tournament watches); `id` echoes the message's."""

    type: Literal["error"]
    message: str
    code: NotRequired[str]
    id: NotRequired[str | int]


class StreamNotification(TypedDict):
    """A new in-app notification (on the socket unless it asked `{"type": "notifications", "enabled": false}`; on
    the stream only with `?notifications=1`)."""

    type: Literal["notification"]
    notification: NotificationJSON


class StreamError(TypedDict):
    """The last line of a stream whose token was revoked or expired, whose session ended, or whose password was
    reset (`code: unauthenticated`); the stream ends after it."""

    type: Literal["error"]
    code: str
    message: str


#: A typed event pushed to every socket and account stream of the user (``client.event`` frames).
AccountEvent: TypeAlias = (StreamChallengeEvent | StreamLifecycleEvent | StreamRematchOffer | InvitationReceivedEvent
                           | InvitationCancelledEvent | ChatEvent | ChatHiddenEvent | SpectatorsEvent | FollowedEvent
                           | TournamentEvent | ReviewEvent)
#: One line of ``GET /stream/events`` (the component ``StreamEventLine``).
StreamEventLine: TypeAlias = AccountEvent | StreamNotification | StreamError
#: The tournament watch's socket messages, both ways (the component ``TournamentSocketMessage``).
TournamentSocketMessage: TypeAlias = WatchTournamentMessage | WatchingTournamentReply | SocketError
