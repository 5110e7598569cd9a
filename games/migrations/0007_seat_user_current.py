# The seat index of the inbox: a player's seats in games not finished (games.models.Seat, issue 33).

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_stored_records'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name='seat',
            index=models.Index(condition=models.Q(('finished_at__isnull', True)), fields=['user', 'game'], name='seat_user_current'),
        ),
    ]
