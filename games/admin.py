"""Admin for games. Hidden information: list views never show ``state``, ``seed`` or a mover's stored
response; detail pages show them only once the game has ended (finished or aborted)."""

from __future__ import annotations

from django.contrib import admin

from .models import Game, GameEvent, Move, Seat

SECRET_GAME_FIELDS = ("seed", "state")


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "ai_level", "joined_at", "to_act", "abort_offered", "outcome", "rank")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "status", "seat_count", "version", "move_count", "rated", "days_per_move",
                    "deadline", "created_by", "updated_at")
    list_filter = ("status", "kind", "rated")
    search_fields = ("id", "invite_code", "created_by__username")
    inlines = [SeatInline]
    raw_id_fields = ("created_by", "rematch_of")
    ordering = ("-id",)  # newest first, by the primary key's index (updated_at has none: migration 0004)

    def get_fields(self, request, obj=None):
        fields = [f.name for f in Game._meta.fields if f.name != "id"]
        if obj is None or not obj.is_over:
            fields = [f for f in fields if f not in SECRET_GAME_FIELDS]
        return fields

    def get_readonly_fields(self, request, obj=None):
        # The game is changed only through the service (versioned, locked); the admin only looks.
        return self.get_fields(request, obj)

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "number", "seat", "version", "created_at")
    list_select_related = ("game",)
    search_fields = ("game__id",)
    raw_id_fields = ("game",)

    def get_fields(self, request, obj=None):
        fields = ["game", "number", "seat", "version", "client_id", "created_at"]
        if obj is not None and obj.game.is_over:
            fields += ["move", "response"]
        return fields

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "version", "type", "seat", "created_at")
    list_filter = ("type",)
    search_fields = ("game__id",)
    raw_id_fields = ("game", "move")
    readonly_fields = ("game", "version", "type", "seat", "events", "move", "created_at")

    def has_add_permission(self, request) -> bool:
        return False
