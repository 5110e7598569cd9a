"""The embedded run makes its Web Push keys once into its var dir (issue 21: push could not be tried there)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, os
os.environ["DJANGO_SETTINGS_MODULE"] = "claim.settings"
import django
django.setup()
from django.conf import settings
from py_vapid import Vapid
Vapid.from_string(settings.VAPID_PRIVATE_KEY).sign({"aud": "https://push.example", "sub": settings.VAPID_SUBJECT})
print(json.dumps([settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY]))
"""


def _keys(var: Path, **extra: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    env.update(CLAIM_EMBEDDED="1", CLAIM_VAR_DIR=str(var), **extra)
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=60, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_keys_are_made_once_and_kept(tmp_path):
    first = _keys(tmp_path)
    assert len(first[0]) == 87 and first[0] and first[1]  # a P-256 point, base64url
    assert _keys(tmp_path) == first, "the same keys on the next start (subscriptions stay valid)"
    assert oct((tmp_path / "vapid.json").stat().st_mode & 0o777) == "0o600"


def test_keys_from_the_environment_win(tmp_path):
    mine = _keys(tmp_path / "a")
    assert _keys(tmp_path / "b", VAPID_PUBLIC_KEY=mine[0], VAPID_PRIVATE_KEY=mine[1]) == mine
    assert not (tmp_path / "b" / "vapid.json").exists()
