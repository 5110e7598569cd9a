"""games/migrations/0003: single-column foreign-key indexes that a composite index already covers are gone,
and every lookup they served still has an index leading with its column (docs/performance.md)."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db

COVERED = {  # table: (column whose own index was dropped, the index that leads with it)
    "games_gameevent": [("game_id", ["game_id", "version"])],
    "games_move": [("game_id", ["game_id", "number"])],
    "games_seat": [("game_id", ["game_id", "index"]), ("user_id", ["user_id", "to_act"])],
}


@pytest.mark.parametrize("table", sorted(COVERED))
def test_each_foreign_key_is_served_by_one_composite_index(table: str) -> None:
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, table)
    indexed = [c["columns"] for c in constraints.values() if c["index"] or c["unique"]]
    for column, composite in COVERED[table]:
        assert [column] not in indexed, f"{table}.{column} still has an index of its own"
        assert composite in indexed, f"{table}: no index on {composite}"
