"""The leak scanner: whole games played by bots through the service (the harness of
tests/support/botgame.py), read by every kind of viewer on every page, feed, picture
and mail, twice.

The two games (side A and side B) run on two services of their own (two databases, so
ids and slugs match) and differ only in one *secret* of the game's state: who holds a
role, where a power was aimed, a player's face-down cards, whose death was whose. The
bots play both alike, move for move: a public move (a vote, a claim) is drawn from the
seat, a secret one (a night power) from the role, so the same power strikes the same
target whoever holds it; nobody ever aims at the players whose secret differs
(``spared``), so what the village sees happen is the same in both games.

At every step (the moves; a draft the Masters hold; the clock past the boundary) each
viewer asks both services for every GET page of the URL map that concerns the game,
with its arguments filled from the game, and reads every mail addressed to them and the
page after each form they sent; at a table, what the narrator's page says to read aloud
is heard by the whole table (``TABLE``). A viewer the rules do not let know the secret
(``knowers`` are those who may) must see exactly the same in both games, or the secret
can be read off what differs.

What is the same in both games can leak too, so every viewer, knowers included, must
never read another player's or a Master's reply token, another player's address, nor,
while the game runs, any line of the game worded for someone else (another's role
letter or private result, a Masters' note, the uncensored cause of a death), worked
out from the stored events and the ruleset rather than from the filter under test.

The game's Master (the narrator, at a table) sees everything: what they read must
differ, which shows the scan can tell the games apart. Once the game is over the rules
open the archive and the roles, so the comparison stops there, but for the pages whose
rules keep the secret after the end (``Scenario.secret_at_the_end``: the summary of a
game at the table keeps the night's choices); the end is still searched for tokens and
addresses."""
from __future__ import annotations

import difflib
import html
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from sqlalchemy import select

from engine.core import PRIVATE, Event
from engine.interface import Viewer

from pbm.models import EventRow, Game, GameMaster, Seat

from tests.support.botgame import (
    TABLE, BotGame, Read, Scenario, draw, narrator_page, reads, viewers_of,
)

__all__ = ["BotGame", "Findings", "Leak", "Scenario", "draw", "scan"]


class Leak(AssertionError):
    """What a viewer could read that the rules keep from them."""


# --------------------------------------------------------------------------- what must stay private

def secrets_of_others(game: BotGame, viewer: str) -> dict[str, str]:
    """{string: what it is}: the reply tokens and addresses of the game's players
    other than ``viewer`` (a Master of this game may see them)."""
    if viewer == "master":
        return {}
    with game.factory() as s:
        seats = s.scalars(select(Seat).where(Seat.game_id == game.game_id)).all()
        out = {m.token: "the Master's reply token" for m in s.scalars(
            select(GameMaster).where(GameMaster.game_id == game.game_id)) if m.token}
        for seat in seats:
            if seat.name == viewer:
                continue
            out[seat.token] = f"{seat.name}'s reply token"
            if seat.user is not None:
                out[seat.user.email] = f"{seat.name}'s e-mail address"
        return out


def lines_of_others(game: BotGame, viewer: str) -> dict[str, str]:
    """{line: whose it is}: every line of the game a Master reads that this viewer
    may not (another player's private result or role letter, a Masters' note, the
    cause of a death), as worded for whom it is meant. A viewer may read such a
    line only if the rules give it to them too.

    Worked out from the stored events and the ruleset, not through
    ``pbm.visibility`` (the filter under test): a filter that lets everything
    through must not also widen what the scan allows."""
    if viewer == "master":
        return {}
    rules, masters = game.ruleset, Viewer(master=True)
    with game.factory() as s:
        rows = s.scalars(select(EventRow).where(EventRow.game_id == game.game_id)
                         .order_by(EventRow.phase_id, EventRow.seq)).all()
        seated = s.get(Game, game.game_id).seat_by_name(viewer) is not None
        mine = Viewer(player=viewer) if seated else Viewer()
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

# --------------------------------------------------------------------------- comparing

CSRF = re.compile(r'(name="csrf_token"[^>]*value=")[^"]+|(value=")[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+(")')
LINKS = re.compile(r"/(set-password|password-reset|reset|join)/[^\s\"'<>]+")


# A post's token (pbm/web/post_tokens.py): a keyed permutation of the post's id, under
# each service's own key. It tells a reader nothing but which post it names, so it is
# read as its place among the tokens of the text.
POST_TOKEN = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{22}(?![A-Za-z0-9_-])")


def normal(text: str, own: list[str]) -> str:
    """What differs between the two services for reasons that are not the secret:
    CSRF tokens, the viewer's own reply tokens, single-use links, the posts' tokens."""
    text = CSRF.sub(lambda m: (m.group(1) or m.group(2)) + "CSRF" + (m.group(3) or ""), text)
    for token in own:
        text = text.replace(token, "OWN-TOKEN")
    text = LINKS.sub(r"/\1/LINK", text)
    places: dict[str, str] = {}
    return POST_TOKEN.sub(lambda m: places.setdefault(m.group(0), f"POST-{len(places) + 1}"), text)


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


def private_strings(game: BotGame, viewer: str, running: bool) -> dict[str, str]:
    """What ``viewer`` must not read anywhere: other players' tokens and addresses
    always; while the game runs, the lines of the game meant for others (at the end
    the rules open the whole archive to everyone)."""
    return {**(lines_of_others(game, viewer) if running else {}), **secrets_of_others(game, viewer)}


class Comparison:
    """What the viewers read of both games at one step, held against each other."""

    def __init__(self, a: BotGame, b: BotGame, found: Findings, step: int, when: str,
                 comparing: bool) -> None:
        self.a, self.b, self.found = a, b, found
        self.step, self.when, self.comparing = step, when, comparing
        self.sc = a.scenario
        self._private: dict[tuple[str, str, bool], dict[str, str]] = {}
        self._own: dict[tuple[str, str], list[str]] = {}

    def private(self, game: BotGame, viewer: str, running: bool) -> dict[str, str]:
        key = (game.label, viewer, running)
        if key not in self._private:
            self._private[key] = private_strings(game, viewer, running)
        return self._private[key]

    def own(self, game: BotGame, viewer: str) -> list[str]:
        if (game.label, viewer) not in self._own:
            self._own[(game.label, viewer)] = game.own_strings(viewer)
        return self._own[(game.label, viewer)]

    def compared(self, read: Read) -> bool:
        """Whether this read must be the same in both games: while the game runs, and
        after for the pages whose rules keep the secret after the end."""
        return self.comparing or (read.kind == "page" and read.where.endswith(self.sc.secret_at_the_end))

    def search(self, game: BotGame, read: Read, where: str) -> None:
        text = html.unescape(read.text)
        for secret, what in self.private(game, read.viewer, self.compared(read)).items():
            if secret in text and (read.ours or what.endswith(("token", "address"))):
                raise Leak(f"{where}: shows {what}: {secret!r}")

    def same(self, ra: Read, rb: Read, where: str) -> None:
        """Two reads of one thing, one in each game."""
        for game, read in ((self.a, ra), (self.b, rb)):
            self.search(game, read, where)
        if ra.status >= 500 or rb.status >= 500:
            raise Leak(f"{where}: server error {ra.status}/{rb.status}")
        text_a, text_b = normal(ra.text, self.own(self.a, ra.viewer)), normal(rb.text, self.own(self.b, rb.viewer))
        same = (ra.status, text_a) == (rb.status, text_b)
        if ra.viewer == "master":
            self.found.master_saw_difference |= not same
        elif ra.viewer in self.sc.knowers:
            self.found.knower_saw_difference |= not same
        elif self.compared(ra) and not same:
            raise Leak(f"{where}: differs between the two games ({ra.status}/{rb.status})\n"
                       + difference(text_a, text_b))

    def check(self, reads_a: list[Read], reads_b: list[Read]) -> None:
        at = f"step {self.step} ({self.when})"
        looked = [r for r in reads_a if r.kind in ("page", "aloud")]
        for ra, rb in zip(looked, [r for r in reads_b if r.kind in ("page", "aloud")]):
            verb = "hears" if ra.kind == "aloud" else "reads"
            self.found.pages_read += 2
            self.same(ra, rb, f"{at}, {ra.viewer} {verb} {ra.where}")
        answers_a = [r for r in reads_a if r.kind == "answer"]
        answers_b = [r for r in reads_b if r.kind == "answer"]
        if len(answers_a) != len(answers_b):
            raise Leak(f"{at}: {len(answers_a)} forms sent in game A, {len(answers_b)} in B")
        for ra, rb in zip(answers_a, answers_b):
            self.same(ra, rb, f"{at}, {ra.viewer} after {ra.where}")
        for viewer in dict.fromkeys(r.viewer for r in reads_a + reads_b if r.kind == "mail"):
            self.mails([r for r in reads_a if r.kind == "mail" and r.viewer == viewer],
                       [r for r in reads_b if r.kind == "mail" and r.viewer == viewer], viewer)

    def mails(self, new_a: list[Read], new_b: list[Read], viewer: str) -> None:
        where = f"step {self.step} ({self.when}), a mail to {viewer}"
        self.found.mails_read += len(new_a) + len(new_b)
        for game, mails in ((self.a, new_a), (self.b, new_b)):
            for mail in mails:
                self.search(game, mail, f"{where} ({mail.where!r})")
        own_a, own_b = self.own(self.a, viewer), self.own(self.b, viewer)
        norm_a = [(normal(m.where, own_a), normal(m.text, own_a)) for m in new_a]
        norm_b = [(normal(m.where, own_b), normal(m.text, own_b)) for m in new_b]
        if viewer == "master":
            self.found.master_saw_difference |= norm_a != norm_b
        elif viewer in self.sc.knowers:
            self.found.knower_saw_difference |= norm_a != norm_b
        elif self.comparing and norm_a != norm_b:
            if len(norm_a) != len(norm_b):
                raise Leak(f"{where}: {len(norm_a)} mails in game A, {len(norm_b)} in B: "
                           f"{[m[0] for m in norm_a]} / {[m[0] for m in norm_b]}")
            for x, y in zip(norm_a, norm_b):
                if x != y:
                    raise Leak(f"{where} ({x[0]!r}) differs between the two games\n"
                               + difference(x[1], y[1]))


def scan(scenario: Scenario, folder: Path, *, every_viewer_every_step: bool = False,
         tamper: Callable[[Any], None] | None = None) -> Findings:
    """Play the scenario on two services, compare what everyone sees; raise Leak.
    ``tamper(app)``: a change made to both services first (a leak planted on purpose,
    to show the scan finds it)."""
    a, b = BotGame("A", folder / "a", scenario), BotGame("B", folder / "b", scenario)
    for side in (a, b) if tamper else ():
        tamper(side.app)
    assert a.slug == b.slug
    found = Findings()
    viewers = viewers_of(scenario)
    readers_of_pages = [v for v in viewers if v != TABLE]
    mails_a, mails_b = dict.fromkeys(viewers, 0), dict.fromkeys(viewers, 0)
    rotation = 0

    def look(step: int, when: str, comparing: bool, few: bool = False) -> None:
        nonlocal rotation
        if every_viewer_every_step and not few:
            chosen, pick = readers_of_pages, None
        elif every_viewer_every_step:
            chosen, pick = [v for v in readers_of_pages if v != "master"], None
        elif few:
            # Between the moves and the boundary what changed is the players' own
            # (receipts, forms filled in, who still has to answer): one player, in turn.
            readers = [v for v in readers_of_pages if v != "master"] if scenario.at_table else scenario.players
            chosen, pick = [readers[step % len(readers)]], step
        else:
            # A few viewers each time, in turn (the Master every third time), each
            # reading one seat's and one phase's pages, in turn too: every viewer is
            # read at several moments of the game, each page at several.
            others = [v for v in readers_of_pages if v != "master"]
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
        plan = [(viewer, path) for viewer, paths in reading for path in paths]
        if scenario.at_table and ("master", narrator_page(a)) not in plan:
            # What the narrator reads aloud, the whole table hears: at every step.
            plan.append(("master", narrator_page(a)))
        reads_a = list(reads(a, plan, mails_a, set(paths_a) | {narrator_page(a)}))
        reads_b = reads_a if b is a else list(reads(b, plan, mails_b, set(paths_b) | {narrator_page(b)}))
        Comparison(a, b, found, step, when, comparing).check(reads_a, reads_b)

    began = time.perf_counter()
    look(0, "dealt", True)
    for step in range(1, scenario.max_steps + 1):
        moves_a = a.play_bots(step)
        b.play_bots(step)
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
