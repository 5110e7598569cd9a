"""Issue 22 item 2 in a real browser: a page of another origin cannot use a logged-in victim's session
cookie to read their events socket (cross-site WebSocket hijacking), whatever it puts in the query string.

The victim logs in to the app at ``http://127.0.0.1:A``; the attacker's page is served from
``http://127.0.0.1:B``: another origin but the same site, so Chromium does send the victim's ``SameSite=Lax``
session cookie with the socket handshake (the realistic case: another app on a sibling port or subdomain).
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from .conftest import shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PROBE = """
async (wsBase) => {
  const paths = ["/ws/", "/ws/?xtoken=1", "/ws/?a=token=1", "/ws/?token=", "/ws/?token=clm_bogus"];
  const out = {};
  await Promise.all(paths.map((p) => new Promise((resolve) => {
    const frames = [];
    let ws;
    try { ws = new WebSocket(wsBase + p); } catch (e) { out[p] = {error: String(e)}; resolve(); return; }
    ws.onopen = () => ws.send(JSON.stringify({type: "subscribe", games: "all"}));
    ws.onmessage = (e) => frames.push(e.data);
    let done = false;
    ws.onclose = (e) => { if (!done) { done = true; out[p] = {code: e.code, frames}; resolve(); } };
    setTimeout(() => {
      if (!done) { done = true; out[p] = {code: "still open", frames}; try { ws.close(); } catch (e) {} resolve(); }
    }, 5000);
  })));
  return out;
}
"""


@pytest.fixture
def attacker_origin():
    page = b"<!doctype html><title>evil</title><h1>A page of another origin</h1>"

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture
def victim(django_user_model):
    return django_user_model.objects.create_user(username="victim", password="Correct-horse-42")


def test_a_foreign_origin_page_cannot_read_the_victims_socket(victim, server, attacker_origin, new_page):
    page = new_page()
    page.goto(server + "/")
    logged_in = page.evaluate("""async () => {
      const csrf = (await (await fetch("/api/v1/accounts/csrf")).json()).csrf_token;
      const r = await fetch("/api/v1/accounts/login", {method: "POST", headers: {"Content-Type": "application/json",
        "X-CSRFToken": csrf}, body: JSON.stringify({username: "victim", password: "Correct-horse-42"})});
      return r.status;
    }""")
    assert logged_in == 200
    ws_base = server.replace("http://", "ws://")
    own = page.evaluate(PROBE, ws_base)  # control: on the app's own origin the cookie socket works
    assert own["/ws/"]["code"] == "still open" and any('"subscribed"' in f for f in own["/ws/"]["frames"]), own

    evil = page.context.new_page()
    evil.goto(attacker_origin + "/")
    stolen = evil.evaluate(PROBE, ws_base)
    shot(evil, "issue22-foreign-origin-socket")
    for path, result in stolen.items():
        assert result.get("code") != "still open", (path, result)
        assert not any('"subscribed"' in f or '"game"' in f for f in result.get("frames", [])), (path, result)
    # a token that does not authenticate is refused with 4401 after one error frame; the rest never open
    assert stolen["/ws/"]["code"] == 1006 and stolen["/ws/?xtoken=1"]["code"] == 1006, stolen
    assert stolen["/ws/?token=clm_bogus"]["code"] == 4401, stolen
