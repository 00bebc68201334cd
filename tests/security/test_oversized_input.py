"""What strangers and Masters can make long: a subject, a Message-ID, an
address, a game name in accented letters.  SQLite stores any length in any
column; PostgreSQL refuses what is longer than the column, and a refused row
would stop the mailbox at that message for ever.  tests/service/infrastructure/test_postgres.py
runs these on PostgreSQL, where they can fail."""
from __future__ import annotations

from email.header import decode_header, make_header
from email.message import EmailMessage
from email.utils import parseaddr

from pbm import operations
from pbm.db import transaction
from pbm.models import ActionRow, InboundRow, OutboxRow, User
from pbm.worker import Worker

from tests.conftest import csrf_from
from tests.support.helpers import login, make_master
from tests.support.mail import deliver, fast_passwords, game, latest_sent, run_mail, seat  # noqa: F401 (fixtures)

LONG_SUBJECT = "Re: [Test game] Bollettino " + "molto lungo, " * 80
LONG_MESSAGE_ID = "<" + "x" * 600 + "@players.test>"


def long_reply(sender: str, to: str, body: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{'Bruno il Contadino ' * 20}<{sender}>"
    msg["To"] = to
    msg["Subject"] = LONG_SUBJECT
    msg["Message-ID"] = LONG_MESSAGE_ID
    msg["References"] = " ".join(f"<ref{i}-{'r' * 40}@players.test>" for i in range(30))
    msg.set_content(body)
    return bytes(msg)


def test_a_reply_with_a_huge_subject_and_message_id_is_played_answered_and_deduplicated(app, factory, game):
    _gid, worker = game
    address, _token = seat(factory, "Bruno")
    to = latest_sent(factory, address).reply_to
    raw = long_reply(address, to, "VOTO Carla")
    deliver(app, raw)
    deliver(app, raw)  # the same message twice, as a mail server retrying would
    run_mail(app, worker)

    with factory() as s:
        votes = [(a.seat.name, a.args.get("vote")) for a in s.query(ActionRow).filter_by(kind="vote")]
        assert votes == [("Bruno", "Carla")]
        assert [r.status for r in s.query(InboundRow).order_by(InboundRow.id)] == ["processed", "duplicate"]
        receipts = s.query(OutboxRow).filter_by(to_addr=address, kind="receipt").all()
        assert len(receipts) == 1
        assert receipts[0].subject.startswith("Re: [Test game] Bollettino molto lungo")
        assert receipts[0].headers["In-Reply-To"] == LONG_MESSAGE_ID


def test_a_game_named_in_accented_letters_mails_every_player(app, factory, clock, smtp_server):
    name = "Città " + "è" * 114  # 120 letters, the longest name the form accepts
    master_id = make_master(factory)
    with transaction(factory) as s:
        game = operations.create_game(s, name=name, ruleset="lupus-live-12", master=s.get(User, master_id),
                                      now=clock.now())
        for player in ["Anna", "Bruno", "Carla", "Dario"]:
            operations.add_player(s, app.config, game, name=player, email=f"{player.lower()}@players.test",
                                  now=clock.now(), password="x")
        operations.start_game(s, app.config, game, roles={"Anna": "Lupo Mannaro", "Bruno": "Contadino",
                                                          "Carla": "Veggente", "Dario": "Contadino"},
                              options={"mayor": "Bruno"}, now=clock.now())
    app.config["MAIL_PORT"] = smtp_server.port
    app.extensions["mail"].port = smtp_server.port
    # Built for the embedded server, the app logs in to it (its own credentials): not to this one.
    app.extensions["mail"].username = app.extensions["mail"].password = None
    worker = Worker(app, clock)
    while worker.outbox():
        pass
    letters = [m.message for m in smtp_server.messages
               if "ruolo" in str(make_header(decode_header(m.message["Subject"])))]
    assert sorted(parseaddr(m["To"])[1] for m in letters) == [
        "anna@players.test", "bruno@players.test", "carla@players.test", "dario@players.test"]
    for letter in letters:
        assert name in str(make_header(decode_header(letter["From"])))
        assert name in str(make_header(decode_header(letter["Subject"])))


def test_an_address_longer_than_any_mail_address_is_refused_in_words(app, factory):
    make_master(factory)
    client = login(app, "master@example.org", "master")
    page = client.get("/master/new").get_data(as_text=True)
    client.post("/master/new", data={"csrf_token": csrf_from(page), "name": "Lunga",
                                     "ruleset": "lupus-live-12", "auto_publish": "y"})
    desk = client.get("/g/lunga/master").get_data(as_text=True)
    r = client.post("/g/lunga/master/players", follow_redirects=True,
                    data={"csrf_token": csrf_from(desk), "name": "Anna",
                          "email": "anna" * 70 + "@players.test", "lang": "it"})
    assert r.status_code == 200
    assert "indirizzo" in r.get_data(as_text=True).lower()
    with factory() as s:
        assert s.query(User).filter(User.email.like("annaanna%")).count() == 0
