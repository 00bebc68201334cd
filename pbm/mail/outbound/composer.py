"""Mail composed from the templates in mail_templates/: its subject, bodies, addresses
and headers, as an outbox row's column values (outbox.py stores them; send.py delivers).

Each message is a folder holding subject.<lang>.txt and body.<lang>.txt
(Jinja, plain text), and optionally body.<lang>.html: an HTML alternative with the
same facts (the bulletin's vote as a table of bars), sent beside the plain text.

A boundary mails every player of a game at once: it composes each message
(``compose``), renders what all of them share only once (``render_part``), and
stores them with one statement (``outbox.queue_all``) instead of one INSERT each.
"""
from __future__ import annotations

import uuid
from functools import lru_cache
from datetime import datetime
from email.headerregistry import Address
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, Template
from markupsafe import Markup

from ...models import Game, GameMaster, Seat
from ...i18n import count_text
from .classes import class_of

TEMPLATES = Path(__file__).resolve().parents[3] / "mail_templates"
# The templates ship with the code and change only with a new release: no stat() of
# each file at each of a boundary's forty-odd renders to see whether it changed.
_env = Environment(loader=FileSystemLoader(str(TEMPLATES)), undefined=StrictUndefined,
                   keep_trailing_newline=True, autoescape=False, auto_reload=False)
# The HTML alternatives escape everything they print: names and lines come from players.
_html_env = Environment(loader=FileSystemLoader(str(TEMPLATES)), undefined=StrictUndefined,
                        keep_trailing_newline=True, autoescape=True, auto_reload=False)
# One dictionary of globals for both, which ``_context`` puts in each context once.
_html_env.globals = _env.globals
# "1 giorno", "3 giorni": {{ count(days, "%(n)s giorno", "%(n)s giorni", "it") }}, by the
# language's plural rule (Babel's), in the template's own language.
_env.globals["count"] = count_text
_has_html: dict[str, bool] = {}


def _lang(lang: str) -> str:
    return lang if lang in ("it", "en") else "it"


def _render(template: Template, context: dict[str, Any]) -> str:
    """``template.render(**context)`` for a ``context`` made by ``_context``: Jinja's
    own ``render`` copies the context twice (its arguments, then those merged with
    the globals) for every template, and a boundary renders two for each of forty
    players. This is what ``render`` does, less the copies: Jinja documents
    ``new_context(shared=True)`` as taking the dictionary as it is, without the
    globals, which ``_context`` has put in already, and ``render`` itself joins what
    ``root_render_func`` yields. A context is only read, so a body and its HTML
    share one."""
    return template.environment.concat(template.root_render_func(template.new_context(context, shared=True)))


def _context(*parts: dict[str, Any]) -> dict[str, Any]:
    """A template context: Jinja's globals (both environments share them), then
    ``parts`` in order, in one dictionary."""
    out = dict(_env.globals)
    for part in parts:
        out.update(part)
    return out


def _game_words(game: Game | None, lang: str) -> dict[str, Any]:
    """What every mail about a game says of its kind, in the game's own words: the
    ruleset's name ("Complots", not "Lupus") and its example of a mail command
    (``BaseRuleset.welcome``: "es. VOTO Carla" in Lupus, "es. REDDITO..." in Complots)."""
    return {} if game is None else _ruleset_words(game.ruleset, lang)


@lru_cache(maxsize=64)
def _ruleset_words(ruleset: str, lang: str) -> dict[str, Any]:
    from engine.registry import get_ruleset

    rules = get_ruleset(ruleset)
    return {"ruleset_name": rules.name_in(lang),
            "welcome": rules.welcome(lang)}


def render_subject(name: str, lang: str, **context: Any) -> str:
    """The subject on one line (a template's line breaks are only layout)."""
    return _subject(name, _lang(lang), _context(context))


def _subject(name: str, lang: str, context: dict[str, Any]) -> str:
    return " ".join(_render(_env.get_template(f"{name}/subject.{lang}.txt"), context).split())


def render_body(name: str, lang: str, **context: Any) -> str:
    return _render(_env.get_template(f"{name}/body.{_lang(lang)}.txt"), _context(context))


def _html(name: str, lang: str, context: dict[str, Any]) -> str | None:
    """The message's HTML alternative, if it has one."""
    path = f"{name}/body.{lang}.html"
    if path not in _has_html:
        _has_html[path] = (TEMPLATES / path).is_file()
    if not _has_html[path]:
        return None
    return _render(_html_env.get_template(path), context)


def render_part(name: str, lang: str, **context: Any) -> Markup:
    """A piece of HTML many messages share (``<message>/<part>.<lang>.html``: the
    vote's table of bars, the same for every player), rendered once and passed to
    each message's own template, which prints it as it is (already escaped)."""
    return Markup(_render(_html_env.get_template(f"{name}.{_lang(lang)}.html"),
                          _context(_game_words(context.get("game"), _lang(lang)), context)))


def render_text_part(name: str, lang: str, **context: Any) -> str:
    """The plain-text alternative's shared piece (``<message>/<part>.<lang>.txt``)."""
    return _render(_env.get_template(f"{name}.{_lang(lang)}.txt"),
                   _context(_game_words(context.get("game"), _lang(lang)), context))


def domain_of(address: str) -> str:
    return address.rsplit("@", 1)[-1]


def new_message_id(domain: str) -> str:
    return f"<{uuid.uuid4().hex}@{domain}>"


def player_address(config: dict[str, Any], seat: Seat) -> str:
    """The player's own reply address: plus-addressed with their token."""
    local, domain = config["MASTER_ADDRESS"].split("@", 1)
    return f"{local}+{seat.token}@{domain}"


def master_address(config: dict[str, Any], master: GameMaster) -> str:
    """A Master's reply address for one game: their commands by mail count
    only when they come back through it (a From alone proves nothing)."""
    local, domain = config["MASTER_ADDRESS"].split("@", 1)
    return f"{local}+{master.token}@{domain}"


def reply_address(config: dict[str, Any], token: str) -> str:
    """The service's address plus-addressed with a reply token (a seat's, a Master's, a
    room reader's): whatever comes back through it is routed by the token."""
    local, domain = config["MASTER_ADDRESS"].split("@", 1)
    return f"{local}+{token}@{domain}"


def master_of(game: Game | None, address: str) -> GameMaster | None:
    """The game's Master whose registered address this is, if any."""
    if game is None:
        return None
    wanted = address.strip().lower()
    return next((m for m in game.masters if m.user.email.strip().lower() == wanted), None)


def _from(name: str, address: str) -> str:
    """The From field as text: ``Lupus – Partita <lupus+TOKEN@...>``. Not encoded: the
    outbox keeps what a person reads, and the sender encodes it once, as it writes the
    message (``wire.from_header``); encoded here too, it reached the players as
    ``=?utf-8?q?Lupus_=E2=80=93_...?=``, encoded words inside an encoded word. A line
    break in a game's name stored before names were checked (pbm/typed_text.py) is a
    space here: in a header it failed every mail of the game."""
    return f"{_display_name(' '.join(name.split()))} <{address}>"


@lru_cache(maxsize=1024)
def _display_name(name: str) -> str:
    """The name quoted where RFC 5322 asks (a comma, a quote in a game's name), once per
    name: every mail of a boundary repeats it."""
    placeholder = " <x@x>"
    return str(Address(display_name=name, username="x", domain="x"))[:-len(placeholder)]


def token_tag(seat: Seat) -> str:
    return f"[lupus:{seat.token}]"


# The context keys under which a mail carries a link that logs its reader in or lets
# them choose a password: such a mail is marked (``OutboxRow.login_link``) so that no
# page but the addressee's own inbox ever shows it.
LOGIN_LINK_KEYS = ("link", "password_link")


def carries_login_link(context: dict[str, Any] | None) -> bool:
    return any((context or {}).get(key) for key in LOGIN_LINK_KEYS)


def _one_line(address: str) -> bool:
    return not any(c in address for c in "\r\n\x00")


def compose(config: dict[str, Any], *, to: str, template: str, lang: str,
            now: datetime, game: Game | None = None, seat: Seat | None = None,
            kind: str | None = None, auto_reply: bool = False, in_reply_to: str | None = None,
            references: str | None = None, context: dict[str, Any] | None = None,
            phase_id: int | None = None, subject: str | None = None,
            html_part_id: int | None = None, private: bool | None = None,
            talk: tuple[str, str, str] | None = None) -> dict[str, Any]:
    """One message's outbox row, as column values (``subject``: already rendered,
    when many messages share it; ``html_part_id``: the stored end of the HTML
    alternative, which the template's HTML then leaves out; ``private``: whether a
    phase's results carry lines for this reader alone, which decides their place in
    the queue, classes.py). Mail to a player carries their
    reply token, so their answer can be tied to them, and so does mail to a Master of
    the game (their own reply address, without a subject tag: a Master forwards mail,
    and a tag would travel with it); receipts come from the no-reply address. ``talk``:
    a room's post, (the name it is shown from, the reader's reply token in that room,
    the message's own Message-ID): from the service's address under that name, and a
    reply goes back into the room as that reader."""
    if not _one_line(to):
        # Whatever let it in, an address with a line break would write headers of its own.
        raise ValueError(f"not a mail address: {to!r}")
    lang = _lang(lang)
    ctx = _context({"game": game, "seat": seat, "base_url": config["BASE_URL"]},
                   _game_words((game or (context or {}).get("master_of")), lang), context or {})
    # Exchange and Outlook send no out-of-office answers to mail carrying this:
    # fewer automatic messages coming back into the Master's inbox.
    headers: dict[str, str] = {"X-Auto-Response-Suppress": "OOF, AutoReply"}
    message_id = new_message_id(domain_of(config["MASTER_ADDRESS"]))
    tagged = False
    if talk is not None:
        shown_as, token, message_id = talk
        from_addr = reply_to = reply_address(config, token)
        from_addr = _from(shown_as, from_addr)
    elif seat is not None:
        tagged = True
        from_addr = _from(f"Lupus – {game.name}" if game else "Lupus", player_address(config, seat))
        reply_to = player_address(config, seat)
    elif (master := master_of(game, to)) is not None:
        from_addr = _from(f"Lupus – {game.name}", master_address(config, master))
        reply_to = master_address(config, master)
    else:
        from_addr = _from("Lupus", config["MASTER_ADDRESS"])
        reply_to = None
    if auto_reply:
        from_addr = _from("Lupus", config["NOREPLY_ADDRESS"])
        headers["Auto-Submitted"] = "auto-replied"
    # Whether a reply reaches anyone: a mail never says "do not reply" above a Reply-To
    # that takes commands, nor invites a reply that goes nowhere (issue 31).
    ctx["can_reply"] = reply_to is not None
    if subject is None:
        subject = _subject(template, lang, ctx)
    if tagged:
        subject = f"{subject} {token_tag(seat)}"
    body = _render(_env.get_template(f"{template}/body.{lang}.txt"), ctx)
    body_html = _html(template, lang, ctx)
    if in_reply_to:
        headers["In-Reply-To"] = in_reply_to
        headers["References"] = f"{references} {in_reply_to}".strip() if references else in_reply_to
    return {
        "created_at": now, "game_id": game.id if game else None, "phase_id": phase_id,
        "kind": kind or template, "priority": class_of(kind or template, private), "to_addr": to,
        "from_addr": from_addr, "reply_to": reply_to, "subject": subject, "body": body, "body_html": body_html, "html_part_id": html_part_id,
        "headers": headers, "message_id": message_id, "status": "pending",
        "attempts": 0, "next_attempt_at": now, "login_link": carries_login_link(context),
    }
