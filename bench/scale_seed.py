"""Seeding of ``bench/scale.py`` (issue 38): a database per size, filled by PostgreSQL ``COPY`` from a pool of real
games.

The pool (database ``<prefix>_pool``, made once): games played to the end (or stopped part-way) by the real service
(``games.service.create_game`` / ``make_move`` with random legal moves, ratings and notifications written by the
tasks run eagerly), so every row is one the site writes. A size's database is then filled from it: players, and
copies of the pool's games (game, seats, clock, move log, history, stored record, rating rows, the last
notifications) with new ids, players and times, written with ``COPY … FROM STDIN`` (psycopg's ``cursor.copy``),
not the ORM. Copies keep every column of their template except: ids and the foreign keys to them, the players, the
times (every timestamp of a copy moved by the same offset, so its order is the template's), the invite code, and
``Move.response`` of finished games (NULL: the mover's first answer, only read to answer a retried move of a running
game; the active copies keep it). Ratings of copies (``RatingHistory``, the players' ``Rating`` counts) are
generated: a random walk, not Glicko-2 replayed over the copies.
"""

from __future__ import annotations

import io
import random
import subprocess
import sys
import time
from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
#: A real PBKDF2 hash of a password no one uses (the seeded players never log in: the bench uses tokens).
PASSWORD = "pbkdf2_sha256$1000000$scaleseed$Q3dJm5o5pRZg8hYxYb3sQm7lE2a5Qj8Q9l1mS2c2yZg="
#: The columns of the tables written from generated values (not copied from the pool), in the order written.
COLUMNS = {
    "accounts_user": ["id", "password", "last_login", "is_superuser", "username", "first_name", "last_name", "email",
                      "is_staff", "is_active", "date_joined", "display_name", "language", "time_zone", "is_bot",
                      "chat_banned", "hide_presence"],
    "accounts_namekey": ["id", "key", "user_id"],
    "ratings_rating": ["id", "ai_level", "pool", "system", "rating", "deviation", "volatility", "mu", "sigma",
                       "games", "wins", "losses", "draws", "last_game_at", "updated_at", "user_id"],
    "ratings_ratinghistory": ["id", "before", "after", "deviation", "created_at", "game_id", "rating_id"],
    "ratings_ratedgame": ["id", "pool", "rated_at", "humans_rated", "game_id"],
    "notify_notifysettings": ["id", "email_digest", "last_digest_at", "user_id"],
}
GAME_TABLES = ("games_game", "games_seat", "clock_gameclock", "games_move", "games_gameevent", "games_gamerecord")


def parse_size(text: str) -> int:
    text = text.strip().lower()
    mult = {"k": 1_000, "m": 1_000_000}.get(text[-1:], 1)
    return int(float(text.rstrip("km")) * mult)


def players_for(size: int) -> int:
    return max(10_000, min(100_000, size // 2))


def ensure_database(admin_url: str, name: str, drop: bool = False) -> bool:
    """Create ``name`` (dropped first if ``drop``); True if it was created now."""
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is not None
        if exists and drop:
            conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            exists = False
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
        return not exists


def migrate(env: dict[str, str]) -> None:
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)


# --------------------------------------------------------------------------------------------------- the pool

POOL_SCRIPT = r'''
import os, random, sys, time
sys.path.insert(0, os.getcwd())
import django
django.setup()
from django.conf import settings
settings.TASK_MODE = "eager"
from accounts.models import User
from games import service
from games.models import Game

finished, active, long_games = (int(a) for a in sys.argv[1:4])
users = [User.objects.get_or_create(username=f"pool{i}", defaults={"email": f"pool{i}@bench.invalid"})[0]
         for i in range(4)]

def play(kind, seats, stop, rng):
    creator = users[0]
    game = service.create_game(creator, kind, seats=seats, days_per_move=3, rated=True, seated=True,
                               opponents=[{"type": "user", "username": u.username} for u in users[1:seats]])
    moves = 0
    while stop is None or moves < stop:
        mover = None
        for u in users[:seats]:
            view = service.view_for(u, game.pk)
            if view["status"] != "active":
                return game.pk
            if view["legal_moves"]:
                mover = (u, view)
                break
        if mover is None:
            return game.pk
        u, view = mover
        service.make_move(u, game.pk, view["version"], rng.choice(view["legal_moves"]))
        moves += 1
    return game.pk

rng = random.Random(38)
t0 = time.time()
for i in range(finished):
    play("claim", 2, None, rng)
for i in range(active):
    play("claim", 2, rng.randrange(0, 48), rng)
for i in range(long_games):
    play("inheritors", 4, None, rng)
print(f"pool: {finished} finished, {active} active, {long_games} long games in {time.time() - t0:.0f} s", flush=True)
'''


def make_pool(admin_url: str, pool_db: str, env: dict[str, str], finished: int, active: int, long_games: int) -> None:
    created = ensure_database(admin_url, pool_db)
    url = admin_url.rsplit("/", 1)[0] + "/" + pool_db
    if not created:
        with psycopg.connect(url) as conn:
            done = conn.execute("SELECT to_regclass('scale_pool_done') IS NOT NULL").fetchone()[0]
        if done:
            return
    penv = {**env, "DATABASE_URL": url}
    migrate(penv)
    print(f"pool: playing {finished} + {active} Claim games and {long_games} 4-seat Inheritors games "
          "by the service (once) ...", flush=True)
    subprocess.run([sys.executable, "-c", POOL_SCRIPT, str(finished), str(active), str(long_games)], cwd=ROOT,
                   env={**penv, "LOG_LEVEL": "WARNING"}, check=True)
    with psycopg.connect(url) as conn:
        conn.execute("CREATE TABLE scale_pool_done (at timestamptz DEFAULT now())")


# --------------------------------------------------------------------------------------------------- templates

class Table:
    """A table's rows of some games, as COPY text fields, and which fields are ids, games, times."""

    def __init__(self, conn: psycopg.Connection, name: str, where: str, params: Any) -> None:
        self.name = name
        cols = conn.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = %s "
            "ORDER BY ordinal_position", (name,)).fetchall()
        self.columns = [c for c, _ in cols]
        self.times = [i for i, (_, t) in enumerate(cols) if t.startswith("timestamp")]
        self.rows: list[list[str]] = []
        buf = io.BytesIO()
        collist = ", ".join(f'"{c}"' for c in self.columns)
        with conn.cursor().copy(f"COPY (SELECT {collist} FROM {name} WHERE {where} ORDER BY 1) TO STDOUT",
                                params) as copy:
            for block in copy:
                buf.write(block)
        for line in buf.getvalue().decode().splitlines():
            self.rows.append(line.split("\t"))

    def col(self, name: str) -> int:
        return self.columns.index(name)


def _epoch(text: str) -> float:
    return (datetime.fromisoformat(text) - EPOCH).total_seconds()


def _ts(seconds: float) -> str:
    return (EPOCH + timedelta(seconds=seconds)).isoformat()


class Template:
    """One pool game: its rows per table, with the timestamps parsed once."""

    def __init__(self, game_id: int, tables: dict[str, Table]) -> None:
        self.game_id = game_id
        self.rows: dict[str, list[list[str]]] = {}
        self.times: dict[str, list[list[tuple[int, float]]]] = {}
        for name, table in tables.items():
            gcol = table.col("id") if name == "games_game" else table.col("game_id")
            rows = [r for r in table.rows if r[gcol] == str(game_id)]
            self.rows[name] = rows
            self.times[name] = [[(i, _epoch(r[i])) for i in table.times if r[i] != r"\N"] for r in rows]
        game = tables["games_game"]
        g = self.rows["games_game"][0]
        self.status = g[game.col("status")]
        self.moves = int(g[game.col("move_count")])
        self.kind = g[game.col("kind")]
        self.seats = int(g[game.col("seat_count")])
        self.end = _epoch(g[game.col("updated_at")])
        seat = tables["games_seat"]
        self.outcomes = {int(r[seat.col("index")]): r[seat.col("outcome")] for r in self.rows["games_seat"]}


class Writer:
    """New rows per table, written with COPY once a table's buffer is large."""

    def __init__(self, conn: psycopg.Connection, tables: dict[str, Table]) -> None:
        self.conn = conn
        self.tables = tables
        self.buffers: dict[str, list[str]] = defaultdict(list)
        self.next_id: dict[str, int] = {}
        self.rows = Counter[str]()

    def start_id(self, table: str) -> int:
        if table not in self.next_id:
            self.next_id[table] = int(self.conn.execute(f"SELECT coalesce(max(id), 0) + 1 FROM {table}").fetchone()[0])
        return self.next_id[table]

    def take_id(self, table: str) -> int:
        n = self.start_id(table)
        self.next_id[table] = n + 1
        return n

    def add(self, table: str, fields: list[str]) -> None:
        buf = self.buffers[table]
        buf.append("\t".join(fields))
        if len(buf) >= 20_000:
            self.flush(table)

    def flush(self, table: str) -> None:
        buf = self.buffers.pop(table, [])
        if not buf:
            return
        cols = COLUMNS[table] if table in COLUMNS else self.tables[table].columns
        collist = ", ".join(f'"{c}"' for c in cols)
        with self.conn.cursor().copy(f"COPY {table} ({collist}) FROM STDIN") as copy:
            copy.write(("\n".join(buf) + "\n").encode())
        self.rows[table] += len(buf)

    def flush_all(self) -> None:
        for table in list(self.buffers):
            self.flush(table)
        for table in self.next_id:
            self.conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                              f"(SELECT coalesce(max(id), 1) FROM {table}))")


def copy_game(w: Writer, t: Template, players: list[int], shift: float, keep_responses: bool,
              game_ids: dict[int, int] | None = None) -> int:
    """Write a copy of ``t`` for ``players`` (by seat index), its times moved by ``shift`` seconds."""
    tables = w.tables
    gid = w.take_id("games_game")
    move_ids: dict[str, str] = {}
    for name in GAME_TABLES:
        table = tables[name]
        for row, times in zip(t.rows[name], t.times[name], strict=True):
            r = row.copy()
            for i, s in times:
                r[i] = _ts(s + shift)
            if name == "games_game":
                r[0] = str(gid)
                r[table.col("invite_code")] = f"sc{gid}"
                r[table.col("created_by_id")] = str(players[0])
                r[table.col("rematch_of_id")] = r"\N"
            else:
                r[table.col("game_id")] = str(gid)
                if "id" in table.columns and name != "games_gamerecord":
                    new = str(w.take_id(name))
                    if name == "games_move":
                        move_ids[r[0]] = new
                        if not keep_responses:
                            r[table.col("response")] = r"\N"
                    r[0] = new
                if name == "games_seat" and r[table.col("user_id")] != r"\N":
                    r[table.col("user_id")] = str(players[int(r[table.col("index")])])
                if name == "games_gameevent" and r[table.col("move_id")] != r"\N":
                    r[table.col("move_id")] = move_ids[r[table.col("move_id")]]
                if name == "games_gamerecord":
                    body = r[table.col("body")]
                    r[table.col("body")] = body.replace(f'{{"id":{t.game_id},', f'{{"id":{gid},', 1)
            w.add(name, r)
    if game_ids is not None:
        game_ids[t.game_id] = gid
    return gid


# --------------------------------------------------------------------------------------------------- a size

def seed(admin_url: str, pool_db: str, db: str, size: int, env: dict[str, str], active: int = 10_000,
         busy: int = 5, busy_games: int = 200, seed_value: int = 38) -> dict[str, Any]:
    """Fill ``db`` (migrated, empty) for ``size`` finished games. Returns what it wrote and how long it took."""
    from accounts.names import name_keys

    t0 = time.monotonic()
    rng = random.Random(seed_value)
    base = admin_url.rsplit("/", 1)[0]
    with psycopg.connect(f"{base}/{pool_db}") as pool:
        ids = [r[0] for r in pool.execute("SELECT id FROM games_game ORDER BY id").fetchall()]
        tables = {name: Table(pool, name, ("id" if name == "games_game" else "game_id") + " = ANY(%s)", (ids,))
                  for name in GAME_TABLES}
        notes = Table(pool, "notify_notification", "game_id = ANY(%s)", (ids,))
    templates = [Template(gid, tables) for gid in ids]
    finished = [t for t in templates if t.status == "finished" and t.kind == "claim"]
    running = [t for t in templates if t.status == "active" and t.kind == "claim"]
    longest = max((t for t in templates if t.status == "finished"), key=lambda t: t.moves)
    n_players = players_for(size)
    now = time.time()
    with psycopg.connect(f"{base}/{db}") as conn:
        # No foreign-key triggers while loading (as pg_restore --disable-triggers): every row refers to a row of the
        # same load, by construction. With them, Django's deferred constraints check each row at COMMIT: at 1M
        # games (≈ 110M rows) that COMMIT alone ran for over 15 minutes. Needs a superuser (the admin URL's).
        conn.execute("SET session_replication_role = replica")
        w = Writer(conn, tables)
        # players (and their name keys)
        first_user = w.start_id("accounts_user")
        users = list(range(first_user, first_user + n_players))
        joined = _ts(now - 800 * 86400)
        for n, uid in enumerate(users):
            name = f"s{n:06d}"
            w.add("accounts_user", [str(uid), PASSWORD, r"\N", "f", name, "", "", f"{name}@bench.invalid", "f", "t",
                                    joined, "", "en", "UTC", "f", "f", "f"])
            for key in name_keys(name):
                w.add("accounts_namekey", [str(w.take_id("accounts_namekey")), key, str(uid)])
        w.next_id["accounts_user"] = first_user + n_players
        w.flush("accounts_user")
        w.flush("accounts_namekey")
        heavy = users[0]
        busy_users = users[1:1 + busy]
        stats: dict[int, Counter[str]] = defaultdict(Counter)
        history: list[tuple[int, int, float]] = []  # (user, game, time)

        def pick_pair(first: int | None = None) -> list[int]:
            a = first if first is not None else rng.choice(users)
            b = rng.choice(users)
            while b == a:
                b = rng.choice(users)
            return [a, b]

        # finished games over the last two years, newest last; the heavy player in 1,000 of them at every size
        step = max(1, size // 1000)
        for i in range(size):
            t = finished[i % len(finished)]
            end = now - (size - i) / size * 730 * 86400
            players = pick_pair(heavy if i % step == 0 else None)
            if rng.random() < 0.5:
                players.reverse()
            gid = copy_game(w, t, players, end - t.end, keep_responses=False)
            for seat, uid in enumerate(players):
                stats[uid][t.outcomes.get(seat, "")] += 1
                stats[uid]["games"] += 1
                history.append((uid, gid, end))
        print(f"  {size} finished games copied ({time.monotonic() - t0:.0f} s)", flush=True)
        # one long game (the pool's longest) of the heavy player
        long_players = [heavy, *rng.sample(users[1 + busy:], longest.seats - 1)]
        long_id = copy_game(w, longest, long_players, now - 3600 - longest.end, keep_responses=True)
        # running games: the busy players have busy_games each, the rest random pairs; last move in the last 2 days
        active_ids: list[int] = []
        note_users: list[tuple[int, list[int], Template, float]] = []
        for j in range(active):
            t = running[j % len(running)]
            players = pick_pair(busy_users[j // busy_games] if j < busy * busy_games else None)
            shift = now - rng.uniform(600, 2 * 86400) - t.end
            gid = copy_game(w, t, players, shift, keep_responses=True)
            active_ids.append(gid)
            note_users.append((gid, players, t, shift))
        print(f"  {active} running games copied ({time.monotonic() - t0:.0f} s)", flush=True)
        # the last 4 notifications of each running copy, unread, for its players (the digest reads them)
        ncol = notes.columns
        w.tables["notify_notification"] = notes
        by_game: dict[str, list[list[str]]] = defaultdict(list)
        for r in notes.rows:
            by_game[r[ncol.index("game_id")]].append(r)
        digest_users: set[int] = set()
        seat = tables["games_seat"]
        for gid, players, t, _shift in note_users:
            tpl_players = {r[seat.col("user_id")]: int(r[seat.col("index")]) for r in t.rows["games_seat"]}
            for r in by_game.get(str(t.game_id), [])[-4:]:
                new = r.copy()
                new[0] = str(w.take_id("notify_notification"))
                new[ncol.index("game_id")] = str(gid)
                idx = tpl_players.get(r[ncol.index("user_id")], 0)
                uid = players[idx]
                new[ncol.index("user_id")] = str(uid)
                new[ncol.index("read_at")] = r"\N"
                new[ncol.index("created_at")] = _ts(now - rng.uniform(60, 20 * 3600))
                w.add("notify_notification", new)
                digest_users.add(uid)
        # ratings: one per player and pool, history per finished seat, a rated-game row per finished copy
        rating_of: dict[int, int] = {}
        for uid in users:
            s = stats.get(uid, Counter())
            rid = w.take_id("ratings_rating")
            rating_of[uid] = rid
            value = rng.gauss(1500, 200)
            w.add("ratings_rating", [str(rid), r"\N", "claim", "glicko2", repr(value), repr(rng.uniform(50, 350)),
                                     "0.06", r"\N", r"\N", str(s["games"]), str(s["win"]), str(s["loss"]),
                                     str(s["draw"]), _ts(now - rng.uniform(0, 30 * 86400)) if s["games"] else r"\N",
                                     _ts(now), str(uid)])
        for uid, gid, end in history:
            before = rng.gauss(1500, 200)
            w.add("ratings_ratinghistory", [str(w.take_id("ratings_ratinghistory")), repr(before),
                                            repr(before + rng.uniform(-20, 20)), repr(rng.uniform(50, 350)),
                                            _ts(end), str(gid), str(rating_of[uid])])
        for gid in sorted({g for _, g, _ in history}):
            w.add("ratings_ratedgame", [str(w.take_id("ratings_ratedgame")), "claim", _ts(now), "t", str(gid)])
        for uid in sorted(digest_users):
            w.add("notify_notifysettings", [str(w.take_id("notify_notifysettings")), "t", r"\N", str(uid)])
        w.flush_all()
        conn.execute("CREATE TABLE IF NOT EXISTS scale_seed (key text PRIMARY KEY, value text)")
        info = {"size": size, "players": n_players, "heavy": f"s{0:06d}",
                "busy": [f"s{n:06d}" for n in range(1, 1 + busy)], "long_game": long_id,
                "long_moves": longest.moves, "active": active, "digest_users": len(digest_users),
                "rows": dict(w.rows), "seconds": round(time.monotonic() - t0, 1),
                "pool_finished": len(finished), "pool_active": len(running)}
        conn.commit()
    print(f"  written ({time.monotonic() - t0:.0f} s), VACUUM (ANALYZE) ...", flush=True)
    with psycopg.connect(f"{base}/{db}", autocommit=True) as conn:
        conn.execute("VACUUM (ANALYZE)")
        info["seconds_with_vacuum"] = round(time.monotonic() - t0, 1)
        import json

        conn.execute("INSERT INTO scale_seed VALUES ('info', %s) ON CONFLICT (key) DO UPDATE SET value = "
                     "excluded.value", (json.dumps(info),))
    return info

