"""A Master's mail needs the same proof as a player's: a From address is no
proof, anyone can write one. Through real Dovecot and the inbox: a stranger
writing 'From: <the Master>' with 'PER: Dario' records nothing, whatever
address they write to; the Master's own reply address for the game (a token
per Master and per game, given only in mail to the Master) is the one way in;
and what a Master submits by mail is logged in the game under their name."""
from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from pbm.models import ActionRow, GameMaster, MasterLog, OutboxRow

from tests.support.helpers import make_game
from tests.support.mail import (  # noqa: F401  (fast_passwords and game are fixtures)
    ROLES, fast_passwords, game, latest_sent, receipts, seat,
)
from tests.mail.test_mail_on_behalf import MASTER_USER, app, ingest  # noqa: F401  (app is a fixture)

OTHER_MASTER = "other.master@example.org"


def mail(sender: str, to: str, body: str, subject: str = "sms") -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = make_msgid(domain="example.net")
    msg.set_content(body)
    return bytes(msg)


def master_mail(factory, address: str = MASTER_USER) -> OutboxRow:
    """The latest mail the service sent this Master about a game."""
    with factory() as s:
        return (s.query(OutboxRow).filter(OutboxRow.to_addr == address, OutboxRow.game_id.is_not(None))
                .order_by(OutboxRow.id.desc()).first())


def actions(factory):
    with factory() as s:
        return [(a.seat.game_id, a.seat.name, a.args) for a in s.query(ActionRow)]


def test_mail_to_a_master_answers_to_their_own_address_for_that_game(app, factory, game, clock):
    sent = master_mail(factory)
    assert sent.reply_to and sent.reply_to != app.config["MASTER_ADDRESS"]
    assert sent.reply_to.startswith("lupus+") and sent.reply_to.endswith("@lupus.localhost")
    # Not a player's address: no seat answers to it.
    dario_reply = latest_sent(factory, seat(factory, "Dario")[0]).reply_to
    assert sent.reply_to != dario_reply
    # Per game: the same Master of a second game gets another address.
    make_game(factory, app.config, clock.now(), ROLES)
    with factory() as s:
        tokens = {gm.game_id: gm.token for gm in s.query(GameMaster)}
    assert len(set(tokens.values())) == 2


@pytest.mark.parametrize("to", ["plain", "player_token"])
def test_a_forged_from_a_master_acts_for_nobody(app, factory, game, clock, imap_account, to):
    """The attack: a stranger (here Carla, a player) writes as the Master."""
    carla_reply = latest_sent(factory, seat(factory, "Carla")[0]).reply_to
    address = app.config["MASTER_ADDRESS"] if to == "plain" else carla_reply
    imap_account.deliver(mail(f"Master Mara <{MASTER_USER}>", address, "PER: Dario\nVOTO Anna\n"))
    ingest(app, factory, clock)
    assert actions(factory) == []
    # The Master, at the registered address, is told where commands count.
    (refusal,) = receipts(factory, MASTER_USER)
    assert master_mail(factory).reply_to in refusal
    assert "NON REGISTRATO" in refusal or "non è stato applicato" in refusal


def test_the_masters_own_address_from_another_sender_is_refused(app, factory, game, clock, imap_account):
    """A Master's reply address leaked (a forwarded report): still needs their From."""
    address = master_mail(factory).reply_to
    imap_account.deliver(mail("intruder@example.net", address, "PER: Dario\nVOTO Anna\n"))
    ingest(app, factory, clock)
    assert actions(factory) == []
    assert receipts(factory, "intruder@example.net") == []
    (warning,) = receipts(factory, MASTER_USER)
    # Issue 29: the stranger's address is named in the desk's log, not in our mail.
    assert "intruder@example.net" not in warning and "non è il tuo" in warning
    with factory() as s:
        (entry,) = s.query(MasterLog).filter_by(action="refused_spoof").all()
        assert entry.details["sender"] == "intruder@example.net"


def test_through_their_own_address_a_master_acts_and_is_named_in_the_log(app, factory, game, clock,
                                                                        imap_account):
    address = master_mail(factory).reply_to
    imap_account.deliver(mail(f"Master Mara <{MASTER_USER}>", address,
                              "SMS di Dario alle 20:58:\n\nPER: Dario\nVOTO Anna\n"))
    ingest(app, factory, clock)
    gid, _ = game
    assert actions(factory) == [(gid, "Dario", {"vote": "Anna"})]
    with factory() as s:
        (entry,) = s.query(MasterLog).filter_by(action="submit_on_behalf").all()
        assert (entry.game_id, entry.user.email, entry.details["player"]) == (gid, MASTER_USER, "Dario")
        assert entry.details["source"] == "sms"


def test_a_masters_address_acts_only_in_its_own_game(app, factory, game, clock, imap_account):
    """The same players in both games; the other game's Master reaches only theirs."""
    gid, _ = game
    other = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno", master_email=OTHER_MASTER)
    with factory() as s:
        token_b = s.query(GameMaster).filter_by(game_id=other).one().token
        token_a = s.query(GameMaster).filter_by(game_id=gid).one().token
    to_a = app.config["MASTER_ADDRESS"].replace("@", f"+{token_a}@")
    to_b = app.config["MASTER_ADDRESS"].replace("@", f"+{token_b}@")
    # Master B with Master A's address (read on a forwarded report): refused.
    imap_account.deliver(mail(OTHER_MASTER, to_a, "PER: Dario\nVOTO Anna\n"))
    ingest(app, factory, clock)
    assert actions(factory) == []
    # Master B through their own address: game B's Dario only (night 1 there: the seer's power).
    imap_account.deliver(mail(OTHER_MASTER, to_b, "PER: Carla\nPOTERE Anna\n"))
    ingest(app, factory, clock)
    assert [(g, name) for g, name, _ in actions(factory)] == [(other, "Carla")]


def test_the_desk_shows_each_master_their_own_address(app, factory, game):
    from tests.support.helpers import login
    gid, _ = game
    with factory() as s:
        from pbm.models import Game
        slug = s.get(Game, gid).slug
    page = login(app, MASTER_USER, "master").get(f"/g/{slug}/master").get_data(as_text=True)
    assert master_mail(factory).reply_to in page
