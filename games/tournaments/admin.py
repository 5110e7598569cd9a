"""The operator's side of the tournaments (issue 36): list and read them, feature one (shown first in
``GET /tournaments?featured=true``), see the entries and games. Pairing and results are the service's only.

Leagues: an operator creates one here (the terms checked by :func:`games.tournaments.league.terms`, no per-user
limit), features or closes it (no season after the current one), reads its members and seasons."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages

from games.service import ServiceError

from . import league
from .models import Entry, League, LeagueDivision, LeagueMember, LeagueSeason, Tournament, TournamentGame


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


# ----------------------------------------------------------------------------------------------- leagues

@admin.action(description="Close the selected leagues (no season after the current one)")
def close_leagues(modeladmin, request, queryset):
    n = queryset.exclude(status=League.Status.CLOSED).update(closing=True)
    modeladmin.message_user(request, f"{n} league(s) closing: the beat closes them after their season.",
                            messages.SUCCESS)


class LeagueForm(forms.ModelForm):
    """The operator's new league: the API's terms, checked by the league service (each refusal on its field)."""

    time_control = forms.JSONField(help_text='As for POST /games, e.g. {"type": "days", "days_per_move": 3}.')

    class Meta:
        model = League
        fields = ("name", "kind", "options", "rated", "division_size", "season_days", "movers", "max_members",
                  "rating_min", "rating_max", "min_reliability", "bots_allowed", "starts_at")

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            self.terms = league.terms(**{k: data.get(k) for k in (*self.Meta.fields, "time_control")})
        except ServiceError as exc:
            field = exc.field if exc.field in self.fields else None
            raise forms.ValidationError({field: exc.message} if field else exc.message) from None
        return data


class LeagueMemberInline(admin.TabularInline):
    model = LeagueMember
    extra = 0
    raw_id_fields = ("user",)
    readonly_fields = ("user", "joined_at", "position", "division", "left_at")
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "kind", "status", "closing", "current_season", "member_count", "division_size",
                    "season_days", "featured", "created_by", "created_at")
    list_filter = ("status", "closing", "featured")
    search_fields = ("name", "created_by__username")
    raw_id_fields = ("created_by",)
    inlines = [LeagueMemberInline]
    actions = [feature, unfeature, close_leagues]
    show_full_result_count = False

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            kwargs["form"] = LeagueForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ()
        return [f.name for f in League._meta.fields if f.name not in ("featured", "closing")]

    def get_inlines(self, request, obj):
        return self.inlines if obj is not None else []

    def save_model(self, request, obj, form, change):
        if not change:
            for field, value in form.terms.items():
                setattr(obj, field, value)
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


class LeagueDivisionInline(admin.TabularInline):
    model = LeagueDivision
    extra = 0
    raw_id_fields = ("tournament",)
    readonly_fields = ("number", "players", "tournament")
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(LeagueSeason)
class LeagueSeasonAdmin(admin.ModelAdmin):
    list_display = ("id", "league", "number", "starts_at", "ends_at", "finished_at")
    search_fields = ("=league__id", "league__name")
    raw_id_fields = ("league",)
    readonly_fields = ("league", "number", "starts_at", "ends_at", "finished_at", "moves")
    inlines = [LeagueDivisionInline]
    show_full_result_count = False

    def has_add_permission(self, request):
        return False
