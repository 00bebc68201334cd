"""The rooms on the web, phone first: the reader's rooms with their unread counts, a page
per room (newest at the bottom, the composer under it), posting, a reader's choices
(every post by mail, a digest, the web only; mute), reporting a post, opening a whisper,
and the polling endpoint that brings new posts without a reload.

Who may read and write is asked of ``operations.rooms`` (the rules, at the game's state,
each time); the polling endpoint, asked every ten seconds by every open page, asks the
same through ``rooms_access``, at the cost of one query. A room a reader has no place in
answers 403 whatever it is (a room of others, a room that does not exist): its
existence is not told either. A post is named by its token (post_tokens), never its id.

Visiting a room marks it read (a write of its own, after the page is read: a lost mark
costs a repeat, never a post). A refused post comes back in the composer, with why.
"""
from __future__ import annotations

import logging
from typing import Any

from flask import session as flask_session
from flask import (
    Blueprint, Response, abort, current_app, g, redirect, render_template, request, url_for,
)
from flask_babel import gettext as _
from flask_login import current_user, login_required
from sqlalchemy import and_, bindparam, exists, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import defer

from engine.core import Rejected
from engine.registry import get_ruleset
from engine.rooms import MASTERS_READ_WHISPERS, WHISPERS, Access, Rooms

from ..i18n import request_lang
from .. import operations, render
from ..db import transaction, unflushed, write_sessions
from ..models import Game, GameMaster, Seat, User
from ..operations import rooms as talk
from ..talk_models import DELIVERIES, DIGEST, HELD, WHISPER, PostRow, RoomReader, RoomRow
from . import config, db, may_read, now, remember_my_seat
from . import rooms_access, rooms_view
from .post_tokens import FROM_THE_START, PostTokens
from .refusals import attempt, attempted

bp = Blueprint("rooms", __name__)
log = logging.getLogger(__name__)


def _tokens(room_id: int) -> PostTokens:
    return PostTokens(current_app.config["SECRET_KEY"], room_id)


# The game, the reader's seat and whether they are one of its Masters, in one query
# built once; what no room reads (the deal's composition, a prepared draw) is left in
# the database. Every room's page, post and choice asks it.
_GAME_SEAT_MASTER = (
    select(Game, Seat, exists().where(GameMaster.game_id == Game.id, GameMaster.user_id == bindparam("user_id")))
    .outerjoin(Seat, and_(Seat.game_id == Game.id, Seat.user_id == bindparam("user_id")))
    .where(Game.slug == bindparam("slug"))
    .options(defer(Game.composition), defer(Game.prepared)))


def _reader_of_game(slug: str) -> tuple[Game, Seat | None, bool]:
    """The game and the logged-in user's seat in it, or 403 for someone not in it (404
    for a private game, which is not there at all for them, and for no game)."""
    row = db().execute(_GAME_SEAT_MASTER, {"slug": slug, "user_id": current_user.id}).first()
    if row is None:
        abort(404)
    game, seat, master = row[0], row[1], bool(row[2])
    remember_my_seat(game, seat)
    if seat is None and not master:
        abort(403 if may_read(game) else 404)
    return game, seat, master


def _place_or_403(game: Game, key: str, seat: Seat | None, master: bool) -> talk.Place:
    place = talk.place_of(db(), game, key, seat, master=master)
    if place is None:
        abort(403)
    return place


def room_url(slug: str, key: str, **kwargs: Any) -> str:
    return url_for("rooms.room", slug=slug, key=key, **kwargs)


def post_urls(slug: str, key: str) -> dict[str, str]:
    """Where a post is reported and moderated, but for the post's token at the end:
    made once for a page of posts."""
    return {"report_url": url_for("rooms.report", slug=slug, key=key, post="-")[:-1],
            "moderate_url": url_for("rooms_masters.moderate", slug=slug, key=key, post="-")[:-1]}


# --------------------------------------------------------------------------- the menu

@bp.app_context_processor
def _menu() -> dict[str, Any]:
    return {"talk_menu": _LazyMenu()}


class _LazyMenu:
    """The reader's rooms of the game the page is about, with unread counts: read only
    when a template asks (the menu in base.html, the reserved page's block)."""

    def _menu(self) -> rooms_view.Menu:
        return talk_menu()

    def __bool__(self) -> bool:
        return bool(self._menu())

    def __getattr__(self, name: str) -> Any:
        return getattr(self._menu(), name)


def talk_menu(known: rooms_access.Asker | None = None) -> rooms_view.Menu:
    """The reader's rooms of the game the page is about, read once a request.
    ``known``: the reader as the page has read them already (the reserved page: the
    game, their seat and the game's state), which saves the menu its first query."""
    if "talk_menu" not in g:
        g.talk_menu = _menu_now(known)
    return g.talk_menu


def _menu_now(known: rooms_access.Asker | None = None) -> rooms_view.Menu:
    slug = (request.view_args or {}).get("slug") if request else None
    if not slug or not current_user.is_authenticated:
        return rooms_view.Menu("")
    # Two queries built once, in plain rows, in the page's own transaction: every page of
    # a game shows the menu.
    who = known if known is not None and known.user_id == current_user.id else \
        rooms_access.asker(db(), slug, current_user.id)
    if who is None or not who.in_game or who.standing is None:
        return rooms_view.Menu(slug)
    held = rooms_access.rooms_held(db(), who)
    names = rooms_view.whisper_names(db(), [h.room_id for h in held if h.kind == WHISPER and h.room_id])
    rules = get_ruleset(who.ruleset).ability(Rooms)
    lang = request_lang()
    entries = []
    for h in held:
        if h.kind == WHISPER:
            title = ", ".join(names.get(h.room_id, []))
        else:
            spec = rules.spec(h.key) if rules is not None else None
            title = spec.name.read(lang) if spec is not None else h.key
        entries.append(rooms_view.Entry(h.key, title, h.kind, h.unread, row_id=h.room_id))
    return rooms_view.Menu(slug, entries)


# --------------------------------------------------------------------------- the pages

@bp.route("/g/<slug>/rooms")
@login_required
def index(slug: str):
    game, seat, master = _reader_of_game(slug)
    places = talk.places(db(), game, seat, master=master)
    lang = request_lang()
    entries = rooms_view.entries_of(db(), game, places, current_user, master=master, lang=lang)
    rooms = talk.rooms_of(game)
    whispers_on = (rooms is not None and seat is not None and not seat.disqualified
                   and rooms.chosen(talk.settings_of(game)).get(WHISPERS, False) and bool(places))
    others = [s for s in game.seats if seat is not None and s.id != seat.id and not s.disqualified]
    told = next((s.told(rooms.masters_read_whispers(talk.settings_of(game))).read(lang)
                 for s in rooms.settings() if s.key == MASTERS_READ_WHISPERS), "") if whispers_on else ""
    return render_template("rooms/index.html", game=game, seat=seat, master=master, entries=entries,
                           whispers_on=whispers_on, others=others, masters_told=told)


@bp.route("/g/<slug>/rooms/<key>")
@login_required
def room(slug: str, key: str):
    game, seat, master = _reader_of_game(slug)
    place = _place_or_403(game, key, seat, master)
    return _room_page(game, seat, master, place)


def _room_page(game: Game, seat: Seat | None, master: bool, place: talk.Place, *, draft: str = "",
               refused: str = "", status: int = 200, mark: bool = True) -> tuple[str, int]:
    """The room's page; ``mark``: the visit marks the room read (not when a refused
    post comes back: the request's own transaction holds the write lock)."""
    session, lang = db(), request_lang()
    row = place.row
    before = None
    if row is not None and request.args.get("before"):
        before = _tokens(row.id).id_of(request.args["before"])
        if before is None:
            abort(404)
    posts, older = rooms_view.newest(session, row, current_user, master=master, before=before)
    tokens = _tokens(row.id) if row is not None else None
    reader = session.scalar(select(RoomReader).where(RoomReader.room_id == row.id,
                                                     RoomReader.user_id == current_user.id)) if row else None
    last_read = reader.last_read_id if reader is not None else 0
    views = rooms_view.post_views(posts, tokens, current_user.id, master=master, lang=lang,
                                  tz=operations.game_tz(game), now=now(),
                                  seat_names=rooms_view.anonymous_authors(session, game, posts) if master else None) \
        if tokens is not None else []
    first_unread = next((v.token for v, p in zip(views, posts) if p.id > last_read and p.author_id != current_user.id),
                        None)
    if mark and before is None and posts:
        reader = _mark_read(game.id, place.key, posts[-1].id, reader)
    why = render.rejection(place.refusal[0], place.refusal[1], game.ruleset, lang) if place.refusal else ""
    context = {
        "game": game, "seat": seat, "master": master, "place": place, "title": place.title(lang),
        "writes": place.access >= Access.WRITE,
        "about": place.about.read(lang) if place.about.it else "",
        "who": rooms_view.who_line(game, place), "posts": views, "older": views[0].token if older and views else None,
        "paged": before is not None, "newest": views[-1].token if views and before is None else FROM_THE_START,
        "first_unread": first_unread, "why": why, "draft": draft, "refused": refused,
        "reader": reader, "deliveries": DELIVERIES, "digest": DIGEST, "max_post": talk.MAX_POST,
        "poll_every": float(current_app.config.get("ROOM_POLL_SECONDS", 10)),
        "room_seats": _room_seats(game, place) if master else [],
        "locked": bool(row is not None and row.locked),
        **post_urls(game.slug, place.key),
    }
    return render_template("rooms/room.html", **context), status


def _room_seats(game: Game, place: talk.Place) -> list[str]:
    """The players a Master may silence here: the room's writers among the seats."""
    if place.kind == "whisper":
        return list(place.whisper_names)
    rooms = talk.rooms_of(game)
    state = operations.current_state(game)
    members = rooms.members(state, place.key, talk.settings_of(game)) if rooms and state else {}
    return [s.name for s in game.seats if s.name in members]


def _mark_read(game_id: int, key: str, through: int, reader: RoomReader | None = None) -> RoomReader | None:
    """The reader has read the room through post ``through``: a write of its own (the
    page's session only reads), and none when they had already read that far. Their
    place in the room is made the first time; returns it as stored."""
    if reader is not None and reader.last_read_id >= through:
        return reader
    try:
        return _marked(game_id, key, through, reader)
    except (OperationalError, IntegrityError):
        # The database busy past its wait (a long boundary), or another tab of the same
        # reader making their place at the same moment: the page is shown all the same,
        # and the next visit marks it.
        log.warning("room %s of game %s not marked read for user %s", key, game_id, current_user.id)
        return reader


def _marked(game_id: int, key: str, through: int, reader: RoomReader | None) -> RoomReader | None:
    with transaction(write_sessions(current_app.extensions)) as session:
        unflushed(session)  # a mark lost to a power cut costs a repeat, not a post
        if reader is not None:
            session.execute(update(RoomReader).where(RoomReader.id == reader.id, RoomReader.last_read_id < through)
                            .values(last_read_id=through))
            return reader
        room = talk.room_row(session, session.get(Game, game_id), key, now())
        made = talk.reader_of(session, room, session.get(User, current_user.id))
        talk.mark_read(made, through)
        session.flush()
        session.expunge(made)
        return made


# --------------------------------------------------------------------------- posting

@bp.route("/g/<slug>/rooms/<key>/post", methods=["POST"])
@login_required
def post(slug: str, key: str):
    game, seat, master = _reader_of_game(slug)
    body = request.form.get("body", "")

    def refused(exc: Exception, said: str):
        place = talk.place_of(db(), game, key, seat, master=master)
        if place is None or (isinstance(exc, Rejected) and exc.code in ("room_not_member", "room_unknown")):
            abort(403)  # a room of others, or none: told alike, whatever was sent
        return _room_page(game, seat, master, place, draft=body, refused=said, status=422, mark=False)

    outcome = attempted(game, lambda: talk.post(db(), config(), game, key, body, user=current_user, seat=seat,
                                                now=now(), via="web", master=master), lock=False, tell=False)
    if outcome.refused is not None:
        return refused(outcome.refused, outcome.said)
    return redirect(room_url(slug, key, _anchor="composer"))


# --------------------------------------------------------------------------- new posts without a reload

@bp.route("/g/<slug>/rooms/<key>/since/<after>")
def since(slug: str, key: str, after: str):
    """The posts after ``after`` (a post's token, or FROM_THE_START) as the page's list
    items; 204 when there is none. A reader without a place in the room gets 403 (after
    one query, before anything else: never a 204 that would say the room is there), an
    anonymous one 401, a token of another room 404."""
    # Bare answers: a script reads them, and an error page would cost a page.
    user_id, token = _logged_in()
    if user_id is None:
        return Response(status=401)
    # A connection, not the request's ORM session: half the cost of the answer when
    # nothing is new (bench/bench_talk.py).
    with current_app.extensions["pbm_engine"].connect() as connection:
        found = rooms_access.poll(connection, slug, key, user_id, token)
    if found is None:
        return Response(status=404)
    if not found.signed_in:
        return Response(status=401)
    if not found.reads:
        return Response(status=403)
    if found.room_id is None:
        return Response(status=204)  # a room of the rules nobody has written in yet
    tokens = _tokens(found.room_id)
    after_id = tokens.id_of(after)
    if after_id is None:
        return Response(status=404)
    if found.latest <= after_id:
        return Response(status=204)
    return _news(slug, key, after_id, tokens)


def _logged_in() -> tuple[int | None, str | None]:
    """Who asks, read from the session's login ("id:token", as flask-login keeps it)
    without loading the user: the polling endpoint's one query checks the token
    (``rooms_access.poll``). A session without it (only a remember cookie) goes through
    flask-login, which loads the user."""
    uid, _, token = str(flask_session.get("_user_id") or "").partition(":")
    if uid.isdigit() and token:
        return int(uid), token
    return (current_user.id, None) if current_user.is_authenticated else (None, None)


def _news(slug: str, key: str, after_id: int, tokens: PostTokens):
    game, seat, master = _reader_of_game(slug)
    place = _place_or_403(game, key, seat, master)
    posts = talk.visible_posts(db(), place.row, current_user, master=master, after=after_id,
                               limit=rooms_view.PAGE + 1)
    if len(posts) > rooms_view.PAGE:
        # More than a page came meanwhile (a phone asleep): the page is read anew.
        return Response(status=205)
    views = rooms_view.post_views(posts, tokens, current_user.id, master=master, lang=request_lang(),
                                  tz=operations.game_tz(game), now=now(),
                                  seat_names=rooms_view.anonymous_authors(db(), game, posts) if master else None)
    if posts:
        _mark_read(game.id, key, posts[-1].id, db().scalar(select(RoomReader).where(
            RoomReader.room_id == place.row.id, RoomReader.user_id == current_user.id)))
    body = render_template("rooms/_posts.html", game=game, place=place, posts=views, master=master,
                           **post_urls(slug, key))
    return Response(body, mimetype="text/html", headers={"X-Newest": views[-1].token if views else ""})


# --------------------------------------------------------------------------- a reader's choices

@bp.route("/g/<slug>/rooms/<key>/reading", methods=["POST"])
@login_required
def reading(slug: str, key: str):
    game, seat, master = _reader_of_game(slug)
    _place_or_403(game, key, seat, master)
    delivery = request.form.get("delivery", "")
    hours = _hours(request.form.get("hours", "")) if delivery == DIGEST else None
    muted = request.form.get("muted") == "1"

    def choose() -> None:
        room = talk.room_row(db(), game, key, now())
        talk.choose_delivery(talk.reader_of(db(), room, current_user), delivery, hours, muted)

    return attempt(game, choose, back=room_url(slug, key), lock=False, success=_("Your choice is saved."))


def _hours(text: str) -> list[int]:
    """"8, 20" -> [8, 20]; what is no hour of the day is left out (none left: refused)."""
    out = []
    for part in text.replace(";", ",").replace(" ", ",").split(","):
        part = part.strip().removesuffix(":00")
        if part.isdigit() and 0 <= int(part) <= 23:
            out.append(int(part))
    return out


@bp.route("/g/<slug>/rooms/<key>/report/<post>", methods=["POST"])
@login_required
def report(slug: str, key: str, post: str):
    game, seat, master = _reader_of_game(slug)
    place = _place_or_403(game, key, seat, master)
    post_row = _post_or_404(place, post, master)
    note = request.form.get("note", "")
    return attempt(game, lambda: talk.report(db(), game, post_row, current_user, note, now()),
                   back=room_url(slug, key, _anchor=post), lock=False,
                   success=_("Reported to the Masters: they will look at it."))


def _post_or_404(place: talk.Place, token: str, master: bool):
    """The post ``token`` names in this room, if this reader sees it."""
    if place.row is None:
        abort(404)
    post_id = _tokens(place.row.id).id_of(token)
    found = db().get(PostRow, post_id) if post_id else None
    if found is None or found.room_id != place.row.id:
        abort(404)
    if not master and found.status == HELD and found.author_id != current_user.id:
        abort(404)
    return found


# --------------------------------------------------------------------------- whispers

@bp.route("/g/<slug>/rooms/whisper", methods=["POST"])
@login_required
def whisper(slug: str):
    game, seat, _master = _reader_of_game(slug)
    if seat is None:
        abort(403)  # the Masters read whispers; they open none
    wanted = set(request.form.getlist("with"))
    others = [s for s in game.seats if s.name in wanted]
    opened: list[RoomRow] = []

    def open_it() -> None:
        opened.append(talk.open_whisper(db(), config(), game, seat, others, now()))

    answer = attempt(game, open_it, back=url_for("rooms.index", slug=slug), lock=False)
    return redirect(room_url(slug, opened[0].key)) if opened else answer
