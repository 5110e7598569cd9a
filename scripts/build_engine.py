#!/usr/bin/env python3
"""Compile the rules engine's hot modules with mypyc (``make engine``).

    python scripts/build_engine.py            build unless the build on disk matches the sources
    python scripts/build_engine.py --force    build anyway
    python scripts/build_engine.py --clean    remove the compiled modules (the pure sources run)

The modules are listed in ``games/rules/native.py`` (``MODULES``). They are compiled as one group
into C extensions beside their sources, and ``games/rules/_engine_build.json`` records the SHA-256
of each source; importing ``games.rules`` refuses extensions that no longer match (native.py).
Needs mypy (mypyc) and a C compiler; C sources and objects go to a temporary folder.
"""

from __future__ import annotations

import argparse
import fcntl
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_native() -> ModuleType:
    """``games/rules/native.py`` by its path: importing ``games.rules`` would run the guard this script fixes."""
    spec = importlib.util.spec_from_file_location("claim_engine_native", ROOT / "games/rules/native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def clean(native: ModuleType) -> list[str]:
    removed = []
    for rel in native.extensions(ROOT):
        folder, name = rel.rsplit("/", 1)
        stem = name[:-3] if name.endswith(".py") else name
        for path in (ROOT / folder).iterdir():
            if path.name.startswith(stem + ".") and path.name != name:
                path.unlink()
                removed.append(path.relative_to(ROOT).as_posix())
    stamp = ROOT / native.STAMP
    if stamp.exists():
        stamp.unlink()
    return removed


# mypycify and setuptools run in a child process: setup() parses its own argv and may exit.
SETUP = """
import sys
from mypyc.build import mypycify
from setuptools import setup
config, group, tmp, *paths = sys.argv[1:]
ext = mypycify(["--config-file", config, *paths], opt_level="3", group_name=group, target_dir=tmp + "/c")
setup(name="claim-engine", ext_modules=ext, script_args=[
    "-q", "build_ext", "--inplace", "--build-temp", tmp + "/obj", "--build-lib", tmp + "/lib"])
"""


def build(native: ModuleType) -> None:
    with tempfile.TemporaryDirectory(prefix="claim-engine-") as tmp:
        # A minimal mypy configuration: pyproject.toml's (for the whole project, with Django's plugins) is not
        # for mypyc. mypy still checks these modules strictly (scripts/typecheck.sh).
        config = Path(tmp) / "mypy.ini"
        config.write_text("[mypy]\npython_version = 3.11\n")
        env = {**os.environ, "MYPY_CACHE_DIR": str(Path(tmp) / "cache")}
        done = subprocess.run(
            [sys.executable, "-c", SETUP, str(config), native.GROUP, tmp, *native.MODULES],
            cwd=ROOT, env=env, capture_output=True, text=True, check=False,
        )
        if done.returncode != 0:
            sys.stderr.write(done.stdout + done.stderr)
            raise SystemExit(f"error: mypyc could not compile the engine (exit {done.returncode}); see above")
    digests = {path: native.source_digest(ROOT / path) for path in native.MODULES}
    (ROOT / native.STAMP).write_text(json.dumps({"modules": digests}, indent=1) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--force", action="store_true", help="build even if the build on disk is current")
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules and the stamp")
    args = parser.parse_args()
    native = load_native()
    # One build at a time (two `make run` started together): the second waits, then finds the build current.
    lock = ROOT / "build" / "engine.lock"
    lock.parent.mkdir(exist_ok=True)
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        return run(native, args.force, args.clean)


def run(native: ModuleType, force: bool, clean_only: bool) -> int:
    if clean_only:
        removed = clean(native)
        print(f"engine: removed {len(removed)} compiled files; the pure sources run")
        return 0
    if not force and native.extensions(ROOT) and not native.stale_reasons(ROOT):
        print("engine: the compiled build is current")
        return 0
    clean(native)
    start = time.monotonic()
    build(native)
    reasons = native.stale_reasons(ROOT)
    if reasons or not native.extensions(ROOT):
        raise SystemExit(f"error: the build did not produce a current engine: {'; '.join(reasons) or 'no extensions'}")
    print(f"engine: compiled {len(native.MODULES)} modules with mypyc in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
