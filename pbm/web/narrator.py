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
from werkzeug.wrappers import Response as BaseResponse
from flask_babel import gettext as _
from flask_login import current_user, login_required
from flask_wtf.csrf import validate_csrf
from sqlalchemy import select
from wtforms.validators import ValidationError

from engine.registry import get_ruleset

from ..i18n import request_lang
from .. import photos
from ..models import Game, GameStatus
from ..operations import table, timing
from . import config, db, game_or_404, now, request_size, require_master
from .narrator_offline import CSP, offline_urls
from .narrator_view import screen, summary
from .refusals import attempt

bp = Blueprint("narrator", __name__)



def _game(slug: str):
    game = game_or_404(slug)
    require_master(game)
    if timing.moments(game).page != timing.TABLE_PAGE:
        abort(404)
    return game


def _back(slug: str) -> BaseResponse:
    return redirect(url_for("narrator.page", slug=slug))


def _attempt(game, work) -> BaseResponse:
    """One tap. The table's calls and votes lock the game themselves (``operations.table``);
    a refusal says that nothing was recorded."""
    return attempt(game, work, back=url_for("narrator.page", slug=game.slug), page="table", lock=False,
                   refused=_nothing_recorded)


def _nothing_recorded(why: str) -> str:
    return f"{why} {_('Nothing was recorded.')}"


@bp.route("/g/<slug>/narrator")
@login_required
def page(slug: str):
    game = _game(slug)
    if game.status == GameStatus.OVER:
        return redirect(url_for("narrator.game_summary", slug=slug))
    fix = request.args.get("fix", type=int)  # the narrator's "Correct" on a call of tonight
    offline = offline_urls(slug)
    response = Response(render_template("narrator.html", s=screen(db(), game, request_lang(), fix=fix),
                                        offline=offline))
    if offline:  # the page may run the engine in Pyodide (WebAssembly) when the network goes
        response.headers["Content-Security-Policy"] = CSP
    return response


def _may_upload() -> bool:
    """Asked before the body is read, for the photo's larger limit: the request comes
    from a Master of this game, logged in, with the form's token in the action's
    query string (or the X-CSRFToken header), where it is read without the body."""
    if not current_user.is_authenticated:
        return False
    try:
        validate_csrf(request.args.get("csrf_token") or request.headers.get("X-CSRFToken"))
    except ValidationError:
        return False
    game = db().scalar(select(Game).where(Game.slug == (request.view_args or {}).get("slug")))
    return game is not None and game.is_master(current_user)


@bp.route("/g/<slug>/narrator/seat", methods=["POST"])
@request_size.allow(photos.MAX_REQUEST, may=_may_upload)  # a phone photo, larger than any form
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
    if request.form.get("composition") == "edited":
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
    game_id, user_id, back = game.id, current_user.id, url_for("narrator.page", slug=slug)
    # The close is its own unit of work: nothing of this request is pending, and the
    # request's session reads nothing more until it is done (a read would hold SQLite).
    db().rollback()
    return attempt(game, lambda: table.close_moment(factory, config(), game_id, phase_id=phase_id, now=now(),
                                                    by_user_id=user_id),
                   back=back, page="table", lock=False, refused=_nothing_recorded)


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
    if game.status != GameStatus.OVER or timing.moments(game).page != timing.TABLE_PAGE:
        abort(404)
    return render_template("table_summary.html", s=summary(db(), game, request_lang()))
