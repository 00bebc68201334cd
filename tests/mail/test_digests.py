"""How bulletins reach a player: chosen on the account page; each phase's mail,
one digest a day, or the web page only. Private results are always mailed."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import select

from pbm.mail.outbound import digests
from pbm.mail.outbound import send
from pbm.db import transaction
from pbm.models import OutboxRow, User
from pbm.worker import Worker
from tests.conftest import csrf_from
from tests.mail.test_mail_classes import seer_looks_then_day_comes
from tests.support.helpers import login

# Carla (the Veggente) has private lines at day 1; Dario and Elena have none.
CHOICES = {"carla@players.test": "digest", "dario@players.test": "digest", "elena@players.test": "web"}


def choose(factory, choices: dict[str, str]) -> None:
    with transaction(factory) as s:
        for email, mode in choices.items():
            s.scalars(select(User).where(User.email == email)).one().bulletins = mode


def results(factory) -> dict[str, str]:
    with factory() as s:
        return {r.to_addr: r.status for r in s.scalars(select(OutboxRow).where(OutboxRow.kind == "phase_results"))}


def test_the_account_page_sets_how_bulletins_come(app, factory, clock):
    from tests.support.helpers import make_game
    from tests.support.mail import ROLES
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    client = login(app, "anna@players.test", "pw-anna")
    page = client.get("/account").get_data(as_text=True)
    assert 'name="bulletins"' in page and "digest" in page
    r = client.post("/account", data={"csrf_token": csrf_from(page), "bulletins": "digest", "lang": "it",
                                      "tz": "", "reminders": "y"})
    assert r.status_code == 302
    with factory() as s:
        assert s.scalars(select(User).where(User.email == "anna@players.test")).one().bulletins == "digest"
    r = client.post("/account", data={"csrf_token": csrf_from(page), "bulletins": "pigeon", "lang": "it", "tz": ""})
    assert r.status_code == 200  # refused, the page again
    with factory() as s:
        assert s.scalars(select(User).where(User.email == "anna@players.test")).one().bulletins == "digest"


def test_bulletins_held_for_the_digest_or_left_to_the_web_private_results_mailed(make_app, clock, smtp_server):
    app = make_app(MAIL_PORT=smtp_server.port)
    factory = app.extensions["pbm_sessions"]
    gid = _game_with_choices(app, factory, clock)
    status = results(factory)
    assert status["carla@players.test"] == "pending"  # a private line: mailed, whatever she chose
    assert status["dario@players.test"] == digests.HELD
    assert "elena@players.test" not in status  # the web page only
    assert {status[a] for a in ("anna@players.test", "bruno@players.test")} == {"pending"}

    with factory() as s:
        ids = {r.message_id: r.to_addr for r in s.scalars(select(OutboxRow).where(OutboxRow.kind == "phase_results"))}
    sent = send.drain(app, factory, clock.now())
    wire = {ids[m.message["Message-ID"]] for m in smtp_server.wait_for(sent) if m.message["Message-ID"] in ids}
    assert wire == {"anna@players.test", "bruno@players.test", "carla@players.test"}
    assert results(factory)["dario@players.test"] == digests.HELD  # the sender leaves it
    assert gid


def _game_with_choices(app, factory, clock) -> int:
    """The game of test_mail_classes, with the choices made before its boundary (by a
    listener of the publication connected ahead of the results mail's)."""
    from pbm import hooks

    def choosing_first(_moments, news):
        for email, mode in CHOICES.items():
            news.session.scalars(select(User).where(User.email == email)).one().bulletins = mode

    hooks.listen(hooks.phase_published, choosing_first, first=True)
    try:
        return seer_looks_then_day_comes(app, factory, clock)
    finally:
        hooks.phase_published.disconnect(choosing_first)


def test_the_daily_digest_gathers_a_reader_s_held_bulletins(make_app, clock, smtp_server):
    app = make_app(MAIL_PORT=smtp_server.port)
    factory = app.extensions["pbm_sessions"]
    _game_with_choices(app, factory, clock)
    worker = Worker(app, clock)
    # The boundary was at 09:30 in Rome, after the digest hour (08:00): tomorrow's digest.
    assert worker.send_digests() == 0
    # The next phase's bulletin is held too (night 1 -> day 1 -> night 2).
    clock.set(datetime(2026, 11, 24, 20, 0, tzinfo=timezone.utc))
    worker.boundaries()
    with factory() as s:
        held = s.scalars(select(OutboxRow).where(OutboxRow.to_addr == "dario@players.test",
                                                 OutboxRow.status == digests.HELD).order_by(OutboxRow.id)).all()
    assert len(held) == 2
    clock.set(datetime(2026, 11, 25, 6, 59, tzinfo=timezone.utc))  # 07:59 in Rome
    assert worker.send_digests() == 0
    clock.set(datetime(2026, 11, 25, 7, 0, tzinfo=timezone.utc))  # 08:00 in Rome
    assert worker.send_digests() == 2  # Dario's, and Carla's (her night had no line of her own)
    assert worker.send_digests() == 0  # once
    with factory() as s:
        digest = s.scalars(select(OutboxRow).where(OutboxRow.kind == "digest",
                                                   OutboxRow.to_addr == "dario@players.test")).one()
        statuses = {s.get(OutboxRow, r.id).status for r in held}
    assert digest.to_addr == "dario@players.test" and statuses == {digests.DIGESTED}
    for row in held:  # both bulletins, in order, without the reply tag
        assert row.subject.split(" [lupus:")[0] in digest.body
        assert row.body.split("\n-- \n")[0].strip() in digest.body
    # Nothing invites a reply to a mail the reader never got, or to the digest (issue 31).
    assert "rispondi a questo messaggio" not in digest.body
    assert "rispondi alla mail della fase" not in digest.body and "la mail del ruolo va bene" in digest.body
    assert digest.body.index(held[0].subject.split(" [lupus:")[0]) < digest.body.index(held[1].subject.split(" [lupus:")[0])
    assert "[lupus:" not in digest.subject and "2" in digest.subject
    sent = send.drain(app, factory, clock.now() + timedelta(seconds=1))
    assert any(m.message["Message-ID"] == digest.message_id and m.rcpt_tos == ("dario@players.test",)
               for m in smtp_server.wait_for(sent))
