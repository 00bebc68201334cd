"""A player's own forward of our mail, with her command on top, is her reply (issue 32):
through real Dovecot and the inbox, the vote she wrote above the forwarded bulletin is
recorded as hers, never read as a Master's forward from an unknown sender; what the
forwarded mail holds never counts, and a 'PER:' line of hers acts for nobody."""
from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from pbm import inbox
from pbm.mail.sources import open_source
from pbm.mail.reading.parse import parse_message
from pbm.models import ActionRow

from tests.support.mail import (  # noqa: F401  (fast_passwords and game are fixtures)
    fast_passwords, game, latest_sent, receipts, seat,
)

# How clients forward (the marker and header block each writes), our bulletin inside.
FORWARDS = {
    "gmail": ("{top}\n\n---------- Forwarded message ---------\nFrom: Lupus <{sender}>\n"
              "Date: mar 24 nov 2026 alle ore 09:30\nSubject: {subject}\nTo: <{player}>\n\n\n{bulletin}"),
    "gmail-it": ("{top}\n\n---------- Messaggio inoltrato ---------\nDa: Lupus <{sender}>\n"
                 "Date: mar 24 nov 2026 alle ore 09:30\nSubject: {subject}\nTo: <{player}>\n\n\n{bulletin}"),
    "thunderbird": ("{top}\n\n-------- Messaggio Inoltrato --------\nOggetto: \t{subject}\n"
                    "Data: \tTue, 24 Nov 2026 09:30:00 +0100\nMittente: \tLupus <{sender}>\n"
                    "A: \t{player}\n\n{bulletin}"),
    "apple": ("{top}\n\nInizio messaggio inoltrato:\n\nDa: Lupus <{sender}>\nOggetto: {subject}\n"
              "Data: 24 novembre 2026 09:30:00 CET\nA: {player}\n\n{bulletin}"),
    "outlook": ("{top}\n\n________________________________\nDa: Lupus <{sender}>\n"
                "Inviato: martedì 24 novembre 2026 09:30\nA: {player}\nOggetto: {subject}\n\n{bulletin}"),
}
# The bulletin says how to vote: its example line must never count as her vote.
BULLETIN = "È iniziato il giorno di martedì.\nScrivi un comando per riga, per esempio:\nVOTO Carla\n"


@pytest.fixture
def app(make_app, imap_account):
    return make_app(MAIL_SOURCE=imap_account.source_config(timeout=10))


def forward(sender_player, bulletin_row, top, fmt, to):
    msg = EmailMessage()
    msg["From"] = sender_player
    msg["To"] = to
    msg["Subject"] = ("I: " if fmt == "outlook" else "Fwd: ") + bulletin_row.subject
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(FORWARDS[fmt].format(top=top, sender="lupus@lupus.localhost", subject=bulletin_row.subject,
                                         player=sender_player, bulletin=BULLETIN))
    return bytes(msg)


def ingest(app, factory, clock):
    source = open_source(app.config["MAIL_SOURCE"])
    try:
        return inbox.ingest(factory, app.config, source, clock.now())
    finally:
        source.close()


@pytest.mark.parametrize("fmt", sorted(FORWARDS))
def test_her_forward_of_our_bulletin_with_her_vote_on_top_is_her_vote(app, factory, game, clock,
                                                                     imap_account, fmt):
    dario, _ = seat(factory, "Dario")
    bulletin = latest_sent(factory, dario)
    # Forwarded to the Master's plain address (she typed it): the token is the subject's.
    imap_account.deliver(forward(dario, bulletin, "VOTO Anna", fmt, "lupus@lupus.localhost"))
    assert ingest(app, factory, clock) == 1
    with factory() as s:
        assert [(a.seat.name, a.kind, a.args, a.source) for a in s.query(ActionRow)] == [
            ("Dario", "vote", {"vote": "Anna"}, "mail")]
    (receipt,) = receipts(factory, dario)
    assert "Voto: Anna" in receipt and "Voto: Carla" not in receipt


def test_her_forward_with_nothing_on_top_records_nothing(app, factory, game, clock, imap_account):
    dario, _ = seat(factory, "Dario")
    bulletin = latest_sent(factory, dario)
    imap_account.deliver(forward(dario, bulletin, "", "gmail", bulletin.reply_to))
    ingest(app, factory, clock)
    with factory() as s:
        assert s.query(ActionRow).count() == 0  # never the bulletin's own example line
    assert len(receipts(factory, dario)) == 1


def test_a_per_line_in_a_players_own_mail_acts_for_nobody(app, factory, game, clock, imap_account):
    dario, _ = seat(factory, "Dario")
    bulletin = latest_sent(factory, dario)
    msg = EmailMessage()
    msg["From"] = dario
    msg["To"] = bulletin.reply_to
    msg["Subject"] = "Re: " + bulletin.subject
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content("PER: Carla\nVOTO Anna\n")
    imap_account.deliver(bytes(msg))
    ingest(app, factory, clock)
    with factory() as s:
        assert s.query(ActionRow).count() == 0  # neither Carla's nor Dario's vote
    (receipt,) = receipts(factory, dario)
    assert "Solo un Master" in receipt


def test_the_parser_reads_a_forward_as_hers_only_when_told():
    raw = forward("dario@example.it", type("Row", (), {"subject": "[Villaggio] Giorno 1 [lupus:tok3n12345]"}),
                  "VOTO Anna", "gmail", "lupus@lupus.localhost")
    players = ["Anna", "Bruno", "Carla", "Dario"]
    as_master = parse_message(raw, players)
    assert as_master.source == "forward" and as_master.on_behalf_of is None
    own = parse_message(raw, players, own=True)
    assert (own.source, own.commands, own.errors) == (None, [{"vote": "Anna"}], [])
