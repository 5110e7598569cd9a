"""``bench/scale.py --explain``: the hot endpoints' SQL with ``EXPLAIN (ANALYZE, BUFFERS)``, and ``claim/rowsql.py``
against the ORM querysets it stands for (both in-process, on the seeded database of the largest size)."""

from __future__ import annotations

import random
import re
import statistics
import time
from pathlib import Path
from typing import Any

from django.db import connection, transaction
from django.test import Client

#: Tables this big or bigger are flagged when a plan reads them with a sequential scan.
LARGE = 10_000


class Captured:
    def __init__(self) -> None:
        self.statements: list[tuple[str, Any]] = []

    def __call__(self, execute, sql, params, many, context):
        if not many:
            self.statements.append((sql, params))
        return execute(sql, params, many, context)


def _client(token: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {token}")


def _requests(t: dict[str, Any]) -> list[tuple[str, str, Client, dict | None]]:
    heavy, busy = _client(t["heavy"]), _client(t["busy"])
    name, long_game = t["heavy_name"], t["long_game"]
    return [
        ("inbox (200 running games)", "/api/v1/games", busy, None),
        ("leaderboard", "/api/v1/leaderboards/claim", heavy, None),
        ("profile", f"/api/v1/users/{name}", busy, None),
        ("profile games", f"/api/v1/users/{name}/games", busy, None),
        ("long game history", f"/api/v1/games/{long_game}/history", heavy, None),
        ("long game record", f"/api/v1/games/{long_game}/record", heavy, None),
        ("export 1,000 games", f"/api/v1/users/{name}/games/export?limit=1000", busy, None),
    ]


def _mover(t: dict[str, Any]) -> tuple[int, Client, dict] | None:
    for gid, seats in t["games"].items():
        for uid in seats.values():
            client = _client(t["tokens"][uid])
            view = client.get(f"/api/v1/games/{gid}").json()
            if view.get("status") == "active" and view.get("my_turn") and view.get("legal_moves"):
                return gid, client, view
    return None


def _tables_over(limit: int) -> dict[str, int]:
    with connection.cursor() as cur:
        cur.execute("SELECT relname, reltuples::bigint FROM pg_class WHERE relkind = 'r' AND reltuples >= %s",
                    [limit])
        return dict(cur.fetchall())


def explain(t: dict[str, Any], out: Path, info: dict[str, Any]) -> dict[str, Any]:
    """Capture the SQL of each hot endpoint (and of a move, of the matchmaking round and of the digest), EXPLAIN
    (ANALYZE, BUFFERS) each distinct statement in a rolled-back transaction, write ``out``; returns the flags."""
    from games.notify.service import send_digests
    from games.seeks.service import pair_all

    captured: dict[str, list[tuple[str, Any]]] = {}
    planned: dict[str, str] = {}
    for label, path, client, _ in _requests(t):
        cap = Captured()
        with connection.execute_wrapper(cap):
            r = client.get(path)
            _ = r.getvalue() if r.streaming else r.content
        captured[label] = cap.statements
    found = _mover(t)
    if found is not None:
        gid, client, view = found
        cap = Captured()
        with connection.execute_wrapper(cap):
            client.post(f"/api/v1/games/{gid}/moves", {"version": view["version"], "move": view["legal_moves"][0]},
                        content_type="application/json")
        captured["move (POST /games/{id}/moves)"] = cap.statements
    for label, fn in (("matchmaking round", pair_all), ("digest", send_digests)):
        cap = Captured()
        with transaction.atomic(), connection.execute_wrapper(cap):
            if fn is pair_all:
                _open_seeks(1000)
                cap.statements.clear()
            fn()
            for sql, params in cap.statements:  # planned before the rollback: the seeks are still there
                if _shape(sql) not in planned:
                    planned[_shape(sql)] = _plan(sql, params)
            transaction.set_rollback(True)
        captured[label] = cap.statements
    large = _tables_over(LARGE)
    lines = [f"# EXPLAIN of the hot endpoints at {info['size']:,} finished games (issue 38)", "",
             "Written by `bench/scale.py --explain` (docs/performance.md, \"Cost as the data grows\"): every "
             "statement the endpoint ran (in-process, Django's test client, token auth), then "
             "`EXPLAIN (ANALYZE, BUFFERS)` of it with the same parameters, in a transaction rolled back. "
             f"Tables with ≥ {LARGE:,} rows (planner estimate): "
             + ", ".join(f"`{k}` {v:,}" for k, v in sorted(large.items(), key=lambda kv: -kv[1])) + ".", ""]
    flags: dict[str, list[str]] = {}
    seen: set[str] = set()
    for label, statements in captured.items():
        counts: dict[str, int] = {}
        for sql, _ in statements:
            counts[_shape(sql)] = counts.get(_shape(sql), 0) + 1
        lines += [f"## {label}", "", f"{len(statements)} statements, {len(counts)} distinct.", ""]
        for n, (sql, params) in enumerate(statements, 1):
            key = _shape(sql)
            if key in seen:
                continue
            seen.add(key)
            times = f" (run {counts[key]} times)" if counts[key] > 1 else ""
            plan = _short(planned[key] if key in planned else _plan(sql, params))
            scans = sorted({m for m in re.findall(r"Seq Scan on (\w+)", plan) if m in large})
            if scans:
                flags.setdefault(label, []).extend(scans)
            flag = f" **SEQUENTIAL SCAN of {', '.join(scans)}**" if scans else ""
            lines += [f"{n}.{times}{flag}", "", "```sql", _short(sql.strip())[:4000], "```", "", "```", plan, "```", ""]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    return {"file": str(out), "seq scans of large tables": flags,
            "statements": {k: len(v) for k, v in captured.items()}}


def _shape(sql: str) -> str:
    """A statement's text with its IN lists of any length alike."""
    sql = re.sub(r'"s\d+_x\d+"', '"savepoint"', re.sub(r"\s+", " ", sql))
    return re.sub(r"(%s, )+%s", "%s…", re.sub(r"VALUES \(.*\)$", "VALUES (…)", sql))


def _short(text: str) -> str:
    """Long IN lists and arrays cut to their first items."""
    text = re.sub(r"(%s, ){3,}%s", "%s, %s, … %s", text)
    return re.sub(r"'\{([^,}]+,[^,}]+,[^,}]+),[^}]{40,}\}'", r"'{\1, …}'", text)


def _plan(sql: str, params: Any) -> str:
    if not sql.lstrip().upper().startswith(("SELECT", "WITH", "UPDATE", "INSERT", "DELETE")):
        return "(not explained: " + sql.split()[0] + ")"
    try:
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
            text = "\n".join(r[0] for r in cur.fetchall())
            transaction.set_rollback(True)
            return text
    except Exception as exc:  # a statement that needs its transaction's earlier rows: say so, go on
        return f"(not explained: {type(exc).__name__}: {str(exc)[:200]})"


def _open_seeks(n: int) -> None:
    from accounts.models import User
    from games.seeks.models import Seek

    rng = random.Random(38)
    users = list(User.objects.filter(username__startswith="s").order_by("id").values_list("id", flat=True)[:20_000])
    Seek.objects.bulk_create([Seek(user_id=uid, kind="claim", seats=2, days_per_move=rng.choice([1, 3, 7]),
                                   rated=True, rating_range=rng.choice([None, 100, 200, 400]))
                              for uid in rng.sample(users, n)])


class _OrmSelect:
    """What a ``JoinedSelect`` stands for, as the ORM queryset (``fetch(params) -> list``)."""

    def __init__(self, fn) -> None:
        self.fn = fn

    def fetch(self, params):
        return self.fn(*params)


def rowsql_vs_orm(t: dict[str, Any], rounds: int, moves: int = 40) -> dict[str, Any]:
    """CPU (``time.process_time``) per move through Django's test client, alternated ``rounds`` times: ``rowsql``,
    the move path's reads compiled once (as shipped), against ``orm``, the equivalent ORM querysets. The writes
    are the ORM's in both (but the move row's ``INSERT … ON CONFLICT DO NOTHING RETURNING id``)."""
    import accounts.authentication as authn
    import games.realtime.publish as publish
    import games.service._common as common
    import games.service.queries as queries
    import games.spectate.api as spectate_api
    from accounts.models import ApiToken
    from games.models import Game, Seat

    shipped = {"token": authn._TOKEN_WITH_USER, "locked": common._LOCKED_GAME, "seats": common._SEATS_WITH_USERS,
               "sgc": common.SEATS_GAME_CLOCK}
    orm = {
        "token": _OrmSelect(lambda p: list(ApiToken.objects.filter(prefix=p).select_related("user").order_by("id"))),
        "locked": _OrmSelect(lambda g: list(Game.objects.select_for_update(no_key=True, of=("self",))
                                            .select_related("clock").filter(pk=g))),
        "seats": _OrmSelect(lambda g: list(Seat.objects.filter(game_id=g).select_related("user").order_by("index"))),
        "sgc": _OrmSelect(lambda g: _one_game(list(Seat.objects.filter(game_id=g)
                                                   .select_related("user", "game", "game__clock")
                                                   .order_by("index")))),
    }

    def use(which: dict[str, Any]) -> None:
        authn._TOKEN_WITH_USER = which["token"]
        common._LOCKED_GAME = which["locked"]
        common._SEATS_WITH_USERS = which["seats"]
        common.SEATS_GAME_CLOCK = queries.SEATS_GAME_CLOCK = which["sgc"]
        publish.SEATS_GAME_CLOCK = spectate_api.SEATS_GAME_CLOCK = which["sgc"]

    rng = random.Random(7)
    figures: dict[str, list[float]] = {"rowsql": [], "orm": []}
    try:
        for _ in range(rounds):
            for name, which in (("rowsql", shipped), ("orm", orm)):
                use(which)
                cpu = 0.0
                done = 0
                for _ in range(moves * 3):
                    found = _mover_random(t, rng)
                    if found is None:
                        continue
                    gid, client, view = found
                    start = time.process_time()
                    r = client.post(f"/api/v1/games/{gid}/moves",
                                    {"version": view["version"], "move": rng.choice(view["legal_moves"])},
                                    content_type="application/json")
                    cpu += time.process_time() - start
                    if r.status_code == 201:
                        done += 1
                    if done >= moves:
                        break
                if done:
                    figures[name].append(1000 * cpu / done)
    finally:
        use(shipped)
    return {name: round(statistics.median(v), 2) for name, v in figures.items() if v} | {
        "rounds": {name: [round(x, 2) for x in v] for name, v in figures.items()}}


def _one_game(seats: list[Any]) -> list[Any]:
    if seats:
        game = seats[0].game
        for s in seats:
            s.game = game
    return seats


def _mover_random(t: dict[str, Any], rng: random.Random) -> tuple[int, Client, dict] | None:
    gid = rng.choice(list(t["games"]))
    for uid in t["games"][gid].values():
        client = _client(t["tokens"][uid])
        view = client.get(f"/api/v1/games/{gid}").json()
        if view.get("status") == "active" and view.get("my_turn") and view.get("legal_moves"):
            return gid, client, view
    return None
