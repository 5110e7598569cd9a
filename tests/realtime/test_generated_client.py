"""A client generated from the served schema by openapi-python-client plays a game of every kind to its end
(examples/typed_client.py, issue #34): every body built by the generated models, every answer parsed into them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .servers import ROOT, shared_env, start_server, wait_ready

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

GENERATOR = Path(sys.executable).with_name("openapi-python-client")


def _generate(schema_url: str, into: Path) -> None:
    if not GENERATOR.exists():
        pytest.fail(f"{GENERATOR} is missing: pip install -e '.[dev]' installs openapi-python-client")
    # The generator formats its output with ruff, found on PATH: the one in this interpreter's bin/.
    env = {"PATH": f"{GENERATOR.parent}:/usr/bin:/bin"}
    done = subprocess.run([str(GENERATOR), "generate", "--url", schema_url, "--meta", "none",
                           "--output-path", str(into / "claim_client")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    # The NDJSON streams are the only operations it leaves out (their lines are checked in test_stream_schema.py).
    skipped = [line for line in done.stdout.splitlines() if line.startswith("WARNING parsing")]
    assert all("/stream" in line for line in skipped), "\n".join(skipped)


def test_a_client_generated_from_the_schema_plays_every_kind_to_the_end(make_user, make_token, tmp_path):
    env = shared_env("the generated client talks to a real server process")
    server = start_server(env)
    try:
        wait_ready(server)
        _generate(f"{server.http}/api/v1/schema/?format=json", tmp_path)
        token = make_token(make_user("typed"), scopes=["games:read", "games:play"])
        run = subprocess.run([sys.executable, str(ROOT / "examples" / "typed_client.py"), server.http, token],
                             capture_output=True, text=True, timeout=900,
                             env={**env, "PYTHONPATH": str(tmp_path)})
        lines = [json.loads(line) for line in run.stdout.splitlines()]
        assert run.returncode == 0, run.stdout + run.stderr
        played = {(line["kind"], line["seats"]) for line in lines if line.get("result")}
        assert played == {("claim", 2), ("claim2", 2), ("claim-mix", 3), ("claim-mix", 4), ("inheritors", 2),
                          ("inheritors", 4)}, run.stdout
        assert all(line["my_moves"] > 0 and line["history_entries"] > line["my_moves"] for line in lines)
        log = server.output()
        assert "ERROR" not in log and "Traceback" not in log, log
    finally:
        server.stop()
        shutil.rmtree(tmp_path / "claim_client", ignore_errors=True)
