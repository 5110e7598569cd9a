"""Serves the PWA shell at / (the build in frontend/dist); a plain page until the PWA exists."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path


def index(request: HttpRequest) -> HttpResponse:
    from django.conf import settings

    built = settings.BASE_DIR / "frontend" / "dist" / "index.html"
    if built.exists():
        return HttpResponse(built.read_text(encoding="utf-8"))
    return HttpResponse(
        "<!doctype html><html lang=en><meta charset=utf-8><title>claim</title>"
        "<h1>claim</h1><p>The API is at <a href=/api/v1/docs/>/api/v1/docs/</a>.</p></html>"
    )


urlpatterns = [path("", index, name="index")]
