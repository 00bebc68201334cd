"""Mail as the players' and Masters' mail programs show it (issue 21): sent by the
service's sender through a real SMTP server (aiosmtpd, which refuses a line over 998
octets as relays do), then read back as a client reads it (tests/support/client_view.py).

- the sender's name reads as written: the game's name with its dash, accents, spaces,
  quotes and commas, never an encoded word shown as text;
- no line of any mail exceeds 998 octets: a Masters' notice carrying a 1,000-character
  absence note reaches the Master, note whole (it failed with "500 Line too long");
- a Masters' notice the relay refuses for good shows on the Masters' desk (issue 23,
  item 6), in their language.
"""
from __future__ import annotations

import pytest

from pbm.mail.outbound import send
from pbm.db import transaction
from pbm.models import Game, OutboxRow
from pbm.worker import Worker

from tests.conftest import csrf_from
from tests.support.client_view import parse_as_client
from tests.support.helpers import login, make_game
from tests.support.mail import ROLES, TUESDAY_0930_ROME, fast_passwords  # noqa: F401 (a fixture)
from tests.support.play import played_a_day

NOTE = ("Sarò in montagna senza rete, al rifugio; " * 40)[:1000]


@pytest.fixture
def app(make_app, smtp_server):
    return make_app(MAIL_PORT=smtp_server.port)


def drain_all(app, clock, smtp_server):
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        pending = s.query(OutboxRow).filter_by(status="pending").count()
    send.drain(app, factory, clock.now())
    return smtp_server.wait_for(pending) if pending else []


@pytest.mark.parametrize("name", [
    "Demo", "Demo Game", "Il villaggio – Notte di Sant'Anna", "Lupi, \"Pecore\" e pastori", "Città dei lupi",
    "Partita di Nicolò, Zoë e Jürgen (seconda edizione) – girone d'autunno",
])
def test_the_senders_name_reads_as_the_games_name(app, factory, clock, smtp_server, name):
    game_id = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    drain_all(app, clock, smtp_server)  # the role letters, under the name the game was made with
    smtp_server.clear()
    with transaction(factory) as s:
        s.get(Game, game_id).name = name
    clock.set(TUESDAY_0930_ROME)
    Worker(app, clock).boundaries()  # night 1 -> day 1: results to every player, a report to the Master
    received = drain_all(app, clock, smtp_server)
    with factory() as s:
        assert s.query(OutboxRow).filter(OutboxRow.status != "sent").count() == 0
    named = 0
    for message in received:
        view = parse_as_client(message.raw)
        assert view.problems == [], (message.rcpt_tos, view.problems)
        assert view.from_name in (f"Lupus – {name}", "Lupus"), view.from_name
        named += view.from_name == f"Lupus – {name}"
        assert view.from_address.startswith("lupus+")
    assert named >= len(ROLES)  # every player's results mail, and the Master's


def declare_absence(app, slug, note):
    dario = login(app, "dario@players.test", "pw-dario")
    page = dario.get(f"/g/{slug}/me").get_data(as_text=True)
    answer = dario.post(f"/g/{slug}/absence", data={"csrf_token": csrf_from(page), "first_day": "2026-11-26",
                                                    "last_day": "2026-11-29", "note": note})
    assert answer.status_code in (200, 302)


def test_a_masters_notice_with_a_1000_character_note_reaches_the_master_whole(app, clock, smtp_server):
    slug = played_a_day(app, clock)
    drain_all(app, clock, smtp_server)
    smtp_server.clear()
    declare_absence(app, slug, NOTE)
    (notice,) = drain_all(app, clock, smtp_server)
    assert notice.rcpt_tos == ("master@example.org",)
    view = parse_as_client(notice.raw)
    assert view.problems == [] and view.longest_line <= 998
    assert NOTE.strip() in " ".join(view.text.split())
    with app.extensions["pbm_sessions"]() as s:
        assert s.query(OutboxRow).filter_by(kind="absence_declared").one().status == "sent"


def test_every_line_of_a_long_html_and_text_mail_fits(make_app, tmp_path, clock, smtp_server):
    """A results mail whose lines are long in both alternatives: a game's name ten times
    what the form takes, on one line with the others. On SQLite whatever
    PBM_TEST_DATABASE says: SQLite keeps such a name (a row written by hand, a game
    made before the limit), PostgreSQL refuses it, and nothing the service lets through
    made a line longer than 270 characters here."""
    app = make_app(MAIL_PORT=smtp_server.port, DATABASE_URL=f"sqlite:///{tmp_path / 'long.sqlite3'}")
    factory = app.extensions["pbm_sessions"]
    game_id = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    with transaction(factory) as s:
        s.get(Game, game_id).name = "Lunga " * 200
    clock.set(TUESDAY_0930_ROME)
    Worker(app, clock).boundaries()
    for message in drain_all(app, clock, smtp_server):
        view = parse_as_client(message.raw)
        assert view.longest_line <= 998, view.problems


def test_a_masters_notice_the_relay_refuses_shows_on_the_desk(app, clock, smtp_server):
    slug = played_a_day(app, clock)
    drain_all(app, clock, smtp_server)
    smtp_server.refuse("master@example.org", "550 5.1.1 Mailbox unavailable")
    declare_absence(app, slug, "Al mare")
    factory = app.extensions["pbm_sessions"]
    send.drain(app, factory, clock.now())
    with factory() as s:
        notice = s.query(OutboxRow).filter_by(kind="absence_declared").one()
        assert notice.status == "failed"
        subject = notice.subject
    master = login(app, "master@example.org", "master")
    desk = master.get(f"/g/{slug}/master").get_data(as_text=True)
    attention = desk[desk.index('class="pending"'):]
    attention = attention[:attention.index("</section>")]
    assert "non è stata consegnata" in attention and "550 5.1.1 Mailbox unavailable" in attention
    assert subject.replace("'", "&#39;") in attention or subject in attention
    # A player never sees it.
    player = login(app, "anna@players.test", "pw-anna")
    assert "550 5.1.1" not in player.get(f"/g/{slug}/me").get_data(as_text=True)
