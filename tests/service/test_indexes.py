"""The move path's indexes (docs/performance.md): games/migrations/0003 dropped single-column foreign-key
indexes that a composite index covers; 0004 took the columns every move changes (the game's ``updated_at``,
the seats' ``to_act``) out of every index, so a move's updates are heap-only (HOT) on PostgreSQL."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
from games.service.queries import inbox

pytestmark = pytest.mark.django_db

SERVED = {  # table: (foreign-key column, the one index that leads with it)
    "games_gameevent": [("game_id", ["game_id", "version"])],
    "games_move": [("game_id", ["game_id", "number"])],
    "games_seat": [("game_id", ["game_id", "index"]), ("user_id", ["user_id"])],
}
#: Columns every move writes: in no index of their table.
EVERY_MOVE = {"games_game": {"updated_at", "move_count", "state", "version"}, "games_seat": {"to_act"}}


def _indexed(table: str) -> list[list[str]]:
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, table)
    return [c["columns"] for c in constraints.values() if c["index"] or c["unique"]]


@pytest.mark.parametrize("table", sorted(SERVED))
def test_each_foreign_key_is_served_by_an_index_and_no_redundant_one(table: str) -> None:
    indexed = _indexed(table)
    for column, index in SERVED[table]:
        assert index in indexed, f"{table}: no index on {index}"
        if index != [column]:
            assert [column] not in indexed, f"{table}.{column} still has an index of its own"
        assert indexed.count(index) == 1, f"{table}: {index} indexed twice"


@pytest.mark.parametrize("table", sorted(EVERY_MOVE))
def test_no_index_holds_a_column_every_move_writes(table: str) -> None:
    for columns in _indexed(table):
        assert not EVERY_MOVE[table] & set(columns), f"{table}: index on {columns}"


def test_a_moves_updates_of_its_game_and_seats_are_heap_only(alice, bob) -> None:
    """PostgreSQL's own count, in this transaction, over ten moves. Whether a given update is heap-only also
    depends on room in the row's page (a test database's pages are full of other tests' rolled-back rows),
    so most, not all, must be; with an index on a column every move writes, none of them could be."""
    if connection.vendor != "postgresql":
        pytest.skip("heap-only updates are PostgreSQL's")
    game = alice.create(kind="claim", opponents=[{"type": "user", "username": bob.user.username}])
    assert bob.post(f"/api/v1/games/{game['id']}/join").status_code == 201

    def counts() -> dict[str, tuple[int, int]]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT relname, n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables "
                           "WHERE relname IN ('games_game', 'games_seat')")
            return {name: (updated, hot) for name, updated, hot in cursor.fetchall()}

    before = counts()
    for n in range(10):
        mover, view = next((api, v) for api in (alice, bob) if (v := api.view(game["id"]))["my_turn"])
        r = mover.move(game["id"], view["version"], view["legal_moves"][0], client_id=f"hot-{n}")
        assert r.status_code == 201, r.content
    after = counts()
    for table in ("games_game", "games_seat"):
        updated = after[table][0] - before.get(table, (0, 0))[0]
        hot = after[table][1] - before.get(table, (0, 0))[1]
        assert updated >= 10 and hot >= updated // 2, f"{table}: {updated} updates, {hot} of them heap-only"
    assert Game.objects.get(pk=game["id"]).move_count == 10


@pytest.mark.parametrize("status", ["current", "active", "open"])
def test_the_inbox_reads_only_the_seats_of_games_not_finished(alice, status) -> None:
    """EXPLAIN on PostgreSQL: the inbox finds the player's games through the partial index of seats not finished
    (seat_user_current), so its cost does not grow with the player's finished games. (Sequential and bitmap
    scans, which the planner prefers on tiny tables, are turned off here.)"""
    if connection.vendor != "postgresql":
        pytest.skip("the plan checked is PostgreSQL's")
    for _ in range(3):  # finished games in the history
        gid = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
        assert alice.post(f"/api/v1/games/{gid}/resign").status_code == 200
    alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])
    with CaptureQueriesContext(connection) as queries:
        list(inbox(alice.user, status).values_list("pk", flat=True))
    (query,) = queries.captured_queries
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_bitmapscan = off")
        cursor.execute(f"EXPLAIN {query['sql']}")
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "seat_user_current" in plan and not re.search(r"\bseat_user\b(?!_)", plan), plan


def test_the_finished_inbox_is_a_range_of_the_finished_seats_index_newest_first(alice) -> None:
    """``GET /games?status=finished`` (the PWA loads it with every inbox): newest finished first, read in the
    order of seat_user_finished, so a page never sorts the player's whole history. (Sorts are turned off
    with the scans: on a test's tiny tables the planner would rather sort; the point is that it needn't.)"""


    if connection.vendor != "postgresql":
        pytest.skip("the plan checked is PostgreSQL's")
    ids = []
    for _ in range(3):
        gid = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
        assert alice.post(f"/api/v1/games/{gid}/resign").status_code == 200
        ids.append(gid)
    alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])  # running: not in the list
    answer = alice.get("/api/v1/games?status=finished&limit=2").json()
    assert [g["id"] for g in answer["results"]] == ids[::-1][:2] and answer["count"] == 3
    with CaptureQueriesContext(connection) as queries:
        list(inbox(alice.user, "finished")[:20].values_list("pk", flat=True))
    (query,) = queries.captured_queries
    assert query["sql"].count("JOIN") == 1, query["sql"]  # one join of the seats: filter and order alike
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_bitmapscan = off")
        cursor.execute("SET LOCAL enable_sort = off")  # a tiny table: sorting would be cheaper, but it exists
        cursor.execute(f"EXPLAIN {query['sql']}")
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "seat_user_finished" in plan and "Sort" not in plan, plan
