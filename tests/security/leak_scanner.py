"""The leak scanner: whole games played by bots through the service, read by every kind
of viewer on every page, feed, picture and mail, twice.

The two games (side A and side B) run on two services of their own (two databases, so
ids and slugs match) and differ only in one *secret* of the game's state: who holds a
role, where a power was aimed, a player's face-down cards. The bots play both alike,
move for move: a public move (a vote, a claim) is drawn from the seat, a secret one
(a night power) from the role, so the same power strikes the same target whoever
holds it; nobody ever aims at the players whose secret differs (``spared``), so what
the village sees happen is the same in both games.

The bots play through the operations, through their reserved area's real forms
(``by_web``) or by mail the worker reads (``by_mail``); at a table (Lupus Noctis) the
narrator taps. At every step (the moves; a draft the Masters hold; the clock past the
boundary) each viewer asks both services for every GET page of the URL map that
concerns the game, with its arguments filled from the game, and reads every mail
addressed to them and the page after each form they sent. A viewer the rules do not
let know the secret (``knowers`` are those who may) must see exactly the same in both
games, or the secret can be read off what differs.

What is the same in both games can leak too, so every viewer, knowers included, must
never read another player's or a Master's reply token, another player's address, nor,
while the game runs, any line of the game worded for someone else (another's role
letter or private result, a Masters' note, the uncensored cause of a death), worked
out from the stored events and the ruleset rather than from the filter under test.

The game's Master sees everything: what they read must differ, which shows the scan
can tell the games apart. Once the game is over the rules open the archive and the
roles, so the comparison stops there; the end is still searched for tokens and
addresses."""
from __future__ import annotations

import difflib
import hashlib
import html
import mailbox
import random
import re
import time
from dataclasses import dataclass, field, replace
from email.message import EmailMessage
from datetime import timedelta, timezone
from pathlib import Path
from typing import Any, Callable

from sqlalchemy import select

from engine.core import PRIVATE, Event, GameState, Rejected
from engine.interface import IdentifyTap, Viewer
from engine.registry import get_ruleset

from pbm import mailer, operations
from pbm.app import create_app
from pbm.clock import FixedClock
from pbm.db import transaction
from pbm.mail.mailbox import open_source
from pbm.migrate import upgrade
from pbm.operations import desk, table
from pbm.models import EventRow, Game, GameMaster, GameStatus, InboundRow, OutboxRow, PhaseRow, PhaseStatus, Seat, User
from pbm.worker import Worker

from tests.conftest import MONDAY_10_ROME, csrf_from
from tests.support.forms import forms_of

MASTER = ("master@example.org", "master")
OTHER_MASTER = ("other.master@example.org", "master")
OUTSIDER = ("zeno@other.test", "pw-zeno")
GAME_NAME = "Partita scansionata"

# GET routes that are about no game (or need a secret link): not part of the scan.
SKIPPED_RULES = {"/static/<path:filename>", "/healthz", "/login", "/password-reset",
                 "/password-reset/<token>", "/join/<token>", "/join/<token>/confirm/<signed>",
                 "/account/password", "/master/new"}


# --------------------------------------------------------------------------- what to scan

@dataclass
class Scenario:
    """One secret of one ruleset, and how to play around it.

    ``setup`` gives, for a side ("A" or "B"), the keyword arguments of
    ``operations.start_game`` (roles, mayor, options): the two must differ only in the
    secret. ``knowers``: the players the rules let know it (besides the Masters).
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


class Leak(AssertionError):
    """What a viewer could read that the rules keep from them."""


# --------------------------------------------------------------------------- one service

class Side:
    """One service with the scanned game, another game (for the outsiders), its clock."""

    def __init__(self, label: str, folder: Path, scenario: Scenario) -> None:
        self.label, self.scenario = label, scenario
        folder.mkdir(parents=True)
        url = f"sqlite:///{folder / 'db.sqlite3'}"
        upgrade(url)
        self.clock = FixedClock(MONDAY_10_ROME)
        self.app = create_app({
            "DATABASE_URL": url, "TESTING": True, "BASE_URL": "http://lupus.test",
            "MAIL_SOURCE": {"kind": "maildir", "path": str(folder / "maildir")},
            "LOCAL_MAILBOX": str(folder / "sent-mail"),
        }, instance=folder, clock=self.clock)
        self.app.config["PROPAGATE_EXCEPTIONS"] = False  # a crash is a 500 in the scan
        self.factory = self.app.extensions["pbm_sessions"]
        self.ruleset = get_ruleset(scenario.ruleset)
        self._other_game()
        self.game_id, self.slug = self._scanned_game()
        self.clients: dict[str, Any] = {}
        self.answers: list[tuple[str, str, str]] = []  # (player, what was sent, the page after)

    def _master(self, email: str, password: str) -> None:
        with transaction(self.factory) as s:
            user, _ = operations.ensure_user(s, email=email, name="Master " + email.split("@")[0])
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
                                      by=master, password=f"pw-{name.lower()}")
            operations.start_game(s, self.app.config, game, now=now, by=master, options={"mayor": "Ugo"},
                                  roles={"Zeno": "Lupo Mannaro", "Ugo": "Contadino", "Vera": "Veggente"})

    def _scanned_game(self) -> tuple[int, str]:
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
                for name in self.scenario.players:
                    operations.add_player(s, self.app.config, game, name=name, email=player_email(name),
                                          now=now, by=master, password=player_password(name))
                operations.start_game(s, self.app.config, game, now=now, by=master,
                                      **self.scenario.setup(self.label))
            return game.id, game.slug

    # -- who reads ----------------------------------------------------------------
    def client(self, viewer: str):
        """A browser logged in as ``viewer`` (kept for the whole scan)."""
        if viewer not in self.clients:
            self.clients[viewer] = self.app.test_client()
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
                    raise AssertionError(f"{rule.rule}: the scanner cannot fill <{arg}>; teach it")
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
        return r.status_code, r.get_data(as_text=True)

    def mails(self, viewer: str) -> list[tuple[str, str, str, str, str]]:
        email, _ = credentials(viewer)
        with self.factory() as s:
            rows = s.scalars(select(OutboxRow).where(OutboxRow.to_addr == email).order_by(OutboxRow.id)).all()
            return [(r.kind, r.subject, r.body, r.html or "", "this game" if r.game_id == self.game_id
                     else "another game") for r in rows]

    # -- what must stay private ---------------------------------------------------------
    def secrets_of_others(self, viewer: str) -> dict[str, str]:
        """{string: what it is}: the reply tokens and addresses of the game's players
        other than ``viewer`` (a Master of this game may see them)."""
        if viewer == "master":
            return {}
        with self.factory() as s:
            seats = s.scalars(select(Seat).where(Seat.game_id == self.game_id)).all()
            out = {m.token: "the Master's reply token" for m in s.scalars(
                select(GameMaster).where(GameMaster.game_id == self.game_id)) if m.token}
            for seat in seats:
                if seat.name == viewer:
                    continue
                out[seat.token] = f"{seat.name}'s reply token"
                if seat.user is not None:
                    out[seat.user.email] = f"{seat.name}'s e-mail address"
            return out

    def lines_of_others(self, viewer: str) -> dict[str, str]:
        """{line: whose it is}: every line of the game a Master reads that this viewer
        may not (another player's private result or role letter, a Masters' note, the
        cause of a death), as worded for whom it is meant. A viewer may read such a
        line only if the rules give it to them too.

        Worked out from the stored events and the ruleset, not through
        ``pbm.visibility`` (the filter under test): a filter that lets everything
        through must not also widen what the scan allows."""
        if viewer == "master":
            return {}
        rules, masters = self.ruleset, Viewer(master=True)
        with self.factory() as s:
            game = s.get(Game, self.game_id)
            rows = s.scalars(select(EventRow).where(EventRow.game_id == self.game_id)
                             .order_by(EventRow.phase_id, EventRow.seq)).all()
            mine = Viewer(player=viewer) if game.seat_by_name(viewer) else Viewer()
        allowed, out = set(), {}
        for row in rows:
            event = Event(row.kind, dict(row.data or {}), row.visibility, list(row.recipients or []))
            shown = rules.visible(event, mine) if row.published else None
            if shown is not None:
                allowed.add(rules.describe(shown, "it", mine))
            readers = [(Viewer(player=p), p) for p in event.to if event.visibility == PRIVATE]
            readers.append((masters, "the Masters"))
            for reader, whose in readers:
                if reader == mine:
                    continue
                text = rules.describe(rules.visible(event, reader) or event, "it", reader)
                # Short lines ("Sì.") say nothing on their own and would match anything.
                if text and len(text) >= 16:
                    out.setdefault(text, f"a line for {whose}")
        return {text: whose for text, whose in out.items() if text not in allowed}

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
        for player, command, step in mails:  # one mail per player, a command a line
            lines.setdefault(player, []).append(command)
        with self.factory() as s:
            game = s.get(Game, self.game_id)
            for player, commands in lines.items():
                command = "\n".join(commands)
                msg = EmailMessage()
                msg["From"] = player_email(player)
                msg["To"] = mailer.player_address(self.app.config, game.seat_by_name(player))
                msg["Subject"] = f"Re: {GAME_NAME}"
                msg["Message-ID"] = f"<{step}.{player.lower()}@players.test>"
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


def bot_move(side: Side, state: GameState, player: str, form: Any, step: int) -> dict[str, Any] | None:
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


# --------------------------------------------------------------------------- comparing

CSRF = re.compile(r'(name="csrf_token"[^>]*value=")[^"]+|(value=")[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+(")')
LINKS = re.compile(r"/(set-password|password-reset|reset|join)/[^\s\"'<>]+")


def normal(text: str, own: list[str]) -> str:
    """What differs between the two services for reasons that are not the secret:
    CSRF tokens, the viewer's own reply tokens, single-use links."""
    text = CSRF.sub(lambda m: (m.group(1) or m.group(2)) + "CSRF" + (m.group(3) or ""), text)
    for token in own:
        text = text.replace(token, "OWN-TOKEN")
    return LINKS.sub(r"/\1/LINK", text)


def difference(a: str, b: str) -> str:
    lines = list(difflib.unified_diff(a.splitlines(), b.splitlines(), "A", "B", n=1, lineterm=""))
    return "\n".join(lines[:30])


@dataclass
class Findings:
    pages_read: int = 0
    mails_read: int = 0
    steps: int = 0
    drafts_read: int = 0  # steps read while a draft waited for the Masters
    master_saw_difference: bool = False
    knower_saw_difference: bool = False
    ended: bool = False
    log: list[str] = field(default_factory=list)


def private_strings(side: Side, viewer: str, running: bool) -> dict[str, str]:
    """What ``viewer`` must not read anywhere: other players' tokens and addresses
    always; while the game runs, the lines of the game meant for others (at the end
    the rules open the whole archive to everyone)."""
    return {**(side.lines_of_others(viewer) if running else {}), **side.secrets_of_others(viewer)}


def compare_answers(a: Side, b: Side, scenario: Scenario, step: int) -> None:
    """The page a player gets back after sending a form (the receipt, or why not) is
    read like any other page."""
    if len(a.answers) != len(b.answers):
        raise Leak(f"step {step}: {len(a.answers)} forms sent in game A, {len(b.answers)} in B")
    for (player, sent, page_a), (_, _, page_b) in zip(a.answers, b.answers):
        where = f"step {step}, {player} after {sent}"
        for side, page in ((a, page_a), (b, page_b)):
            text = html.unescape(page)
            for secret, what in private_strings(side, player, True).items():
                if secret in text:
                    raise Leak(f"{where}: shows {what}: {secret!r}")
        own_a, own_b = a.own_strings(player), b.own_strings(player)
        if player not in scenario.knowers and normal(page_a, own_a) != normal(page_b, own_b):
            raise Leak(f"{where}: differs between the two games\n"
                       + difference(normal(page_a, own_a), normal(page_b, own_b)))
    a.answers.clear()
    b.answers.clear()


def viewers_of(sc: Scenario) -> list[str]:
    """Everybody who can read something: players at a table have no account."""
    return ["anonymous", "outsider", "other_master", *([] if sc.at_table else sc.players), "master"]


def scan(scenario: Scenario, folder: Path, *, every_viewer_every_step: bool = False,
         tamper: Callable[[Any], None] | None = None) -> Findings:
    """Play the scenario on two services, compare what everyone sees; raise Leak.
    ``tamper(app)``: a change made to both services first (a leak planted on purpose,
    to show the scan finds it)."""
    a, b = Side("A", folder / "a", scenario), Side("B", folder / "b", scenario)
    for side in (a, b) if tamper else ():
        tamper(side.app)
    assert a.slug == b.slug
    found = Findings()
    viewers = viewers_of(scenario)
    mails_seen = {v: 0 for v in viewers}
    rotation = 0

    def look(step: int, when: str, comparing: bool, few: bool = False) -> None:
        nonlocal rotation
        if every_viewer_every_step and not few:
            chosen, pick = viewers, None
        elif every_viewer_every_step:
            chosen, pick = [v for v in viewers if v != "master"], None
        elif few:
            # Between the moves and the boundary what changed is the players' own
            # (receipts, forms filled in, who still has to answer): one player, in turn.
            readers = [v for v in viewers if v != "master"] if scenario.at_table else scenario.players
            chosen, pick = [readers[step % len(readers)]], step
        else:
            # A few viewers each time, in turn (the Master every third time), each
            # reading one seat's and one phase's pages, in turn too: every viewer is
            # read at several moments of the game, each page at several.
            others = [v for v in viewers if v != "master"]
            k = scenario.viewers_per_step
            chosen = [others[(rotation + i) % len(others)] for i in range(k)]
            chosen += ["master"] if rotation % (3 * k) == 0 else []
            pick = rotation // k
            rotation += k
        paths_a, paths_b = a.paths(pick), b.paths(pick)
        if comparing and paths_a != paths_b:
            raise Leak(f"step {step} ({when}): the games have different pages: "
                       f"{sorted(set(paths_a) ^ set(paths_b))}")
        paths = list(dict.fromkeys(paths_a + paths_b))  # once the games part, each its own
        if few:
            # Moves change the pages of the moment (the reserved area's receipts and
            # forms, who has answered, the narrator's calls), not the archive.
            paths = [p for p in paths if p.rstrip("/").rsplit("/", 1)[-1] in (a.slug, "me", "narrator")]
        reading = [(viewer, paths) for viewer in chosen]
        if not few and pick is not None:
            # The pages about every game (the home page, the account, the Masters'
            # mailbox) are where one game could show through to another's people: read
            # by the outsiders each time.
            shared = [p for p in paths if not p.startswith(f"/g/{a.slug}/")]
            reading += [(v, shared) for v in ("outsider", "other_master") if v not in chosen]
        for viewer, paths in reading:
            own_a, own_b = a.own_strings(viewer), b.own_strings(viewer)
            private_a, private_b = private_strings(a, viewer, comparing), private_strings(b, viewer, comparing)
            for path in paths:
                code_a, text_a = a.page(viewer, path) if path in paths_a else (404, "")
                code_b, text_b = b.page(viewer, path) if path in paths_b else (404, "")
                found.pages_read += 2
                where = f"step {step} ({when}), {viewer} reads {path}"
                if code_a >= 500 or code_b >= 500:
                    raise Leak(f"{where}: server error {code_a}/{code_b}")
                ours = path.startswith(f"/g/{a.slug}/")  # another game's lines are its own
                for text, private in ((text_a, private_a), (text_b, private_b)):
                    text = html.unescape(text)
                    for secret, what in private.items():
                        if secret in text and (ours or what.endswith(("token", "address"))):
                            raise Leak(f"{where}: shows {what}: {secret!r}")
                same = (code_a, normal(text_a, own_a)) == (code_b, normal(text_b, own_b))
                if viewer == "master":
                    found.master_saw_difference |= not same
                elif viewer in scenario.knowers:
                    found.knower_saw_difference |= not same
                elif comparing and not same:
                    raise Leak(f"{where}: differs between the two games ({code_a}/{code_b})\n"
                               + difference(normal(text_a, own_a), normal(text_b, own_b)))
        # Every mail of every viewer, each step (cheap: no page is rendered).
        for viewer in viewers:
            ma, mb = a.mails(viewer), b.mails(viewer)
            own_a, own_b = a.own_strings(viewer), b.own_strings(viewer)
            private_a, private_b = private_strings(a, viewer, comparing), private_strings(b, viewer, comparing)
            new_a, new_b = ma[mails_seen[viewer]:], mb[mails_seen[viewer]:]
            mails_seen[viewer] = min(len(ma), len(mb))
            found.mails_read += len(new_a) + len(new_b)
            where = f"step {step} ({when}), a mail to {viewer}"
            for mails, private in ((new_a, private_a), (new_b, private_b)):
                for mail in mails:
                    for secret, what in private.items():
                        if mail[4] != "this game" and not what.endswith(("token", "address")):
                            continue
                        if any(secret in html.unescape(part) for part in mail[1:4]):
                            raise Leak(f"{where} ({mail[0]}: {mail[1]!r}) shows {what}: {secret!r}")
            norm_a = [tuple(normal(x, own_a) for x in m) for m in new_a]
            norm_b = [tuple(normal(x, own_b) for x in m) for m in new_b]
            if viewer == "master":
                found.master_saw_difference |= norm_a != norm_b
            elif viewer in scenario.knowers:
                found.knower_saw_difference |= norm_a != norm_b
            elif comparing and norm_a != norm_b:
                if len(norm_a) != len(norm_b):
                    raise Leak(f"{where}: {len(norm_a)} mails in game A, {len(norm_b)} in B: "
                               f"{[m[:2] for m in norm_a]} / {[m[:2] for m in norm_b]}")
                for x, y in zip(norm_a, norm_b):
                    if x != y:
                        raise Leak(f"{where} ({x[0]}: {x[1]!r}) differs between the two games\n"
                                   + difference("\n".join(x), "\n".join(y)))

    began = time.perf_counter()
    look(0, "dealt", True)
    for step in range(1, scenario.max_steps + 1):
        moves_a = a.play_bots(step)
        b.play_bots(step)
        compare_answers(a, b, scenario, step)
        found.log.append(f"{step}: {a.status()} moves {moves_a} ({time.perf_counter() - began:.1f}s)")
        look(step, "moves made", True, few=True)
        a.advance()
        b.advance()
        assert a.clock.now() == b.clock.now()
        if a.held() != b.held():
            raise Leak(f"step {step}: one game waits for its Masters, the other not (a secret "
                       "changed the outcome, or the bots' moves depend on it: see the log)")
        if a.held():
            # What everyone reads while the Masters settle the results.
            found.drafts_read += 1
            look(step, "draft held", True)
            a.publish_drafts()
            b.publish_drafts()
        over = a.over()
        if over != b.over():
            raise Leak(f"step {step}: one game ended and not the other (a secret changed the "
                       "outcome, or the bots' moves depend on it: see the log)")
        found.steps = step
        look(step, "boundary passed", not over)
        if over:
            break
    if not a.over():
        # The bots never name the spared players, so a game can stall with only them
        # left. To read the end as well, the bots now play on with nobody spared (the
        # two games part ways: only tokens and addresses are looked for) and, if the
        # game still goes on, the Master declares a draw where the rules let them.
        # Side B has nothing more to compare with: only A plays on.
        a.scenario = replace(scenario, spared=set())
        started = time.perf_counter()
        for step in range(found.steps + 1, found.steps + 1 + scenario.endgame_steps):
            a.play_bots(step)
            a.advance()
            a.publish_drafts()
            found.steps = step
            if a.over():
                break
        if not a.over() and any(r.key in ("draw", "end") for r in a.ruleset.remedies()):
            a.declare_draw()
        found.log.append(f"endgame: {found.steps} steps, {time.perf_counter() - started:.1f}s")
        b = a  # the end, read on A alone (tokens and addresses)
        look(found.steps, "the end", False)
    found.ended = a.over() and b.over()
    return found
