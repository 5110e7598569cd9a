# The game's clock row and the seats that left on time move from the clock app to the games app (issue 24:
# the service writes them in its own transactions). The tables stay as they are: state only.

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0004_hot_updates'),
        ('clock', '0002_bank_snapshot'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='GameClock',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('control', models.CharField(choices=[('days', 'Days per move'), ('bank', 'Bank with increment'), ('unlimited', 'Unlimited')], default='days', max_length=10)),
                        ('initial_seconds', models.PositiveIntegerField(default=0, help_text='Bank: starting time per seat.')),
                        ('increment_seconds', models.PositiveIntegerField(default=0, help_text='Bank: added after each own move.')),
                        ('cap_seconds', models.PositiveIntegerField(default=0, help_text='Bank: the bank never grows above this.')),
                        ('bonus_seconds', models.JSONField(blank=True, default=list, help_text='Bank: time given per seat (+time).')),
                        ('pause_requests', models.JSONField(blank=True, default=list, help_text='Seats that asked for a pause.')),
                        ('paused_at', models.DateTimeField(blank=True, null=True)),
                        ('paused_remaining', models.FloatField(blank=True, help_text='Seconds left when the pause began.', null=True)),
                        ('paused_version', models.PositiveIntegerField(blank=True, null=True)),
                        ('banks', models.JSONField(blank=True, default=list, help_text='Bank: seconds per seat at the turn start.')),
                        ('turn_started_at', models.DateTimeField(blank=True, null=True)),
                        ('synced_version', models.PositiveIntegerField(default=0)),
                        ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='clock', to='games.game')),
                    ],
                    options={
                        'db_table': 'clock_gameclock',
                    },
                ),
                migrations.CreateModel(
                    name='SeatDeparture',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seat', models.PositiveSmallIntegerField()),
                        ('reason', models.CharField(default='timeout', max_length=16)),
                        ('replaced_by_ai', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='departures', to='games.game')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='departures', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'clock_seatdeparture',
                        'constraints': [models.UniqueConstraint(fields=('game', 'seat'), name='departure_unique_seat')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
