"""Real clients' replies through real Dovecot and the inbox: HTML only, and
top-posted above the whole quoted bulletin (which itself holds 'VOTO X'
lines); only the new commands count."""
from __future__ import annotations

import html
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from pbm import inbox
from pbm.mail.sources import open_source
from pbm.models import ActionRow

from tests.support.mail import (  # noqa: F401  (fast_passwords and game are fixtures)
    fast_passwords, game, latest_sent, receipts, seat,
)


@pytest.fixture
def app(make_app, imap_account):
    return make_app(MAIL_SOURCE=imap_account.source_config(timeout=10))


def reply(bulletin, sender, *, plain=None, html_body=None, charset="utf-8"):
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = bulletin.reply_to
    msg["Subject"] = "R: " + bulletin.subject
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg["In-Reply-To"] = bulletin.message_id
    msg["References"] = bulletin.message_id
    if plain is not None:
        msg.set_content(plain, charset=charset)
        if html_body is not None:
            msg.add_alternative(html_body, subtype="html", charset=charset)
    else:
        msg.set_content(html_body, subtype="html", charset=charset)
    return bytes(msg)


def quoted_bulletin(bulletin):
    """The bulletin as the player saw it, plus the thread below it: earlier
    votes written at the start of a line."""
    return bulletin.body + "\nVOTO Carla\nVOTO Bruno\n"


def ingest_and_votes(app, factory, clock):
    source = open_source(app.config["MAIL_SOURCE"])
    try:
        inbox.ingest(factory, app.config, source, clock.now())
    finally:
        source.close()
    with factory() as s:
        return [(a.seat.name, a.args) for a in s.query(ActionRow).order_by(ActionRow.id)]


def test_html_only_reply_gmail_style(app, factory, game, clock, imap_account):
    dario, _ = seat(factory, "Dario")
    bulletin = latest_sent(factory, dario)
    quoted = html.escape(quoted_bulletin(bulletin)).replace("\n", "<br>")
    body = (f'<div dir="ltr"><div>VOTO&nbsp;Anna</div><div><br></div>'
            f'<div>Ciao a tutti</div></div><br><div class="gmail_quote">'
            f'<div dir="ltr" class="gmail_attr">Il giorno mar 24 nov 2026 alle ore 09:30 '
            f'Lupus &lt;{bulletin.reply_to}&gt; ha scritto:<br></div>'
            f'<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">{quoted}</blockquote></div>')
    imap_account.deliver(reply(bulletin, dario, html_body=body))
    assert ingest_and_votes(app, factory, clock) == [("Dario", {"vote": "Anna"})]
    (receipt,) = receipts(factory, dario)
    assert "Voto: Anna" in receipt
    assert "Voto: Carla" not in receipt and "Voto: Bruno" not in receipt


def test_top_posted_outlook_reply_above_the_unquoted_bulletin(app, factory, game, clock, imap_account):
    """Outlook quotes nothing with '>': the old mail follows a header block."""
    dario, _ = seat(factory, "Dario")
    bulletin = latest_sent(factory, dario)
    plain = ("voto anna\n\nInviato da Outlook per Android\n\n"
             "________________________________\n"
             f"Da: Lupus – Test game <{bulletin.reply_to}>\n"
             "Inviato: martedì 24 novembre 2026 09:30\n"
             f"A: Dario <{dario}>\n"
             f"Oggetto: {bulletin.subject}\n\n" + quoted_bulletin(bulletin))
    imap_account.deliver(reply(bulletin, dario, plain=plain, charset="windows-1252"))
    assert ingest_and_votes(app, factory, clock) == [("Dario", {"vote": "Anna"})]


def test_top_posted_reply_with_quote_marks_and_an_html_twin(app, factory, game, clock, imap_account):
    elena, _ = seat(factory, "Elena")
    bulletin = latest_sent(factory, elena)
    quoted = "\n".join("> " + line for line in quoted_bulletin(bulletin).split("\n"))
    plain = (f"VOTE Bruno\n\n--\nElena\n\nOn Tue, 24 Nov 2026 at 09:30, Lupus <{bulletin.reply_to}> "
             f"wrote:\n{quoted}\n")
    html_body = "<p>VOTE Bruno</p><blockquote>VOTO Carla</blockquote>"
    imap_account.deliver(reply(bulletin, elena, plain=plain, html_body=html_body))
    assert ingest_and_votes(app, factory, clock) == [("Elena", {"vote": "Bruno"})]


def test_html_only_latin1_reply_with_an_accented_name(app, factory, game, clock, imap_account):
    carla, _ = seat(factory, "Carla")
    bulletin = latest_sent(factory, carla)
    body = "<html><body><p>VOTO <b>élena</b></p><p>Perché sì.</p></body></html>"
    imap_account.deliver(reply(bulletin, carla, html_body=body, charset="iso-8859-1"))
    assert ingest_and_votes(app, factory, clock) == [("Carla", {"vote": "Elena"})]


def test_bottom_posted_reply_below_the_quoted_bulletin(app, factory, game, clock, imap_account):
    dario, _ = seat(factory, "Dario")
    bulletin = latest_sent(factory, dario)
    assert "\n-- \n" in bulletin.body  # the bulletin's footer, quoted below
    quoted = "\n".join("> " + line for line in quoted_bulletin(bulletin).split("\n"))
    plain = f"Il 24/11/26 09:30, Lupus ha scritto:\n{quoted}\n\nVOTO Anna\n"
    imap_account.deliver(reply(bulletin, dario, plain=plain))
    assert ingest_and_votes(app, factory, clock) == [("Dario", {"vote": "Anna"})]
