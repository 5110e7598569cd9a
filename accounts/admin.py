from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import ApiToken, User


@admin.register(User)
class ClaimUserAdmin(UserAdmin):
    fieldsets = (*(UserAdmin.fieldsets or ()),
                 ("Profile", {"fields": ("display_name", "language", "time_zone", "is_bot")}))
    list_display = ("username", "display_name", "email", "is_bot", "is_staff")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "prefix", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("prefix", "digest")
