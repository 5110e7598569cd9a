# The keyset pages of follows, followers, blocks and mutes (issue 35, games/social).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0003_relations'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='relation',
            index=models.Index(fields=['user', 'kind', 'id'], name='accounts_relation_page'),
        ),
        migrations.AddIndex(
            model_name='relation',
            index=models.Index(fields=['other', 'kind', 'id'], name='accounts_relation_to_page'),
        ),
    ]
