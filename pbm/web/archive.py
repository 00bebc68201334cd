"""The archive at stable addresses: each published phase, its vote picture, the
bulletin's Atom feed, and after the end the whole game (a page and JSON).

Phase pages, the picture and the feed are public and show the public's view
(``pbm.archive``) to everyone, a logged-in player or Master included: a link
shared from them must never carry more than the bulletin did.
"""
from __future__ import annotations

import json

from flask import Blueprint, Response, abort, render_template
from flask_login import current_user

from ..i18n import request_lang
from .. import archive, operations
from ..models import GameStatus
from . import config, db, game_or_404

bp = Blueprint("archive", __name__)



def _user():
    return current_user if current_user.is_authenticated else None


def _phase_or_404(slug: str, n: int):
    game = game_or_404(slug)
    phase = archive.published_phase(db(), game, n)
    if phase is None:
        abort(404)
    view, = archive.phase_views(db(), game, request_lang(), operations.game_tz(game), [phase])
    return game, view


@bp.route("/g/<slug>/phases/")
def phases(slug: str):
    game = game_or_404(slug)
    views = archive.phase_views(db(), game, request_lang(), operations.game_tz(game))
    return render_template("archive_phases.html", game=game, views=views,
                           revealable=archive.may_reveal(game, _user()))


@bp.route("/g/<slug>/phases/<int:n>")
def phase(slug: str, n: int):
    game, view = _phase_or_404(slug, n)
    count = len(archive.published_phases(db(), game))
    return render_template("archive_phase.html", game=game, view=view, count=count)


@bp.route("/g/<slug>/phases/<int:n>/votes.svg")
def votes_svg(slug: str, n: int):
    game, view = _phase_or_404(slug, n)
    if view.tally is None:
        abort(404)
    body = render_template("votes.svg", game=game, view=view, t=view.tally,
                           bars=archive.bars(view.tally, request_lang()))
    # No caching: a phase the Masters roll back and correct keeps its address.
    return Response(body, mimetype="image/svg+xml")


@bp.app_template_global("substitute_line")
def substitute_line(holder, lang: str) -> str:
    return archive.substitute_line(holder, lang)


@bp.app_template_filter("votecount")
def count_filter(value: float) -> str:
    """A vote count as people write it: 2, 1,25 (Italian) or 1.25."""
    return archive.shown_count(value, request_lang())


@bp.route("/g/<slug>/bulletin.atom")
def feed(slug: str):
    game = game_or_404(slug)
    views = archive.phase_views(db(), game, request_lang(), operations.game_tz(game))
    base = config()["BASE_URL"].rstrip("/")
    body = render_template("bulletin.atom.xml", game=game, views=list(reversed(views)), base=base,
                           updated=max((v.phase.published_at for v in views if v.phase.published_at),
                                       default=game.created_at))
    return Response(body, mimetype="application/atom+xml")


@bp.route("/g/<slug>/archive.json")
def archive_json(slug: str):
    game = game_or_404(slug)
    if not archive.may_reveal(game, _user()):
        abort(404)
    data = archive.revealed(db(), game, request_lang(), operations.game_tz(game))
    return Response(json.dumps(data, ensure_ascii=False, indent=1, default=str),
                    mimetype="application/json",
                    headers={"Content-Disposition": f'inline; filename="{game.slug}.json"'})


@bp.route("/g/<slug>/reveal")
def reveal(slug: str):
    game = game_or_404(slug)
    if not archive.may_reveal(game, _user()):
        abort(404)
    data = archive.revealed(db(), game, request_lang(), operations.game_tz(game))
    return render_template("archive_reveal.html", game=game, data=data,
                           early=game.status != GameStatus.OVER)
