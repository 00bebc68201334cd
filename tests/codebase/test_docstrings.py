"""Docstrings that make claims about the code stay true (issue 24): read from the
source, not listed here by hand.

- ``pbm/operations/__init__.py`` names every operation that commits: one that takes a
  session factory, or opens a transaction itself (``session.begin()``,
  ``session.commit()``, ``pbm.db.transaction``), and only those;
- ``engine/lupus_live_12/autoplay.py`` names the files that import it, and only those."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPERATIONS = ROOT / "pbm" / "operations"


def _opens_a_transaction(function: ast.FunctionDef) -> bool:
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        called = node.func
        if isinstance(called, ast.Attribute) and called.attr in ("begin", "commit"):
            return True
        if isinstance(called, ast.Name) and called.id == "transaction":
            return True
    return False


def _takes_a_factory(function: ast.FunctionDef) -> bool:
    arguments = function.args.args + function.args.kwonlyargs
    return any(a.annotation is not None and "sessionmaker" in ast.unparse(a.annotation) for a in arguments)


def committing_operations() -> set[str]:
    found = set()
    for path in sorted(OPERATIONS.glob("*.py")):
        if path.name == "__init__.py":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and (_takes_a_factory(node) or _opens_a_transaction(node)):
                found.add(f"{path.stem}.{node.name}")
    return found


def named_as_committing() -> set[str]:
    """The names in the package docstring's paragraph on committing, each with its
    module: ``table.close_moment``, or ``settle`` followed by its module in brackets."""
    doc = ast.get_docstring(ast.parse((OPERATIONS / "__init__.py").read_text(encoding="utf-8")))
    paragraph = next(p for p in doc.split("\n\n") if "never\ncommit" in p or "never commit" in p)
    paragraph = " ".join(paragraph.split())
    tail = paragraph.split("except", 1)[1]
    names = set()
    # "``a``, ``b`` and ``c`` (module)": names waiting for their module in brackets.
    waiting: list[str] = []
    for token in re.finditer(r"``([\w.]+)``|\((\w+)\)", tail):
        name, module = token.groups()
        if module:
            names |= {f"{module}.{w}" for w in waiting}
            waiting = []
        elif "." in name:
            names.add(name)
        else:
            waiting.append(name)
    assert not waiting, f"no module given for {waiting} in: {paragraph}"
    return names


def test_the_operations_docstring_names_every_operation_that_commits_and_only_those():
    found = committing_operations()
    assert {"boundary.resolve_phase", "desk.close_now"} <= found  # the search finds them
    assert named_as_committing() == found


def test_autoplay_names_its_users_and_only_those():
    source = (ROOT / "engine" / "lupus_live_12" / "autoplay.py").read_text(encoding="utf-8")
    doc = ast.get_docstring(ast.parse(source))
    named = set(re.findall(r"\b((?:tests|bench|faults|pbm|engine|scripts)/[\w/]+\.py)\b", doc))
    importers = set()
    for folder in ("tests", "bench", "faults", "pbm", "engine", "scripts"):
        for path in (ROOT / folder).rglob("*.py"):
            if re.search(r"\blupus_live_12\.autoplay\b|from \. import autoplay|from \.autoplay\b",
                         path.read_text(encoding="utf-8")):
                importers.add(str(path.relative_to(ROOT)))
    importers.discard("engine/lupus_live_12/autoplay.py")
    assert importers, "the search finds its users"
    assert named == importers
