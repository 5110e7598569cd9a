"""The test settings' PostgreSQL backend (claim/test_postgresql): a transactional test's flush empties every table
with DELETE, rows linked by foreign keys included, and leaves the database usable."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_flush_deletes_every_row_without_truncating(make_user):
    if connection.vendor != "postgresql":
        pytest.skip("the DELETE flush is the PostgreSQL test backend's")
    ada, bob = make_user("ada"), make_user("bob")
    game = Game.objects.create(kind="claim", created_by=ada)
    game.seats.create(user=bob, index=0, joined_at=timezone.now())
    with CaptureQueriesContext(connection) as queries:
        # as django.test.TransactionTestCase calls it after each test
        call_command("flush", verbosity=0, interactive=False, reset_sequences=False, allow_cascade=False,
                     inhibit_post_migrate=True)
    statements = [q["sql"].upper() for q in queries.captured_queries]
    assert any(s.startswith("DELETE FROM") for s in statements), statements
    assert not any("TRUNCATE" in s for s in statements)
    with connection.cursor() as cursor:
        cursor.execute("SELECT relname FROM pg_stat_user_tables WHERE schemaname = 'public'"
                       " AND relname <> 'django_migrations'")  # Django's flush keeps the migration history
        tables = [row[0] for row in cursor.fetchall()]
        counts = {}
        for table in tables:
            cursor.execute(f'SELECT count(*) FROM "{table}"')
            counts[table] = cursor.fetchone()[0]
    assert tables and not any(counts.values()), counts
    make_user("ada")  # usable again: the same username is free
