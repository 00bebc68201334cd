"""Whole games of any ruleset played by bots through the service, and everything each
viewer can read of them: the harness the leak scanner (tests/security/leak_scanner.py)
is built on, and any other scan of what people read (the wording, the pages' shape).

``BotGame`` is one service (its own database, mailbox and clock) with the game of a
``Scenario`` and another game beside it (for the outsiders). Its bots play every
moment through the service's own ways in: the operations, the reserved area's real
forms (``by_web``), mail the worker reads (``by_mail``); at a table (Lupus Noctis,
``at_table``) the narrator taps every call and vote. Then the clock passes the
boundary (the reminders an hour before, the worker's resolution), and a draft the
Masters must settle is settled.

What people read comes out as ``Read`` values (viewer, kind, where, status, text):

- ``reads(game, plan, mails_seen)``: the pages of a plan ([(viewer, path)]), the page
  each player got back after a form, and each viewer's new mail. The viewers:
  ``anonymous``, ``outsider`` and ``other_master`` (another game's player and
  Master), each player of the game (alive or dead), ``master`` (this game's Master,
  the narrator at a table) and, at a table, ``table``: what the narrator's page tells
  the narrator to read aloud, which every player at the table hears;
- ``every_read(scenario, folder)``: a whole game played to its end, every viewer
  reading every page of the URL map about the game at every step: ``(step, moment,
  Read)`` for each, in order. A scan of every page and mail is a loop over it.
"""
from __future__ import annotations

import hashlib
import html
import mailbox
import random
import re
from dataclasses import dataclass, field, replace
from datetime import timedelta, timezone
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Callable, Iterator

from sqlalchemy import select

from engine.core import GameState, Rejected
from engine.interface import IdentifyTap
from engine.registry import get_ruleset
from engine.rooms import Access

from pbm import operations
from pbm.mail import outbound
from pbm.app import create_app
from pbm.clock import FixedClock
from pbm.db import transaction
from pbm.mail.sources import open_source
from pbm.migrate import upgrade
from pbm.operations import desk, rooms, seasons, table
from pbm.models import Game, GameMaster, GameStatus, InboundRow, OutboxRow, PhaseRow, PhaseStatus, Seat, User
from pbm.worker import Worker

from tests.conftest import MONDAY_10_ROME, csrf_from
from tests.support.forms import forms_of

MASTER = ("master@example.org", "master")
OTHER_MASTER = ("other.master@example.org", "master")
OUTSIDER = ("zeno@other.test", "pw-zeno")
GAME_NAME = "Partita scansionata"
# The viewer who hears what the narrator reads aloud at a table.
TABLE = "table"

# GET routes that are about no game (or need a secret link): not read.
SKIPPED_RULES = {"/static/<path:filename>", "/healthz", "/login", "/password-reset",
                 "/password-reset/<token>", "/join/<token>", "/join/<token>/confirm/<signed>",
                 "/account/password", "/master/new"}

# --------------------------------------------------------------------------- what to play

@dataclass
class Scenario:
    """One game of one ruleset and how the bots play it; for the leak scanner, one
    secret of it, and how to play around it.

    ``setup`` gives, for a side ("A" or "B"; a game played alone is "A"), the keyword
    arguments of ``operations.start_game`` (roles, mayor, options), or at a table
    ``{"identities": {role: [names]}}`` (the first night's taps): the two sides must
    differ only in the secret. ``knowers``: the players the rules let know it
    (besides the Masters).
    ``spared``: players no bot ever names. ``secret_actors``: players whose secret
    moves are drawn differently on each side (the secret is where they aim)."""

    name: str
    ruleset: str
    players: list[str]
    setup: Callable[[str], dict[str, Any]]
    knowers: set[str]
    spared: set[str] = field(default_factory=set)
    secret_actors: set[str] = field(default_factory=set)
    # The kinds a role's holder submits in secret (a night power): drawn from the role,
    # so the power strikes the same whoever holds it. Every other kind (votes, the
    # Sindaco's election, shouts, rituals) is drawn from the seat.
    secret_kinds: tuple[str, ...] = ("power",)
    skip_kinds: tuple[str, ...] = ()
    choose: Callable[..., dict[str, Any] | None] | None = None  # a ruleset's own bot
    max_steps: int = 4
    viewers_per_step: int = 2
    endgame_steps: int = 30  # after max_steps, with nobody spared, until the game ends
    game_options: dict[str, Any] = field(default_factory=dict)  # create_game's keywords
    forgetful: float = 0.2  # how often a form is left unsent
    by_mail: set[str] = field(default_factory=set)  # players who send their moves by mail
    by_web: set[str] = field(default_factory=set)  # players who use their page's forms
    at_table: bool = False  # players without accounts; the narrator's page drives the game
    # At a table: the faces the narrator taps for a power's call, (side, step, call) ->
    # taps, or None for the bots' draw (from the role, never a spared player).
    taps: Callable[[str, int, Any], list[str] | None] | None = None
    # Pages (their paths' endings) whose rules keep the secret after the game too (the
    # night's choices in the summary of a game at the table): still compared at the end.
    secret_at_the_end: tuple[str, ...] = ()
    # Everybody's language: the accounts' (their mail) and the browsers' (the pages).
    lang: str = "it"
    # The players write in the rooms they may write in, every step (``BotGame.talk``).
    talk: bool = True



# --------------------------------------------------------------------------- one service

class BotGame:
    """One service with the scenario's game, another game (for the outsiders), its clock."""

    def __init__(self, label: str, folder: Path, scenario: Scenario, **config: Any) -> None:
        """``config``: settings of the service beyond the harness's own (a relay's port)."""
        self.label, self.scenario = label, scenario
        folder.mkdir(parents=True)
        url = f"sqlite:///{folder / 'db.sqlite3'}"
        upgrade(url)
        self.clock = FixedClock(MONDAY_10_ROME)
        self.app = create_app({
            "DATABASE_URL": url, "TESTING": True, "BASE_URL": "http://lupus.test",
            "MAIL_SOURCE": {"kind": "maildir", "path": str(folder / "maildir")},
            "LOCAL_MAILBOX": str(folder / "sent-mail"), **config,
        }, instance=folder, clock=self.clock)
        self.app.config["PROPAGATE_EXCEPTIONS"] = False  # a crash is a 500 read, not a stop
        self.factory = self.app.extensions["pbm_sessions"]
        self.ruleset = get_ruleset(scenario.ruleset)
        self._other_game()
        self.group_slug = self.season_slug = "none"
        self.game_id, self.slug = self._played_game()
        self.clients: dict[str, Any] = {}
        self.answers: list[tuple[str, str, str]] = []  # (player, what was sent, the page after)

    def _master(self, email: str, password: str) -> None:
        with transaction(self.factory) as s:
            user, _ = operations.ensure_user(s, email=email, name="Master " + email.split("@")[0],
                                             lang=self.scenario.lang)
            user.set_password(password)
            user.is_admin = True

    def _other_game(self) -> None:
        self._master(*OTHER_MASTER)
        now = self.clock.now()
        with transaction(self.factory) as s:
            master = s.scalar(select(User).where(User.email == OTHER_MASTER[0]))
            game = operations.create_game(s, name="Altra partita", ruleset="lupus-live-12",
                                          master=master, now=now, seed="altra")
            for name in ("Zeno", "Ugo", "Vera"):
                email = OUTSIDER[0] if name == "Zeno" else f"{name.lower()}@other.test"
                operations.add_player(s, self.app.config, game, name=name, email=email, now=now,
                                      by=master, password=f"pw-{name.lower()}", lang=self.scenario.lang)
            operations.start_game(s, self.app.config, game, now=now, by=master, options={"mayor": "Ugo"},
                                  roles={"Zeno": "Lupo Mannaro", "Ugo": "Contadino", "Vera": "Veggente"})

    def _played_game(self) -> tuple[int, str]:
        self._master(*MASTER)
        now = self.clock.now()
        with transaction(self.factory) as s:
            master = s.scalar(select(User).where(User.email == MASTER[0]))
            game = operations.create_game(s, name=GAME_NAME, ruleset=self.scenario.ruleset, master=master,
                                          now=now, seed="the-same-seed-on-both-sides",
                                          **self.scenario.game_options)
            if self.scenario.at_table:
                # Lupus Noctis at a table: seats without accounts, cards dealt on paper,
                # the narrator (this game's Master) taps who is who on the first night.
                for i, name in enumerate(self.scenario.players):
                    table.seat_at_table(s, game, name=name, photo=a_photo() if i == 0 else None,
                                        now=now, by=master)
                table.start_at_table(s, self.app.config, game, composition=None, now=now, by=master)
            else:
                # The game is one of a group's season: the statistics' pages are read too.
                group = seasons.create_group(s, name="Circolo scansionato", owner=master, now=now)
                season = seasons.add_season(s, group, name="Stagione scansionata", by=master, now=now)
                seasons.place_game(s, game, season.id, fair_deal=False, by=master, now=now)
                self.group_slug, self.season_slug = group.slug, season.slug
                for name in self.scenario.players:
                    operations.add_player(s, self.app.config, game, name=name, email=player_email(name),
                                          now=now, by=master, password=player_password(name),
                                          lang=self.scenario.lang)
                operations.start_game(s, self.app.config, game, now=now, by=master,
                                      **self.scenario.setup(self.label))
            return game.id, game.slug

    # -- who reads ----------------------------------------------------------------
    def client(self, viewer: str):
        """A browser logged in as ``viewer`` (kept for the whole game)."""
        if viewer not in self.clients:
            self.clients[viewer] = self.app.test_client()
            self.clients[viewer].environ_base["HTTP_ACCEPT_LANGUAGE"] = self.scenario.lang
            email, password = credentials(viewer)
            if email is not None:
                c = self.clients[viewer]
                page = c.get("/login").get_data(as_text=True)
                r = c.post("/login", data={"csrf_token": csrf_from(page), "email": email,
                                           "password": password})
                assert r.status_code == 302, f"{self.label}: {viewer} cannot log in"
        return self.clients[viewer]

    def paths(self, pick: int | None = None) -> list[str]:
        """Every GET page of the URL map about this game, its arguments filled from it.
        ``pick``: one value of each many-valued argument (a seat, a phase) instead of
        all, chosen by ``pick`` in turn, for the quick scan."""
        with self.factory() as s:
            game = s.get(Game, self.game_id)
            published = s.scalars(select(PhaseRow).where(
                PhaseRow.game_id == self.game_id, PhaseRow.status == PhaseStatus.PUBLISHED)).all()
            values = {
                "slug": [self.slug],
                "name": [seat.name for seat in game.seats],
                "seat_id": [seat.id for seat in game.seats],
                # The archive numbers published phases from 1; one past the end must not
                # show the phase still open (or its draft).
                "n": list(range(1, len(published) + 2)),
                "inbound_id": list(s.scalars(select(InboundRow.id).where(InboundRow.game_id == self.game_id))),
                # Every room the rules may give (whoever is in it now: the page answers
                # those who are not), and the polling endpoint from the start. No
                # whisper: its key is of chance, another on each side.
                "key": [spec.key for spec in rooms.rooms_of(game).specs()] if rooms.rooms_of(game) else ["piazza"],
                "after": ["0"],
                # The statistics' pages of the game's group and season, and of its players.
                "group_slug": [self.group_slug], "season_slug": [self.season_slug],
                "fmt": ["json", "csv"], "user_id": [seat.user_id for seat in game.seats if seat.user_id],
            }
        if pick is not None:
            values = {k: v if len(v) < 2 else [v[pick % len(v)]] for k, v in values.items()}
            values["n"] = sorted({values["n"][0], len(published), len(published) + 1} - {0})
        out = []
        for rule in sorted(self.app.url_map.iter_rules(), key=lambda r: r.rule):
            if "GET" not in rule.methods or rule.rule in SKIPPED_RULES:
                continue
            fillings = [{}]
            for arg in rule.arguments:
                if arg not in values:
                    raise AssertionError(f"{rule.rule}: the harness cannot fill <{arg}>; teach it")
                fillings = [{**f, arg: v} for f in fillings for v in values[arg]]
            for filling in fillings:
                path = rule.rule
                for arg, v in filling.items():
                    path = re.sub(r"<(?:[^:<>]+:)?" + arg + ">", str(v), path)
                out.append(path)
        return out

    def page(self, viewer: str, path: str) -> tuple[int, str]:
        r = self.client(viewer).get(path)
        if r.mimetype and r.mimetype.startswith("image/") and r.mimetype != "image/svg+xml":
            return r.status_code, "image " + hashlib.sha256(r.data).hexdigest()
        if r.mimetype in ("application/zip", "application/wasm", "application/octet-stream", "text/javascript"):
            # The narrator's offline page's engine package and service worker (code, the
            # same for every game and reader, as the static files the scan skips).
            return r.status_code, "binary " + hashlib.sha256(r.data).hexdigest()
        return r.status_code, r.get_data(as_text=True)

    def mails(self, viewer: str) -> list[tuple[str, str, str, str, str]]:
        email, _ = credentials(viewer)
        with self.factory() as s:
            rows = s.scalars(select(OutboxRow).where(OutboxRow.to_addr == email).order_by(OutboxRow.id)).all()
            return [(r.kind, r.subject, r.body, r.html or "", "this game" if r.game_id == self.game_id
                     else "another game") for r in rows]


    def own_strings(self, viewer: str) -> list[str]:
        """What is the viewer's own and differs between the two services by chance."""
        email, _ = credentials(viewer)
        with self.factory() as s:
            user = s.scalar(select(User).where(User.email == email)) if email else None
            if user is None:
                return []
            mine = list(s.scalars(select(Seat).where(Seat.user_id == user.id)))
            mastered = list(s.scalars(select(GameMaster).where(GameMaster.user_id == user.id)))
            mine += list(s.scalars(select(Seat).where(Seat.game_id.in_([g.game_id for g in mastered]))))
            return [seat.token for seat in mine] + [g.token for g in mastered if g.token]

    # -- the game --------------------------------------------------------------------
    def open_phase(self) -> PhaseRow | None:
        with self.factory() as s:
            phase = operations.current_phase(s, s.get(Game, self.game_id))
            if phase is None or phase.status != PhaseStatus.OPEN:
                return None
            s.expunge(phase)
            return phase

    def over(self) -> bool:
        with self.factory() as s:
            return s.get(Game, self.game_id).status == GameStatus.OVER

    def status(self) -> str:
        with self.factory() as s:
            game = s.get(Game, self.game_id)
            phase = operations.current_phase(s, game)
            return f"{game.status} {phase.index if phase else '-'} {phase.kind if phase else ''} " \
                   f"{phase.status if phase else ''}"

    def play_bots(self, step: int) -> list[tuple[str, dict[str, Any]]]:
        """Every player's move for the open moment (the same on both sides)."""
        phase = self.open_phase()
        if phase is None:
            return []
        if self.scenario.at_table:
            return self.narrate(step)
        state = GameState.from_dict(phase.state_before)
        moves = []
        for player in self.scenario.players:
            for form in self.ruleset.forms(state, player):
                # Now and then nothing is sent (the reminders and the defaults are read
                # too): drawn like the move itself, from the role for a night power.
                who = state.player(player).role if form.kind in self.scenario.secret_kinds else player
                if draw(step, who, form.kind, "forgets").random() < self.scenario.forgetful:
                    continue
                if form.kind in self.scenario.skip_kinds:
                    continue
                submission = bot_move(self, state, player, form, step)
                if submission is None:
                    continue
                moves.append((player, form.kind, submission))
        done, mails = [], []
        for player, kind, submission in moves:
            command = mail_command(self.ruleset, submission) if player in self.scenario.by_mail else None
            if command is not None:
                mails.append((player, command, step))
                done.append((player, {"mail": command}))
                continue
            if player in self.scenario.by_web and self.post_form(player, kind, submission):
                done.append((player, {"web": submission}))
                continue
            try:
                with transaction(self.factory) as s:
                    game = s.get(Game, self.game_id)
                    operations.submit(s, self.app.config, game, game.seat_by_name(player), submission,
                                      source="web", now=self.clock.now())
            except Rejected as refused:  # a bot's clumsy move, refused alike on both sides
                submission = {**submission, "refused": refused.code}
            done.append((player, submission))
        if mails:
            self.send_mail(mails)
        if self.scenario.talk:
            done += self.talk(step)
        return done

    def talk(self, step: int) -> list[tuple[str, dict[str, Any]]]:
        """Each player's word in every room of the rules they may write in now, through
        the operation every door ends in: the same words on both sides, by seat, so a
        room's posts are its members' whoever they are."""
        done = []
        with transaction(self.factory) as s:
            game = s.get(Game, self.game_id)
            for seat in game.seats:
                if seat.user is None:
                    continue
                for place in rooms.places(s, game, seat):
                    if place.access < Access.WRITE or place.whisper_names:
                        continue
                    rooms.post(s, self.app.config, game, place.key, f"{seat.name} in {place.key}, al passo {step}",
                               user=seat.user, seat=seat, now=self.clock.now())
                    done.append((seat.name, {"post": place.key}))
        return done

    def post_form(self, player: str, kind: str, submission: dict[str, Any]) -> bool:
        """The move sent through the form of the player's reserved area that carries
        ``kind``, as a browser without JavaScript sends it; False when the page has no
        such form or a field for every value (the bot then uses the operations)."""
        client = self.client(player)
        page = client.get(f"/g/{self.slug}/me").get_data(as_text=True)
        form = next((f for f in forms_of(page).values()
                     if kind in f.hidden.get(f.id.removeprefix("form-") + "-kind", "").split("+")), None)
        if form is None:
            return False
        prefix = form.id.removeprefix("form-")
        values = {k: v for k, v in submission.items() if k != "kind"}
        if not all(f"{prefix}-{k}" in form.names() for k in values):
            return False
        data: dict[str, Any] = {**form.hidden, **{f"{prefix}-{k}": v for k, v in values.items()}}
        page = client.post(form.action, data=data, follow_redirects=True).get_data(as_text=True)
        if 'class="flash receipt' not in page and 'class="flash error' not in page:
            raise AssertionError(f"{player}'s form for {kind} got no answer")
        self.answers.append((player, f"POST {form.action} ({kind})", page))
        return True

    def send_mail(self, mails: list[tuple[str, str, int]]) -> None:
        """The players' commands as they would write them, into the mailbox the worker
        reads, answering the address of their own mail; then one round of the worker."""
        folder = mailbox.Maildir(self.app.config["MAIL_SOURCE"]["path"], create=True)
        lines: dict[str, list[str]] = {}
        steps: dict[str, int] = {}
        for player, command, step in mails:  # one mail per player, a command a line
            lines.setdefault(player, []).append(command)
            steps[player] = step
        with self.factory() as s:
            game = s.get(Game, self.game_id)
            for player, commands in lines.items():
                command = "\n".join(commands)
                msg = EmailMessage()
                msg["From"] = player_email(player)
                msg["To"] = outbound.player_address(self.app.config, game.seat_by_name(player))
                msg["Subject"] = f"Re: {GAME_NAME}"
                msg["Message-ID"] = f"<{steps[player]}.{player.lower()}@players.test>"
                msg.set_content(command + "\n")
                folder.add(bytes(msg))
        source = open_source(self.app.config["MAIL_SOURCE"])
        try:
            Worker(self.app, self.clock).mail_once(source)
        finally:
            source.close()

    def narrate(self, step: int) -> list[tuple[str, Any]]:
        """The narrator's phone: tonight's calls tapped in order (who is who on the
        first night, from the side's deal; each power's target drawn from the role),
        or each living player's vote by day (drawn from the seat), then confirm."""
        sc, done = self.scenario, []
        identities = sc.setup(self.label)["identities"]
        with transaction(self.factory) as s:
            game = s.get(Game, self.game_id)
            master = s.scalar(select(User).where(User.email == MASTER[0]))
            phase = operations.current_phase(s, game)
            script = table.script_of(game, phase)
            while script and (at := table.next_call(game, phase)) is not None:
                call, tap = script[at], script[at].tap
                if isinstance(tap, IdentifyTap):
                    taps = identities[call.role]
                elif sc.taps is not None and (chosen := sc.taps(self.label, step, call)) is not None:
                    taps = chosen
                else:
                    actor = tap.actor
                    choices = sorted(c for c in tap.choices if c not in sc.spared and c != actor)
                    rng = draw(step, call.role, self.label if actor in sc.secret_actors else "")
                    taps = [rng.choice(choices)] if actor is not None and choices else []
                    if not taps and actor is not None and not tap.optional:
                        taps = [sorted(tap.choices)[0]]
                table.record_call(s, self.app.config, game, index=at, taps=taps, now=self.clock.now(), by=master)
                done.append((call.role, taps))
            if not script:
                for seat, _key, choices in table.voters(game, phase):
                    options = sorted(c for c in choices if c not in sc.spared and c != seat.name)
                    if options:
                        choice = draw(step, seat.name).choice(options)
                        table.record_vote(s, self.app.config, game, voter=seat.name, choice=choice,
                                          now=self.clock.now(), by=master)
                        done.append((seat.name, choice))
            phase_id, master_id = phase.id, master.id
        table.close_moment(self.factory, self.app.config, self.game_id, phase_id=phase_id,
                           now=self.clock.now(), by_user_id=master_id)
        return done

    def advance(self) -> None:
        """Past the open moment's end: the reminders an hour before, then the worker
        resolves it (answer windows that everybody has answered close at once)."""
        was = self.open_phase()
        operations.settle(self.factory, self.app.config, self.game_id, self.clock.now())
        phase = self.open_phase()
        # Only the moment the bots played in runs out: the one a last answer opened
        # now waits for its own moves.
        if phase is not None and was is not None and phase.id == was.id and phase.ends_at.year < 9999:
            ends = phase.ends_at if phase.ends_at.tzinfo else phase.ends_at.replace(tzinfo=timezone.utc)
            worker = Worker(self.app, self.clock)
            # An hour before the deadline: the reminders to whoever has not acted.
            self.clock.set(max(self.clock.now(), ends - timedelta(hours=1)))
            worker.remind()
            self.clock.set(max(self.clock.now(), ends + timedelta(seconds=1)))
            worker.boundaries()
            operations.settle(self.factory, self.app.config, self.game_id, self.clock.now())

    def held(self) -> bool:
        """A resolved moment waits for the Masters (a question only they answer)."""
        with self.factory() as s:
            return s.scalar(select(PhaseRow.id).where(PhaseRow.game_id == self.game_id,
                                                      PhaseRow.status == PhaseStatus.DRAFT)) is not None

    def declare_draw(self) -> None:
        with transaction(self.factory) as s:
            game = s.get(Game, self.game_id)
            master = s.scalar(select(User).where(User.email == MASTER[0]))
            offered = {r.key for r in self.ruleset.remedies()}
            action = "draw" if "draw" in offered else "end"  # "end" with no winner: a draw
            desk.intervene(s, self.app.config, game, action, [], self.clock.now(), by=master)

    def publish_drafts(self) -> None:
        """The Master answers what the draft asks of them ("yes" to every question of a
        player) and publishes it."""
        with transaction(self.factory) as s:
            game = s.get(Game, self.game_id)
            master = s.scalar(select(User).where(User.email == MASTER[0]))
            for phase in s.scalars(select(PhaseRow).where(PhaseRow.game_id == self.game_id,
                                                          PhaseRow.status == PhaseStatus.DRAFT)):
                asked = {p["data"]["player"]: "yes" for p in phase.pending or []
                         if p.get("blocking") and "player" in (p.get("data") or {})}
                if asked:
                    desk.answer_pending(s, self.app.config, game, phase, {"answers": asked},
                                        self.clock.now(), by=master)
                if phase.status == PhaseStatus.DRAFT:
                    operations.publish(s, self.app.config, game, phase, self.clock.now(), by=master)



def mail_command(ruleset: Any, submission: dict[str, Any]) -> str | None:
    """A submission of one key as a line of mail ("VOTO Anna"), if the ruleset's
    vocabulary has a word for it; None: the bot uses the web instead."""
    keys = [k for k in submission if k != "kind"]
    if len(keys) != 1 or "kind" in submission:
        return None
    key, value = keys[0], submission[keys[0]]
    words = [k for k in ruleset.vocabulary().keywords_for(key)
             if k.value in ("name", "text", "choice") and not k.fixed and not k.verb]
    if not words or not isinstance(value, str):
        return None
    return f"{words[0].it[0]} {value}"


def a_photo() -> bytes:
    """A selfie for a seat at the table (the narrator's photo route)."""
    import io

    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", (64, 64), (200, 120, 40)).save(out, "JPEG")
    return out.getvalue()


def player_email(name: str) -> str:
    return f"{name.lower()}@players.test"


def player_password(name: str) -> str:
    return f"pw-{name.lower()}"


def credentials(viewer: str) -> tuple[str | None, str | None]:
    return {"anonymous": (None, None), "master": MASTER, "other_master": OTHER_MASTER,
            "outsider": OUTSIDER}.get(viewer) or (player_email(viewer), player_password(viewer))


# --------------------------------------------------------------------------- the bots

def draw(*parts: Any) -> random.Random:
    return random.Random(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest())


def bot_move(side: BotGame, state: GameState, player: str, form: Any, step: int) -> dict[str, Any] | None:
    """A move for one form: drawn from the seat for a public kind, from the role for a
    secret one (so whoever holds a power, it strikes the same), never naming a spared
    player; the secret actors draw differently on each side."""
    sc = side.scenario
    if sc.choose is not None:
        return sc.choose(side, state, player, form, step)
    me = state.player(player)
    if form.kind in sc.secret_kinds:
        rng = draw(step, form.kind, me.role, side.label if player in sc.secret_actors else "")
    else:
        rng = draw(step, form.kind, player)
    values: dict[str, Any] = {}
    for f in form.fields:
        choices = [c for c in f.choices if c not in sc.spared and c != player]
        if f.type == "player":
            if not choices:
                if f.required:
                    return None
                continue
            values[f.name] = rng.choice(sorted(choices))
        elif f.type == "players":
            if not choices:
                continue
            values[f.name] = sorted(rng.sample(sorted(choices), max(1, min(len(choices), f.min or 1))))
        elif f.type == "choice":
            options = [c for c in f.choices if c not in sc.spared]
            if options:
                values[f.name] = rng.choice(sorted(options))
        elif f.type == "int":
            values[f.name] = f.min if f.min is not None else 1
        elif f.type == "text":
            if rng.random() < 0.5:
                values[f.name] = f"Parola {step}"
    if not values:
        return None
    return side.ruleset.form_submission(form, values)




# --------------------------------------------------------------------------- what everyone reads

@dataclass(frozen=True)
class Read:
    """One thing one viewer read: a page (``where`` its path), the page a player got
    back after sending a form (``answer``: what was sent), a mail (``where``: its kind
    and subject; ``text``: the subject, the plain body and the HTML part), or, at a
    table, what the narrator's page tells the narrator to read aloud (``aloud``, read by
    ``TABLE``). ``ours``: about the game played (not the other game beside it)."""

    viewer: str
    kind: str  # page | answer | mail | aloud
    where: str
    status: int
    text: str
    ours: bool = True


def viewers_of(sc: Scenario) -> list[str]:
    """Everybody who can read something: players at a table have no account, and hear
    what the narrator reads aloud (``TABLE``)."""
    if sc.at_table:
        return ["anonymous", "outsider", "other_master", TABLE, "master"]
    return ["anonymous", "outsider", "other_master", *sc.players, "master"]


ALOUD = re.compile(r'<div class="(?:announce|say)\b[^"]*"[^>]*>(.*?)</div>', re.S)


def aloud(page: str) -> str:
    """What the narrator's page says to read aloud (announcements, the night's words),
    one line each, as the table hears it."""
    lines = [re.sub(r"<[^>]+>", "", p).strip() for block in ALOUD.findall(page)
             for p in re.findall(r"<p>(.*?)</p>", block, re.S)]
    return "\n".join(html.unescape(line) for line in lines if line)


def narrator_page(game: BotGame) -> str:
    return f"/g/{game.slug}/narrator"


def reads(game: BotGame, plan: list[tuple[str, str]], mails_seen: dict[str, int],
          known: set[str] | None = None) -> Iterator[Read]:
    """Everything read now: each (viewer, path) of ``plan`` in order (a path not in
    ``known``, when given, reads as a 404 without asking: a page the other game of a
    comparison has), and the narrator's page as the table hears it when the Master
    reads it; then the pages the players got back after their forms since the last
    call; then each viewer's mail not read yet (``mails_seen``: how many of each
    viewer's mails were read, updated here). ``TABLE`` reads no page itself."""
    for viewer, path in plan:
        status, text = game.page(viewer, path) if known is None or path in known else (404, "")
        ours = path.startswith(f"/g/{game.slug}/")
        yield Read(viewer, "page", path, status, text, ours)
        if viewer == "master" and game.scenario.at_table and path == narrator_page(game):
            yield Read(TABLE, "aloud", path, status, aloud(text))
    for player, sent, page in game.answers:
        yield Read(player, "answer", sent, 200, page)
    game.answers.clear()
    for viewer in mails_seen:
        if viewer == TABLE:
            continue
        mails = game.mails(viewer)
        for kind, subject, body, html_part, which in mails[mails_seen[viewer]:]:
            yield Read(viewer, "mail", f"{kind}: {subject}", 0, "\n".join((subject, body, html_part)),
                       which == "this game")
        mails_seen[viewer] = len(mails)


def every_read(scenario: Scenario, folder: Path) -> Iterator[tuple[int, str, Read]]:
    """A whole game of ``scenario`` (side "A") played to its end, every viewer reading
    every page about the game and every mail at every step: ``(step, moment, Read)``.
    After ``max_steps`` the bots spare nobody; a game still running after
    ``endgame_steps`` more is ended by the Master (a draw) where the rules let them."""
    game = BotGame("A", folder / "game", scenario)
    viewers = viewers_of(scenario)
    mails_seen = dict.fromkeys(viewers, 0)

    def everything(step: int, moment: str) -> Iterator[tuple[int, str, Read]]:
        plan = [(v, path) for v in viewers if v != TABLE for path in game.paths()]
        return ((step, moment, r) for r in reads(game, plan, mails_seen))

    yield from everything(0, "dealt")
    last = scenario.max_steps + scenario.endgame_steps
    for step in range(1, last + 1):
        if step == scenario.max_steps + 1:
            game.scenario = replace(scenario, spared=set())
        game.play_bots(step)
        yield from everything(step, "moves made")
        game.advance()
        if game.held():
            yield from everything(step, "draft held")
            game.publish_drafts()
        yield from everything(step, "boundary passed")
        if game.over():
            return
    if any(r.key in ("draw", "end") for r in game.ruleset.remedies()):
        game.declare_draw()
        yield from everything(last, "the end")
