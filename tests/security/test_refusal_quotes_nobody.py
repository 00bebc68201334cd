"""Issue 29, finding 3: a refusal from the no-reply address quoted the sender's address,
so a stranger could put address-shaped text of their choosing into our mail
("support@your-lupus-password-expired-login-at-evil.test") and have it delivered to a
player, from us. Now no refusal quotes it (the Masters' log keeps it, for them), and
the log of such refusals is capped a day, since anyone can fill it.
"""
from __future__ import annotations

from sqlalchemy import func, select

from pbm.inbox import receipts as receipts_module
from pbm.models import MasterLog

from tests.support.mail import (  # noqa: F401  (game, fast_passwords: fixtures)
    deliver, fast_passwords, game, latest_sent, message, receipts, run_mail, seat,
)

LURE = "support@your-lupus-password-expired-login-at-evil.test"


def test_the_refusal_does_not_quote_the_stranger(app, factory, game):
    _, worker = game
    dario, _ = seat(factory, "Dario")
    sent = latest_sent(factory, dario)
    for sender in (LURE, f"Lupus Support <{LURE}>", f"{dario} <{LURE}>"):
        deliver(app, message(sender, sent.reply_to, "VOTO Anna", reply_to_row=sent))
    run_mail(app, worker)
    told = receipts(factory, dario)
    assert len(told) == 3
    for body in told:
        assert "evil.test" not in body and "expired" not in body and "non è stato applicato" in body
    with factory() as s:  # the Masters still see where each came from
        senders = s.scalars(select(MasterLog.details).where(MasterLog.action == "refused_spoof")).all()
    assert {d["sender"] for d in senders} == {LURE}


def test_the_masters_log_of_refusals_is_capped(app, factory, game):
    _, worker = game
    dario, _ = seat(factory, "Dario")
    sent = latest_sent(factory, dario)
    for n in range(receipts_module.REFUSALS_LOGGED_PER_DAY + 10):
        deliver(app, message(f"stranger{n}@evil.test", sent.reply_to, "VOTO Anna", reply_to_row=sent))
    run_mail(app, worker)
    with factory() as s:
        logged = s.scalar(select(func.count()).select_from(MasterLog).where(MasterLog.action == "refused_spoof"))
    assert logged == receipts_module.REFUSALS_LOGGED_PER_DAY
