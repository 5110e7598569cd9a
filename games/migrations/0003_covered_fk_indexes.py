"""Drop four single-column foreign-key indexes that composite indexes already cover (their leading column):
every move wrote them for nothing. Only the indexes go: Django's own
AlterField would also drop and re-validate the foreign keys, a full scan under lock on a big table."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

# Django's names for them (0001_initial), identical on every database these migrations created.
INDEXES = [
    ("games_gameevent_game_id_57c09de4", "games_gameevent", "game_id"),  # event_unique_version (game, version)
    ("games_move_game_id_aca66fc5", "games_move", "game_id"),  # move_unique_number (game, number)
    ("games_seat_game_id_ad720f5b", "games_seat", "game_id"),  # seat_unique_index (game, index)
    ("games_seat_user_id_9fbc01bf", "games_seat", "user_id"),  # seat_inbox (user, to_act)
]


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0002_seat_rating'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='gameevent',
                    name='game',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE,
                                            related_name='events', to='games.game'),
                ),
                migrations.AlterField(
                    model_name='move',
                    name='game',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE,
                                            related_name='moves', to='games.game'),
                ),
                migrations.AlterField(
                    model_name='seat',
                    name='game',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE,
                                            related_name='seats', to='games.game'),
                ),
                migrations.AlterField(
                    model_name='seat',
                    name='user',
                    field=models.ForeignKey(blank=True, db_index=False, null=True,
                                            on_delete=django.db.models.deletion.PROTECT,
                                            related_name='game_seats', to=settings.AUTH_USER_MODEL),
                ),
            ],
            database_operations=[
                migrations.RunSQL(f"DROP INDEX IF EXISTS {name}", f"CREATE INDEX {name} ON {table} ({column})")
                for name, table, column in INDEXES
            ],
        ),
    ]
