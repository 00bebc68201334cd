"""Issue 29, finding 2: nobody may spend the relay's daily quota.

The attacks: 30 mails from one player made 30 receipts, which go first; anonymous
resets and sign-ups (20 an hour from each client, resets to addresses with no
account too) fed the same queue; with the quota spent, every phase result and the
Masters' report waited up to a day. Now:

- receipts have a day's budget per address and per game, whose last receipt says
  so; the commands still count;
- a reset for an address with no account mails nothing (the page is the same);
- everything anyone may ask for without an account has one day's budget for all;
- the last part of the quota is kept for phase results and the Masters' reports.

The budgets are set small here; their defaults are in pbm/config.py.
(The load test of all of it together, a day of the service's clock against a relay
of 500 mails a day: faults/test_quota_attack.py.)
"""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from pbm.db import transaction
from pbm.mail import outbound
from pbm.mail.outbound import send
from pbm.models import ActionRow, OutboxRow, User
from pbm.worker import Worker
from tests.conftest import csrf_from
from tests.fixtures.smtp import SmtpServer
from tests.support.helpers import make_game, make_master
from tests.support.mail import ROLES, TUESDAY_0930_ROME, deliver, fast_passwords, latest_sent, message, run_mail  # noqa: F401


def started(app, clock):
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    worker = Worker(app, clock)
    clock.set(TUESDAY_0930_ROME)
    worker.boundaries()  # night 1 -> day 1: the bulletin invites the votes
    return factory, worker


def mail_votes(app, factory, worker, clock, sender: str, votes: list[str]) -> None:
    row = latest_sent(factory, sender)
    for vote in votes:
        deliver(app, message(sender, row.reply_to, f"VOTO {vote}", reply_to_row=row))
        clock.advance(seconds=20)
        run_mail(app, worker)


def receipts_to(factory, address: str) -> list[OutboxRow]:
    with factory() as s:
        return list(s.scalars(select(OutboxRow).where(
            OutboxRow.to_addr == address, OutboxRow.kind.in_(["receipt", "receipt_error", "receipt_capped"]))
            .order_by(OutboxRow.id)))


def test_one_player_gets_a_days_budget_of_receipts_and_the_last_says_so(make_app, clock):
    app = make_app(RECEIPTS_PER_ADDRESS_PER_DAY=4)
    factory, worker = started(app, clock)
    votes = ["Anna", "Carla", "Elena", "Anna", "Carla", "Elena", "Anna", "Carla", "Elena", "Carla"]
    mail_votes(app, factory, worker, clock, "dario@players.test", votes)
    got = receipts_to(factory, "dario@players.test")
    assert [r.kind for r in got] == ["receipt", "receipt", "receipt", "receipt_capped"]
    assert "molti messaggi" in got[-1].body and "I tuoi comandi contano comunque" in got[-1].body
    assert "molti messaggi" not in got[0].body
    with factory() as s:  # every command still counted: the last vote stands
        recorded = s.scalars(select(ActionRow.args).join(ActionRow.seat).order_by(ActionRow.id)).all()
    assert len(recorded) == len(votes) and recorded[-1] == {"vote": "Carla"}
    # A day later the budget is there again (the vote comes too late for the phase).
    clock.advance(days=1)
    mail_votes(app, factory, worker, clock, "dario@players.test", ["Anna"])
    again = receipts_to(factory, "dario@players.test")
    assert len(again) == 5 and again[-1].kind == "receipt_error" and "molti messaggi" not in again[-1].body


def test_a_game_gets_a_days_budget_of_receipts_each_sender_told_once(make_app, clock):
    app = make_app(RECEIPTS_PER_GAME_PER_DAY=3)
    factory, worker = started(app, clock)
    for sender, vote in [("dario@players.test", "Anna"), ("carla@players.test", "Anna"),
                         ("dario@players.test", "Elena"), ("carla@players.test", "Elena"),
                         ("elena@players.test", "Anna"), ("elena@players.test", "Carla")]:
        mail_votes(app, factory, worker, clock, sender, [vote])
    kinds = {a: [r.kind for r in receipts_to(factory, a)]
             for a in ("dario@players.test", "carla@players.test", "elena@players.test")}
    # Two receipts, then each sender once told, then nothing (Elena's second vote).
    assert kinds == {"dario@players.test": ["receipt", "receipt_capped"],
                     "carla@players.test": ["receipt", "receipt_capped"],
                     "elena@players.test": ["receipt_capped"]}
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(ActionRow)) == 6


def queue_kinds(app, clock, kinds: list[str]) -> None:
    with transaction(app.extensions["pbm_sessions"]) as s:
        user = User(email="anna@players.test", name="Anna", lang="en")
        s.add(user)
        s.flush()
        for n, kind in enumerate(kinds):
            row = outbound.queue(s, app.config, to=f"p{n}@players.test", template="password_reset", lang="en",
                                 now=clock.now(), kind=kind, context={"user": user, "link": "x", "hours": 1})
            row.priority = 1 if kind == "receipt" else 2  # receipts first, as classes.py orders them


def test_the_last_part_of_the_quota_is_kept_for_phase_results(make_app, clock):
    """A quota of 10 with 20 % kept: 14 receipts wait before 2 phase results; 8
    receipts go, then the results, and the other receipts wait for the next day."""
    with SmtpServer() as relay:
        app = make_app(MAIL_PORT=relay.port, MAIL_DAILY_QUOTA=10, MAIL_QUOTA_RESERVE_PERCENT=20)
        queue_kinds(app, clock, ["receipt"] * 14 + ["phase_results", "master_report"])
        factory = app.extensions["pbm_sessions"]
        assert send.drain(app, factory, clock.now()) == 10
        with factory() as s:
            sent = dict(s.execute(select(OutboxRow.kind, func.count()).where(OutboxRow.status == "sent")
                                  .group_by(OutboxRow.kind)).all())
        assert sent == {"receipt": 8, "phase_results": 1, "master_report": 1}
        assert send.drain(app, factory, clock.now() + timedelta(hours=1)) == 0  # the day is spent
        assert send.drain(app, factory, clock.now() + timedelta(days=1, minutes=1)) == 6


def ask(client, path: str, data: dict) -> object:
    page = client.get(path).get_data(as_text=True)
    return client.post(path, data={"csrf_token": csrf_from(page), **data})


def test_what_anyone_may_ask_for_has_one_budget_for_all_clients(make_app, clock):
    app = make_app(MAIL_ANONYMOUS_PER_DAY=3)
    factory = app.extensions["pbm_sessions"]
    make_master(factory)
    for n in range(3):  # three clients, each well within its own limit
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = f"10.0.0.{n}"
        assert ask(client, "/password-reset", {"email": "master@example.org"}).status_code == 200
        clock.advance(minutes=25)  # past the per-address limit's hour, not the day
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    refused = ask(client, "/password-reset", {"email": "master@example.org"})
    assert refused.status_code == 429 and "troppe mail" in refused.get_data(as_text=True).lower()
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(OutboxRow)) == 3
    clock.advance(days=1)
    assert ask(client, "/password-reset", {"email": "master@example.org"}).status_code == 200
