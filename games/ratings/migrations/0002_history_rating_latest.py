# A pool's latest rating changes by one index range (issue 35: public profiles, games/social).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0001_initial'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='ratinghistory',
            index=models.Index(fields=['rating', '-created_at', '-id'], name='history_rating_latest'),
        ),
    ]
