"""The lobby's keyset pages: open seeks by (created_at, id), a partial index (issue 33)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('seeks', '0003_seek_bots_welcome'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='seek',
            index=models.Index(condition=models.Q(('status', 'open')), fields=['created_at', 'id'], name='seek_lobby'),
        ),
    ]
