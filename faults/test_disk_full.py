"""The SQLite database full (SQLite's page limit, as a full disk behaves):
a boundary, a vote by web and a vote by mail each fail whole, the voter is
told it was not recorded, the mail stays in the mailbox; once there is room,
every phase is resolved once, every mail queued once, every vote stored once."""
from __future__ import annotations

import mailbox
import os
from email.message import EmailMessage
from email.utils import make_msgid

from sqlalchemy import event, select
from sqlalchemy.exc import OperationalError

from pbm.models import ActionRow, EventRow, OutboxRow, PhaseRow, Seat
from pbm.worker import Worker
from tests.support.forms import forms_of
from tests.support.helpers import login, make_game
from tests.support.mail import ROLES, TUESDAY_0930_ROME, run_mail

DAY_1_OVER = TUESDAY_0930_ROME.replace(hour=20, minute=1)  # 21:01 in Rome


def snapshot(factory) -> tuple:
    with factory() as s:
        return (sorted((p.id, p.status) for p in s.query(PhaseRow)), s.query(EventRow).count(),
                s.query(OutboxRow).count(), s.query(ActionRow).count())


def test_the_database_full(make_app, clock, report):
    app = make_app()
    if not app.config["DATABASE_URL"].startswith("sqlite"):
        import pytest
        pytest.skip("the page limit is SQLite's")
    factory = app.extensions["pbm_sessions"]
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    worker = Worker(app, clock)
    clock.set(TUESDAY_0930_ROME)
    worker.boundaries()  # night 1 -> day 1
    engine = app.extensions["pbm_engine"]
    limit = {"pages": None}

    @event.listens_for(engine, "connect")
    def _cap(dbapi_conn, _record):
        if limit["pages"] is not None:
            dbapi_conn.execute(f"PRAGMA max_page_count = {limit['pages']}")

    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE fault_filler (b BLOB)")
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar()
    limit["pages"] = pages + 8
    engine.dispose()
    # Fill every page there is room for (a disk that fills up as the games go on).
    for size in (4000, 400, 40, 4):
        while True:
            try:
                with engine.begin() as conn:
                    conn.exec_driver_sql(f"INSERT INTO fault_filler VALUES (randomblob({size}))")
            except OperationalError:
                break

    refused = {}
    # A vote by web: refused in words.
    anna = login(app, "anna@players.test", "pw-anna")
    snapshot(factory)
    page = anna.get("/g/test-game/me").get_data(as_text=True)
    with factory() as s:
        token = s.query(Seat).filter_by(game_id=gid, name="Dario").one().token
    form = forms_of(page)["form-vote"]
    r = anna.post(form.action, data={**form.hidden, "vote-vote": "Carla"})
    web_text = r.get_data(as_text=True)
    web_refused = r.status_code == 503
    told = "NOT recorded" in web_text or "NON è stato registrato" in web_text or "non è stato" in web_text.lower()
    refused["web vote"] = f"refused ({r.status_code}), {'told so' if told else 'NOT told'}" if web_refused \
        else f"accepted ({r.status_code})"
    # A vote by mail: stays in the mailbox.
    msg = EmailMessage()
    msg["From"], msg["To"] = "dario@players.test", f"lupus+{token}@lupus.localhost"
    msg["Subject"], msg["Message-ID"] = "Re: voto", make_msgid(domain="players.test")
    # Quoting the bulletin, as replies do: more than a page to store.
    msg.set_content("VOTO Anna\n\n" + "> Il bollettino della notte, riga per riga.\n" * 200)
    path = app.config["MAIL_SOURCE"]["path"]
    key = mailbox.Maildir(path, create=True).add(bytes(msg))
    arrived = (TUESDAY_0930_ROME.timestamp() + 3600)  # reached the mailbox during day 1
    os.utime(os.path.join(path, "new", key), (arrived, arrived))
    try:
        run_mail(app, worker)
        refused["mail"] = "accepted"
    except OperationalError as exc:
        refused["mail"] = "refused: " + str(exc.orig)[:40]
    # The boundary: all or nothing.
    clock.set(DAY_1_OVER)
    before_boundary = snapshot(factory)
    try:
        worker.boundaries()
        refused["boundary"] = "resolved"
    except OperationalError as exc:
        refused["boundary"] = "refused: " + str(exc.orig)[:40]
    half_written = refused["boundary"] != "resolved" and snapshot(factory) != before_boundary

    limit["pages"] = None  # room again
    engine.dispose()
    run_mail(app, worker)
    worker.boundaries()
    with factory() as s:
        phases = [(p.kind, p.number, p.status) for p in s.query(PhaseRow).order_by(PhaseRow.index)]
        day1 = s.query(PhaseRow).filter_by(game_id=gid, kind="day", number=1).one()
        day_votes = {a.seat.name: a.args["vote"] for a in s.query(ActionRow).filter_by(phase_id=day1.id)}
        results = s.query(OutboxRow).filter_by(kind="phase_results", phase_id=s.scalar(
            select(PhaseRow.id).where(PhaseRow.game_id == gid, PhaseRow.kind == "night",
                                      PhaseRow.number == 2))).count()
    expected_votes = {"Dario": "Anna"} if web_refused else {"Anna": "Carla", "Dario": "Anna"}
    report("SQLite database full",
           **{"web vote while full": refused["web vote"],
              "mail vote while full": refused["mail"], "boundary while full": refused["boundary"],
              "anything half-written": half_written,
              "phases after room is back": ", ".join(f"{k} {n}: {st}" for k, n, st in phases),
              "day 1 votes expected": ", ".join(f"{k}->{v}" for k, v in sorted(expected_votes.items())),
              "day 1 votes stored": ", ".join(f"{k}->{v}" for k, v in sorted(day_votes.items())),
              "night 2 results mailed (expected 5)": results})
    assert not web_refused or told
    assert not half_written
    # A refused boundary says why: the full disk, not what undoing it then met.
    assert refused["boundary"] == "resolved" or "full" in refused["boundary"]
    assert day_votes == expected_votes  # the mail vote applied once, the web vote once or told
    assert [st for _, _, st in phases] == ["published", "published", "open"]
    assert results == len(ROLES)
