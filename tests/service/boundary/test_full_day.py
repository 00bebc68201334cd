"""A whole day of a 7-player Lupus LIVE! game: three vote on the web, two by
mail through a real Dovecot, the boundary passes on an injected clock, and
every player receives the bulletin with the right tally over real SMTP."""
from __future__ import annotations

from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import make_msgid

from pbm.mail.sources import open_source
from pbm.models import OutboxRow, Seat
from pbm.worker import Worker

from tests.conftest import csrf_from
from tests.support.helpers import login, make_game

ROLES = {
    "Anna": "Lupo Mannaro", "Bruno": "Lupo Mannaro", "Carla": "Veggente",
    "Dario": "Guardia del corpo", "Elena": "Contadino", "Fabio": "Contadino", "Giulia": "Contadino",
}
TUESDAY_0930_ROME = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)
TUESDAY_2101_ROME = datetime(2026, 11, 24, 20, 1, tzinfo=timezone.utc)


def web_vote(app, name: str, target: str) -> str:
    client = login(app, f"{name.lower()}@players.test", f"pw-{name.lower()}")
    page = client.get("/g/test-game/me").get_data(as_text=True)
    assert 'name="vote-vote"' in page
    r = client.post("/g/test-game/act", data={"vote-csrf_token": csrf_from(page), "vote-kind": "vote",
                                              "vote-vote": target}, follow_redirects=True)
    return r.get_data(as_text=True)


def reply_mail(app, factory, name: str, body: str) -> bytes:
    """A player's reply to the latest mail the game sent them (the night's bulletin)."""
    with factory() as s:
        seat = s.query(Seat).filter_by(name=name).one()
        sent = (s.query(OutboxRow).filter_by(to_addr=seat.user.email, kind="phase_results")
                .order_by(OutboxRow.id.desc()).first())
        msg = EmailMessage()
        msg["From"] = f"{name} <{seat.user.email}>"
        msg["To"] = sent.reply_to
        msg["Subject"] = "Re: " + sent.subject
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg["In-Reply-To"] = sent.message_id
        msg["References"] = sent.message_id
        msg.set_content(body)
        return bytes(msg)


def test_a_day_by_web_and_mail(make_app, clock, smtp_server, imap_account):
    app = make_app(MAIL_PORT=smtp_server.port, MAIL_SOURCE=imap_account.source_config(),
                   MASTER_ADDRESS="lupus@lupus.test")
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Elena")
    worker = Worker(app, clock)

    # Night 1 passes quietly (no kill on the first night); day 1 opens at 9:00.
    clock.set(TUESDAY_0930_ROME)
    assert len(worker.boundaries()) == 1

    for voter, target in [("Anna", "Carla"), ("Bruno", "Carla"), ("Carla", "Anna")]:
        page = web_vote(app, voter, target)
        assert "Registrato" in page and target in page

    # Dario votes Carla above a quoted earlier vote that must not count.
    imap_account.deliver(reply_mail(app, factory, "Dario", (
        "VOTO Carla\n\nIl giorno lun 23 nov 2026 alle 21:00 Lupus ha scritto:\n> VOTO Anna\n")))
    imap_account.deliver(reply_mail(app, factory, "Elena", "vote anna\n-- \nElena dal telefono"))
    source = open_source(app.config["MAIL_SOURCE"])
    try:
        assert worker.mail_once(source) == 2
    finally:
        source.close()

    with factory() as s:
        receipts = {r.to_addr: r for r in s.query(OutboxRow).filter_by(kind="receipt")}
    assert set(receipts) == {"dario@players.test", "elena@players.test"}
    assert "Voto: Carla" in receipts["dario@players.test"].body
    assert "Voto: Anna" not in receipts["dario@players.test"].body
    assert "giorno 1, martedì 24 novembre" in receipts["elena@players.test"].body
    assert "24/11/2026 alle 21:00 (Europe/Rome)" in receipts["elena@players.test"].body

    clock.set(TUESDAY_2101_ROME)
    assert len(worker.boundaries()) == 1
    worker.outbox()

    bulletins = [m for m in smtp_server.messages if "Bollettino: giorno 1, martedì 24 novembre" in m.subject]
    assert sorted(m.rcpt_tos[0] for m in bulletins) == sorted(f"{n.lower()}@players.test" for n in ROLES)
    for m in bulletins:
        text = m.message.get_body(("plain",)).get_content()
        # Elena is the mayor: her vote weighs 1 + 1/4, so Carla (3) beats Anna (2.25).
        # The votes are public (§1.5) and so is the count at the weights everybody
        # knows; secret weights (the Sabbino's 0) never enter it: see pbm/render.py.
        assert "Il villaggio manda al rogo Carla." in text
        assert "Voti dichiarati (1 ciascuno, il Sindaco 1¼): Carla 3, Anna 2,25." in text
        assert "Dario → Carla" in text and "Elena → Anna" in text
