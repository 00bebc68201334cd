"""The player's reserved area: role, what the player knows, private results, and the
forms of the phase.

The engine says which forms a player has now and which choices are legal
(engine.core.ActionForm); this module turns them into CSRF-protected forms and
sends what comes back through operations.submit, the one path of every action.
The engine stays the authority: the choices here are a convenience, and a value
outside them reaches the engine, which refuses it with a reason
(pbm.render.rejection), never with a bare "not a valid choice".
"""
from __future__ import annotations

import hashlib
import json
import time
from functools import lru_cache
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, abort, current_app, g, make_response, redirect, request, url_for
from flask import session as flask_session
from flask_babel import gettext as _
from flask_login import current_user, login_required
from markupsafe import Markup, escape
from wtforms import HiddenField, SelectField, SelectMultipleField, StringField, TextAreaField, widgets
from wtforms.fields.choices import Choice

from engine.core import ActionForm, GameState, Rejected
from engine.interface import BaseRuleset
from engine.registry import get_ruleset

from ..i18n import request_lang
from .. import limits, operations, render
from ..models import Game, PhaseStatus, Seat
from . import (
    config, db, game_and_my_seat_or_404, game_my_seat_and_phase_or_404, now, reserved_page, reserved_parts,
    rooms_access,
)
from .forms import ActionFormBase, options
from .kept import Kept
from .refusals import attempt, attempted, not_recorded
from .rooms import talk_menu
from .seats import seats_view

bp = Blueprint("player", __name__)


class CheckboxesField(SelectMultipleField):
    widget = widgets.ListWidget(prefix_label=False)
    option_widget = widgets.CheckboxInput()


class NameSelect(widgets.Select):
    """WTForms' select, a plain one (no attributes of its own, neither required nor
    disabled) and each plain option written in one formatting step: a vote's select
    lists every living player, and WTForms' general attribute writer costs more than
    the rest of the reserved page's form. The same HTML (attributes in WTForms' order,
    escaped the same way); a select or option with attributes of its own goes the
    general way."""

    def __call__(self, field: Any, **kwargs: Any) -> Markup:
        flags = field.flags
        written = None if kwargs or self.multiple or field.coerce is not str or getattr(flags, "required", False) \
            or getattr(flags, "disabled", False) else _plain_options(field.choices)
        if written is None:
            return super().__call__(field, **kwargs)
        data = field.data
        options = "".join(chosen if value == data else plain for value, plain, chosen in written)
        return Markup(f'<select id="{escape(field.id)}" name="{escape(field.name)}">{options}</select>')

    @classmethod
    def render_option(cls, choice: Any, **kwargs: Any) -> Markup:
        if kwargs or choice.render_kw or isinstance(choice.value, bool):
            return super().render_option(choice, **kwargs)
        selected = " selected" if choice.selected else ""
        return Markup(f'<option{selected} value="{escape(choice.value)}">{escape(choice.label or choice.value)}</option>')


def _plain_options(choices: Any) -> list[tuple[str, str, str]] | None:
    """Each option of a list of plain choices (strings, no attributes, no groups) written
    once, unselected and selected, for every select that lists them (a phase's vote lists
    the same names on every player's page); None when a choice is not plain."""
    try:
        key = tuple((c.value, c.label, c.optgroup, bool(c.render_kw)) for c in choices)
    except (AttributeError, TypeError):  # choices not given as SelectChoice
        return None
    return _written_options(key)


@lru_cache(maxsize=256)
def _written_options(key: tuple[Any, ...]) -> list[tuple[str, str, str]] | None:
    if not all(isinstance(value, str) and group is None and not attrs for value, _label, group, attrs in key):
        return None
    return [(value, str(NameSelect.render_option(Choice(value, label, False, {}))),
             str(NameSelect.render_option(Choice(value, label, True, {}))))
            for value, label, _group, _attrs in key]


def _ruleset(key: str) -> BaseRuleset:
    # A form built without a game (a test, a preview) reads with the defaults.
    return get_ruleset(key) if key else BaseRuleset()


# --------------------------------------------------------------------------- grouping

def page_groups(specs: list[ActionForm], ruleset: str = "") -> list[list[ActionForm]]:
    """The engine's forms as the page shows them, grouped as the ruleset says (a night's
    notes riding along with its main form); each group is one HTML form."""
    return _ruleset(ruleset).form_groups(list(specs))


def group_key(group: list[ActionForm]) -> str:
    return "+".join(s.kind for s in group)


# --------------------------------------------------------------------------- building

def build_form(specs: ActionForm | list[ActionForm], formdata: Any = None, *,
               ruleset: str = "", state: GameState | None = None,
               current: dict[str, dict[str, Any]] | None = None, shown: bool = True) -> ActionFormBase:
    """A CSRF-protected form with the fields of one page group, choices as the engine offers,
    filled with what the player already submitted this phase (``current``: kind -> args).
    Labels, help and the choices' names are the ruleset's; the service's generic words
    stand in where it has none. ``shown``: False for a form that only reads a submission
    and is never put on a page again (see ``_meta``)."""
    group = [specs] if isinstance(specs, ActionForm) else list(specs)
    rules = _ruleset(ruleset)
    lang = request_lang()
    prefix = group[0].kind
    data: dict[str, Any] = {}
    for spec in group:
        names = {f.name for f in spec.fields}
        for key, value in _as_fields(rules, spec, (current or {}).get(spec.kind), state).items():
            if key in names and value not in (None, "", []):
                data[key] = value
    form_class = _form_class(ruleset, lang, repr(group), rules, group)
    return form_class(formdata=formdata, prefix=prefix, data=data, meta=_meta(shown))


def _meta(shown: bool) -> dict[str, Any]:
    """A form never shown again needs no new token signed for it (a good part of a
    vote's form), once CSRFProtect has checked the request's token before the view
    ran (``g.csrf_valid``): then that check is all Flask-WTF's own check of the form
    would do (it skips itself). Without it, the form checks the token itself."""
    return {"csrf": False} if not shown and g.get("csrf_valid") else {}


_FORM_CLASSES: Kept[type[ActionFormBase]] = Kept(256)


def _form_class(ruleset: str, lang: str, key: str, rules: BaseRuleset,
                group: list[ActionForm]) -> type[ActionFormBase]:
    """The form class of a page group, made once per group, choices and language:
    making a WTForms class (and its first instance, which lists the class's fields)
    was a good part of a vote's time, and a phase's forms are the same for every
    request of a player. ``key``: the group's repr, all its fields and choices.
    The class holds no request's data: values and CSRF come with each instance."""
    def made() -> type[ActionFormBase]:
        prefix = group[0].kind
        attrs: dict[str, Any] = {"kind": HiddenField(default=group_key(group))}
        for spec in group:
            for f in spec.fields:
                attrs[f.name] = _field(rules, spec, f, prefix, lang)
        return type(f"{prefix.title()}Form", (ActionFormBase,), attrs)
    return _FORM_CLASSES.get_or_make((ruleset, lang, key), made)


def _as_fields(rules: BaseRuleset, spec: ActionForm, args: dict[str, Any] | None,
               state: GameState | None) -> dict[str, Any]:
    """A stored submission as the form's fields (the ruleset undoes what its engine
    merged, e.g. a drop-down folded into a list)."""
    if not args:
        return {}
    out = rules.form_values(spec, args, state) if state is not None else dict(args)
    if "n" in out and out["n"] is not None:
        out["n"] = str(out["n"])
    return out


def _field(rules: BaseRuleset, spec: ActionForm, f: Any, prefix: str, lang: str):
    label = rules.field_label(spec, f.name, lang) or _capitalized(rules.describe_key(f.name, lang))
    description = rules.field_help(spec, f.name, lang) or ""
    render_kw: dict[str, Any] = {}

    def shown(value: str) -> str:
        # Players read as their names only: a ruleset never describes a player choice,
        # so a label can never tell a role.
        return value if f.type in ("player", "players") else rules.describe_choice(f.name, value, lang)

    if f.depends:
        # The choices narrowed by another field of the same form (a target by the chosen
        # action): forms.js shows only those; without JS every name is offered and the engine judges.
        (controller, table), = f.depends.items()
        render_kw["data-depends-on"] = f"{prefix}-{controller}"
        render_kw["data-depends"] = json.dumps(table, ensure_ascii=False)
    when = rules.shown_when(spec, f.name)
    if when:
        render_kw["data-show-when"] = json.dumps({f"{prefix}-{k}": v for k, v in when.items()},
                                                 ensure_ascii=False)
    if f.type in ("player", "choice"):
        # Always a blank first: a pre-selected name would be submitted by a careless tap.
        choices = [("", "—")] + [(c, shown(c)) for c in f.choices]
        return SelectField(label, choices=options(choices), validate_choice=False, widget=NameSelect(),
                           description=description, render_kw=render_kw)
    if f.type == "players":
        return CheckboxesField(label, choices=options((c, shown(c)) for c in f.choices),
                               validate_choice=False, description=description, render_kw=render_kw)
    if f.type == "int":
        # Text, not IntegerField: a bad number is the engine's to refuse, with its reason.
        render_kw.update({"type": "number", "inputmode": "numeric"})
        if f.min is not None:
            render_kw["min"] = f.min
        if f.max is not None:
            render_kw["max"] = f.max
        return StringField(label, description=description, render_kw=render_kw)
    # The browser stops at the limit the service enforces (pbm/limits.py) for mail too.
    limit = limits.limit_of(rules, f.name)
    render_kw["maxlength"] = limit
    if f.type == "text" and limit > _ONE_LINE:
        return TextAreaField(label, description=description, render_kw={"rows": 2, **render_kw})
    return StringField(label, description=description, render_kw=render_kw)


# A free text allowed more characters than this gets a box of a few lines, not one line.
_ONE_LINE = 300


def form_title(spec: ActionForm, ruleset: str = "") -> str:
    """A form's heading: the ruleset's, or the name of its kind."""
    rules = _ruleset(ruleset)
    return rules.form_title(spec, request_lang()) or _capitalized(rules.describe_action(spec.kind, request_lang()))


def _capitalized(named: str) -> str:
    """A ruleset's word for a key or kind as a label (a bare key when it has none)."""
    named = named.replace("_", " ")
    return named[:1].upper() + named[1:]


def submission_from(form: ActionFormBase, group: ActionForm | list[ActionForm]) -> dict[str, Any]:
    """The vocabulary of docs/scenarios.md, only the keys the player filled in."""
    specs = [group] if isinstance(group, ActionForm) else group
    out: dict[str, Any] = {}
    for spec in specs:
        for f in spec.fields:
            value = getattr(form, f.name).data
            if isinstance(value, str):
                value = value.strip()
            if value in (None, "", []):
                continue
            out[f.name] = value
    return out


# --------------------------------------------------------------------------- the page

def reserved_context(game: Game, seat: Seat) -> dict[str, Any]:
    """What the reserved page shows: the parts kept for the game's version
    (reserved_parts), and what the seat changes within a phase, read now."""
    lang = request_lang()
    tz = operations.game_tz(game)
    session = db()
    read = reserved_parts.parts(session, game, seat, lang, tz, _groups_of)
    phase, found = read.phase, read.parts
    # The menu takes it only for the seat's own player (not a Master's view of the page).
    talk_menu(rooms_access.seated_asker(game, seat, read.state_text))
    forms, latest = PageForms(game.ruleset, [], None, {}), []
    current: list[tuple[Any, ...]] = []
    taking = phase is not None and phase.status == PhaseStatus.OPEN and now() < phase.ends_at
    if taking and found.open_state is not None:
        latest = operations.latest_actions_of(session, phase, seat) if read.chose else []
        forms, current = _forms_and_choices(game, found.groups, found.open_state, latest, lang)
    return {
        "game": game, "seat": seat, "me": found.me, "phase": phase,
        "phase_label": found.phase_label, "deadline": found.deadline, "deadline_note": found.deadline_note,
        "known": found.known, "results": found.results, "forms": forms, "current": current,
        "my_titles": found.my_titles, "facts": found.facts, "status": found.status, "table": found.table,
        # How the player's role is played (engine/cards.py), and whether this phase asks
        # nothing of them (then the page says so, with the deadline, rather than nothing).
        "cards": found.cards, "idle": taking and not forms,
        "parts": found, "choices": [(r.id, r.submitted_at) for r in latest], "taking": taking,
        # What the forms are written from of the choices: the same for every seat that
        # chose alike (reserved_page keeps the forms as written per forms_key and this).
        "filled": filled(latest),
    }


def filled(latest: list[Any]) -> tuple[Any, ...]:
    """What the forms are written from of a seat's latest choices: the same for every
    seat that chose alike."""
    return tuple((r.kind, r.source, json.dumps(r.args, sort_keys=True, default=str)) for r in latest)


class PageForms:
    """The phase's forms on a player's page, filled with what they chose so far: built
    on first use, which a visit answered from the page as kept never makes
    (reserved_page keeps them as written for the same choices)."""

    def __init__(self, ruleset: str, groups: list[tuple[list[ActionForm], str]], state: GameState | None,
                 submitted: dict[str, dict[str, Any]]) -> None:
        self._ruleset, self._groups, self._state, self._submitted = ruleset, groups, state, submitted
        self._built: list[tuple[ActionForm, ActionFormBase, str]] | None = None

    def __bool__(self) -> bool:
        return bool(self._groups)

    def __iter__(self) -> Iterator[tuple[ActionForm, ActionFormBase, str]]:
        if self._built is None:
            self._built = [(group[0], build_form(group, ruleset=self._ruleset, state=self._state,
                                                 current=self._submitted), title)
                           for group, title in self._groups]
        return iter(self._built)


def _forms_and_choices(game: Game, groups: list[tuple[list[ActionForm], str]], state: GameState,
                       latest: list[Any], lang: str) -> tuple[PageForms, list[tuple[Any, ...]]]:
    """The phase's forms filled with the seat's latest choices, and those choices as the
    page lists them."""
    forms = PageForms(game.ruleset, groups, state, {r.kind: dict(r.args) for r in latest})
    return forms, [(r.kind, render.describe_submission(r.args, lang, game.ruleset, state),
                    render.how_it_came(r.source, lang), r.submitted_at) for r in latest]


def _groups_of(game: Game, state: GameState, seat_name: str) -> list[tuple[list[ActionForm], str]]:
    specs = get_ruleset(game.ruleset).forms(state, seat_name)
    return [(group, " · ".join(form_title(s, game.ruleset) for s in group))
            for group in page_groups(specs, game.ruleset)]


@bp.route("/g/<slug>/me")
@login_required
def reserved(slug: str):
    game, seat = game_and_my_seat_or_404(slug, states=False)
    if seat is None:
        abort(403)
    context = reserved_context(game, seat)
    if context["parts"].window_page:  # its own page
        from .window_page import render_page
        return render_page(game, seat)
    shown = _shown(game, seat, context)
    tag = _validator(context, shown)
    if tag is not None and tag in request.if_none_match:
        response = Response(status=304)
    else:
        response = make_response(reserved_page.render(context, (context["parts"].version, shown)))
    if tag is not None:
        response.set_etag(tag)
        # Each visit asks (no-cache), and no cache but the player's own keeps it (private).
        response.headers["Cache-Control"] = "private, no-cache"
    return response


def _shown(game: Game, seat: Seat, context: dict[str, Any]) -> tuple[Any, ...]:
    """Everything the page shows beside the parts (kept per version of the game), the
    player's choices and the form token: the reader, the game's name, whether the phase
    takes choices and offers forms, the rooms' unread counts, their absences, the day.
    The kept page is written again when any of it changes (reserved_page)."""
    menu = talk_menu()
    return (current_user.id, current_user.name, current_user.is_admin, request_lang(), game.name, seat.name,
            context["taking"], bool(context["forms"]),
            tuple((e.key, e.title, e.unread) for e in menu.entries) if menu else None,
            tuple((a.id, a.first_day, a.last_day, a.note) for a in seats_view(game)["my_absences"]),
            now().date())


def _validator(context: dict[str, Any], shown: tuple[Any, ...]) -> str | None:
    """The page's ETag, or None for a page that must never be answered 304: one with a
    message to show once (a receipt, a refusal). Made of everything the page shows:
    the parts' version, what the page shows beside them (``_shown``), the player's
    choices; and their session's form token with the half of its life it was made in,
    so that a page kept by the browser never holds a token that has expired or belongs
    to another session."""
    if flask_session.get("_flashes"):
        return None
    limit = current_app.config.get("WTF_CSRF_TIME_LIMIT") or 3600
    return reserved_parts.etag(context["parts"], (
        shown, context["choices"],
        hashlib.blake2b(str(flask_session.get("csrf_token")).encode(), digest_size=16).digest(),
        int(time.time() // max(limit // 2, 1))))


@bp.route("/g/<slug>/act", methods=["POST"])
@login_required
def act(slug: str):
    game, seat, held, held_state = game_my_seat_and_phase_or_404(slug)
    if seat is None:
        abort(403)
    session = db()
    lang = request_lang()
    kind = _kind_from(request.form) or ""

    in_place = request.headers.get(FRAGMENT_HEADER) == FRAGMENT

    def record() -> Recorded:
        if held is None:
            raise Rejected("phase_closed")
        # One reading of the clock judges the vote in time and stamps it: read twice, a
        # vote judged a moment before the deadline could be stored a moment after it.
        at = now()
        opened = operations.opening(session, game, at, held=held, held_state=held_state)
        state = opened.state
        offered = _groups_of(game, state, seat.name)
        groups = {group_key(g): g for g, _title in offered}
        group = groups.get(kind)
        if group is None:
            raise Rejected("not_now", kind=kind)
        form = build_form(group, request.form, ruleset=game.ruleset, state=state, shown=False)
        if not form.validate():
            raise Rejected("bad_form", errors="; ".join(
                f"{k}: {', '.join(map(str, v))}" for k, v in form.errors.items()))
        submission = submission_from(form, group)
        if not submission:
            raise Rejected("empty_submission")
        if len(group) == 1:  # what tells this form's kind apart, if the ruleset needs it
            submission = get_ruleset(game.ruleset).form_submission(group[0], submission)
        operations.submit(session, config(), game, seat, submission, source="web", now=at,
                          opened=opened)
        # The choices as they now stand, read in the same transaction (the answer in place shows them).
        latest = operations.latest_actions_of(session, opened.phase, seat) if in_place else []
        return Recorded(submission, opened.phase, state, latest, offered)

    def receipt(recorded: Recorded) -> str:
        return _("Recorded: %(what)s. You can change it until %(deadline)s.",
                 what="; ".join(render.describe_submission(recorded.submission, lang, game.ruleset)),
                 deadline=render.deadline_text(recorded.phase.ends_at, lang, operations.game_tz(game)))

    back = url_for("player.reserved", slug=game.slug)
    # The submission holds its phase itself (game_my_seat_and_phase_or_404: FOR UPDATE).
    if not in_place:
        return attempt(game, record, back=back, success=receipt, refused=not_recorded, lock=False)
    done = attempted(game, record, refused=not_recorded, lock=False)
    if done.done is None:  # refused, and flashed: the page as it now stands says why
        return redirect(back)
    recorded = done.done
    forms, current = _forms_and_choices(game, recorded.offered, recorded.state, recorded.latest, lang)
    # The open phase's state as this request read it, written as SQLite stores it: there
    # the answer and the page share the forms kept; PostgreSQL writes a JSON value's text
    # otherwise, and each keeps its own.
    forms_key = (reserved_parts.forms_key(game, lang, reserved_parts.text_digest(json.dumps(held_state)),
                                          recorded.offered), filled(recorded.latest))
    response = make_response(reserved_page.answer(receipt(recorded), {"game": game, "forms": forms,
                                                                       "current": current}, forms_key))
    response.headers[FRAGMENT_HEADER] = FRAGMENT
    response.headers["Cache-Control"] = "no-store"
    return response


# A vote sent by the page's script (static/forms.js) asks for the answer in place: the
# receipt and the forms with the new choices, instead of a redirect to the whole page
# (issue 33: the deadline rush's third request of every vote). Reloading the page
# never sends it again: the script's request leaves no entry in the history.
FRAGMENT_HEADER = "X-Pbm-Fragment"
FRAGMENT = "forms"


@dataclass(frozen=True)
class Recorded:
    """A web submission as stored: what, in which phase, the phase's state, the seat's
    latest choices (only when the answer shows them in place) and the forms the phase
    offered the seat, with their titles (the answer in place writes them again)."""

    submission: dict[str, Any]
    phase: Any
    state: GameState
    latest: list[Any]
    offered: list[tuple[list[ActionForm], str]]


def _kind_from(form: Any) -> str | None:
    # Each page form is prefixed with its first kind, so "<kind>-kind" names the form sent.
    for key in form:
        if key.endswith("-kind"):
            return form[key]
    return None
