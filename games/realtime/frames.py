"""The ``game`` frames of the socket and the NDJSON streams: the full view, or what changed (docs/realtime.md).

Two shapes, both ``"type": "game"``:

* the **full frame** ``{"type": "game", "game_id", "version", "view"}`` (:func:`full_frame`): the seat's whole view,
  exactly ``GET /api/v1/games/{id}``. It answers ``sync`` and goes to every client that has not asked for patches;
* the **change frame** ``{"type": "game", "game_id", "version", "base", "events", "patch"}`` (:func:`change_frame`):
  ``patch`` is an RFC 6902 JSON Patch (the ``jsonpatch`` package) that turns the seat's view at ``base`` (always
  ``version - 1``) into its view at ``version``; ``events`` are the engine's public events of that version (the
  view's ``last_events.events``). When the patch would be larger than the view, the frame carries ``"view"``
  instead of ``"patch"``.

A patch is only ever computed between two views **of the same user in the same seat** (the user's own views, or
their spectator view while their seat is not joined), so it holds nothing that user's ``GET`` would not show:
its values come from their new view, its ``move``/``copy`` sources from their previous one.

The previous views come from :class:`PreviousViews`: the views the publisher built for the version before, kept
per game (this process's memory first, then the shared cache, so the process that publishes version ``n`` finds
what another one published at ``n - 1``). Where they are missing (a cold cache, a version published nowhere) the
version goes out as full frames only: a client is never sent a patch it cannot have the base of.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from typing import Any

import jsonpatch
import orjson
from django.core.cache import cache
from jsonpointer import JsonPointer

logger = logging.getLogger(__name__)

#: How long the shared cache keeps a game's views of its latest version (a live game moves well within it;
#: a correspondence move a day later simply goes out as full frames).
PREVIOUS_TTL_SECONDS = 3600
#: Games whose latest views this process keeps in memory.
LOCAL_GAMES = 2048


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def full_frame(game_id: int, version: int, view: dict) -> str:
    """The full frame's JSON text: ``{"type": "game", "game_id", "version", "view"}``."""
    return _dumps({"type": "game", "game_id": game_id, "version": version, "view": view})


def full_frame_text(game_id: int, version: int, view_text: str) -> str:
    """:func:`full_frame` around a view already written as JSON text (the same characters)."""
    return f'{{"type":"game","game_id":{int(game_id)},"version":{int(version)},"view":{view_text}}}'


def version_events(view: dict, version: int) -> list:
    """The engine events of ``version`` as the view shows them (``last_events.events``; [] when its entry is older)."""
    last = view.get("last_events") if isinstance(view, dict) else None
    if not isinstance(last, dict) or last.get("version") != version:
        return []
    return list(last.get("events") or [])


def same_seat(old: dict | None, new: dict) -> bool:
    """Whether ``old`` and ``new`` are two views of one game in one seat (``my_seat``; null for a spectator)."""
    return (isinstance(old, dict) and isinstance(new, dict) and old.get("id") == new.get("id")
            and "my_seat" in new and old.get("my_seat", -1) == new.get("my_seat"))


def _canonical(value: Any) -> bytes:
    """The JSON of a value with sorted keys: equal exactly for values equal in JSON (``1`` is not ``true``)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def _canonical_text(value: Any) -> str:
    return _canonical(value).decode()


def _size(ops: list[dict]) -> int:
    return len(orjson.dumps(ops))


#: Objects this deep (the view's top level, its ``view``, ``clock``... and one level below) are compared key by key.
_OBJECT_DEPTH = 3


def make_patch(old: Any, new: Any, parts: tuple[str, ...] = ()) -> list[dict]:
    """An RFC 6902 patch from ``old`` to ``new`` (``jsonpatch``'s diff, ``dumps``: sorted ``orjson``), small: for an
    object near the top, the patch of each member that changed; for anything else, ``jsonpatch``'s patch or one
    ``replace`` of the whole value, whichever is shorter (a list that changed much, such as ``legal_moves``, costs
    less as its new value than as an ``add``/``remove`` per item)."""
    path = JsonPointer.from_parts(list(parts)).path
    whole = [{"op": "replace", "path": path, "value": new}]
    if isinstance(old, dict) and isinstance(new, dict) and len(parts) < _OBJECT_DEPTH:
        ops: list[dict] = []
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": JsonPointer.from_parts([*parts, key]).path, "value": value})
            elif _canonical(old[key]) != _canonical(value):
                ops.extend(make_patch(old[key], value, (*parts, key)))
        gone = [key for key in old if key not in new]
        ops.extend({"op": "remove", "path": JsonPointer.from_parts([*parts, key]).path} for key in gone)
        return ops if not parts or _size(ops) <= _size(whole) else whole
    ops = []
    for op in jsonpatch.JsonPatch.from_diff(old, new, dumps=_canonical_text).patch:
        op["path"] = path + op["path"]
        if "from" in op:
            op["from"] = path + op["from"]
        ops.append(op)
    return ops if _size(ops) <= _size(whole) else whole


def change_frame(game_id: int, version: int, old: dict, new: dict) -> str | None:
    """The change frame's JSON text from the seat's view at ``version - 1`` (``old``) to the one at ``version``
    (``new``), both as JSON values (what a client parsed); ``None`` when ``old`` is not the same seat's view of
    the version before (then only the full frame may go out). The patch is checked by applying it to ``old``
    (in place: pass a copy of your own); one that does not give exactly ``new`` is never sent (the frame carries
    the view instead)."""
    if not same_seat(old, new) or old.get("version") != version - 1:
        return None
    events = version_events(new, version)
    frame: dict[str, Any] = {"type": "game", "game_id": game_id, "version": version, "base": version - 1,
                             "events": events}
    view_text = _dumps(new)
    head = _dumps(frame)[:-1]
    try:
        patch = make_patch(old, new)
        patch_text = _dumps(patch)
        # ``old`` is the caller's own copy (read back from its text): the check applies the patch to it in place
        exact = jsonpatch.apply_patch(old, patch, in_place=True) == new
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as exc:  # a jsonpatch bug: send the view
        logger.warning("no patch for game %s v%s: %s", game_id, version, exc)
        patch_text, exact = "", False
    if exact and len(patch_text) < len(view_text):
        return f'{head},"patch":{patch_text}}}'
    return f'{head},"view":{view_text}}}'


def frame_for(message: dict, known_version: int | None) -> str:
    """The frame of a ``game.update`` channel-layer message (:mod:`games.realtime.publish`) for a client that asked
    for patches and holds the game at ``known_version`` (``None``: unknown; the client compares ``base`` itself):
    the change frame when there is one and it applies to that version, else the full frame. A stream (which knows
    the version it sent last) or a socket calls this."""
    change = message.get("change")
    if change is not None and (known_version is None or known_version == message.get("base")):
        return change
    return full_text(message)


def full_text(message: dict) -> str:
    """The full frame of a ``game.update`` message (written once by the publisher as ``text``, or from ``view``)."""
    text = message.get("text")
    return text if text is not None else full_frame(message["game_id"], message["version"], message["view"])


class PreviousViews:
    """The views the publisher built for each game's latest version, by user id, to diff the next version against.

    Kept in this process (the last :data:`LOCAL_GAMES` games) and in the shared cache (``django.core.cache``,
    Redis in production: one key per game, overwritten by each version, :data:`PREVIOUS_TTL_SECONDS`), as the
    JSON text the clients received, so a view read back is exactly what a client parsed.
    """

    def __init__(self) -> None:
        self.local: OrderedDict[int, tuple[int, dict[int, str]]] = OrderedDict()
        self.lock = threading.Lock()

    @staticmethod
    def key(game_id: int) -> str:
        return f"claim:frames:{game_id}"

    def get(self, game_id: int, version: int) -> dict[int, dict] | None:
        """The views ``{user id: view}`` of ``game_id`` at ``version``, or None if neither store has that version."""
        with self.lock:
            found = self.local.get(game_id)
        if found is None or found[0] != version:
            try:
                found = cache.get(self.key(game_id))
            except Exception as exc:  # a cache outage costs bytes (full frames), never a push
                logger.warning("reading the previous views of game %s failed: %s: %s", game_id,
                               type(exc).__name__, exc)
                return None
        if not found or found[0] != version:
            return None
        return {user_id: orjson.loads(text) for user_id, text in found[1].items()}

    def put(self, game_id: int, version: int, views: dict[int, str]) -> None:
        """Remember the views (JSON text by user id) of ``game_id`` at ``version`` (replacing an older version)."""
        entry = (version, views)
        with self.lock:
            held = self.local.get(game_id)
            if held is not None and held[0] > version:
                return
            self.local[game_id] = entry
            self.local.move_to_end(game_id)
            while len(self.local) > LOCAL_GAMES:
                self.local.popitem(last=False)
        try:
            cache.set(self.key(game_id), entry, PREVIOUS_TTL_SECONDS)
        except Exception as exc:
            logger.warning("storing the views of game %s failed: %s: %s", game_id, type(exc).__name__, exc)

    def clear(self) -> None:
        with self.lock:
            self.local.clear()


previous_views = PreviousViews()
