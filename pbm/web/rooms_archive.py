"""The rooms after the game: those the Masters' archive choice keeps (every room of the
rules, only the room every player shares, or none; never the whispers), beside the
reveal and under the same rule (everyone once the game is over, its Masters before),
and the Atom feed of the plenary room, public only when the archive is.

What the archive shows of a post is what its readers saw: a held post is not there, a
removed one says so in its place, an anonymous one stays anonymous.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template, request
from flask_login import current_user
from sqlalchemy import select

from engine.rooms import Rooms, RoomSpec

from ..i18n import request_lang
from .. import archive, operations
from ..models import Game, GameStatus
from ..operations import rooms as talk
from ..talk_models import HELD, RULES, PostRow, RoomRow
from . import config, db, game_or_404, now
from .post_tokens import PostTokens
from .rooms_masters import DEFAULT_ARCHIVE
from .rooms_view import PAGE, post_views

bp = Blueprint("rooms_archive", __name__)

FEED_ENTRIES = 100


def _user():
    return current_user if current_user.is_authenticated else None


def kept(game: Game, rooms: Rooms | None) -> list[RoomSpec]:
    """The rules' rooms the archive keeps, by the Masters' choice."""
    if rooms is None:
        return []
    choice = (game.talk or {}).get("archive") or DEFAULT_ARCHIVE
    if choice == "none":
        return []
    return [s for s in rooms.specs() if choice == "all" or s.plenary]


def _stored(game: Game) -> dict[str, RoomRow]:
    return {r.key: r for r in db().scalars(select(RoomRow).where(RoomRow.game_id == game.id,
                                                                 RoomRow.kind == RULES))}


@bp.app_template_global("archived_rooms")
def archived_rooms(game: Game) -> list[dict[str, Any]]:
    """The rooms of the archive with posts in them (the reveal's block)."""
    if not archive.may_reveal(game, _user()):
        return []
    stored = _stored(game)
    lang = request_lang()
    return [{"key": s.key, "name": s.name.read(lang)} for s in kept(game, talk.rooms_of(game)) if s.key in stored]


def _archived_room(slug: str, key: str) -> tuple[Game, RoomSpec, RoomRow]:
    game = game_or_404(slug)
    if not archive.may_reveal(game, _user()):
        abort(404)
    spec = next((s for s in kept(game, talk.rooms_of(game)) if s.key == key), None)
    row = _stored(game).get(key) if spec is not None else None
    if spec is None or row is None:
        abort(404)
    return game, spec, row


def _public_posts(room: RoomRow, before: int | None, limit: int) -> tuple[list[PostRow], bool]:
    query = select(PostRow).where(PostRow.room_id == room.id, PostRow.status != HELD)
    if before is not None:
        query = query.where(PostRow.id < before)
    rows = list(db().scalars(query.order_by(PostRow.id.desc()).limit(limit + 1)))
    return list(reversed(rows[:limit])), len(rows) > limit


@bp.route("/g/<slug>/reveal/rooms/<key>")
def room(slug: str, key: str):
    game, spec, row = _archived_room(slug, key)
    tokens = PostTokens(current_app.config["SECRET_KEY"], row.id)
    before = tokens.id_of(request.args["before"]) if request.args.get("before") else None
    if request.args.get("before") and before is None:
        abort(404)
    posts, older = _public_posts(row, before, PAGE)
    views = post_views(posts, tokens, None, master=False, lang=request_lang(), tz=operations.game_tz(game),
                       now=now())
    return render_template("rooms/archive_room.html", game=game, title=spec.name.read(request_lang()),
                           about=spec.about.read(request_lang()), posts=views, key=key,
                           older=views[0].token if older and views else None,
                           early=game.status != GameStatus.OVER)


@bp.route("/g/<slug>/piazza.atom")
def feed(slug: str):
    """The plenary room's newest posts as an Atom feed: public once the archive is (the
    game over, the room kept), to its Masters before."""
    game = game_or_404(slug)
    if not archive.may_reveal(game, _user()):
        abort(404)
    spec = next((s for s in kept(game, talk.rooms_of(game)) if s.plenary), None)
    row = _stored(game).get(spec.key) if spec is not None else None
    if spec is None or row is None:
        abort(404)
    posts, _older = _public_posts(row, None, FEED_ENTRIES)
    tokens = PostTokens(current_app.config["SECRET_KEY"], row.id)
    views = post_views(posts, tokens, None, master=False, lang=request_lang(), tz=operations.game_tz(game),
                       now=now())
    base = config()["BASE_URL"].rstrip("/")
    body = render_template("rooms/feed.atom.xml", game=game, title=spec.name.read(request_lang()), key=spec.key,
                           entries=list(zip(reversed(views), reversed(posts))), base=base,
                           updated=posts[-1].created_at if posts else game.created_at)
    return Response(body, mimetype="application/atom+xml")
