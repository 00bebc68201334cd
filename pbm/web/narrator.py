"""The narrator's phone: a game at the table, from seating to the summary.

Every tap is a small form posted to the server and answered with a redirect to the
one page (``/g/<slug>/narrator``), which shows what the stored game says comes next
(``narrator_view.screen``): a reload, a locked phone or a second phone resumes at
the same call. Only the game's Masters see the page; the summary at the end is for
everybody.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_login import current_user, login_required

from engine.core import Rejected
from engine.registry import get_ruleset

from .. import operations, photos
from ..models import GameStatus
from ..operations import table
from . import config, db, game_or_404, now, request_size, require_master
from .narrator_view import screen, summary

bp = Blueprint("narrator", __name__)


def _lang() -> str:
    return str(get_locale() or "it")


def _error_text(exc: Exception, game) -> str:  # noqa: ANN001
    if isinstance(exc, Rejected):
        own = get_ruleset(game.ruleset).describe_rejection(exc.code, exc.params, _lang())
        return own or _("The rules refuse this (%(code)s).", code=exc.code)
    assert isinstance(exc, operations.OperationError)
    p = exc.params
    messages = {
        "game_started": lambda: _("The game has already started: the circle cannot change."),
        "name_required": lambda: _("Write the player's name."),
        "name_too_long": lambda: _("A name of at most %(limit)s letters, please.", limit=p.get("limit")),
        "name_taken": lambda: _("%(name)s is already at the table: add an initial.", name=p.get("name")),
        "too_many_players": lambda: _("At most %(maximum)s players.", maximum=p.get("maximum")),
        "photo_too_big": lambda: _("The photo is too large: the player was not added. Try again."),
        "photo_not_an_image": lambda: _("That file is not a photo: the player was not added."),
        "too_few_players": lambda: _("At least %(minimum)s players are needed.", minimum=p.get("minimum")),
        "no_standard_village": lambda: _("There is no standard village for this many players: "
                                         "choose the roles."),
        "unknown_role": lambda: _("Unknown role."),
        "bad_count": lambda: _("Each role needs a whole number of cards."),
        "composition_size": lambda: _("The village has %(roles)s cards for %(players)s players.",
                                      roles=p.get("roles"), players=p.get("players")),
        "setup_failed": lambda: _("The rules refuse this village: %(reason)s", reason=p.get("reason")),
        "no_open_phase": lambda: _("Nothing is waiting for a tap now."),
        "not_a_night": lambda: _("It is not night any more."),
        "not_a_vote": lambda: _("This is not the time for votes."),
        "stale_call": lambda: _("This page was out of date: here is where the game is now. "
                                "Nothing was recorded twice."),
        "bad_tap": lambda: _("Tap only the faces shown."),
        "tap_count": lambda: _("Tap %(expected)s faces (you tapped %(got)s).",
                               expected=p.get("expected"), got=p.get("got")),
        "tapped_twice": lambda: _("%(player)s was already tapped for another call.",
                                  player=p.get("player")),
        "calls_left": lambda: _("Some calls of the night are still to be made."),
        "already_recorded": lambda: _("%(player)s has already voted: a recorded vote cannot be changed.",
                                      player=p.get("player")),
        "unknown_player": lambda: _("Unknown player."),
    }
    word = messages.get(exc.code)
    return word() if word else exc.code


def _game(slug: str):  # noqa: ANN202
    game = game_or_404(slug)
    require_master(game)
    if not table.narrated(game.ruleset):
        abort(404)
    return game


def _back(slug: str) -> Response:
    return redirect(url_for("narrator.page", slug=slug))


def _attempt(game, work) -> Response:  # noqa: ANN001
    try:
        work()
        db().commit()
    except (operations.OperationError, Rejected) as exc:
        db().rollback()
        flash(_error_text(exc, game) + " " + _("Nothing was recorded."), "error")
    return _back(game.slug)


@bp.route("/g/<slug>/narrator")
@login_required
def page(slug: str):
    game = _game(slug)
    if game.status == GameStatus.OVER:
        return redirect(url_for("narrator.game_summary", slug=slug))
    fix = request.args.get("fix", type=int)  # the narrator's "Correct" on a call of tonight
    return render_template("narrator.html", s=screen(db(), game, _lang(), fix=fix))


@bp.route("/g/<slug>/narrator/seat", methods=["POST"])
@request_size.allow(photos.MAX_REQUEST)  # a phone photo, larger than any form
@login_required
def seat(slug: str):
    game = _game(slug)
    upload = request.files.get("photo")
    photo = upload.read() if upload is not None and upload.filename else None
    return _attempt(game, lambda: table.seat_at_table(
        db(), game, name=request.form.get("name", ""), photo=photo, now=now(), by=current_user))


@bp.route("/g/<slug>/narrator/unseat", methods=["POST"])
@login_required
def unseat(slug: str):
    game = _game(slug)
    return _attempt(game, lambda: table.unseat(db(), game, name=request.form.get("name", ""),
                                               now=now(), by=current_user))


@bp.route("/g/<slug>/narrator/start", methods=["POST"])
@login_required
def start(slug: str):
    game = _game(slug)
    composition: dict[str, Any] | None = None
    if request.form.get("village") == "edited":
        roles = [r.name for r in get_ruleset(game.ruleset).roles()]
        composition = {role: request.form.get(f"count-{i}", "0") for i, role in enumerate(roles)}
    return _attempt(game, lambda: table.start_at_table(db(), config(), game, composition=composition,
                                                       now=now(), by=current_user))


def _index() -> int:
    try:
        return int(request.form.get("index", ""))
    except ValueError:
        return -1


@bp.route("/g/<slug>/narrator/call", methods=["POST"])
@login_required
def call(slug: str):
    game = _game(slug)
    return _attempt(game, lambda: table.record_call(
        db(), config(), game, index=_index(), taps=request.form.getlist("tap"), now=now(),
        by=current_user))


@bp.route("/g/<slug>/narrator/shown", methods=["POST"])
@login_required
def shown(slug: str):
    """The narrator signalled the answer on the screen: on to the next call."""
    game = _game(slug)
    return _attempt(game, lambda: table.answer_shown(
        db(), game, index=_index(), seen=request.form.get("mark", ""), now=now(), by=current_user))


@bp.route("/g/<slug>/narrator/correct", methods=["POST"])
@login_required
def correct(slug: str):
    """A mis-tapped face of tonight replaced, until the dawn is announced."""
    game = _game(slug)
    taps = request.form.getlist("tap")

    def work() -> None:
        table.correct_call(db(), config(), game, index=_index(), taps=taps, now=now(), by=current_user)
        flash(_("Corrected: %(faces)s.", faces=", ".join(taps) or _("no face")), "receipt")
    return _attempt(game, work)


@bp.route("/g/<slug>/narrator/vote", methods=["POST"])
@login_required
def vote(slug: str):
    game = _game(slug)
    taps = request.form.getlist("tap")
    if len(taps) != 1:
        flash(_("Tap one face, then confirm.") + " " + _("Nothing was recorded."), "error")
        return _back(slug)
    return _attempt(game, lambda: table.record_vote(
        db(), config(), game, voter=request.form.get("voter", ""), choice=taps[0], now=now(),
        by=current_user))


@bp.route("/g/<slug>/narrator/close", methods=["POST"])
@login_required
def close(slug: str):
    game = _game(slug)
    try:
        phase_id = int(request.form.get("phase", ""))
    except ValueError:
        abort(400)
    factory = current_app.extensions["pbm_sessions"]
    game_id, user_id = game.id, current_user.id
    db().rollback()  # the close is its own unit of work; nothing of this request is pending
    try:
        table.close_moment(factory, config(), game_id, phase_id=phase_id, now=now(), by_user_id=user_id)
    except (operations.OperationError, Rejected) as exc:
        flash(_error_text(exc, game) + " " + _("Nothing was recorded."), "error")
    return _back(slug)


@bp.route("/g/<slug>/narrator/photo/<int:seat_id>")
@login_required
def photo(slug: str, seat_id: int):
    game = _game(slug)
    if not any(s.id == seat_id for s in game.seats):
        abort(404)
    row = table.photo_of(db(), seat_id)
    if row is None:
        abort(404)
    response = Response(row.data, mimetype=row.content_type)
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response


@bp.route("/g/<slug>/summary")
def game_summary(slug: str):
    """The whole game for everyone at the table, once it is over (roles included)."""
    game = game_or_404(slug)
    if game.status != GameStatus.OVER or not table.narrated(game.ruleset):
        abort(404)
    return render_template("table_summary.html", s=summary(db(), game, _lang()))
