"""Every kind of mail the service queues has its class (pbm/mail/outbound/classes.py),
and the class is stored on the row as it is queued: a phase's results are
private results for a reader with lines of their own, a bulletin otherwise."""
from __future__ import annotations

import ast
from pathlib import Path

from sqlalchemy import select

import pbm
from pbm import operations
from pbm.mail.outbound import classes
from pbm.db import transaction
from pbm.models import Game, OutboxRow
from pbm.worker import Worker
from tests.support.helpers import make_game
from tests.support.mail import ROLES, TUESDAY_0930_ROME, fast_passwords  # noqa: F401  (a fixture)

PBM = Path(pbm.__file__).resolve().parent
# Where queue() and compose() are defined: queue() hands its caller's kind on to compose().
DEFINED = {PBM / "mail" / "outbound" / "composer.py", PBM / "mail" / "outbound" / "outbox.py"}


def _strings(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _queues(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id in ("queue", "compose")
    return (isinstance(func, ast.Attribute) and func.attr in ("queue", "compose")
            and isinstance(func.value, ast.Name) and func.value.id in ("mailer", "outbound"))


def queued_kinds() -> dict[str, set[str]]:
    """{kind: files} for every call of the outbox's queue / compose in pbm/ (as
    ``mailer.queue``, ``outbound.queue`` or a bare ``queue``): its ``kind``, else its
    ``template`` (the kind compose stores)."""
    found: dict[str, set[str]] = {}
    for path in PBM.rglob("*.py"):
        if path in DEFINED:
            continue
        for call in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(call, ast.Call) and _queues(call.func)):
                continue
            words = {k.arg: k.value for k in call.keywords}
            source = words.get("kind", words.get("template"))
            kinds = _strings(source) if source is not None else set()
            assert kinds, f"{path.relative_to(PBM.parent)}:{call.lineno}: a mail whose kind cannot be read"
            for kind in kinds:
                found.setdefault(kind, set()).add(str(path.relative_to(PBM.parent)))
    return found


def test_every_kind_the_service_queues_has_a_class():
    kinds = queued_kinds()
    # The scan sees the calls it must (a scan that found nothing would pass anything).
    assert {"receipt", "receipt_error", "phase_results", "window", "reminder", "set_password",
            "password_reset", "signup", "quota_warning", "digest"} <= set(kinds)
    missing = {k: sorted(files) for k, files in kinds.items() if k not in classes.CLASS_OF_KIND}
    assert missing == {}, "place these kinds in pbm/mail/outbound/classes.py CLASS_OF_KIND"


def test_the_issue_s_order_of_classes():
    urgent = {"receipt", "receipt_error", "window", "signup", "password_reset", "set_password"}
    assert {classes.class_of(k) for k in urgent} == {classes.URGENT}
    assert classes.class_of("phase_results", private=True) == classes.PRIVATE
    assert {classes.class_of(k) for k in ("reminder", "announcement", "digest")} == {classes.BULK}
    assert classes.class_of("phase_results", private=False) == classes.BULK
    assert classes.class_of("a kind nobody placed") == classes.BULK  # never ahead of a receipt


def seer_looks_then_day_comes(app, factory, clock) -> int:
    """A five-player game whose first night the Veggente (Carla) looks at Anna,
    then the boundary to day 1: Carla's results carry a line of her own."""
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    with transaction(factory) as s:
        game = s.get(Game, gid)
        operations.submit(s, app.config, game, game.seat_by_name("Carla"), {"target": "Anna"}, source="web",
                          now=clock.now())
    clock.set(TUESDAY_0930_ROME)
    Worker(app, clock).boundaries()
    return gid


def test_each_reader_s_results_are_stored_with_their_class(app, factory, clock):
    seer_looks_then_day_comes(app, factory, clock)
    with factory() as s:
        rows = s.scalars(select(OutboxRow).where(OutboxRow.kind == "phase_results")).all()
        stored = {r.to_addr: (r.priority, "SOLO PER TE" in r.body) for r in s.scalars(select(OutboxRow))
                  if r.kind == "phase_results"}
        letters = {r.priority for r in s.scalars(select(OutboxRow).where(OutboxRow.kind == "role_letter"))}
        welcomes = {r.priority for r in s.scalars(select(OutboxRow).where(OutboxRow.kind == "welcome"))}
    assert len(rows) == len(ROLES)
    # Night 1 told someone something of their own (the seer's vision), and not everyone.
    assert {private for _p, private in stored.values()} == {True, False}
    for address, (priority, private) in stored.items():
        assert priority == (classes.PRIVATE if private else classes.BULK), address
    assert letters == {classes.PRIVATE} and welcomes == {classes.URGENT}
