"""The one interface between the service and a ruleset.

The service (``pbm/``, ``templates/``, ``mail_templates/``) names no role, ritual,
power or ruleset: everything specific to a game is asked of the game's ruleset
object (``engine.registry.get_ruleset(key)``) through the methods below. A new
game is a new package in ``engine/`` whose ``RULESET`` subclasses ``BaseRuleset``
and overrides what differs; ``docs/rulesets.md`` walks through the smallest one.

A game is a sequence of *moments*. A moment is what the service stores as a
phase row: it opens, takes submissions, and is closed by ``resolve``, which
returns the next state (whose ``phase`` is the next moment). How a moment ends
is the ruleset's ``timing``:

- ``CALENDAR``: at the end of the next scheduled phase of that kind on the real
  calendar (Lupus by mail: nights and days, ``schedule_spec``);
- ``WINDOW``: after the game's answer window (a per-game duration) or as soon as
  everyone in ``answerers`` has answered (``complete``), silence counting as the
  ruleset's default answer (Complots: turns, challenges, blocks);
- ``NARRATOR``: when the narrator confirms it on the narrator's page (Lupus
  Noctis at a table): no deadline at all.

Everything here is pure (no Flask, no SQL, no clock): values in, values out.
Wording is data of the ruleset (``texts``: ``{code: {"it": ..., "en": ...}}``),
never sentences built in the service.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence, TypeVar

from .core import (
    MASTER, PRIVATE, PUBLIC, Action, ActionForm, Event, GameState, Rejected, Resolution, RoleInfo,
)
from . import texts
from .cards import RoleCard
from .texts import LANGS, word

# The service's own request for more time in an answer window: a ruleset's vocabulary
# gives it words with a Keyword whose ``fixed`` is ``{"kind": MORE_TIME}``; the service
# extends the window (never a submission to the engine).
MORE_TIME = "more_time"
# The player's standing answers set by mail (``standing_answers``), as the game page
# sets them: a Keyword whose ``fixed`` has ``{"kind": STANDING, "on": bool}`` and whose
# line gives ``standing`` (a key of ``standing_answers``, read as a choice or fixed).
# ``on`` True leaves that answer standing, False takes it back; False with
# ``standing`` None takes every one back. The service stores them (never an engine action).
STANDING = "standing"

A = TypeVar("A", bound="Ability")

# How a moment ends (Timing.kind).
CALENDAR, WINDOW, NARRATOR = "calendar", "window", "narrator"

# What the Masters are mailed as a moment is published (BaseRuleset.masters_report):
# the full report of that moment, or of the whole game so far.
REPORT_MOMENT, REPORT_GAME = "moment", "game"


@dataclass(frozen=True)
class Timing:
    kind: str  # CALENDAR | WINDOW | NARRATOR
    # CALENDAR: the scheduled phase kind this moment waits for ("night" / "day").
    phase: str = ""
    # WINDOW: who may answer now; the window closes early once all of them have.
    answerers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a player of the game (by seat name), a Master, or a reader
    of the public bulletin (neither)."""

    player: str | None = None
    master: bool = False


@dataclass(frozen=True)
class Part:
    """A marked piece of a command line after its main argument: ``CON Anna, Bruno``,
    ``SU Dario``, ``SPETTRO Morte``. The marker words (any case) introduce it; ``value``
    is read as in ``Keyword`` (``name``, ``names``, ``choice``) and fills ``key``."""

    key: str
    it: tuple[str, ...]
    en: tuple[str, ...]
    value: str = "name"


@dataclass
class Keyword:
    """One command word of the mail and paste-box vocabulary.

    ``key`` is the submission key the command fills (``vote``, ``target``,
    ``ritual``, ``challenge``...); ``value`` says how the rest of the line is
    read: ``name`` (one player), ``names`` (several), ``choice`` (one of
    ``Vocabulary.choices[key]``), ``choices`` (several of them, a list),
    ``text`` (free text), ``none`` (nothing: the word and its ``fixed`` say it all).
    ``fixed`` are arguments the word itself implies (``BLOCCO`` is
    ``{"block": ...}``, ``PASSO`` is ``{"answer": "pass"}``).

    Keys added for the mail grammar (all optional):

    - ``slots``: with ``value="names"``, the keys the names fill in order
      (``("target", "target2")``: one or two players); more names than slots is an
      error. Without slots the names are a list under ``key``.
    - ``parts``: the marked pieces that may follow the main argument, in any order
      (``Part("with", ("CON",), ("WITH",), "names")``).
    - ``number``: with ``value="choice"``, the key an optional number written right
      after the choice fills (``Voto diretto 3`` -> ``n=3``); which choices take it is
      said by ``Vocabulary.takes``.
    - ``verb``: a verb players naturally write for the same command (``SBRANO``,
      ``PROTECT``): parsed exactly like the main keyword, listed apart in help pages.
    """

    key: str
    it: tuple[str, ...]
    en: tuple[str, ...]
    value: str = "name"
    example_it: str = ""
    example_en: str = ""
    fixed: dict[str, Any] = field(default_factory=dict)
    slots: tuple[str, ...] = ()
    parts: tuple[Part, ...] = ()
    number: str = ""
    verb: bool = False

    def words(self) -> tuple[str, ...]:
        return self.it + self.en


@dataclass
class Vocabulary:
    """The words a ruleset understands in mail and in the paste box.

    - ``keywords``: the command words, Italian and English (``Keyword``).
    - ``choices``: key -> {alias as typed (any case/accents) -> the engine's canonical
      value}: other spellings players use (``"fine storia"``). The canonical values
      and their ``names`` are always accepted too.
    - ``names``: key -> {canonical value -> {"it": ..., "en": ...}}: how each choice
      (a ritual, a power, a role) is called in each language. Every value the engine
      offers must have both (tests/wording/test_vocabulary_drift.py); pages show the reader's.
    - ``takes``: key -> {canonical choice -> {part or number key -> required}}: what
      each choice takes after it. A ``Part`` or ``number`` not listed for the chosen
      value is refused; a required one that is missing is reported. A key absent
      from ``takes`` lets every choice take every part (nothing required).
    - ``fillers``: words players put before a choice and that mean nothing to the
      parser (``"della"``, ``"potere"``, ``"of the"``), folded (lower case, no accents).
    - ``arguments``: {argument key -> {"it": ..., "en": ...}}: how an error names the
      argument ("il nome del rituale"); the service has generic words for ``name``,
      ``names``, ``text`` and ``n``.
    - ``extras``: anything else, ruleset-specific, read by the service only through
      documented keys (none today); see docs/rulesets.md.
    - ``openers``: the words naming a side of the game that players put before a
      command (``"noi lupi"``, ``"we wolves"``), folded; the service knows the others
      ("io", "stanotte", "I'll") and reads the line after them.
    """

    keywords: list[Keyword] = field(default_factory=list)
    choices: dict[str, dict[str, str]] = field(default_factory=dict)
    names: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)
    takes: dict[str, dict[str, dict[str, bool]]] = field(default_factory=dict)
    fillers: tuple[str, ...] = ()
    arguments: dict[str, dict[str, str]] = field(default_factory=dict)
    extras: dict[str, Any] = field(default_factory=dict)
    openers: tuple[str, ...] = ()

    def canonical_values(self, key: str) -> list[str]:
        """The engine's values of a choice key, each once, in the tables' order."""
        return list(dict.fromkeys([*(self.names.get(key) or {}),
                                   *(self.choices.get(key) or {}).values()]))

    def aliases(self, key: str) -> dict[str, str]:
        """Everything a player may write for a choice key -> its canonical value."""
        table = {value: value for value in self.canonical_values(key)}
        for value, langs in (self.names.get(key) or {}).items():
            table.update({name: value for name in langs.values() if name})
        table.update(self.choices.get(key) or {})
        return table

    def choice_name(self, key: str, value: str, lang: str) -> str:
        """A choice as it is called in ``lang`` (the canonical value when unnamed)."""
        langs = (self.names.get(key) or {}).get(value) or {}
        return langs.get(lang) or langs.get("it") or value

    def keywords_for(self, key: str) -> list[Keyword]:
        return [k for k in self.keywords if k.key == key]

    def merged(self, other: "Vocabulary") -> "Vocabulary":
        """Both vocabularies in one (the first wins a word both define): what the
        service reads mail with before it knows the game."""
        keywords = [Keyword(**k.__dict__) for k in self.keywords]
        mine = {w.upper(): k for k in keywords for w in k.words()}
        for k in other.keywords:
            for w in k.words():
                same = mine.get(w.upper())
                if same is not None and (same.key, same.value) == (k.key, k.value):
                    # One word, one command, read with what either game adds after it.
                    same.parts = same.parts + tuple(p for p in k.parts if p not in same.parts)
                    same.slots = max(same.slots, k.slots, key=len)
                    same.number = same.number or k.number
            words = tuple(w for w in k.words() if w.upper() not in mine)
            if words:
                keywords.append(Keyword(**{**k.__dict__, "it": tuple(w for w in k.it if w in words),
                                           "en": tuple(w for w in k.en if w in words)}))
                mine.update({w.upper(): keywords[-1] for w in words})
        choices = {key: {**other.choices.get(key, {}), **self.choices.get(key, {})}
                   for key in {*self.choices, *other.choices}}
        names = {key: {**other.names.get(key, {}), **self.names.get(key, {})}
                 for key in {*self.names, *other.names}}
        takes = {key: {**other.takes.get(key, {}), **self.takes.get(key, {})}
                 for key in {*self.takes, *other.takes}}
        return Vocabulary(keywords, choices, names, takes,
                          tuple(dict.fromkeys(self.fillers + other.fillers)),
                          {**other.arguments, **self.arguments}, {**other.extras, **self.extras},
                          tuple(dict.fromkeys(self.openers + other.openers)))


@dataclass
class Panel:
    """A block of the Masters' desk or of a game page: a title and lines, worded."""

    title: str
    lines: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Fact:
    """One thing a player knows of themself, worded: ``label`` ("Ruolo") and ``value``."""

    label: str
    value: str


@dataclass(frozen=True)
class Tally:
    """A vote as the archive, its picture and the bulletin mail show it: the facts
    of one event (already filtered by ``visible``), never computed by the service.

    ``counts``: each candidate and the count they got, highest first (a candidate the
    vote chose with no vote at all is listed at 0); ``votes``: who voted whom, as
    published; ``chosen``: whom the vote chose (None: nobody); ``also_chosen``: the
    others when a vote chooses several (the two of a run-off), ``all_chosen`` all of
    them; ``needed``: what the rules ask of the vote (the majority or quorum needed,
    how a tie is broken), worded; ``valid``: False when the vote did not count (no
    quorum); ``tied``: when the rules had to break a tie for the last place the vote
    filled, the candidates listed at that count, those chosen first (empty: no tie was
    broken, or the game does not say)."""

    counts: tuple[tuple[str, float], ...]
    votes: tuple[tuple[str, str], ...] = ()
    chosen: str | None = None
    needed: str = ""
    valid: bool = True
    also_chosen: tuple[str, ...] = ()
    tied: tuple[str, ...] = ()

    @property
    def all_chosen(self) -> tuple[str, ...]:
        return ((self.chosen,) if self.chosen else ()) + tuple(self.also_chosen)


@dataclass
class Remedy:
    """Something the Masters may do to a running game (kill, resurrect, declare a
    draw...): ``fields`` describe its form, ``apply`` is the ruleset's own."""

    key: str
    label: dict[str, str]  # {"it": ..., "en": ...}
    fields: list[Any] = field(default_factory=list)  # FormField


@dataclass
class Checked:
    """A submission as the actions it makes, each validated (``submission_actions``):
    ``accepted`` to record, in order; ``refused``, the refusals of actions the player
    asked for (any one refuses that submission in the service, and names the player in
    a scenario's ``rejected``). A mail's commands are separate submissions, and so are
    the keys of a scenario's act: a refused one leaves the others standing."""

    accepted: list[Action] = field(default_factory=list)
    refused: list[Rejected] = field(default_factory=list)


def ranked(counts: dict[str, Any]) -> tuple[tuple[str, float], ...]:
    """Counts highest first, then by name (a stable order for pages and pictures)."""
    return tuple(sorted(((str(k), float(v)) for k, v in counts.items() if v),
                        key=lambda kv: (-kv[1], kv[0])))


# --------------------------------------------------------------------------- abilities

class Ability:
    """Something only some games do, declared as a value of its own type in the ruleset's
    ``abilities`` and asked for by that type (``BaseRuleset.ability``): the service
    never guesses a game's powers from the names of its methods. ``TableScript`` is
    below; ``Rooms`` (where the players talk) in engine/rooms.py."""


# --------------------------------------------------------------------------- a game at the table

# The first night's identification, as ``resolve`` gets it: ``gm[IDENTIFY]`` is
# ``{role: [names tapped]}`` for every ``IdentifyTap`` call of the night. A first night
# resolved without it waits for it: ``Pending(IDENTIFY)``, not publishable.
IDENTIFY = "identify"


@dataclass(frozen=True)
class Say:
    """Words the narrator reads aloud at the table, in each language."""

    it: str
    en: str = ""

    def read(self, lang: str) -> str:
        return (self.en if lang == "en" else self.it) or self.it


@dataclass(frozen=True)
class IdentifyTap:
    """The first night: the narrator taps the faces of the ``count`` players who open
    their eyes, among ``choices``. The taps of every such call of the night go to
    ``resolve`` together, as ``gm[IDENTIFY]``."""

    count: int
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class PowerTap:
    """A power used at the call: the narrator taps the face ``actor`` points at, one of
    ``choices``, recorded as the actor's submission ``{key: face}``. ``actor`` None:
    nobody can answer tonight (the call is read all the same, nothing is tapped);
    ``optional``: the actor may let it pass (confirmed with no face)."""

    key: str
    actor: str | None = None
    choices: tuple[str, ...] = ()
    optional: bool = False


Tap = IdentifyTap | PowerTap


@dataclass(frozen=True)
class Call:
    """One call of the night, as the narrator's phone shows it.

    ``role``: what is called (the engine's name; the narrator's progress records it, so
    the calls of one night have different roles); ``name``: how the call is titled;
    ``open``, ``do``, ``close``: read aloud to wake the role, to ask what it does, to
    send it back to sleep; ``tap``: what the narrator taps; ``holders``: who holds the
    role (``living``: those alive now), for the narrator's eyes only; ``copies``: how
    many were dealt."""

    role: str
    name: Say
    open: Say
    do: Say
    close: Say
    tap: Tap
    holders: tuple[str, ...] = ()
    living: tuple[str, ...] = ()
    copies: int = 1


@dataclass(frozen=True)
class NightFrame:
    """What the narrator reads before the first call (``sleep``) and after the last
    (``wake``)."""

    sleep: Say
    wake: Say


class TableScript(Ability):
    """A game played at a table from the narrator's phone (``Timing(NARRATOR)``): the
    players have no accounts, the cards are dealt on paper, and the narrator reads the
    night call by call and taps what happens (``pbm/operations/table.py``). The votes
    by day are each player's form (``BaseRuleset.forms``), tapped by the narrator."""

    def night_script(self, state: GameState) -> tuple[Call, ...]:
        """Tonight's calls, in order; () when the open moment is not a night."""
        raise NotImplementedError

    def night_frame(self) -> NightFrame:
        raise NotImplementedError


class BaseRuleset:
    """Defaults for every method of the interface; a ruleset overrides what differs.

    The required ones (``setup``, ``timing``, ``forms``, ``validate``, ``resolve``) raise
    here. Nothing here belongs to one game: what the three Lupus games share is their
    ``engine.lupus_common.ruleset.LupusRuleset``.
    """

    key: str = ""
    names: dict[str, str] = {}  # {"it": "Lupus LIVE!, 12ª edizione", "en": ...}

    def name_in(self, lang: str) -> str:
        """The game as people call it in ``lang`` (Italian if it has no such name): the
        pages', the mails' and the welcome's one answer."""
        return self.names.get("en" if str(lang).lower().startswith("en") else "it") \
            or self.names.get("it") or self.key
    factions: tuple[str, ...] = ()
    min_players: int = 3
    max_players: int = 100
    # Wording of this game's rejection codes and event kinds: {code: {"it", "en"}};
    # a ruleset extends the base catalogue (engine/texts.py): {**texts.EVENTS, ...}.
    REJECTIONS: dict[str, dict[str, str]] = texts.REJECTIONS
    EVENTS: dict[str, dict[str, str]] = texts.EVENTS
    # The names of its submission kinds (a reminder's "vote, power"): {kind: {"it", "en"}}.
    ACTIONS: dict[str, dict[str, str]] = {}
    KEYS: dict[str, dict[str, str]] = {}
    # The welcome mail's lines about this game (``welcome``).
    WELCOME: dict[str, dict[str, str]] = texts.WELCOME

    # The service's game settings (the new-game form's fields) this game reads: the form
    # shows only those of the ruleset chosen (issue 31). ``auto_publish``: publish what
    # needs no Master; ``review_contradictions``: hold a contradiction settled at random;
    # ``answer_window`` and ``extensions``: a game of answer windows.
    SETTINGS: frozenset[str] = frozenset({"auto_publish"})

    # What only some games do (``TableScript``...), each asked for by its type.
    abilities: tuple[Ability, ...] = ()

    def ability(self, kind: type[A]) -> A | None:
        """The game's ability of type ``kind`` (``ruleset.ability(TableScript)``), or None."""
        return next((a for a in self.abilities if isinstance(a, kind)), None)

    # -- set-up ----------------------------------------------------------------
    def roles(self) -> list[RoleInfo]:
        return []

    def canonical_role(self, name: str) -> str:
        return name

    def role_card(self, role: str, lang: str, example_names: Sequence[str] = ()) -> RoleCard | None:
        """How ``role`` is played, written from the rulebook in ``lang`` (engine/cards.py):
        what it does, when, its form and a mail line for it (with ``example_names``,
        players of the game), what its player knows from the start. The role mail, the
        reserved page, the answer to "what do I do?" and the rules page print it; None
        for a role the game does not know. Every role of ``card_roles`` has one, in both
        languages (tests/wording/test_role_cards.py)."""
        return None

    def card_roles(self, state: GameState | None = None) -> list[str]:
        """The roles whose cards a game's rules page lists, in order: every role the
        ruleset may deal (which of them a game holds is the Masters' secret). ``state``:
        the game's, when it has started (a game whose set-up chooses its roles, such as
        Complots' variant, lists only those)."""
        return [r.name for r in self.roles()]

    def player_roles(self, state: GameState, player: str) -> list[str]:
        """The roles whose cards ``player`` reads now (their role mail, their reserved
        page, the answer to "what do I do?"): default, the player's role; a game whose
        players hold characters (Complots) lists those they hold."""
        if not state.has_player(player) or not state.player(player).role:
            return []
        return [state.player(player).role]

    def default_composition(self, players: int) -> dict[str, int] | None:
        """The standard list of roles for this many players, if the game has one."""
        return None

    def options(self) -> list[Any]:
        """The set-up options the Master may choose (FormFields), e.g. a variant; a
        field of type "player" is offered as a choice among the game's players (the
        empty choice: let the set-up draw)."""
        return []

    def titles(self, state: GameState, player: str, lang: str) -> list[str]:
        """What every page says beside this player's name, for everyone to see
        (the Mayor, in the Lupus games)."""
        return []

    def setup(self, seating: list[tuple[str, str]], rng: random.Random,
              options: dict[str, Any] | None = None) -> tuple[GameState, list[Event]]:
        raise NotImplementedError

    def prepared_options(self, events: list[Event]) -> dict[str, Any]:
        """What a set-up drew that the Masters may review and edit before dealing, and
        what dealing must keep as drawn (e.g. a "player" option left to the draw).

        The desk offers every value shaped ``{subject: [{"player": ..., "role": ...}]}``
        as a form of player and role choices, titled by ``describe_prepared``; what the
        Masters save goes back to ``setup`` as that option."""
        return {}

    def describe_prepared(self, key: str, subject: str, lang: str) -> str:
        """The title of one editable part of the draw (``prepared_options``)."""
        return f"{subject}:"

    # -- moments and their timing ------------------------------------------------
    schedule_spec: dict[str, Any] | None = None  # the default calendar (CALENDAR games)

    def timing(self, state: GameState) -> Timing:
        """How the moment ``state`` opens ends (``CALENDAR``, ``WINDOW``, ``NARRATOR``)."""
        raise NotImplementedError

    def complete(self, state: GameState, actions: list[Action]) -> bool:
        """True when the moment may close before its deadline (all have answered)."""
        return False

    # -- actions -------------------------------------------------------------------
    def forms(self, state: GameState, player: str) -> list[ActionForm]:
        raise NotImplementedError

    def actions(self, player: str, submission: dict[str, Any]) -> list[Action]:
        """A submission (a form's, a mail line's, a scenario step's) split into this game's
        actions; ValueError on a key the game does not know. Default: a submission that
        says its ``kind`` is one action of that kind with the rest as its arguments;
        otherwise each key is an action of the kind of that name (``{"vote": "Ada"}``)."""
        if "kind" in submission:
            args = dict(submission)
            return [Action(player, str(args.pop("kind")), args)]
        return [Action(player, key, {key: value}) for key, value in submission.items()]

    def submission_actions(self, state: GameState, player: str, submission: dict[str, Any],
                           made: Callable[[], list[Action]] | None = None) -> Checked:
        """A player's submission (a form, a mail line, one scenario ``act``) as the
        actions it makes, each validated against ``state``. The one rule both the
        service (``operations.submit``) and the scenario runner apply, so they cannot
        disagree; ValueError on a key the game does not know (``actions``).

        ``made``: the player's actions already standing this moment, asked for only
        by a ruleset whose reading of a submission depends on them (lupus-live-12:
        the power beside a ritual); the runner, which submits once a step, gives none.
        Default: ``actions`` split, each validated."""
        out = Checked()
        for action in self.actions(player, submission):
            try:
                out.accepted.append(self.validate(state, action))
            except Rejected as exc:
                out.refused.append(exc)
        return out

    # The submission kinds nobody must send (a shout, notes, naming a deputy).
    OPTIONAL_KINDS: frozenset[str] = frozenset()

    # The free-text keys of a submission (what a player writes in words) and how many
    # characters each may carry: the service refuses a longer one, from a form or a mail,
    # before the rules see it (``<key>_too_long``, worded in ``REJECTIONS``), and its forms
    # stop there. Default: none. Any other text a submission carries (a name, a keyword)
    # is held to the service's own short limit.
    TEXT_LIMITS: dict[str, int] = {}

    def required_kinds(self, state: GameState, player: str) -> set[str]:
        """The submission kinds this player is expected to send this moment (reminders,
        "who still has to answer"): the kinds of the forms offered, but ``OPTIONAL_KINDS``."""
        return {f.kind for f in self.forms(state, player)} - self.OPTIONAL_KINDS

    def validate(self, state: GameState, action: Action) -> Action:
        raise NotImplementedError

    def resolve(self, state: GameState, actions: list[Action], rng: random.Random,
                gm: dict[str, Any] | None = None) -> Resolution:
        raise NotImplementedError

    def vocabulary(self) -> Vocabulary:
        return Vocabulary()

    def form_submission(self, form: ActionForm, values: dict[str, Any]) -> dict[str, Any]:
        """The submission a filled-in form makes (``values``: field -> value, only those
        filled). Default: the values themselves; a ruleset whose forms share field names
        across kinds (a ``card`` to lose, to show, to choose) adds what tells them apart."""
        return dict(values)

    # -- answers given in advance (WINDOW games) -------------------------------------
    def standing_answers(self, state: GameState | None = None) -> list[tuple[str, dict[str, str]]]:
        """The answers a player may leave standing, applied by the service for them as
        each window opens: ``[(key, {"it": label, "en": label})]``. ``state``: the game's,
        when known: only the answers that game can use (its set-up, its variant).
        Default: none."""
        return []

    def standing_answer(self, state: GameState, player: str,
                        standing: list[str]) -> dict[str, Any] | None:
        """The submission ``player``'s standing answers (keys of ``standing_answers``)
        make in the window ``state`` opens, or None (the player answers themselves)."""
        return None

    def confirms(self, form: ActionForm, values: dict[str, Any]) -> bool:
        """Whether an answer risks enough that its one-tap button asks before it sends
        (a challenge, a block: whoever loses one reveals a card). Default: none."""
        return False

    def reports_to_all(self, state: GameState) -> bool:
        """Whether the moment this state opens closes a round everyone is told about
        by mail (the results of a Lupus phase; a whole turn of Complots). When False, a
        WINDOW game mails only the players the new window asks something of."""
        return True

    # -- what each viewer may see, and how it reads --------------------------------
    def visible(self, event: Event, viewer: Viewer) -> Event | None:
        """The event as this viewer may see it (possibly redacted), or None.

        Masters see everything; public events go to everyone, private ones only to
        the players named. A ruleset redacts what its rules keep secret (the cause
        of a death, a weighted tally) by returning a changed copy, and may hide more;
        it never shows an event this default hides: the service asks its database
        only for the events this default admits (``pbm.visibility.readable_by``).

        A public event reads the same for every reader who is not a Master (any
        player, or the public): its copy here and its wording in ``describe`` may
        not depend on which player is looking, so the service works them out once
        for all the players (``pbm.visibility.Reading``; held for every ruleset by
        tests/security/test_public_reading.py). What differs between players goes
        in private events."""
        if viewer.master:
            return event
        if event.visibility == PUBLIC:
            return event
        if event.visibility == PRIVATE and viewer.player is not None and viewer.player in event.to:
            return event
        return None

    def describe(self, event: Event, lang: str, viewer: Viewer) -> str | None:
        """One line for an event already filtered by ``visible``; None: not worded.
        For a public event and a reader who is not a Master, the same whoever reads it
        (see ``visible``)."""
        return word(self.EVENTS, event.kind, lang, event.data)

    def describe_rejection(self, code: str, params: dict[str, Any], lang: str) -> str | None:
        return word(self.REJECTIONS, code, lang, params)

    def describe_submission(self, submission: dict[str, Any], lang: str,
                            state: GameState | None = None) -> list[str]:
        """A submission (a form's, a mail line's, a stored action's args) as people read
        it: what a receipt, the desk, the page's "your answer" and an answer button say.
        ``state``: the moment it answers, when the caller has it (a ruleset may then
        name whose claim a challenge is about). Default: one "Key: value" line per key,
        each worded by ``describe_key`` and ``describe_choice``."""
        out = []
        for key, value in submission.items():
            if key in ("kind", "moment"):  # how the submission is routed, not what it says
                continue
            if value is None or value == "" or value == []:
                continue  # a field left empty (a ritual with no target) says nothing, not "None"
            if isinstance(value, (list, tuple)):
                value = ", ".join(str(self.describe_choice(key, v, lang)) for v in value)
            else:
                value = self.describe_choice(key, value, lang)
            out.append(f"{self.describe_key(key, lang)}: {value}")
        return out

    def moment_heading(self, state: GameState, lang: str) -> str | None:
        """What a game's page says the game is at, beside its name ("Turno 3: tocca a
        Bruno"); None: the service names the phase itself."""
        return None

    def welcome(self, lang: str) -> dict[str, str]:
        """The welcome mail's words about this game: ``start`` (what the player gets
        when the game starts) and ``example`` (a mail command, as an example)."""
        return {key: word(self.WELCOME, key, lang) or "" for key in self.WELCOME}

    def describe_key(self, key: str, lang: str) -> str:
        """A submission key as a receipt or the desk lists it ("Voto", "Rituale")."""
        return word(self.KEYS, key, lang) or key

    def kind_of_key(self, key: str) -> str | None:
        """The submission kind a key fills (``target`` fills a ``power``), or None."""
        try:
            found = self.actions("", {key: ""})
        except (ValueError, KeyError, TypeError):
            return None
        return found[0].kind if found else None

    def describe_action(self, kind: str, lang: str) -> str:
        """A submission kind as people call it ("voto", "rituale")."""
        return word(self.ACTIONS, kind, lang) or kind

    def describe_choice(self, key: str, value: Any, lang: str) -> str:
        """A form choice as people read it (a power's Italian name, a character...).
        Key ``option``: the name of a set-up option of ``options()`` (the desk's label);
        key ``moment``: a moment that is not a calendar phase (``phase.kind`` of a
        WINDOW or NARRATOR game), as receipts and pages name it."""
        return str(value)

    def describe_moment(self, kind: str, number: int, lang: str) -> str:
        """A moment that is not a calendar phase (an answer window, a narrator's moment),
        as pages and mail name it: the ruleset's name for ``moment`` (``describe_choice``),
        or the kind and its number when it has none. A ruleset whose moments repeat
        (night 1, night 2...) overrides it to name the number too."""
        name = self.describe_choice("moment", kind, lang)
        return name if name != kind else f"{kind} {number}"

    def tally(self, event: Event, lang: str) -> Tally | None:
        """The vote an event records, for the archive's tally and vote picture; None
        when the event is no vote. ``event`` is the copy a viewer may see (``visible``).

        The default reads the conventional keys ``votes`` ({voter: candidate}) and
        ``tally`` ({candidate: count}; counted from ``votes`` when absent); a ruleset
        overrides it to say whom the vote chose and the majority it needed."""
        votes = event.data.get("votes")
        counts = event.data.get("tally")
        if not isinstance(votes, dict) and not isinstance(counts, dict):
            return None
        votes = votes if isinstance(votes, dict) else {}
        if not isinstance(counts, dict):
            counts = {}
            for target in votes.values():
                counts[target] = counts.get(target, 0) + 1
        return Tally(counts=ranked(counts), votes=tuple(sorted(votes.items())))

    # -- the forms of a moment, as a page shows them ------------------------------
    def form_groups(self, forms: list[ActionForm]) -> list[list[ActionForm]]:
        """The forms as one page shows them: each list is one HTML form, sent at once
        (a night's notes riding along with its main action). Default: one each."""
        return [[f] for f in forms]

    def form_title(self, form: ActionForm, lang: str) -> str | None:
        """The heading of a form; None: the service titles it by the name of its kind
        (``describe_action``)."""
        return None

    def field_label(self, form: ActionForm, field: str, lang: str) -> str | None:
        """The label of one field of a form; None: the service labels it by the name of
        its key (``describe_key``)."""
        return None

    def field_help(self, form: ActionForm, field: str, lang: str) -> str | None:
        """A line of help under a field; None: none."""
        return None

    def shown_when(self, form: ActionForm, field: str) -> dict[str, list[str]]:
        """{other field: [values]}: the field only matters when another field of the
        form has one of these values (a ritual's n only for the parametric rituals).
        Pages hide it otherwise; the engine judges either way."""
        return {}

    def form_values(self, form: ActionForm, args: dict[str, Any],
                    state: GameState) -> dict[str, Any]:
        """A stored submission as the fields of ``form`` (to fill it in again): the
        inverse of what the engine does with a form's fields. Default: as stored."""
        return dict(args)

    def self_facts(self, state: GameState, player: str, lang: str) -> list[Fact]:
        """What a player knows of themself at a glance, worded (the first line of their
        reserved area). Default: nothing (a game whose cards are on its table panel)."""
        return []

    def self_status(self, state: GameState, player: str, lang: str) -> str:
        """Whether a player is still in the game, as their reserved area says it to them.
        Default: in the game, or out of it (``texts.SELF``)."""
        return word(texts.SELF, "in" if state.player(player).alive else "out", lang) or ""

    def public_table(self, state: GameState, viewer: Viewer, lang: str) -> list[Panel]:
        """What a game page shows of the state at a glance (coins and revealed cards in
        Complots; the living and the dead in Lupus), as this viewer may see it."""
        return []

    # -- the Masters -------------------------------------------------------------------
    def holds(self, resolution: Resolution, options: dict[str, Any]) -> bool:
        """True when the resolved moment must wait for the Masters before it is
        published (a question only they answer, a stall...)."""
        return not resolution.publishable

    def masters_report(self, state: GameState) -> str | None:
        """What the Masters are mailed once the moment that led to ``state`` is
        published: ``REPORT_MOMENT`` (the full report of that moment: Masters who run
        a game by mail over days read each phase there), ``REPORT_GAME`` (the whole
        game so far, every moment in order: a record to keep), or None (nothing: a
        narrator at a table, who saw it all happen on the phone). A game of answer
        windows mails its Masters nothing per window whatever this says."""
        return REPORT_MOMENT

    def panels(self, state: GameState, events: Iterable[Event], lang: str) -> list[Panel]:
        """The Masters' panels of the desk (only ever shown to the Masters)."""
        return []

    def remedies(self) -> list[Remedy]:
        return []

    def apply_remedy(self, state: GameState, key: str, args: dict[str, Any],
                     rng: random.Random) -> tuple[GameState, list[Event]]:
        raise Rejected("unknown_remedy", remedy=key)


__all__ = [
    "Ability", "BaseRuleset", "CALENDAR", "Call", "Checked", "RoleCard", "Fact", "IDENTIFY", "IdentifyTap", "Keyword",
    "LANGS", "MASTER", "MORE_TIME", "NARRATOR", "NightFrame", "PRIVATE", "PUBLIC", "Panel", "Part",
    "PowerTap", "REPORT_GAME", "REPORT_MOMENT", "Remedy", "STANDING", "Say", "TableScript", "Tally",
    "Tap", "Timing", "Viewer", "Vocabulary", "WINDOW",
    "ranked", "word",
]
