"""What a person reads holds no internal text (issue 21): the checks the wording scanner
(tests/wording/test_wording_scan.py, faults/test_wording_scan_full.py) and the mail test
(tests/mail/test_every_mail_template.py) run on every page and mail.

``problems(text, lang)`` lists what in one piece of text a person should never read,
in a reader of ``lang``:

- a snake_case key (``extend_window``, ``vote_target``): a name from the code;
- a ``key: value`` dump of a submission or a log entry (``player: Bruno, phase: 9``,
  ``{'kind': 'vote'}``);
- ``True``, ``False``, ``None``: Python's values printed as they are;
- an ISO timestamp (``2026-11-27T02:34:11``), an ISO date (``2026-11-26``) or a
  mail header's date (``Fri, 27 Nov 2026 02:26:10 +0000``): dates are written as the
  reader's language writes them;
- an unfilled placeholder (``{name}``, ``{{ deadline }}``, ``%(date)s``);
- a sentence of the other language (``Going away? Tell the Masters`` in an Italian
  page), told by words that only one of the two languages has;
- in Italian, a word that addresses the reader as a man or as a woman (``gendered``);
- a value the service translates left in the other language (``OTHER_VALUES``: "Aura:
  bianca" on an English page);
- in Italian, an internal key of a game's choices (``internal_keys``: "income", "tax").

``gendered(text)`` lists, in Italian, what addresses a player as a man or as a woman
("sei iscritto", "sei entrata", "da morto", "te stesso", "Benvenuto"): a service for
everyone phrases it so that gender does not matter (issue 31).

``readable(read)`` is what of a ``Read`` (tests/support/botgame.py) a person sees: the
text of a page (not its markup, scripts or hidden fields), a feed's titles and
contents, a calendar's summaries, the subject and both parts of a mail.
"""
from __future__ import annotations

import html
import csv
import io
import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser

# --------------------------------------------------------------------------- what is seen


class _Text(HTMLParser):
    """The text a browser shows, one piece per block, and the attributes it shows
    (a tooltip, a placeholder, a button's label, an image's alternative)."""

    SHOWN_ATTRS = ("title", "placeholder", "alt", "aria-label")
    HIDDEN = {"script", "style", "template", "head"}
    BLOCKS = {"p", "div", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "br", "section",
              "option", "label", "button", "dt", "dd", "pre", "summary", "legend", "blockquote", "text",
              "tspan", "title", "caption", "form", "table", "ul", "ol", "nav", "header", "footer", "main"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[str] = []
        self._hidden = 0
        self._now: list[str] = []

    def _cut(self) -> None:
        text = " ".join("".join(self._now).split())
        if text:
            self.pieces.append(text)
        self._now = []

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self._hidden += 1
            return
        if tag in self.BLOCKS:
            self._cut()
        values = dict(attrs)
        for name in self.SHOWN_ATTRS:
            if values.get(name):
                self.pieces.append(values[name])
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.pieces.append(values["value"])

    def handle_endtag(self, tag):
        if tag in self.HIDDEN:
            self._hidden = max(0, self._hidden - 1)
            return
        if tag in self.BLOCKS:
            self._cut()

    def handle_data(self, data):
        if not self._hidden:
            self._now.append(data)

    def close(self):
        super().close()
        self._cut()


def html_text(markup: str) -> list[str]:
    parser = _Text()
    parser.feed(markup)
    parser.close()
    return parser.pieces


def _feed_text(xml: str) -> list[str]:
    """An Atom feed: what a feed reader shows (titles, summaries, contents; the
    contents are HTML, escaped once)."""
    out = []
    for tag, body in re.findall(r"<(title|summary|content|subtitle|name)\b[^>]*>(.*?)</\1>", xml, re.S):
        out += html_text(html.unescape(body)) if tag in ("summary", "content") else [html.unescape(body)]
    return out


def _calendar_text(ics: str) -> list[str]:
    """A calendar: the summaries and descriptions a calendar program shows."""
    unfolded = re.sub(r"\r?\n[ \t]", "", ics)
    return [re.sub(r"\\([,;\\])", r"\1", value).replace("\\n", "\n")
            for value in re.findall(r"^(?:SUMMARY|DESCRIPTION|X-WR-CALNAME):(.*)$", unfolded, re.M)]


def _json_strings(data) -> list[str]:
    """A JSON document's string values. Its keys are the interface programs read (as an
    HTML page's tag names are), not text for a person: only the values are checked."""
    if isinstance(data, dict):
        return [s for v in data.values() for s in _json_strings(v)]
    if isinstance(data, list):
        return [s for v in data for s in _json_strings(v)]
    return [data] if isinstance(data, str) else []


def readable(kind: str, text: str, status: int = 200) -> list[str]:
    """What a person reads of one page or mail (``kind``: a Read's kind)."""
    if 300 <= status < 400:
        return []  # a redirect's body: the browser follows it and shows the next page
    if kind == "mail":
        # A mail's Read (botgame.reads): its subject, plain body and HTML part, one
        # after the other; the HTML part begins with its doctype.
        at = text.lower().find("<!doctype html")
        plain, markup = (text, "") if at < 0 else (text[:at], text[at:])
        return plain.splitlines() + (html_text(markup) if markup else [])
    if kind == "aloud":
        return text.splitlines()
    stripped = text.lstrip()
    if stripped.startswith("image "):
        return []
    if stripped.startswith("BEGIN:VCALENDAR"):
        return _calendar_text(text)
    if stripped.startswith("<?xml") and "<feed" in stripped[:400]:
        return _feed_text(text)
    if stripped[:1] in "{[":
        try:
            return _json_strings(json.loads(text))
        except ValueError:
            pass
    return html_text(text)


# --------------------------------------------------------------------------- what is wrong

URL = re.compile(r"\b(?:https?://|mailto:)\S+|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b|(?<!\w)/[\w./<>-]*[\w/]")
# A mail's reply tag ("[lupus:At2tRrhP4TZa95TO]"): a random token, not words; read as
# words it was now and then a snake_case key ("l_0u") or English ("At", "TO").
REPLY_TAG = re.compile(r"\[[a-z]+:[\w-]{8,}\]")
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
# (``n=5`` in a rule's formula is not a dump: a key has three letters at least.)
# (A log line's "Mara: ha chiamato Medium, toccati: Gina" is worded: a dump has three
# pairs or more.)
DUMP = re.compile(r"[{,]\s*['\"]\w+['\"]\s*:|\b[a-z_]{3,}=\S|"
                  r"\b[a-z][a-z_]*: [^,;:\n]{1,40}, [a-z][a-z_]*: [^,;:\n]{1,40}, [a-z][a-z_]*: ")
PYTHON_VALUES = re.compile(r"\b(?:True|False)\b|(?<![\w.!?] )(?<!^)\bNone\b|\bNone(?=[,)\]])|[:=] None\b")
ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?|"
                 r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}")
# ``\end{story}`` is the name of a ritual of Lupus LIVE! 12 (a LaTeX command, as the
# book writes it), not a placeholder: a brace after a backslash command is left.
PLACEHOLDER = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|%\(\w+\)[sd]|(?<!\\end)\{\w*\}")

# Words one language writes often and the other never (as a word of its own): a
# sentence with several of the other language's and none of its reader's is the other
# language's. Words both share ("a", "in", "come", "no", "per"...) are left out, and
# so are those in names people read in either language ("Ho Chi Minh").
ENGLISH = frozenset("""the you your yours and is are of to with this that these those for be been has have
had was were will would can could should must not or on at by from what when who which there their they
them we our an if any each all more here still now yet going away tell than then into about only already
before after until while his her its it do does did done get got please first last next new""".split())
ITALIAN = frozenset("""il lo gli della delle dello degli del dei nel nella nelle negli alla alle allo
agli al dal dalla dalle dai che non sono è ha hai una uno questo questa questi queste tuo tua tuoi
tue suo sua ancora più anche ma se si ci ti mi ne sei già ogni nessun nessuno nessuna sarà fino dopo
prima quando cosa tutti tutte tutto tra fra oppure perché qui""".split())
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?", re.U)


def other_language(sentence: str, lang: str) -> bool:
    words = [w.lower() for w in WORD.findall(sentence)]
    own, other = (ITALIAN, ENGLISH) if lang == "it" else (ENGLISH, ITALIAN)
    mine = sum(w in own for w in words)
    theirs = sum(w in other for w in words)
    return theirs >= 2 and mine == 0 or theirs >= 3 and theirs > 2 * mine


SENTENCE = re.compile(r"[^.!?;:\n]+[.!?;:]*")

# "(termina il 24/11/2026 alle 21:00 (Europe/Rome))": a deadline, which ends with its zone
# in parentheses, put in parentheses again (issue 31).
NESTED = re.compile(r"\([^()]*\([^()]*\)\)")

# Values the service translates (an aura, the Mayor's office, where a move came from):
# one left in the other language ("Aura: bianca" on an English page, "the Sindaco's 1¼")
# is a value of the other language, however English the sentence around it (issue 31).
OTHER_VALUES = {
    "en": frozenset({"bianca", "nera", "buona", "malvagia", "Sindaco", "Vicesindaco", "fonte"}),
    # Not "private": Italian too ("conversazioni private").
    "it": frozenset({"white", "black", "evil", "mayor", "Mayor", "source", "public"}),
}

# Italian words that agree with the gender of the player they address: a participle or
# adjective after "sei"/"sarai"/"eri"/"sei stato" ("sei iscritto", "sei stata eliminata"),
# "da vivo"/"da morta", "te stesso", a greeting that agrees ("Benvenuto", "Caro").
_AGREEING = (r"(?:iscritt|entrat|uscit|stat|eliminat|arrivat|tornat|rimast|mort|viv|pront|sicur|"
             r"convint|sol|invitat|registrat|collegat|scollegat|disconness|scelt|nominat|risvegliat|"
             r"resuscitat|corrott|squalificat|sostituit|benvenut|car)[oaie]")
GENDERED = re.compile(
    rf"\b(?:sei|sarai|eri|verrai|resti|resterai|rimani)\s+(?:(?:stat[oa]|già|ancora|appena|ora)\s+)*"
    rf"{_AGREEING}\b"
    rf"|\bda\s+(?:viv|mort)[oa]\b|\bte\s+stess[oa]\b|(?<!il )(?<!di )\bbenvenut[oa]\b|^\s*car[oa]\b",
    re.I | re.M)


# The reader addressed in the second person: what a report written in the third person
# (the Masters' report) must not say outside a quotation of what a player was told.
SECOND_PERSON = {
    "it": re.compile(r"\b(?:tu|tuo|tua|tuoi|tue|ti|te|hai|sei|puoi|devi|vuoi|giochi|ricevi|scegli|"
                     r"conosci|scopri|voti|prendi|diventi)\b", re.I),
    "en": re.compile(r"\b(?:you|your|yours|yourself)\b", re.I),
}
QUOTED = re.compile(r"«[^»]*»|“[^”]*”|\"[^\"]*\"")


def second_person(text: str, lang: str) -> list[str]:
    """The words of ``text`` that address its reader, outside quotations."""
    return [m.group(0) for m in SECOND_PERSON["en" if lang == "en" else "it"].finditer(QUOTED.sub(" ", text))]


def gendered(text: str) -> list[str]:
    """What in an Italian ``text`` addresses its reader as a man or as a woman."""
    return [m.group(0) for m in GENDERED.finditer(text)]


@dataclass(frozen=True)
class Problem:
    what: str
    found: str
    text: str

    def __str__(self) -> str:
        return f"{self.what}: {self.found!r} in {self.text[:160]!r}"


def problems(text: str, lang: str) -> list[Problem]:
    """What in ``text`` (one piece a person reads) is internal text, for a reader of
    ``lang``."""
    found = []
    bare = URL.sub(" ", REPLY_TAG.sub(" ", text))
    for what, pattern in (("a key from the code", SNAKE), ("a dump of keys and values", DUMP),
                          ("a Python value", PYTHON_VALUES), ("an unworded date", ISO),
                          ("an unfilled placeholder", PLACEHOLDER)):
        source = text if pattern in (PLACEHOLDER, ISO) else bare
        found += [Problem(what, m.group(0), text) for m in pattern.finditer(source)]
    for sentence in SENTENCE.findall(bare):
        if other_language(sentence, lang):
            found.append(Problem("a sentence of the other language", sentence.strip(), text))
    if lang == "it":
        found += [Problem("a word that takes the reader's gender", g, text) for g in gendered(bare)]
    found += [Problem("a value of the other language", w, text) for w in WORD.findall(bare)
              if w in OTHER_VALUES["en" if lang == "en" else "it"]]
    found += [Problem("nested parentheses", m.group(0), text) for m in NESTED.finditer(bare)]
    if lang == "it":  # in English some keys are plain words ("pass"); in Italian none is
        found += [Problem("an internal key", w, text) for w in WORD.findall(bare) if w in internal_keys()]
    return found


def internal_keys() -> frozenset[str]:
    """The engine's own values of the games' choices that no language names them by
    ("income", "foreign_aid", "challenge"): a refusal or a page that prints one shows the
    code, not the game's words ("Scelte valide: income, tax": issue 31)."""
    global _INTERNAL
    if _INTERNAL is None:
        from engine.registry import available, get_ruleset
        keys = set()
        for key in available():
            for values in get_ruleset(key).vocabulary().names.values():
                for value, named in values.items():
                    if value not in named.values() and value.isascii() and value.replace("_", "").isalpha():
                        keys.add(value)
        _INTERNAL = frozenset(keys)
    return _INTERNAL


_INTERNAL: frozenset[str] | None = None


# A CSV document's header: identifiers separated by commas (a season's export, issue 34).
CSV_HEADER = re.compile(r"[a-z_]+(?:,[a-z_]+)+")


def problems_of(kind: str, text: str, lang: str, status: int = 200) -> list[Problem]:
    if kind == "page" and text.lstrip()[:1] in "{[":
        return json_problems(text, lang)
    if kind == "page" and CSV_HEADER.fullmatch(text.split("\r\n", 1)[0].split("\n", 1)[0]):
        return csv_problems(text, lang)
    return [p for piece in readable(kind, text, status) for p in problems(piece, lang)]


def json_problems(text: str, lang: str) -> list[Problem]:
    """A JSON document (archive.json) is for programs: its keys and the kinds and ISO
    times among its values are its interface. What it gives as text for a person (a
    phase's label, an event's line) still has no placeholder and is in one language."""
    found = []
    for value in readable("page", text):
        found += [Problem("an unfilled placeholder", m.group(0), value) for m in PLACEHOLDER.finditer(value)]
        found += [Problem("a sentence of the other language", s.strip(), value)
                  for s in SENTENCE.findall(value) if other_language(s, lang)]
    return found


def csv_problems(text: str, lang: str) -> list[Problem]:
    """A CSV document (a season's export) is for programs as a JSON one is: its header
    of keys is its interface; its cells are still checked as text for a person."""
    found = []
    for row in list(csv.reader(io.StringIO(text)))[1:]:
        for value in row:
            found += [Problem("an unfilled placeholder", m.group(0), value) for m in PLACEHOLDER.finditer(value)]
            found += [Problem("a sentence of the other language", s.strip(), value)
                      for s in SENTENCE.findall(value) if other_language(s, lang)]
    return found


# --------------------------------------------------------------------------- the scanner

def _games():
    """One game of each ruleset, for the scanner: some players vote by mail, some on
    the page's forms, the rest through the operations; no secret is compared."""
    from tests.support.botgame import Scenario

    seven = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia"]
    live = {"Anna": "Lupo Mannaro", "Bruno": "Lupo Mannaro", "Carla": "Veggente", "Dario": "Medium",
            "Elena": "Profeta", "Fabio": "Contadino", "Giulia": "Guardia del corpo"}
    tr7 = {"Anna": "Lupo", "Bruno": "Negromante", "Carla": "Veggente", "Dario": "Contadino",
           "Elena": "Contadino", "Fabio": "Guardia del corpo", "Giulia": "Contadino"}
    hands = {"Anna": ["Duchessa", "Capitano"], "Bruno": ["Contessa", "Assassino"],
             "Carla": ["Ambasciatore", "Duchessa"]}
    eight = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo"]
    noctis = {"Licantropo": ["Bruno", "Fabio"], "Veggente": ["Carla"], "Medium": ["Gina"]}
    return [
        Scenario(name="lupus-live-12", ruleset="lupus-live-12", players=seven,
                 setup=lambda side: {"roles": live, "options": {"mayor": "Fabio"}}, knowers=set(),
                 by_mail={"Elena", "Giulia"}, by_web={"Carla", "Fabio"}),
        Scenario(name="tempo-reale-7", ruleset="tempo-reale-7", players=seven,
                 setup=lambda side: {"roles": tr7, "options": {"mayor": "Elena"}}, knowers=set(),
                 by_mail={"Elena", "Giulia"}, by_web={"Carla", "Fabio"}),
        Scenario(name="complots", ruleset="complots", players=["Anna", "Bruno", "Carla"],
                 setup=lambda side: {"options": {"hands": hands}}, knowers=set(), max_steps=6,
                 by_mail={"Carla"}, by_web={"Anna"}),
        Scenario(name="lupus-noctis", ruleset="lupus-noctis", players=eight,
                 setup=lambda side: {"identities": noctis}, knowers=set(), at_table=True),
    ]


GAMES = {s.ruleset: s for s in _games()}


# The Masters' reports, written in the third person: what a player was told is quoted.
REPORTS = ("master_report:", "master_game_report:")


def report_problems(read, lang: str) -> list[Problem]:
    """A Masters' report addressing its reader ("Il tuo nuovo ruolo...") outside a
    quotation of what a player was told: a second-person line in a third-person report
    (issue 31). The greeting and the report's own lines about the Masters are theirs."""
    if read.kind != "mail" or not read.where.startswith(REPORTS):
        return []
    lines = readable("mail", read.text)[1:]  # after the subject
    return [Problem("a second-person line in a third-person report", " ".join(found), line)
            for line in lines
            if not line.startswith(("Resoconto", "Full report", "http")) and (found := second_person(line, lang))]


# The Masters' view of a player's mail exactly as it arrived (text/plain, its headers
# and MIME parts included): what the player's mail program wrote, shown so that the
# Masters can check it, not text of the service.
RAW_MAIL_PAGE = re.compile(r"/master/inbound/\d+$")


@dataclass
class Found:
    problems: list[tuple[str, str, str, Problem]]  # (viewer, kind, where, problem)
    read: int = 0
    mails: int = 0
    viewers: frozenset[str] = frozenset()

    def report(self, limit: int = 60) -> str:
        seen, lines = set(), []
        for viewer, kind, where, problem in self.problems:
            key = (problem.what, problem.found)
            if key in seen:
                continue
            seen.add(key)
            lines.append(f"{viewer} {kind} {where}: {problem}")
        return "\n".join(lines[:limit]) + (f"\n... and {len(lines) - limit} more" if len(lines) > limit else "")


def scan(scenario, folder, *, quick: bool = True, tamper=None) -> Found:
    """Every Read of a bot game of ``scenario`` checked. ``quick``: a short game (its
    ``max_steps``), each viewer reading one seat's and one phase's pages at each
    moment, in turn; otherwise ``botgame.every_read``: the whole game, every page,
    every viewer, every step (`make faults`). ``tamper(app)``: a change made to the
    service first (a fault planted to show the scan finds it)."""
    from dataclasses import replace as _replace

    from tests.support.botgame import BotGame, every_read, reads, viewers_of

    found = Found([])
    viewers: set[str] = set()

    def check(read) -> None:
        found.read += 1
        found.mails += read.kind == "mail"
        viewers.add(read.viewer)
        if read.kind == "page" and RAW_MAIL_PAGE.search(read.where):
            return  # a player's mail as it arrived, headers and all: their words, not ours
        for problem in problems_of(read.kind, read.text, scenario.lang, read.status):
            found.problems.append((read.viewer, read.kind, read.where, problem))
        for problem in report_problems(read, scenario.lang):
            found.problems.append((read.viewer, read.kind, read.where, problem))

    if not quick:
        for _step, _moment, read in every_read(scenario, folder):
            check(read)
        found.viewers = frozenset(viewers)
        return found

    game = BotGame("A", folder / "game", _replace(scenario, endgame_steps=0))
    if tamper is not None:
        tamper(game.app)
    every = viewers_of(scenario)
    mails_seen = dict.fromkeys(every, 0)
    players = [v for v in scenario.players if v in every]
    looks = 0

    def look(step: int) -> None:
        """Each kind of visitor once a look: the public, an outsider or another game's
        Master in turn, a player in turn (the dead ones among them), the Master; each
        reading one seat's and one phase's pages, in turn. Every mail is read."""
        nonlocal looks
        kinds = ["anonymous", ("outsider", "other_master")[looks % 2], "master"]
        kinds += [players[looks % len(players)]] if players else []
        plan = [(v, p) for i, v in enumerate(kinds) for p in game.paths(pick=looks + i)]
        looks += 1
        for read in reads(game, plan, mails_seen):
            check(read)

    look(0)
    for step in range(1, scenario.max_steps + 1):
        game.play_bots(step)
        game.advance()
        if game.held():
            look(step)
            game.publish_drafts()
        look(step)
        if game.over():
            break
    found.viewers = frozenset(viewers)
    return found
