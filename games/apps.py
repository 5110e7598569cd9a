from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Subscribe the publisher and the task starters to the service's commit signals, in this order:
        push the new version (then the invitation events), queue ``game_changed``, then start the AI's turn
        (``games.signals``); and the sockets to the accounts' ``credentials_changed``; the games app's part of
        the data export and of an account's deletion (games.privacy); and what a block added ends between two
        users (games.blocks, and their watching of each other's games: games.realtime.spectators); and the
        ``followed`` event of a new follow (games.social.events)."""
        from accounts.signals import account_deleting, credentials_changed, personal_data_requested, relation_changed

        from . import blocks, privacy, signals, tasks
        from .realtime import invitations, publish
        from .realtime import spectators as live
        from .social import events as social_events

        signals.game_committed.connect(publish.on_game_committed, dispatch_uid="games.realtime.publish")
        signals.game_committed.connect(invitations.on_game_committed, dispatch_uid="games.realtime.invitations")
        signals.game_committed.connect(tasks.on_game_committed, dispatch_uid="games.tasks.game_changed")
        signals.ai_turn_due.connect(tasks.on_ai_turn_due, dispatch_uid="games.tasks.ai_turn")
        credentials_changed.connect(publish.on_credentials_changed, dispatch_uid="games.realtime.recheck")
        personal_data_requested.connect(privacy.personal_data_sections, dispatch_uid="games.privacy.sections")
        account_deleting.connect(privacy.on_account_deleting, dispatch_uid="games.privacy.deleting")
        relation_changed.connect(blocks.on_relation_changed, dispatch_uid="games.blocks")
        relation_changed.connect(live.on_relation_changed, dispatch_uid="games.realtime.spectators.blocked")
        relation_changed.connect(social_events.on_relation_changed, dispatch_uid="games.social.followed")
        if live.spectator_messages not in publish.VERSION_MESSAGE_BUILDERS:
            publish.VERSION_MESSAGE_BUILDERS.append(live.spectator_messages)
