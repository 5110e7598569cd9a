"""The PWA's static files as deployed: collectstatic with the production storage (hashed names, .gz and .br
variants), then WhiteNoise serves Vite's content-hashed assets as immutable and compressed."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from claim.frontend_urls import StaticFilesMiddleware

JS = "export function f(){return 'claim';}\n" * 200  # big enough to be worth compressing


@pytest.fixture
def collected(tmp_path):
    dist, root = tmp_path / "dist", tmp_path / "root"
    (dist / "assets").mkdir(parents=True)
    (dist / "assets" / "index-CJvY_k-a.js").write_text(JS)
    (dist / "manifest.webmanifest").write_text('{"name": "claim"}')
    storages = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}}
    with override_settings(STATICFILES_DIRS=[dist], STATIC_ROOT=root, STORAGES=storages, DEBUG=False,
                           WHITENOISE_AUTOREFRESH=False, WHITENOISE_USE_FINDERS=False):
        call_command("collectstatic", "--noinput", verbosity=0)
        yield root


def test_vite_hashed_assets_are_immutable_and_compressed(collected):
    pytest.importorskip("brotli")
    assert (collected / "assets" / "index-CJvY_k-a.js.br").exists()
    mw = StaticFilesMiddleware(lambda request: HttpResponse("from django", status=404))
    get = RequestFactory().get
    js = mw(get("/static/assets/index-CJvY_k-a.js", HTTP_ACCEPT_ENCODING="gzip, deflate, br"))
    assert js.status_code == 200
    assert js["Cache-Control"] == f"max-age={mw.FOREVER}, public, immutable"
    assert js["Content-Encoding"] == "br"
    assert int(js["Content-Length"]) < len(JS) / 5
    gz = mw(get("/static/assets/index-CJvY_k-a.js", HTTP_ACCEPT_ENCODING="gzip"))
    assert gz["Content-Encoding"] == "gzip" and "immutable" in gz["Cache-Control"]
    # Names without a content hash (index.html's manifest link, the icons) keep the short max-age.
    manifest = mw(get("/static/manifest.webmanifest"))
    assert manifest.status_code == 200
    assert manifest["Cache-Control"] == f"max-age={mw.max_age}, public"
    # Django's own hashed copies are immutable too (WhiteNoise's default rule still applies).
    hashed = next(p.name for p in (collected / "assets").iterdir() if p.suffix == ".js" and p.name.count(".") == 2)
    assert "immutable" in mw(get(f"/static/assets/{hashed}"))["Cache-Control"]
