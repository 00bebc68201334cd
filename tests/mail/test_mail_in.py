"""Mail into a game through the embedded Maildir (the same code path as IMAP):
identity, phase, errors that list what is valid, Masters on behalf."""
from __future__ import annotations

import mailbox
from datetime import datetime, timezone

from pbm.db import transaction
from pbm.models import ActionRow, InboundRow, OutboxRow, PhaseRow

from tests.support.mail import (  # noqa: F401  (fast_passwords and game are fixtures)
    deliver, fast_passwords, game, latest_sent, message, receipts, run_mail, seat, votes,
)


def test_unknown_name_gets_an_error_listing_the_living(app, factory, game):
    _, worker = game
    email, token = seat(factory, "Dario")
    sent = latest_sent(factory, email)
    deliver(app, message(email, sent.reply_to, "VOTO Zorro", reply_to_row=sent))
    run_mail(app, worker)
    (body,) = receipts(factory, email)
    assert "Zorro" in body and "Anna, Bruno, Carla, Dario, Elena" in body
    assert votes(factory) == []


def test_a_vote_typed_only_in_the_subject_is_played_and_confirmed(app, factory, game):
    _, worker = game
    email, _token = seat(factory, "Dario")
    sent = latest_sent(factory, email)
    deliver(app, message(email, sent.reply_to, "", reply_to_row=sent, subject="VOTO Carla"))
    run_mail(app, worker)
    assert votes(factory) == [("Dario", "Carla", "mail")]
    (body,) = receipts(factory, email)
    assert "Carla" in body


def test_dead_voter_is_told_and_nothing_is_recorded(app, factory, game, clock):
    gid, worker = game
    with transaction(factory) as s:  # Elena died in the night (set up directly in the state)
        phase = s.query(PhaseRow).filter_by(game_id=gid, status="open").one()
        state = dict(phase.state_before)
        state["players"] = [dict(p, alive=p["name"] != "Elena") for p in state["players"]]
        phase.state_before = state
    email, _ = seat(factory, "Elena")
    sent = latest_sent(factory, email)
    deliver(app, message(email, sent.reply_to, "VOTO Anna", reply_to_row=sent))
    run_mail(app, worker)
    (body,) = receipts(factory, email)
    assert "I morti non votano" in body
    assert votes(factory) == []


def test_someone_else_using_a_players_token_is_refused_and_the_player_is_told(app, factory, game):
    _, worker = game
    email, _ = seat(factory, "Carla")
    sent = latest_sent(factory, email)
    deliver(app, message("mallory@evil.test", sent.reply_to, "VOTO Anna", reply_to_row=sent))
    run_mail(app, worker)
    assert votes(factory) == []
    assert receipts(factory, "mallory@evil.test") == []
    (body,) = receipts(factory, email)
    assert "mallory@evil.test" not in body  # issue 29: a stranger's address is not quoted


def _role_letter(factory, email):
    with factory() as s:  # the role letter invited actions for night 1, now closed
        return s.query(OutboxRow).filter_by(to_addr=email, kind="role_letter").one()


def test_a_reply_to_an_older_mail_counts_for_the_phase_open_now(app, factory, game, clock):
    # Issue 22: a reply to the role letter came back "La fase è chiusa" while day 1 was open.
    _, worker = game
    email, _ = seat(factory, "Dario")
    letter = _role_letter(factory, email)
    deliver(app, message(email, letter.reply_to, "VOTO Anna", reply_to_row=letter))
    run_mail(app, worker)
    assert votes(factory) == [("Dario", "Anna", "mail")]
    (body,) = receipts(factory, email)
    assert "REGISTRATO\n- Voto: Anna" in body and "chiusa" not in body
    assert "Fase: giorno 1, martedì 24 novembre" in body  # the phase it counted for


def test_a_reply_to_an_older_mail_that_does_not_fit_names_the_open_phase_and_the_way(app, factory, game, clock):
    _, worker = game
    email, _ = seat(factory, "Dario")  # a Contadino: no power, and it is day anyway
    letter = _role_letter(factory, email)
    deliver(app, message(email, letter.reply_to, "POTERE Anna", reply_to_row=letter))
    run_mail(app, worker)
    assert votes(factory) == []
    (body,) = receipts(factory, email)
    assert "NON REGISTRATO" in body
    assert "Hai risposto a una mail vecchia della partita. La fase aperta adesso: giorno 1, martedì " \
           "24 novembre, fino al 24/11/2026" in body
    assert "Rispondi alla sua mail più recente, o usa la pagina della partita: " in body and "/g/" in body
    assert "Fase: giorno 1, martedì 24 novembre; termina il 24/11/2026" in body


def test_a_reply_that_arrived_before_the_open_phase_began_is_not_moved_into_it(app, factory, game, clock):
    _, worker = game
    email, _ = seat(factory, "Dario")
    letter = _role_letter(factory, email)
    box = mailbox.Maildir(app.config["MAIL_SOURCE"]["path"], create=True)
    key = box.add(message(email, letter.reply_to, "VOTO Anna", reply_to_row=letter))
    with factory() as s:
        day = s.query(PhaseRow).filter_by(kind="day").one()
        began = day.starts_at.replace(tzinfo=timezone.utc).timestamp()
    path = f"{app.config['MAIL_SOURCE']['path']}/new/{key}"
    import os
    os.utime(path, (began - 60, began - 60))  # it reached the mailbox during the night
    run_mail(app, worker)
    assert votes(factory) == []
    (body,) = receipts(factory, email)
    assert "chiusa" in body


def test_same_message_delivered_twice_counts_once(app, factory, game):
    _, worker = game
    email, _ = seat(factory, "Dario")
    sent = latest_sent(factory, email)
    raw = message(email, sent.reply_to, "VOTO Anna", reply_to_row=sent)
    deliver(app, raw)
    deliver(app, raw)
    run_mail(app, worker)
    assert votes(factory) == [("Dario", "Anna", "mail")]
    assert len(receipts(factory, email)) == 1
    with factory() as s:
        assert sorted(r.status for r in s.query(InboundRow)) == ["duplicate", "processed"]


def test_auto_replies_get_no_answer(app, factory, game):
    _, worker = game
    email, _ = seat(factory, "Dario")
    sent = latest_sent(factory, email)
    deliver(app, message(email, sent.reply_to, "Sono in ferie fino a lunedì. VOTO Anna",
                         reply_to_row=sent, subject="Risposta automatica: partita",
                         headers={"Auto-Submitted": "auto-replied"}))
    run_mail(app, worker)
    assert votes(factory) == [] and receipts(factory, email) == []


def test_master_forwards_an_sms_on_behalf_of_a_player(app, factory, game):
    _, worker = game
    dario, _ = seat(factory, "Dario")
    # The Master writes to their own address for the game, from the mail they received.
    own_address = latest_sent(factory, "master@example.org", kind="master_report").reply_to
    deliver(app, message("master@example.org", own_address,
                         "Ciao, questo è arrivato per SMS alle 20:58.\n\nPER: dario\nvoto anna\n"))
    run_mail(app, worker)
    with factory() as s:
        (row,) = s.query(ActionRow).filter_by(kind="vote").all()
        assert (row.seat.name, row.args, row.source, row.source_detail, row.by_user.email) == (
            "Dario", {"vote": "Anna"}, "master", "sms", "master@example.org")
        copy = s.query(OutboxRow).filter_by(to_addr=dario, kind="on_behalf_copy").one()
    assert "Voto: Anna" in copy.body and "Master Mara" in copy.body
    assert "Voto: Anna" in receipts(factory, "master@example.org")[0]


def test_a_vote_that_reached_the_mailbox_before_the_deadline_counts_when_read_after_it(app, factory, game, clock):
    gid, worker = game
    email, _ = seat(factory, "Dario")
    sent = latest_sent(factory, email)
    deadline = datetime(2026, 11, 24, 20, 0, tzinfo=timezone.utc)  # day 1 ends 21:00 in Rome
    box = mailbox.Maildir(app.config["MAIL_SOURCE"]["path"], create=True)
    key = box.add(message(email, sent.reply_to, "VOTO Anna", reply_to_row=sent))
    import os
    path = os.path.join(app.config["MAIL_SOURCE"]["path"], "new", key)
    before = (deadline.timestamp() - 60)  # delivered at 20:59 Rome
    os.utime(path, (before, before))
    late = box.add(message(email, sent.reply_to, "VOTO Carla", reply_to_row=sent))
    after = deadline.timestamp() + 5
    os.utime(os.path.join(app.config["MAIL_SOURCE"]["path"], "new", late), (after, after))
    clock.set(datetime(2026, 11, 24, 20, 0, 30, tzinfo=timezone.utc))  # the worker comes at 21:00:30
    worker.boundaries(read_mail=True)
    assert votes(factory) == [("Dario", "Anna", "mail")]
    bodies = receipts(factory, email)
    assert any("Voto: Carla" in b and "chiusa" in b for b in bodies)
    with factory() as s:
        day = s.query(PhaseRow).filter_by(game_id=gid, kind="day").one()
        assert day.status == "published"


def test_a_question_applies_nothing_and_asks_to_confirm(app, factory, game):
    _, worker = game
    email, _ = seat(factory, "Dario")
    sent = latest_sent(factory, email)
    deliver(app, message(email, sent.reply_to, "Voto Carla?", reply_to_row=sent))
    run_mail(app, worker)
    assert votes(factory) == []
    (body,) = receipts(factory, email)
    assert "«Voto Carla?»: Sembra una domanda: non ho registrato nulla" in body
    assert "riscrivendolo senza il punto interrogativo" in body


def test_the_prose_after_a_command_is_listed_as_ignored(app, factory, game):
    _, worker = game
    email, _ = seat(factory, "Dario")
    sent = latest_sent(factory, email)
    deliver(app, message(email, sent.reply_to, "Voto Carla, mi sembra sospetta\n", reply_to_row=sent))
    run_mail(app, worker)
    assert votes(factory) == [("Dario", "Carla", "mail")]
    (body,) = receipts(factory, email)
    assert "RIGHE IGNORATE\n- «mi sembra sospetta» (dopo il comando nella riga «Voto Carla, mi sembra sospetta»)" in body


def test_an_empty_reply_is_told_it_was_empty_and_nothing_is_read_from_our_subject(app, factory, game):
    _, worker = game
    email, _ = seat(factory, "Dario")
    sent = latest_sent(factory, email)
    # Our own subject names the phase; a subject of ours is never a command.
    deliver(app, message(email, sent.reply_to, "\n-- \nDario\n", reply_to_row=sent, subject="R: " + sent.subject))
    run_mail(app, worker)
    assert votes(factory) == []
    (body,) = receipts(factory, email)
    assert "Il messaggio è vuoto" in body and "non ho registrato nulla" in body


def test_a_questioning_vote_at_night_is_not_invited_to_be_confirmed(app, factory, clock):
    """Issue 31: "Voto Carla?" at night invited a confirmation that was then refused."""
    from tests.support.mail import ROLES
    from tests.support.helpers import make_game
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")  # night 1
    from pbm.worker import Worker
    email, _token = seat(factory, "Dario")
    sent = latest_sent(factory, email, kind="role_letter")
    deliver(app, message(email, sent.reply_to, "Voto Carla?", reply_to_row=sent))
    run_mail(app, Worker(app, clock))
    (body,) = receipts(factory, email)
    assert "confermalo" not in body and "In questa fase questo comando non si può usare" in body
