"""Bytes per ``game`` frame on the socket: the full view (before issue 34) and the change frame (after).

    .venv/bin/python bench/frames.py [--games N] [--seed S]

Plays ``--games`` whole games of each kind through the game service, every seat a human account playing random
legal moves (seeded), and catches what the publisher hands to the channel layer (``games.realtime.publish``): for
every move's version and seat, the full frame (``{"type": "game", ..., "view"}``, what every socket got before)
and the frame a socket that asked for patches gets (``games.realtime.frames.frame_for`` at the base version: the
change frame, or the full frame where there is none). Prints, per kind, the frames counted, mean and p95 bytes of
each, the share of change frames that carry a patch (the others carry the view: their patch was larger), and the
publisher's mean CPU per version for building the change frames (``add_frames``: diff, check, remember).

Embedded (SQLite in a fresh directory) unless ``DATABASE_URL`` is given; use a database of its own.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claim.settings")
if not os.environ.get("DATABASE_URL"):
    os.environ.setdefault("CLAIM_EMBEDDED", "1")
    os.environ.setdefault("CLAIM_VAR_DIR", tempfile.mkdtemp(prefix="claim-bench-frames-"))

#: (label, kind, seats, options)
KINDS = [
    ("claim, 2 seats", "claim", 2, None),
    ("claim-mix, 4 seats", "claim-mix", 4,
     {"factions": ["knight", "goblin", "undead", "dwarf", "doppelganger", "dragon", "seer"]}),
    ("inheritors, 2 seats", "inheritors", 2, None),
    ("inheritors, 4 seats", "inheritors", 4, None),
]


def p95(values: list[int]) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))])


def play(kind: str, seats: int, options, users: list, rng: random.Random) -> None:
    """One game, every seat one of ``users``, random legal moves to the end."""
    from games import service

    game = service.create_game(users[0], kind, options=options, seats=seats,
                               opponents=[{"type": "user", "username": u.username} for u in users[1:seats]])
    for user in users[1:seats]:
        service.join_game(user, game.pk)
    for _ in range(5000):
        views = [service.view_for(u, game.pk) for u in users[:seats]]
        if views[0]["status"] != "active":
            return
        mover = next(i for i, v in enumerate(views) if v["my_turn"] and v["legal_moves"])
        service.make_move(users[mover], game.pk, views[mover]["version"], rng.choice(views[mover]["legal_moves"]))
    raise RuntimeError(f"a {kind} game did not end")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="whole games per kind")
    parser.add_argument("--seed", type=int, default=34)
    args = parser.parse_args()

    import django

    logging.disable(logging.INFO)  # the service's per-move log lines
    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from accounts.models import User
    from games.realtime import frames, publish

    settings.TASK_MODE = "eager"
    if os.environ.get("CLAIM_EMBEDDED"):
        call_command("migrate", verbosity=0)
    stamp = int(time.time())
    users = [User.objects.create_user(username=f"fb{stamp % 100000}x{i}", password="bench-frames-pw-1")
             for i in range(4)]

    caught: list[dict] = []
    build_cpu: list[float] = []
    add_frames = publish.add_frames

    def timed_add_frames(game_id, version, messages):
        start = time.process_time()
        add_frames(game_id, version, messages)
        build_cpu.append(time.process_time() - start)

    publish.add_frames = timed_add_frames  # type: ignore[assignment]
    publish.send_to_groups = lambda messages, what: caught.extend(  # type: ignore[assignment]
        m for _, m in messages if m.get("type") == publish.MESSAGE_TYPE)

    rng = random.Random(args.seed)
    print(f"{args.games} games per kind, random legal moves (seed {args.seed}); bytes of one frame to one seat")
    print(f"{'kind':22} {'frames':>7} {'full mean':>10} {'full p95':>9} {'change mean':>12} {'change p95':>11} "
          f"{'patched':>8} {'build ms':>9}")
    for label, kind, seats, options in KINDS:
        caught.clear()
        build_cpu.clear()
        frames.previous_views.clear()
        for _ in range(args.games):
            play(kind, seats, options, users, rng)
        moves = [m for m in caught if (m["view"].get("last_events") or {}).get("type") == "move"]
        full = [len(m["text"].encode()) for m in moves]
        sent = [frame_for_base(m, frames) for m in moves]
        after = [len(text.encode()) for text in sent]
        patched = sum("patch" in json.loads(text) for text in sent)
        print(f"{label:22} {len(moves):7d} {statistics.mean(full):10.0f} {p95(full):9.0f} "
              f"{statistics.mean(after):12.0f} {p95(after):11.0f} {patched / len(moves):8.0%} "
              f"{1000 * statistics.mean(build_cpu):9.2f}")
    return 0


def frame_for_base(message: dict, frames) -> str:
    """What a socket that asked for patches sends for this message to a client holding its base."""
    return frames.frame_for(message, message.get("base"))


if __name__ == "__main__":
    raise SystemExit(main())
