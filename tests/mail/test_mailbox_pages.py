"""The demo's local mailbox, through the embedded SMTP server: a Master reads
and answers only their own games' mail; the page exists only where mail is
the embedded demo's; a stranger's raw mail is served as inert text."""
from __future__ import annotations

import mailbox
import re
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from pbm.mail import smtpd
from pbm.models import ActionRow, Game, InboundRow, MasterLog, OutboxRow, Seat
from pbm.worker import Worker
from tests.conftest import csrf_from
from tests.fixtures.smtp import free_port

from tests.support.helpers import login, make_game, make_master
from tests.support.mail import ROLES, TUESDAY_0930_ROME, deliver, fast_passwords, run_mail  # noqa: F401

OTHER_ROLES = {"Zeno": "Lupo Mannaro", "Ugo": "Contadino", "Vera": "Veggente", "Walter": "Contadino",
               "Yara": "Contadino"}
MASTER_A, MASTER_B = "master@example.org", "other.master@example.org"


@pytest.fixture
def two_games(make_app, clock):
    """Two games with a Master each, their mail delivered into the local mailbox."""
    port = free_port()
    app = make_app(MAIL_PORT=port, EMBEDDED_SMTP_PORT=port)
    controller = smtpd.start(app.config)
    try:
        factory = app.extensions["pbm_sessions"]
        a = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno", master_email=MASTER_A)
        b = make_game(factory, app.config, clock.now(), OTHER_ROLES, mayor="Ugo", master_email=MASTER_B)
        worker = Worker(app, clock)
        clock.set(TUESDAY_0930_ROME)
        worker.boundaries()
        worker.outbox()
        yield app, factory, worker, a, b
    finally:
        controller.stop()


def secrets_of(factory, game_id):
    """What must never show outside a game: its players' addresses and tokens."""
    with factory() as s:
        seats = s.query(Seat).filter_by(game_id=game_id).all()
        return [x for seat in seats for x in (seat.user.email, seat.token)]


def test_a_master_reads_only_their_own_games_mail(two_games):
    app, factory, _, a, b = two_games
    page = login(app, MASTER_A, "master").get("/master/mailbox").get_data(as_text=True)
    assert all(secret in page for secret in secrets_of(factory, a))
    assert not any(secret in page for secret in secrets_of(factory, b))
    other = login(app, MASTER_B, "master").get("/master/mailbox").get_data(as_text=True)
    assert all(secret in other for secret in secrets_of(factory, b))
    assert not any(secret in other for secret in secrets_of(factory, a))


def local_key_of(app, to_addr):
    box = mailbox.Maildir(app.config["LOCAL_MAILBOX"], create=False)
    return next(key for key, msg in box.items() if msg["Delivered-To"] == to_addr
                and "Bollettino" in str(msg["Subject"]))


def test_the_local_reply_acts_only_in_the_masters_own_games(two_games):
    app, factory, worker, a, b = two_games
    master_a = login(app, MASTER_A, "master")
    token = csrf_from(master_a.get("/master/mailbox").get_data(as_text=True))
    # Game B's Ugo's bulletin: not Master A's to answer.
    r = master_a.post("/master/mailbox/reply", data={"csrf_token": token, "body": "VOTO Zeno",
                                                     "key": local_key_of(app, "ugo@players.test")})
    assert r.status_code == 404
    run_mail(app, worker)
    with factory() as s:
        assert s.query(ActionRow).count() == 0
    # Game A's Dario: the demo's play-by-mail, written in game A's log.
    r = master_a.post("/master/mailbox/reply", data={"csrf_token": token, "body": "VOTO Anna",
                                                     "key": local_key_of(app, "dario@players.test")})
    assert r.status_code == 302
    run_mail(app, worker)
    with factory() as s:
        assert [(x.seat.game_id, x.seat.name, x.args) for x in s.query(ActionRow)] == [
            (a, "Dario", {"vote": "Anna"})]
        (entry,) = s.query(MasterLog).filter_by(action="mailbox_reply").all()
        assert (entry.game_id, entry.user.email, entry.details["to"]) == (a, MASTER_A, "dario@players.test")


def test_players_cannot_open_the_mailbox(two_games):
    app, *_ = two_games
    anna = login(app, "anna@players.test", "pw-anna")
    assert anna.get("/master/mailbox").status_code == 403


@pytest.mark.parametrize("source", ["imap", "relay"])
def test_no_mailbox_page_where_mail_really_leaves(make_app, imap_account, smtp_server, source):
    if source == "imap":
        app = make_app(MAIL_SOURCE=imap_account.source_config())
    else:  # a Maildir fed by a real MTA, mail out through a relay
        app = make_app(MAIL_SERVER=smtp_server.host, MAIL_PORT=smtp_server.port)
    assert "mailbox.index" not in app.view_functions
    make_master(app.extensions["pbm_sessions"], MASTER_A)
    assert login(app, MASTER_A, "master").get("/master/mailbox").status_code == 404


def test_a_strangers_raw_mail_is_served_as_inert_text(app, factory, clock):
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    with factory() as s:
        token = s.query(Seat).filter_by(game_id=gid, name="Dario").one().token
        slug = s.get(Game, gid).slug
    msg = EmailMessage()
    msg["From"] = "stranger@example.net"
    msg["To"] = app.config["MASTER_ADDRESS"].replace("@", f"+{token}@")
    msg["Subject"] = "ciao"
    msg["Message-ID"] = make_msgid(domain="example.net")
    msg.set_content("<html><script>alert(document.cookie)</script></html>")
    deliver(app, bytes(msg))
    run_mail(app, Worker(app, clock))
    with factory() as s:
        (row,) = s.query(InboundRow).filter_by(game_id=gid).all()
    r = login(app, MASTER_A, "master").get(f"/g/{slug}/master/inbound/{row.id}")
    assert r.status_code == 200 and b"<script>" in r.data
    assert r.headers["Content-Type"].startswith("text/plain")
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in r.headers["Content-Security-Policy"]
    # Another game's Master cannot read it.
    make_game(factory, app.config, clock.now(), OTHER_ROLES, master_email=MASTER_B)
    assert login(app, MASTER_B, "master").get(f"/g/{slug}/master/inbound/{row.id}").status_code == 403


def test_the_outbox_table_lists_only_the_masters_own_games(two_games):
    app, factory, _, a, b = two_games
    page = login(app, MASTER_A, "master").get("/master/mailbox").get_data(as_text=True)
    with factory() as s:
        b_subjects = {r.subject for r in s.query(OutboxRow).filter_by(game_id=b)}
        a_subjects = {r.subject for r in s.query(OutboxRow).filter_by(game_id=a)}
    assert not any(subject in page for subject in b_subjects - a_subjects)


def test_the_mailbox_writes_dates_and_states_in_the_readers_words(two_games):
    """Issue 21: the local mailbox showed "Tue, 24 Nov 2026 08:30:00 +0000" and raw
    states ("held", "digested")."""
    from pbm.db import transaction
    from tests.support import wording
    app, factory, _, a, _ = two_games
    with transaction(factory) as s:
        rows = s.query(OutboxRow).filter_by(game_id=a).order_by(OutboxRow.id).limit(2).all()
        rows[0].status, rows[1].status = "held", "digested"
    page = login(app, MASTER_A, "master").get("/master/mailbox").get_data(as_text=True)
    assert wording.problems_of("page", page, "it") == []
    # The Date the sender wrote (its own clock's): as Italian writes it, on Rome's clock.
    assert re.search(r"<summary>(lun|mar|mer|gio|ven|sab|dom) \d{1,2} \w{3} \d{4}, \d\d:\d\d · ", page)
    assert "+0000" not in page
    assert "in attesa del riassunto del giorno" in page and "inviata nel riassunto del giorno" in page
    assert 'placeholder="es. VOTO Carla"' in page


def test_the_mailbox_says_how_many_it_shows_of_how_many(two_games, monkeypatch):
    """Issue 31: the page said "every message" and showed 200 of 259."""
    from pbm.web import demo_mailbox
    app, factory, _, a, _b = two_games
    client = login(app, MASTER_A, "master")
    page = client.get("/master/mailbox").get_data(as_text=True)
    total = int(re.search(r'id="mailbox-count">I (\d+) messaggi', page).group(1))
    assert total == page.count('<details class="mail">') > 3
    monkeypatch.setattr(demo_mailbox, "SHOWN", 3)
    monkeypatch.setattr(demo_mailbox._readable_keys, "__defaults__", (3,))
    page = client.get("/master/mailbox").get_data(as_text=True)
    assert f"I 3 messaggi più recenti dei {total}" in page and page.count('<details class="mail">') == 3
