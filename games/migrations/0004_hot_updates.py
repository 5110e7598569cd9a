"""Let a move's updates of its game and seats be heap-only (HOT) on PostgreSQL (docs/performance.md, ninth round).

A move sets the game's ``updated_at`` and the seats' ``to_act``; both were indexed, so every update wrote a new
entry into every index of the game (seven) and of its seats (four), and the row's old versions stayed in those
indexes until a vacuum: each lookup of the game (the move's read, the foreign-key checks of the move's inserts)
walked past them. Without those two columns in an index, PostgreSQL updates the row in place on its page
and prunes the old versions as it reads the page. The seats keep an index on their user alone (the inbox, the
foreign key), made before the old one goes so the key is never without one.

On PostgreSQL only, also: 20 % of each page left free at insert (``fillfactor``) so the first updates find
room beside the row, and lz4 instead of pglz for the large JSON values the move path writes (the game's
state, the mover's stored answer): the same rows, compressed about four times faster. A server built
without lz4 keeps pglz.
"""

from django.conf import settings
from django.db import migrations, models

FILLFACTOR = {"games_game": 80, "games_seat": 80}
LZ4_COLUMNS = [("games_game", "state"), ("games_move", "response")]


def storage(apps, schema_editor, *, forward: bool = True) -> None:
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    quote = schema_editor.quote_name
    for table, fillfactor in FILLFACTOR.items():
        option = f"SET (fillfactor = {fillfactor})" if forward else "RESET (fillfactor)"
        schema_editor.execute(f"ALTER TABLE {quote(table)} {option}")
    method = "lz4" if forward else "DEFAULT"
    for table, column in LZ4_COLUMNS:
        # A server without lz4 refuses with feature_not_supported: keep its default there.
        schema_editor.execute(
            f"DO $$ BEGIN ALTER TABLE {quote(table)} ALTER COLUMN {quote(column)} SET COMPRESSION {method}; "
            "EXCEPTION WHEN feature_not_supported THEN NULL; END $$"
        )


def storage_back(apps, schema_editor) -> None:
    storage(apps, schema_editor, forward=False)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0003_covered_fk_indexes'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name='seat',
            index=models.Index(fields=['user'], name='seat_user'),
        ),
        migrations.RemoveIndex(
            model_name='seat',
            name='seat_inbox',
        ),
        migrations.RemoveIndex(
            model_name='game',
            name='game_updated',
        ),
        migrations.RunPython(storage, storage_back, elidable=False),
    ]
