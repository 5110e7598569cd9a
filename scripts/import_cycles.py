"""Print the import cycles among a package's modules, counting every import statement in a file.

The graph comes from an ``ast`` walk over each module's whole tree, so an ``import`` inside a function,
a method, a ``try`` or an ``if TYPE_CHECKING:`` block counts like one at the top (the graph import-linter's
``grimp`` builds counts them too: ``--grimp`` prints its cycles for comparison). An import of a package
counts as an import of its ``__init__``; ``from pkg import name`` counts as an import of ``pkg.name``
when that is a module, else of ``pkg``. A cycle is a strongly connected component of more than one module
(Tarjan's algorithm). Usage::

    .venv/bin/python scripts/import_cycles.py [games accounts claim] [--grimp]

Exit status 1 if there is a cycle.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent


def modules_of(package: str) -> dict[str, Path]:
    """``{dotted name: file}`` of every module of ``package`` (migrations included: they are modules too)."""
    base = ROOT / package.replace(".", "/")
    found: dict[str, Path] = {}
    for path in sorted(base.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``module`` imports anywhere in its file."""
    tree = ast.parse(path.read_text(), filename=str(path))
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, is_package, node)
            names = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source for alias in node.names]
        else:
            continue
        for name in names:
            # ``import a.b.c`` imports a, a.b and a.b.c; the innermost known module is the edge that matters.
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
    return targets


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one member, largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:  # iterative: no recursion limit on long chains
        nonlocal counter
        work: list[tuple[str, Iterable[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found, key=lambda c: (-len(c), c))


def ast_graph(package: str) -> dict[str, set[str]]:
    files = modules_of(package)
    known = set(files)
    return {name: imports_of(name, path, known) for name, path in files.items()}


def grimp_graph(package: str) -> dict[str, set[str]]:
    graph = grimp.build_graph(package.split(".")[0])
    names = {m for m in graph.modules if m == package or m.startswith(package + ".")}
    return {m: graph.find_modules_directly_imported_by(m) & names for m in names}


def report(title: str, graph: dict[str, set[str]]) -> int:
    cycles = strongly_connected(graph)
    edges = sum(len(v) for v in graph.values())
    print(f"{title}: {len(graph)} modules, {edges} imports, {len(cycles)} cycle(s)")
    for component in cycles:
        members = set(component)
        print(f"  {len(component)} modules:")
        for name in component:
            inside = sorted(graph[name] & members)
            print(f"    {name} -> {', '.join(inside)}")
    return len(cycles)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="*", default=["games"])
    parser.add_argument("--grimp", action="store_true", help="also print the cycles of grimp's graph")
    args = parser.parse_args()
    count = 0
    for package in args.packages:
        count += report(f"ast ({package})", ast_graph(package))
        if args.grimp:
            sys.path.insert(0, str(ROOT))
            count += report(f"grimp ({package})", grimp_graph(package))
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main())
