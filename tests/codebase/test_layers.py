"""The service's layers, read from the source (issue 36): the operations change a game;
below them nothing imports them (the models, the engine's wording, the calendar, all of
pbm/mail: what is read from a message, the mailbox, the mail sent); above them the
doors (pbm/web, pbm/inbox) and what shows and tells (pbm/views, pbm/telling) call
them. The hooks they announce through import nothing of the service. And the kind of
a game's timing is known to its owner (pbm/operations/timing.py) alone."""
from __future__ import annotations

import ast

from tests.codebase.test_import_cycles import PBM, _graph

ABOVE = ("pbm.operations", "pbm.views", "pbm.telling", "pbm.inbox", "pbm.web")
TOP = ("pbm.app", "pbm.cli", "pbm.service_cli", "pbm.scenario_cli", "pbm.worker", "pbm.webserver",
       "pbm.demo", "pbm.accounts.cli", "pbm.calendar.cli", "pbm.mail.cli", "pbm.private_files")


def _in(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def test_nothing_below_the_operations_imports_them_or_what_stands_on_them():
    graph = _graph()
    below = [m for m in graph if not _in(m, ABOVE + TOP)]
    assert "pbm.mail.outbound.send" in below and "pbm.models" in below  # the reading of the layers is right
    wrong = sorted(f"{m} -> {t}" for m in below for t in graph[m] if _in(t, ABOVE))
    assert wrong == []


def test_outbound_mail_never_imports_the_operations():
    graph = _graph()
    outbound = [m for m in graph if _in(m, ("pbm.mail",))]
    assert outbound
    assert sorted(f"{m} -> {t}" for m in outbound for t in graph[m] if _in(t, ("pbm.operations",))) == []


def test_the_inbox_door_stands_on_the_operations():
    graph = _graph()
    assert any(_in(t, ("pbm.operations",)) for m in graph if _in(m, ("pbm.inbox",)) for t in graph[m])


def test_the_operations_never_import_their_listeners_or_doors():
    graph = _graph()
    ops = [m for m in graph if _in(m, ("pbm.operations",))]
    assert sorted(f"{m} -> {t}" for m in ops for t in graph[m]
                  if _in(t, ("pbm.views", "pbm.telling", "pbm.inbox", "pbm.web"))) == []


def test_the_hooks_import_nothing_of_the_service():
    tree = ast.parse((PBM / "hooks.py").read_text(encoding="utf-8"))
    runtime = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert [ast.unparse(n) for n in runtime if isinstance(n, ast.ImportFrom) and n.level] == []


def _asks_the_kind(tree: ast.AST) -> bool:
    """Names the engine's kinds of timing, calls the old askers, or reads a ruleset's
    ``timing(...).kind``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in ("CALENDAR", "WINDOW", "NARRATOR"):
            return True
        if isinstance(node, ast.alias) and node.name in ("CALENDAR", "WINDOW", "NARRATOR"):
            return True
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                "windowed", "narrated", "on_calendar"):
            return True
        if (isinstance(node, ast.Attribute) and node.attr == "kind" and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "attr", "") == "timing"):
            return True
    return False


def test_only_the_timing_owner_knows_the_kinds_of_timing():
    askers = sorted(str(f.relative_to(PBM)) for f in PBM.rglob("*.py")
                    if "migrations" not in f.parts and _asks_the_kind(ast.parse(f.read_text(encoding="utf-8"))))
    assert askers == ["operations/timing.py"]


def test_listeners_are_told_in_the_order_they_were_connected():
    """Blinker keeps a signal's receivers in a set; the mail they queue goes out in the
    order it was queued, so the hooks tell them in the order of connection."""
    from blinker import Namespace

    from pbm import hooks

    signal = Namespace().signal("test-order")
    heard: list[str] = []
    names = [f"listener{i}" for i in range(40)]
    for name in names:
        def listener(_sender, news, name=name):
            heard.append(name)
        hooks.listen(signal, listener)
    hooks.listen(signal, lambda _sender, news: heard.append("first"), first=True)
    hooks.announce(signal, object(), news=None)
    assert heard == ["first", *names]
