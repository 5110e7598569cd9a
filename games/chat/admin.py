"""The operator's side of the chat (issue 35): reports with the line, its neighbours and the game; hiding lines,
taking away a user's chat (``User.chat_banned``), resolving reports."""

from __future__ import annotations

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from . import service
from .models import ChatMessage, Report


def _line_text(m: ChatMessage) -> str:
    return m.text if m.text is not None else f"[{m.phrase}]"


@admin.action(description="Hide the selected lines")
def hide_lines(modeladmin, request, queryset):
    n = service.hide(list(queryset.values_list("pk", flat=True)))
    modeladmin.message_user(request, f"{n} line(s) hidden.", messages.SUCCESS)


@admin.action(description="Take away the chat of the selected lines' authors")
def ban_authors(modeladmin, request, queryset):
    n = service.ban(list(queryset.values_list("author_id", flat=True).distinct()))
    modeladmin.message_user(request, f"{n} user(s) may no longer chat.", messages.SUCCESS)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("id", "game_id", "room", "author", "phrase", "text", "hidden", "created_at")
    list_filter = ("room", "hidden")
    search_fields = ("=game__id", "author__username")
    raw_id_fields = ("game", "author")
    readonly_fields = ("game", "author", "room", "phrase", "text", "created_at")
    actions = [hide_lines, ban_authors]
    show_full_result_count = False


@admin.action(description="Hide the reported lines")
def hide_reported(modeladmin, request, queryset):
    ids = [m for m in queryset.values_list("message_id", flat=True) if m is not None]
    n = service.hide(ids)
    modeladmin.message_user(request, f"{n} line(s) hidden.", messages.SUCCESS)


@admin.action(description="Take away the reported users' chat")
def ban_reported(modeladmin, request, queryset):
    n = service.ban(list(queryset.values_list("user_id", flat=True).distinct()))
    modeladmin.message_user(request, f"{n} user(s) may no longer chat.", messages.SUCCESS)


@admin.action(description="Resolve the selected reports")
def resolve(modeladmin, request, queryset):
    n = service.resolve(list(queryset.values_list("pk", flat=True)))
    modeladmin.message_user(request, f"{n} report(s) resolved.", messages.SUCCESS)


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("id", "status", "reason", "reporter", "user", "game_id", "message_id", "created_at")
    list_filter = ("status", "reason")
    search_fields = ("user__username", "reporter__username")
    raw_id_fields = ("reporter", "user", "game", "message")
    readonly_fields = ("reporter", "user", "game_link", "message", "reason", "note", "created_at", "context",
                       "user_chat_banned")
    fields = ("status", "reason", "reporter", "user", "user_chat_banned", "game_link", "note", "created_at",
              "context")
    actions = [hide_reported, ban_reported, resolve]
    show_full_result_count = False

    @admin.display(description="Game")
    def game_link(self, obj: Report):
        game = obj.game
        if game is None:
            return "—"
        url = reverse("admin:games_game_change", args=[game.pk])
        return format_html('<a href="{}">Game {}</a> ({}, {})', url, game.pk, game.kind, game.status)

    @admin.display(description="Chat taken away", boolean=True)
    def user_chat_banned(self, obj: Report) -> bool:
        return bool(obj.user.chat_banned)

    @admin.display(description="The line and its neighbours")
    def context(self, obj: Report):
        """The reported line (bold) with up to five lines before and after it in its room; all text escaped."""
        if obj.message is None:
            return "No line reported (or it was deleted)."
        rows = service.neighbours(obj.message)
        return format_html("<table>{}</table>", format_html_join(
            "", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}{}{}</td><td>{}</td></tr>",
            ((m.pk, m.created_at.strftime("%Y-%m-%d %H:%M"), m.author.username,
              "▶ " if m.pk == obj.message_id else "", _line_text(m), " (hidden)" if m.hidden else "", m.room)
             for m in rows)))
