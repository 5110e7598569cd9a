# GameClock and SeatDeparture now belong to the games app (games/migrations/0005_clock_tables.py), with the
# same tables: removed from this app's state only.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('clock', '0002_bank_snapshot'),
        ('games', '0005_clock_tables'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='GameClock'),
                migrations.DeleteModel(name='SeatDeparture'),
            ],
            database_operations=[],
        ),
    ]
