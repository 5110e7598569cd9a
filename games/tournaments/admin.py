"""The operator's side of the tournaments (issue 36): list and read them, feature one (shown first in
``GET /tournaments?featured=true``), see the entries and games. Pairing and results are the service's only."""

from __future__ import annotations

from django.contrib import admin, messages

from .models import Entry, Tournament, TournamentGame


@admin.action(description="Feature the selected tournaments")
def feature(modeladmin, request, queryset):
    n = queryset.update(featured=True)
    modeladmin.message_user(request, f"{n} tournament(s) featured.", messages.SUCCESS)


@admin.action(description="Stop featuring the selected tournaments")
def unfeature(modeladmin, request, queryset):
    n = queryset.update(featured=False)
    modeladmin.message_user(request, f"{n} tournament(s) no longer featured.", messages.SUCCESS)


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ("user",)
    readonly_fields = ("user", "joined_at", "withdrawn_at", "timeouts", "seed", "rating")
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "kind", "format", "status", "player_count", "max_players", "current_round",
                    "featured", "created_by", "created_at")
    list_filter = ("status", "format", "featured")
    list_editable = ("featured",)
    search_fields = ("name", "created_by__username")
    raw_id_fields = ("created_by",)
    readonly_fields = ("status", "current_round", "player_count", "standings", "crosstable", "started_at",
                       "finished_at", "created_at")
    inlines = [EntryInline]
    actions = [feature, unfeature]
    show_full_result_count = False


@admin.register(TournamentGame)
class TournamentGameAdmin(admin.ModelAdmin):
    list_display = ("id", "tournament", "round", "board", "game", "finished", "adjudicated", "ends_by")
    list_filter = ("finished", "adjudicated")
    search_fields = ("=tournament__id", "=game__id")
    raw_id_fields = ("tournament", "game")
    readonly_fields = ("tournament", "round", "board", "game", "players", "ends_by", "finished", "places",
                       "timed_out", "adjudicated")
    show_full_result_count = False
