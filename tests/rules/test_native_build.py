"""The compiled engine (games/rules/native.py, scripts/build_engine.py): a build that no longer
matches its sources is refused at import, and the test command runs the suite compiled."""

from __future__ import annotations

import importlib
import json
import os
import shutil
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from games.rules import native

SUFFIX = EXTENSION_SUFFIXES[0]


def fake_build(root: Path) -> None:
    """A tree with the engine's sources, an (empty) extension beside each and a current stamp."""
    for rel in native.MODULES:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(native.ROOT / rel, root / rel)
        (root / rel).with_name(Path(rel).stem + SUFFIX).touch()
    (root / (native.GROUP_LIBRARY + SUFFIX)).touch()
    digests = {rel: native.source_digest(root / rel) for rel in native.MODULES}
    (root / native.STAMP).write_text(json.dumps({"modules": digests}))


def test_a_current_build_and_the_pure_sources_both_pass(tmp_path: Path) -> None:
    fake_build(tmp_path)
    native.check_build(tmp_path)
    pure = tmp_path / "pure"
    (pure / "games" / "rules").mkdir(parents=True)
    native.check_build(pure)  # no extension: the .py files run
    assert native.describe(tmp_path) == f"compiled (mypyc, {len(native.MODULES)} modules)"
    assert native.describe(pure).startswith("pure Python")


def test_an_edited_source_is_refused_by_name(tmp_path: Path) -> None:
    fake_build(tmp_path)
    with (tmp_path / "games/rules/claim/core.py").open("a") as f:
        f.write("# edited\n")
    with pytest.raises(ImportError, match=r"games/rules/claim/core\.py changed\).*make engine"):
        native.check_build(tmp_path)


def test_a_missing_stamp_or_a_leftover_extension_is_refused(tmp_path: Path) -> None:
    fake_build(tmp_path)
    (tmp_path / "games/rules/claim" / ("shapes" + SUFFIX)).touch()
    with pytest.raises(native.StaleEngine, match=r"games/rules/claim/shapes\.py extra"):
        native.check_build(tmp_path)
    (tmp_path / native.STAMP).unlink()
    with pytest.raises(native.StaleEngine, match=r"_engine_build\.json is missing"):
        native.check_build(tmp_path)


def test_a_stamp_of_another_module_list_is_refused(tmp_path: Path) -> None:
    fake_build(tmp_path)
    stamp = json.loads((tmp_path / native.STAMP).read_text())
    first = native.MODULES[0]
    stamp["modules"].pop(first)
    (tmp_path / native.STAMP).write_text(json.dumps(stamp))
    (tmp_path / first).with_name(Path(first).stem + SUFFIX).unlink()
    with pytest.raises(native.StaleEngine, match="list of compiled modules"):
        native.check_build(tmp_path)


@pytest.mark.skipif(os.environ.get("CLAIM_ENGINE") != "compiled",
                    reason="scripts/test.sh sets CLAIM_ENGINE=compiled: the suite runs the mypyc build")
def test_the_test_command_runs_the_compiled_engine() -> None:
    for rel in native.MODULES:
        module = importlib.import_module(rel[:-3].replace("/", "."))
        assert module.__file__ is not None and module.__file__.endswith(SUFFIX), rel
