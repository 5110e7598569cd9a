"""The operator's steps to register an OAuth app, as docs/accounts.md ("Registering an OAuth app") gives them
(issue 34): the admin account made with ``createsuperuser`` in the embedded run with no other variable than
``CLAIM_EMBEDDED=1``, and the admin's application form offering only the grant type that works."""

from __future__ import annotations

import os
import re
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from oauth2_provider.models import get_application_model

from accounts.models import User

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "accounts.md"


def _documented(prefix: str) -> str:
    """The command line of docs/accounts.md that starts with ``prefix`` (exactly as an operator copies it)."""
    lines = [line.strip() for line in DOC.read_text().splitlines() if line.strip().startswith(prefix)]
    assert lines, f"docs/accounts.md has no command starting with {prefix!r}"
    return lines[0]


def _run(command: str, var_dir: Path) -> subprocess.CompletedProcess:
    """A documented command in a clean environment: its own variables, plus where the embedded run keeps its
    files (``CLAIM_VAR_DIR``, so the test does not touch the checkout's var/) and a PATH."""
    words = shlex.split(command)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "CLAIM_VAR_DIR": str(var_dir), "LANG": "C.UTF-8"}
    while re.fullmatch(r"[A-Z_]+=.*", words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    if words[0] == ".venv/bin/python":
        words[0] = sys.executable
    return subprocess.run(words, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_createsuperuser_without_prompts_works_in_the_embedded_run(tmp_path):
    migrated = _run("CLAIM_EMBEDDED=1 .venv/bin/python manage.py migrate --noinput", tmp_path)  # what make run does
    assert migrated.returncode == 0, migrated.stderr[-2000:]
    command = _documented("CLAIM_EMBEDDED=1 DJANGO_SUPERUSER_USERNAME=")
    assert "createsuperuser --noinput" in command
    made = _run(command, tmp_path)
    assert made.returncode == 0, made.stderr[-2000:]
    assert "Superuser created successfully." in made.stdout
    username = re.search(r"DJANGO_SUPERUSER_USERNAME=(\S+)", command).group(1)
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        row = db.execute("SELECT is_superuser, is_staff, is_active FROM accounts_user WHERE username = ?",
                         (username,)).fetchone()
    assert row == (1, 1, 1)
    interactive = _documented("CLAIM_EMBEDDED=1 .venv/bin/python manage.py createsuperuser")
    assert interactive.endswith("createsuperuser")  # the same environment, with prompts


@pytest.fixture
def admin_client(db, client):

    admin = User.objects.create_superuser("operator", "op@example.org", "An-admin-password-1")
    client.force_login(admin)
    return client


ADD = "/admin/oauth2_provider/application/add/"


def test_the_admin_form_offers_only_the_authorization_code_grant(admin_client):
    page = admin_client.get(ADD)
    assert page.status_code == 200
    html = page.content.decode()
    grants = re.findall(r'name="authorization_grant_type"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name='
                        r'"authorization_grant_type"', html)
    assert {a or b for a, b in grants} == {"authorization-code"}, grants
    algorithms = re.search(r'<select name="algorithm".*?</select>', html, re.S)
    assert algorithms is None or re.findall(r'<option value="([^"]*)"', algorithms.group(0)) == [""]


def _form(grant: str, algorithm: str = "") -> dict:
    return {"client_id": "cli-" + grant, "client_type": "public", "authorization_grant_type": grant,
            "redirect_uris": "http://127.0.0.1:8765/callback", "post_logout_redirect_uris": "",
            "client_secret": "", "hash_client_secret": "on", "name": "A bot client", "algorithm": algorithm,
            "allowed_origins": "", "user": ""}


@pytest.mark.parametrize(("grant", "algorithm"), [("password", ""), ("implicit", ""), ("client-credentials", ""),
                                                  ("authorization-code", "RS256")])
def test_a_grant_or_algorithm_that_does_not_work_is_refused(admin_client, grant, algorithm):

    answer = admin_client.post(ADD, _form(grant, algorithm))
    assert answer.status_code == 200 and b"Select a valid choice" in answer.content  # the form again, with errors
    assert not get_application_model().objects.exists()


def test_the_documented_application_is_saved(admin_client):

    answer = admin_client.post(ADD, _form("authorization-code"))
    assert answer.status_code == 302, answer.content.decode()[-3000:]
    app = get_application_model().objects.get()
    assert (app.client_type, app.authorization_grant_type, app.name) == ("public", "authorization-code",
                                                                        "A bot client")
