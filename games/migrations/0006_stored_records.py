# Issue #32: an ended game's record is stored once (GameRecord), and a player's finished games are found by
# the seat_user_finished index (Seat.finished_at, copied from the game when it finishes). Games that finished
# before this migration get their seats' finished_at here; their record is stored on its first read.

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def copy_finished_at(apps, schema_editor):
    """Seats of finished games get their game's finished_at (one UPDATE; aborted games keep NULL)."""
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    ended = Game.objects.filter(pk=OuterRef("game_id")).values("finished_at")[:1]
    Seat.objects.filter(game__status="finished").update(finished_at=Subquery(ended))


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0005_clock_tables'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='GameRecord',
            fields=[
                ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='stored_record', serialize=False, to='games.game')),
                ('body', models.TextField()),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
            ],
        ),
        migrations.AddField(
            model_name='seat',
            name='finished_at',
            field=models.DateTimeField(blank=True, help_text="The game's finished_at once it finished (not when aborted).", null=True),
        ),
        migrations.RunPython(copy_finished_at, migrations.RunPython.noop, elidable=True),
        migrations.AddIndex(
            model_name='seat',
            index=models.Index(condition=models.Q(('finished_at__isnull', False)), fields=['user', '-finished_at', '-game'], name='seat_user_finished'),
        ),
    ]
