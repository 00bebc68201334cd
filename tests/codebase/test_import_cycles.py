"""No import cycle runs through the operations, the accounts, the calendar or the
modules they write with (render, archive, seating), counting the imports made inside
functions (they only hide a cycle) and a package's imports of its own modules (so a
module that imports its package back closes a loop): issue 24. The same rules as the
project's shape tool, read from the source, not from what Python happened to import.
Nor any among the engine's modules (issue 36)."""
from __future__ import annotations

import ast
from pathlib import Path

PBM = Path(__file__).resolve().parents[2] / "pbm"
ENGINE = PBM.parent / "engine"
WATCHED = ("pbm.operations", "pbm.accounts", "pbm.calendar", "pbm.render", "pbm.archive", "pbm.seating")


def _modules(root: Path = PBM) -> dict[str, Path]:
    out = {}
    for f in root.rglob("*.py"):
        if "migrations" in f.parts:
            continue
        name = ".".join(f.relative_to(root.parent).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = f
    return out


def _targets(mods: dict[str, Path], module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    package = module if mods[module].name == "__init__.py" else module.rsplit(".", 1)[0]
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            parts = package.split(".")
            base = ".".join(parts[: len(parts) - (node.level - 1)] + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        names = [base] + [f"{base}.{a.name}" for a in node.names]
    return [n for n in names if n in mods and n != module]


def _graph(root: Path = PBM) -> dict[str, set[str]]:
    mods = _modules(root)
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, f in mods.items():
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                graph[m].update(_targets(mods, m, node))
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[set[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(comp)
    return out


def _watched(module: str) -> bool:
    return any(module == w or module.startswith(w + ".") for w in WATCHED)


def test_no_cycle_runs_through_the_operations_accounts_or_calendar():
    tangled = [sorted(c) for c in _cycles(_graph()) if any(_watched(m) for m in c)]
    assert tangled == []


def test_the_cycle_finder_finds_a_module_importing_its_package_back():
    # The check above can fail: the loop issue 24 names, as the tool sees it.
    graph = {"pbm.operations": {"pbm.operations.actions"}, "pbm.operations.actions": {"pbm.operations"},
             "pbm.render": set()}
    assert _cycles(graph) == [{"pbm.operations", "pbm.operations.actions"}]


def test_no_module_of_the_operations_accounts_or_calendar_is_over_600_lines():
    long = {m: n for m, f in _modules().items() if _watched(m)
            and (n := len(f.read_text(encoding="utf-8").splitlines())) > 600}
    assert long == {}


def test_no_cycle_among_the_engines_modules():
    """Function-level imports count (lupus-live-12's night and ritual_night had one).
    A game's package (its ``__init__``, which only hands its RULESET to the registry)
    is left out: its modules' ``from . import texts`` name it only on the way."""
    graph = _graph(ENGINE)
    packages = {m for m, f in _modules(ENGINE).items() if f.name == "__init__.py"}
    modules = {m: deps - packages for m, deps in graph.items() if m not in packages}
    assert [sorted(c) for c in _cycles(modules)] == []
