"""The operator's view of game reviews (issue 37): status, progress and the error of a failed one (read only)."""

from __future__ import annotations

from django.contrib import admin

from .models import Review


@admin.register(Review)
class ReviewAdmin(admin.ModelAdmin):
    list_display = ("game", "status", "done", "total", "playouts", "created_at", "finished_at")
    list_filter = ("status",)
    readonly_fields = ("game", "status", "requested_by", "listeners", "done", "total", "playouts", "error",
                       "created_at", "touched_at", "finished_at")
    exclude = ("decisions",)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
