"""The PWA's API types (frontend/src/api/schema.d.ts) are what the served OpenAPI schema generates (issue #34)."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_api_types", ROOT / "scripts" / "gen_api_types.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _script()


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed: openapi-typescript cannot run")
def test_the_committed_types_are_what_the_schema_generates(tmp_path):
    fresh = gen.generate(tmp_path)
    assert "export interface components" in fresh and '"/api/v1/games/{game_id}/moves"' in fresh
    held = gen.TARGET.read_text(encoding="utf-8")
    assert held == fresh, f"{gen.TARGET_NAME} is stale: run scripts/gen_api_types.py"


def test_check_mode_fails_on_a_stale_file_and_says_how_to_fix_it(tmp_path, monkeypatch, capsys):
    target = tmp_path / "schema.d.ts"
    monkeypatch.setattr(gen, "TARGET", target)
    monkeypatch.setattr(gen, "generate", lambda work: "export type A = 1;\n")
    target.write_text("export type A = 2;\n")
    assert gen.main(["--check"]) == 1
    err = capsys.readouterr().err
    assert f"error: {gen.TARGET_NAME} is stale: run scripts/gen_api_types.py" in err
    assert "-export type A = 2;" in err and "+export type A = 1;" in err
    assert target.read_text() == "export type A = 2;\n"  # the check writes nothing
    assert gen.main([]) == 0
    assert target.read_text() == "export type A = 1;\n"
    assert gen.main(["--check"]) == 0


def test_a_failing_step_is_an_error_not_a_stale_file(tmp_path, monkeypatch, capsys):
    def broken(work: Path) -> str:
        raise gen.GenerationError("manage.py spectacular failed (exit 1):\nboom")

    monkeypatch.setattr(gen, "TARGET", tmp_path / "schema.d.ts")
    monkeypatch.setattr(gen, "generate", broken)
    assert gen.main(["--check"]) == 2
    assert "error: manage.py spectacular failed" in capsys.readouterr().err
