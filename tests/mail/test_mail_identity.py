"""Who is speaking: a command counts only from the player's registered address
with their token (plus-address or [lupus:TOKEN] subject tag); anything else is
refused, and the refusal goes to the registered address, never to the sender."""
from __future__ import annotations

from pbm.db import transaction
from pbm.models import InboundRow, MasterLog, Seat

from tests.support.mail import (  # noqa: F401  (game is a fixture)
    deliver, fast_passwords, game, latest_sent, message, receipts, run_mail, seat, votes,
)


def test_command_from_the_registered_address_with_the_token_counts(app, factory, game):
    _, worker = game
    email, token = seat(factory, "Dario")
    sent = latest_sent(factory, email)
    assert token in sent.reply_to and token in sent.subject
    deliver(app, message(f"Dario <{email}>", sent.reply_to, "VOTO Anna", reply_to_row=sent))
    run_mail(app, worker)
    assert votes(factory) == [("Dario", "Anna", "mail")]


def test_address_comparison_ignores_case(app, factory, game):
    _, worker = game
    email, _ = seat(factory, "Dario")
    sent = latest_sent(factory, email)
    deliver(app, message(email.upper().replace("PLAYERS", "Players"), sent.reply_to, "VOTO Anna",
                         reply_to_row=sent))
    run_mail(app, worker)
    assert votes(factory) == [("Dario", "Anna", "mail")]
    assert len(receipts(factory, email)) == 1


def test_subject_tag_when_the_client_drops_the_plus_address(app, factory, game):
    _, worker = game
    email, token = seat(factory, "Dario")
    sent = latest_sent(factory, email)
    bare = app.config["MASTER_ADDRESS"]
    assert "+" not in bare
    deliver(app, message(email, bare, "voto anna", subject="Re: " + sent.subject))
    run_mail(app, worker)
    assert votes(factory) == [("Dario", "Anna", "mail")]


def test_token_lowercased_by_a_mail_system_still_names_the_player(app, factory, game):
    _, worker = game
    email, _ = seat(factory, "Dario")
    with transaction(factory) as s:
        s.query(Seat).filter_by(name="Dario").one().token = "DaRiO-Tok3n-XY"
    local, domain = app.config["MASTER_ADDRESS"].split("@")
    deliver(app, message(email, f"{local}+dario-tok3n-xy@{domain}", "voto anna", subject="Re: partita"))
    run_mail(app, worker)
    assert votes(factory) == [("Dario", "Anna", "mail")]


def test_right_address_with_someone_elses_token_is_refused_and_the_owner_is_told(app, factory, game):
    _, worker = game
    dario, _ = seat(factory, "Dario")
    carla, _ = seat(factory, "Carla")
    dario_sent = latest_sent(factory, dario)
    # Carla got hold of Dario's reply address (a forwarded bulletin) and uses it.
    deliver(app, message(carla, dario_sent.reply_to, "VOTO Anna", subject="Re: " + dario_sent.subject))
    run_mail(app, worker)
    assert votes(factory) == []
    assert receipts(factory, carla) == []
    (body,) = receipts(factory, dario)
    # Issue 29: the sender's address is not quoted (a stranger would choose it); the log names it.
    assert carla not in body and "non è il tuo" in body and "non è stato applicato" in body
    with factory() as s:
        (entry,) = s.query(MasterLog).filter_by(action="refused_spoof").all()
        assert entry.details == {"player": "Dario", "sender": carla}


def test_spoofed_from_with_a_reply_to_gets_nothing_back(app, factory, game):
    _, worker = game
    dario, _ = seat(factory, "Dario")
    sent = latest_sent(factory, dario)
    deliver(app, message("mallory@evil.test", sent.reply_to, "VOTO Anna", reply_to_row=sent,
                         headers={"Reply-To": "mallory@evil.test"}))
    run_mail(app, worker)
    assert votes(factory) == []
    assert receipts(factory, "mallory@evil.test") == []
    assert len(receipts(factory, dario)) == 1


def test_no_token_registered_sender_is_told_how_stranger_gets_no_backscatter(app, factory, game):
    _, worker = game
    dario, _ = seat(factory, "Dario")
    master = app.config["MASTER_ADDRESS"]
    deliver(app, message(dario, master, "VOTO Anna", subject="voto"))
    deliver(app, message("stranger@elsewhere.test", master, "VOTO Anna", subject="voto"))
    run_mail(app, worker)
    assert votes(factory) == []
    (body,) = receipts(factory, dario)
    assert "Non riconosco la partita" in body
    assert receipts(factory, "stranger@elsewhere.test") == []
    with factory() as s:
        assert sorted(r.status for r in s.query(InboundRow)) == ["refused", "refused"]


DMARC_FAIL = ("mx.lupus.localhost; dkim=none; spf=softfail smtp.mailfrom=evil.test; "
              "dmarc=fail (p=NONE sp=NONE dis=NONE) header.from=players.test")


def test_forged_from_that_our_server_flags_is_refused(app, factory, game):
    """Carla has Dario's token and forges his From; our MTA's DMARC verdict
    (the topmost Authentication-Results) gives her away."""
    _, worker = game
    dario, _ = seat(factory, "Dario")
    sent = latest_sent(factory, dario)
    forged = message(dario, sent.reply_to, "VOTO Anna", reply_to_row=sent)
    deliver(app, b"Authentication-Results: " + DMARC_FAIL.encode() + b"\r\n" + forged)
    run_mail(app, worker)
    assert votes(factory) == []
    (body,) = receipts(factory, dario)
    assert "falsificato" in body


def test_a_forged_pass_below_our_servers_verdict_does_not_help(app, factory, game):
    _, worker = game
    dario, _ = seat(factory, "Dario")
    sent = latest_sent(factory, dario)
    forged = message(dario, sent.reply_to, "VOTO Anna", reply_to_row=sent,
                     headers={"Authentication-Results": "mx.lupus.localhost; dmarc=pass header.from=players.test"})
    deliver(app, b"Authentication-Results: " + DMARC_FAIL.encode() + b"\r\n" + forged)
    # The same message with only the sender's own (forged) header is not judged.
    genuine = message(dario, sent.reply_to, "VOTO Bruno", reply_to_row=sent,
                      headers={"Authentication-Results": "mx.elsewhere; dmarc=pass header.from=players.test"})
    deliver(app, genuine)
    run_mail(app, worker)
    assert votes(factory) == [("Dario", "Bruno", "mail")]


def test_a_forged_master_is_refused_too(app, factory, game):
    _, worker = game
    sms = message("master@example.org", app.config["MASTER_ADDRESS"], "PER: Dario\nVOTO Anna\n")
    deliver(app, b"Authentication-Results: " + DMARC_FAIL.replace("players.test", "example.org").encode()
            + b"\r\n" + sms)
    run_mail(app, worker)
    assert votes(factory) == []
    (body,) = receipts(factory, "master@example.org")
    assert "falsificato" in body


PHISH = "Il tuo account scade oggi: accedi su http://evil.test/lupus"


def _answers(factory, address):
    from pbm.models import OutboxRow
    with factory() as s:
        return [(r.subject, r.body, r.headers) for r in s.query(OutboxRow).filter(
            OutboxRow.to_addr == address, OutboxRow.kind.in_(["receipt", "receipt_error"]))]


def test_no_answer_to_a_forged_from_repeats_the_forgers_subject(app, factory, game):
    """The attack: the service mails the real player words of a stranger's choosing."""
    _, worker = game
    dario, _ = seat(factory, "Dario")
    carla_reply = latest_sent(factory, seat(factory, "Carla")[0]).reply_to
    deliver(app, message(dario, app.config["MASTER_ADDRESS"], "VOTO Anna", subject=PHISH))  # no token
    deliver(app, message("mallory@evil.test", latest_sent(factory, dario).reply_to, "VOTO Anna",
                         subject=PHISH))  # Dario's token, another address
    deliver(app, message(dario, carla_reply, "VOTO Anna", subject="Re: " + PHISH))  # Carla's token
    run_mail(app, worker)
    answers = _answers(factory, dario) + _answers(factory, seat(factory, "Carla")[0])
    assert len(answers) == 3
    for subject, body, headers in answers:
        assert "evil.test/lupus" not in subject and "evil.test/lupus" not in body
        assert "In-Reply-To" not in headers


def test_the_players_own_reply_is_answered_in_its_thread(app, factory, game):
    _, worker = game
    dario, _ = seat(factory, "Dario")
    sent = latest_sent(factory, dario)
    deliver(app, message(dario, sent.reply_to, "VOTO Anna", reply_to_row=sent, subject="Re: la mia mossa"))
    run_mail(app, worker)
    ((subject, _, headers),) = _answers(factory, dario)
    assert subject == "Re: la mia mossa" and "In-Reply-To" in headers


def test_a_master_of_another_game_using_a_players_token_is_reported_to_the_player_too(app, factory, game, clock):
    # Issue 22, seen: a Master of another game used Bruno's token; the notice went to that
    # Master and Bruno got nothing.
    from pbm import operations
    from pbm.models import User
    from tests.support.helpers import make_master
    _, worker = game
    other_id = make_master(factory, "other-master@example.org")
    with transaction(factory) as s:
        operations.create_game(s, name="Other game", ruleset="lupus-live-12", master=s.get(User, other_id),
                               now=clock.now())
    bruno, _ = seat(factory, "Bruno")
    sent = latest_sent(factory, bruno)
    deliver(app, message("other-master@example.org", sent.reply_to, "VOTO Anna", reply_to_row=sent))
    run_mail(app, worker)
    assert votes(factory) == []
    (to_bruno,) = receipts(factory, bruno)
    assert "other-master@example.org" not in to_bruno and "non è stato applicato" in to_bruno
    assert receipts(factory, "other-master@example.org")  # the sender is told too, as before
    with factory() as s:
        (entry,) = s.query(MasterLog).filter_by(action="refused_spoof").all()
        assert entry.details == {"player": "Bruno", "sender": "other-master@example.org"}
