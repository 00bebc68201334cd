"""Every mail the service can send, as the reader's mail program shows it (issue 21).

Each template of mail_templates/ is made by the service itself (its operations, its
worker's jobs, a bot game of each ruleset: tests/support/botgame.py), in Italian and in
English, sent by the service's sender through a real SMTP server (aiosmtpd), and read
back with ``email.policy.default`` as a client reads it
(tests/support/client_view.py). Each mail:

- names its sender as intended: "Lupus – <the game>" (the dash and the accents of the
  game's name whole) or "Lupus";
- has no line over 998 octets;
- holds no internal text (tests/support/wording.py: codes, dumps, True/False/None,
  ISO dates, unfilled placeholders, the other language's sentences) in its subject,
  its text part or its HTML part;
- speaks of the reader's game in that game's words: its ruleset's name, never
  "di Lupus" in a Complots or Lupus Noctis game, and its own example command, never
  Lupus' "VOTO Carla" in another game.

``DRIVEN`` says which game makes each template; a template folder it does not name
fails ``test_every_template_is_driven``: a new mail is read here from its first day.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from engine.registry import get_ruleset

from pbm import accounts, operations
from pbm.mail import outbound as mailer
from pbm.mail.outbound import digests, outbox
from pbm.operations import rooms
from pbm.talk_models import DIGEST
from pbm.telling import quota_warning, room_digests, room_mail
from pbm.mail.outbound import send as sender
from pbm.operations import signups
from pbm.db import transaction
from pbm.models import Game, OutboxRow, User
from pbm.operations import desk
from pbm.worker import Worker

from tests.support import wording
from tests.support.botgame import GAME_NAME, MASTER, BotGame
from tests.support.client_view import parse_as_client

TEMPLATES = Path(__file__).resolve().parents[2] / "mail_templates"
# A game's name with what a display name must carry whole: accents, an apostrophe,
# the dash the From puts before it is added by the service.
GAME = "Città dell'Orso"
LUPUS = ("lupus-live-12", "tempo-reale-7")
EVERY = LUPUS + ("complots", "lupus-noctis")
WITH_ACCOUNTS = LUPUS + ("complots",)  # at a Lupus Noctis table the players have no account

# Which games make each template (the rulesets whose mail of that kind is read here).
DRIVEN: dict[str, tuple[str, ...]] = {
    "welcome": WITH_ACCOUNTS,             # a player seated with an account
    "role_letter": WITH_ACCOUNTS,         # the game starts
    "receipt": WITH_ACCOUNTS,             # a player's mail, applied
    "reminder": LUPUS,                    # an hour before a calendar deadline
    "phase_results": LUPUS,               # a boundary's bulletin
    "master_report": LUPUS,               # the Masters' account of a moment
    "draft_ready": ("lupus-live-12",),    # the Profeta's question holds the night
    "window": ("complots",),              # a moment of answers
    "master_game_report": ("lupus-noctis",),  # the whole game at a table, once it is over
    "digest": LUPUS,                      # a digest reader's bulletins of the day
    "late_boundary": LUPUS,               # the worker was down at a deadline
    "quota_warning": LUPUS,               # the relay's daily quota will not hold a boundary
    "announcement": LUPUS,                # a Master's remedy (Complots has none)
    "on_behalf_copy": WITH_ACCOUNTS,      # a Master enters a player's move
    "substitute_welcome": WITH_ACCOUNTS,  # a seat handed over
    "substitute_announced": WITH_ACCOUNTS,
    "seat_left": WITH_ACCOUNTS,           # ... and the player who left
    "room_post": WITH_ACCOUNTS,           # a post in a room, to its readers
    "room_digest": WITH_ACCOUNTS,         # ... and to a reader who chose a digest
    "absence_declared": WITH_ACCOUNTS,    # a player will be away
    "deadline_changed": WITH_ACCOUNTS,    # a Master moves the deadline, pauses, resumes
    "master_added": EVERY,                # a co-Master with an account
    "set_password": EVERY,                # a co-Master without one
    "signup_confirm": WITH_ACCOUNTS,      # a sign-up asked for
    "signup_already": WITH_ACCOUNTS,      # ... by an address already seated
    "password_reset": EVERY,              # a reset asked for a known address
}

# Lupus' own words, which no mail of another game may carry.
LUPUS_WORDS = ("di Lupus", "of Lupus", "VOTO Carla", "VOTE Carla")


def test_every_template_is_driven():
    folders = {folder.name for folder in TEMPLATES.iterdir() if folder.is_dir()}
    assert folders == set(DRIVEN), f"not driven here: {sorted(folders - set(DRIVEN))}; " \
                                   f"gone: {sorted(set(DRIVEN) - folders)}"
    for folder in TEMPLATES.iterdir():
        if folder.is_dir():  # both languages of each
            assert {p.name for p in folder.glob("*.it.*")} == {p.name.replace(".en.", ".it.")
                                                               for p in folder.glob("*.en.*")}, folder.name


def _the_extra_mails(game: BotGame, lang: str) -> None:
    """What the bots' play does not make: accounts, sign-ups, substitutes, absences,
    remedies, entries on behalf, co-Masters, resets, a late boundary, the quota's warning
    and a digest, each through the service's own operation."""
    config, now = game.app.config, game.clock.now
    ruleset = game.scenario.ruleset
    with transaction(game.factory) as s:
        g = s.get(Game, game.game_id)
        g.name = GAME
        master = s.scalar(select(User).where(User.email == MASTER[0]))
        operations.add_co_master(s, config, g, email="nora@new.test", name="Nora", lang=lang, by=master, now=now())
        olga, _ = operations.ensure_user(s, email="olga@masters.test", name="Olga", lang=lang)
        olga.set_password("pw-olga")  # an account of her own: the note, not a link
        operations.add_co_master(s, config, g, email="olga@masters.test", name="Olga", lang=lang, by=master,
                               now=now())
        accounts.request_reset(s, config, "master@example.org", "10.0.0.1", now(), lang)
        accounts.request_reset(s, config, "nobody@nowhere.test", "10.0.0.2", now(), lang)
        if ruleset not in WITH_ACCOUNTS:
            return
        seats = sorted(g.seats, key=lambda seat: seat.name)
        first, second = seats[0], seats[1]
        first.user.bulletins = digests.DIGEST
        operations.seats.declare_absence(s, config, g, second, first_day=date(2026, 11, 24), last_day=date(2026, 11, 29),
                                   note="Al mare", now=now())
        # Another game of the same kind, open for sign-ups.
        other = operations.create_game(s, name=GAME + " II", ruleset=ruleset, master=master, now=now())
        operations.add_player(s, config, other, name="Ugo", email="ugo@new.test", now=now(), by=master, lang=lang)
        signup = signups.open_signups(s, other, closes_at=now() + timedelta(days=3), max_players=9, by=master,
                                      now=now())
        signups.request_seat(s, config, signup, name="Vera", email="vera@new.test", lang=lang, client="10.0.0.3",
                             now=now())
        signups.request_seat(s, config, signup, name="Ugo bis", email="ugo@new.test", lang=lang,
                             client="10.0.0.4", now=now())
    # A line the service does not understand gets a receipt too (the bots' own mail
    # makes the others).
    game.send_mail([(first.name, "Buongiorno a tutti", 0)])
    game.play_bots(1)
    with transaction(game.factory) as s:
        g = s.get(Game, game.game_id)
        master = s.scalar(select(User).where(User.email == MASTER[0]))
        seats = sorted(g.seats, key=lambda seat: seat.name)
        phase = game.open_phase()
        state = phase and operations.current_state(g)
        moves = [(seat, form) for seat in seats for form in game.ruleset.forms(state, seat.name)] if state else []
        for seat, form in moves[:1]:
            values = {f.name: sorted(f.choices)[0] for f in form.fields if f.choices and f.required}
            try:
                operations.submit(s, config, g, seat, game.ruleset.form_submission(form, values), source="master",
                                  source_detail="sms", by_user=master, now=now())
            except Exception:  # a move the rules refuse: another try below
                pass
        operations.seats.substitute(s, config, g, seats[-1], email="zoe@new.test", now=now(), by=master, name="Zoe",
                              lang=lang, announced_as="Zoe")
        if any(r.key == "kill" for r in game.ruleset.remedies()):
            desk.intervene(s, config, g, "kill", [seats[2].name], now(), by=master, reason="Assente")
        _talk(s, config, g, seats, now())
        if phase is not None and phase.has_deadline and phase.status == "open":
            desk.extend(s, config, g, phase.ends_at + timedelta(hours=1), now(), master)
            desk.extend(s, config, g, phase.ends_at - timedelta(minutes=1), now(), master)
            desk.pause(s, config, g, now(), master)
            desk.resume(s, config, g, now(), master)


def _talk(s, config, g, seats, now) -> None:
    """A post in the room everyone shares, mailed to its readers, one of whom reads the
    room in a digest (sent with the digests, _digest below)."""
    places = rooms.places(s, g, seats[0])
    if not places:
        return
    key = places[0].key
    reader = rooms.reader_of(s, rooms.room_row(s, g, key, now), seats[1].user)
    rooms.choose_delivery(reader, DIGEST, hours=[8])
    rooms.post(s, config, g, key, "Buongiorno: chi ha sentito qualcosa stanotte?", user=seats[0].user,
               seat=seats[0], now=now)
    room_mail.mail_waiting(s, config, now)  # the worker's, seconds later


def _late_boundary(game: BotGame) -> None:
    """The worker down past a deadline: the boundary is late."""
    phase = game.open_phase()
    if phase is not None and phase.ends_at.year < 9999:
        ends = phase.ends_at
        worker = Worker(game.app, game.clock)
        game.clock.set(ends + timedelta(minutes=30))
        worker.boundaries()
        operations.settle(game.factory, game.app.config, game.game_id, game.clock.now())


def _digest(game: BotGame) -> None:
    """The digest of a reader who chose it, the next day at its hour."""
    game.clock.set(game.clock.now() + timedelta(days=1))
    with transaction(game.factory) as s:
        digests.send_due(s, game.app.config, game.clock.now())
        room_digests.send_due(s, game.app.config, game.clock.now())


def _quota_warning(game: BotGame) -> None:
    """A daily quota that holds the Masters' warnings but not the next boundary's mail
    (everything so far sent: the quota counts what went today)."""
    from pbm.mail.outbound.relay_limits import Limits, used_today
    config = {**game.app.config, "MAIL_DAILY_QUOTA": 10_000}
    with transaction(game.factory) as s:
        used = used_today(s, Limits.from_config(config), game.clock.now())
        quota_warning.warn_masters(s, {**config, "MAIL_DAILY_QUOTA": used + 5}, game.clock.now())


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("ruleset", EVERY)
def test_every_mail_reads_right_in_a_mail_program(tmp_path, smtp_server, monkeypatch, ruleset, lang):
    # Which template made each message (a kind may stand for two: "signup" is the
    # confirmation or the note to an address already seated): noted as the service
    # composes it, the message itself left as it was made.
    made_by: dict[str, str] = {}
    compose = mailer.compose

    def noting(*args, **kwargs):
        message = compose(*args, **kwargs)
        made_by[message["message_id"]] = kwargs["template"]
        return message
    monkeypatch.setattr(mailer, "compose", noting)           # a boundary's many (mailer.compose)
    monkeypatch.setattr(outbox, "compose", noting)           # one message (mailer.queue)
    scenario = replace(wording.GAMES[ruleset], lang=lang, max_steps=2)
    game = BotGame("A", tmp_path / "game", scenario, MAIL_PORT=smtp_server.port)
    _the_extra_mails(game, lang)
    for step in range(1, scenario.max_steps + 1):
        if step > 1:  # the first moment's moves: _the_extra_mails
            game.play_bots(step)
        game.advance()
        if game.held():
            game.publish_drafts()
    while scenario.at_table and not game.over() and step < 40:  # the narrator's report comes at the end
        step += 1
        game.play_bots(step)
        game.advance()
    factory = game.app.extensions["pbm_sessions"]
    sent = 0
    for then in (_late_boundary, _quota_warning, _digest):
        then(game)
        sent += sender.drain(game.app, factory, game.clock.now())
    with factory() as s:
        rows = {r.message_id: r for r in s.scalars(select(OutboxRow))}
        games = {g.id: g.ruleset for g in s.scalars(select(Game))}
        names = {f"Lupus – {g.name}" for g in s.scalars(select(Game))} | {"Lupus", f"Lupus – {GAME}",
                                                                          f"Lupus – {GAME_NAME}"}
        assert [r.kind for r in rows.values() if r.status not in ("sent", "digested")] == []
    received = smtp_server.wait_for(sent)
    kinds, faults, senders = set(), [], set()
    for message in received:
        row = rows[str(message.message["Message-ID"])]
        # A room's post is composed once per language, then given each reader's own
        # Message-ID: its kind is its template's name.
        template = made_by.get(row.message_id) or row.kind
        kinds.add(template)
        view = parse_as_client(message.raw)
        senders.add(view.from_name)
        where = f"{template} to {row.to_addr}"
        faults += [f"{where}: {p}" for p in view.problems]
        # A subject folded before its first word reads with a space in front (issue 31).
        if view.subject != view.subject.strip():
            faults.append(f"{where}: the subject reads {view.subject!r}")
        # A post comes from its author's name and the game's: "Anna (Città dell'Orso)".
        if view.from_name not in names and not (template == "room_post" and view.from_name.endswith(f" ({GAME})")):
            faults.append(f"{where}: the sender reads {view.from_name!r}")
        for piece in [view.subject, *view.text.splitlines(), *wording.html_text(view.html or "")]:
            faults += [f"{where}: {p}" for p in wording.problems(piece, lang)]
        # The game's own words (the other game beside it is a Lupus game).
        if games.get(row.game_id, ruleset) not in LUPUS:
            faults += [f"{where}: Lupus' words {w!r}" for w in LUPUS_WORDS if w in view.text]
        if "di Lupus" in view.text or "of Lupus" in view.text:
            faults.append(f"{where}: names the game's kind as Lupus, not by its ruleset")
    assert not faults, "\n".join(dict.fromkeys(faults))
    assert f"Lupus – {GAME}" in senders and f"[{GAME}]" in " ".join(str(m.message["Subject"]) for m in received)
    wanted = {kind for kind, games in DRIVEN.items() if ruleset in games}
    assert wanted <= kinds, f"not sent: {sorted(wanted - kinds)}"
    # The game's kind and its example, where the mail speaks of playing by mail.
    texts = {str(m.message["Message-ID"]): m.message.get_body(("plain",)).get_content() for m in received}
    rules = get_ruleset(ruleset)
    name, example = rules.names.get(lang) or rules.names["it"], rules.welcome(lang)["example"]
    ours = {mid: text for mid, text in texts.items() if games.get(rows[mid].game_id) == ruleset}
    for kind in ("welcome", "role_letter", "reminder", "on_behalf_copy", "substitute_welcome"):
        for mid, text in ours.items():
            if made_by.get(mid) == kind:
                assert example in text, (kind, text)
    for kind in ("master_added", "signup_confirm", "signup_already", "welcome", "set_password"):
        for mid, text in ours.items():
            if made_by.get(mid) == kind:
                assert name in text, (kind, name, text)
