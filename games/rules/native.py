"""The compiled engine: which modules mypyc compiles, and the guard against a stale build.

``scripts/build_engine.py`` (``make engine``; run by ``scripts/bootstrap.sh``, so by ``make run``,
``make test`` and the image's build) compiles :data:`MODULES` with mypyc into C extensions beside
their sources, and writes :data:`STAMP`: the SHA-256 of each compiled source. Python imports an
extension in preference to the ``.py`` beside it, so an extension built from other sources would
run instead of the code on disk. :func:`check_build`, called when :mod:`games.rules` is imported,
refuses that: when any extension is present, the stamp must name exactly the extensions present
and each source must still have its stamped digest. Without extensions the pure sources run (the
same code; mypy checks them).
"""

from __future__ import annotations

import hashlib
import json
import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

# The package root's parent (the checkout) and the paths below are relative to it.
ROOT = Path(__file__).resolve().parent.parent.parent
STAMP = "games/rules/_engine_build.json"
# The shared library of the group (mypycify's group_name): the compiled code of every module.
GROUP = "games.rules._engine"
GROUP_LIBRARY = "games/rules/_engine__mypyc"

# The modules mypyc compiles: the hot path of self-play, the AI's playouts and every move, for the Claim family and
# Inheritors. (A compiled module has no docstring: games/rules/inheritors/data.py, whose docstring a test reads, and
# the modules of views, records and shapes, which playouts do not run, stay pure.)
MODULES: tuple[str, ...] = (
    "games/rules/cards.py",
    "games/rules/rand.py",
    "games/rules/claim/state.py",
    "games/rules/claim/core.py",
    "games/rules/claim/multi.py",
    "games/rules/claim/scoring.py",
    "games/rules/claim/playout.py",
    "games/rules/claim/options.py",
    "games/rules/claim/serial.py",
    "games/rules/claim/engine.py",
    "games/rules/inheritors/cards.py",
    "games/rules/inheritors/state.py",
    "games/rules/inheritors/tableau.py",
    "games/rules/inheritors/clans.py",
    "games/rules/inheritors/honors.py",
    "games/rules/inheritors/advocates.py",
    "games/rules/inheritors/pending.py",
    "games/rules/inheritors/actions.py",
    "games/rules/inheritors/scoring.py",
    "games/rules/inheritors/setup.py",
    "games/rules/inheritors/engine.py",
)

REBUILD = ("run `make engine` (python scripts/build_engine.py) to rebuild it, "
           "or `make engine-clean` to run the pure sources")


class StaleEngine(ImportError):
    """The compiled engine does not match the sources on disk."""


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def extensions(root: Path = ROOT) -> list[str]:
    """The loadable extension modules under ``games/rules``, as paths like ``games/rules/cards.py``
    (the group's shared library as :data:`GROUP_LIBRARY`)."""
    found = []
    for folder, _dirs, files in os.walk(root / "games" / "rules"):
        rel = Path(folder).relative_to(root).as_posix()
        for name in files:
            for suffix in EXTENSION_SUFFIXES:
                if name.endswith(suffix):
                    stem = name[: -len(suffix)]
                    found.append(f"{rel}/{stem}" if stem.endswith("__mypyc") else f"{rel}/{stem}.py")
                    break
    return sorted(found)


def stale_reasons(root: Path = ROOT) -> list[str]:
    """Why the compiled engine under ``root`` may not run (empty: it may, or there is none)."""
    present = extensions(root)
    if not present:
        return []
    try:
        stamp = json.loads((root / STAMP).read_text())
        stamped: dict[str, str] = dict(stamp["modules"])
    except (OSError, ValueError, KeyError, TypeError):
        return [f"{STAMP} is missing or unreadable"]
    reasons = []
    compiled = sorted([*stamped, GROUP_LIBRARY])
    if present != compiled:
        extra = sorted(set(present) - set(compiled))
        missing = sorted(set(compiled) - set(present))
        reasons.append(f"the extensions present ({', '.join(extra)} extra; {', '.join(missing)} missing) "
                       "are not those of the build")
    if tuple(stamped) != MODULES:
        reasons.append("the list of compiled modules (games/rules/native.py MODULES) changed")
    for path, digest in stamped.items():
        try:
            if source_digest(root / path) != digest:
                reasons.append(f"{path} changed")
        except OSError:
            reasons.append(f"{path} is missing")
    return reasons


def describe(root: Path = ROOT) -> str:
    """Which engine runs here, for the benchmarks' figures: ``compiled (mypyc, N modules)`` or ``pure Python``."""
    compiled = [path for path in extensions(root) if path.endswith(".py")]
    return f"compiled (mypyc, {len(compiled)} modules)" if compiled else "pure Python (no build: make engine)"


def check_build(root: Path = ROOT) -> None:
    """Raise :class:`StaleEngine` if a compiled engine is present and not built from these sources."""
    reasons = stale_reasons(root)
    if reasons:
        raise StaleEngine(f"games.rules: the compiled engine is stale ({'; '.join(reasons)}): {REBUILD}.")
