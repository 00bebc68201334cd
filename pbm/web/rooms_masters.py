"""The Masters and the rooms: moderation from a room's page (hold, release or remove a
post; silence a player in a room for some hours; lock or unlock a room), the desk's block
(the reports no Master has seen, each room's traffic today) and the talk choices of the
game (the ruleset's settings in the reader's language, what the archive keeps).

Every route is under /g/<slug>/master/ and answers the game's Masters alone."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import Blueprint, abort, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required

from ..i18n import request_lang
from ..models import Game
from ..operations import game_tz
from ..operations import rooms as talk
from ..operations import rooms_desk
from ..talk_models import PostRow, WHISPER
from . import db, game_or_404, now, require_master
from .post_tokens import PostTokens
from .refusals import attempt

bp = Blueprint("rooms_masters", __name__)

# The longest a Master silences a player in one go: a week.
MAX_SILENCE_HOURS = 24 * 7
ARCHIVE_CHOICES = ("all", "plenary", "none")
DEFAULT_ARCHIVE = "plenary"


def _masters_room(slug: str, key: str) -> tuple[Game, talk.Place]:
    game = game_or_404(slug)
    require_master(game)
    place = talk.place_of(db(), game, key, None, master=True)
    if place is None:
        abort(404)
    return game, place


def _back(slug: str, key: str, anchor: str | None = None) -> str:
    return url_for("rooms.room", slug=slug, key=key, _anchor=anchor)


@bp.route("/g/<slug>/master/rooms/<key>/moderate/<post>", methods=["POST"])
@login_required
def moderate(slug: str, key: str, post: str):
    game, place = _masters_room(slug, key)
    if place.row is None:
        abort(404)
    post_id = PostTokens(_secret(), place.row.id).id_of(post)
    row = db().get(PostRow, post_id) if post_id else None
    if row is None or row.room_id != place.row.id:
        abort(404)
    action = request.form.get("action", "")
    said = {"hold": _("The post is held: only you and its author see it."),
            "release": _("The post is shown again."),
            "remove": _("The post is removed: its place says so.")}.get(action)
    return attempt(game, lambda: talk.moderate(db(), game, row, action, current_user, now()),
                   back=_back(slug, key, post), success=said)


@bp.route("/g/<slug>/master/rooms/<key>/silence", methods=["POST"])
@login_required
def silence(slug: str, key: str):
    game, place = _masters_room(slug, key)
    seat = game.seat_by_name(request.form.get("player", ""))
    if seat is None:
        abort(404)
    try:
        hours = int(request.form.get("hours", "0") or 0)
    except ValueError:
        hours = -1
    if not 0 <= hours <= MAX_SILENCE_HOURS:
        return attempt(game, _refuse_hours, back=_back(slug, key))
    at = now()
    until = at + timedelta(hours=hours) if hours else None

    def change() -> None:
        room = place.row or talk.room_row(db(), game, key, at)
        talk.silence(db(), game, room, seat, until, current_user, at)

    said = (_("%(name)s cannot write here for %(hours)s hours.", name=seat.name, hours=hours) if hours
            else _("%(name)s can write here again.", name=seat.name))
    return attempt(game, change, back=_back(slug, key), success=said)


def _refuse_hours() -> None:
    from ..operations import OperationError
    raise OperationError("silence_hours", limit=MAX_SILENCE_HOURS)


@bp.route("/g/<slug>/master/rooms/<key>/lock", methods=["POST"])
@login_required
def lock(slug: str, key: str):
    game, place = _masters_room(slug, key)
    locked = request.form.get("locked") == "1"

    def change() -> None:
        talk.lock(db(), game, place.row or talk.room_row(db(), game, key, now()), locked, current_user, now())

    return attempt(game, change, back=_back(slug, key),
                   success=_("The room is locked: the players read it, only the Masters write.") if locked
                   else _("The room is open again."))


@bp.route("/g/<slug>/master/talk", methods=["POST"])
@login_required
def talk_choices(slug: str):
    game = game_or_404(slug)
    require_master(game)
    rooms = talk.rooms_of(game)
    settings = {s.key: request.form.get(f"setting-{s.key}") == "1" for s in (rooms.settings() if rooms else ())}
    archive = request.form.get("archive") or None
    return attempt(game, lambda: talk.choose_talk(db(), game, settings, archive, current_user, now()),
                   back=url_for("master.desk", slug=slug, _anchor="talk"), success=_("Changes saved."))


@bp.route("/g/<slug>/master/reports/seen", methods=["POST"])
@login_required
def reports_seen(slug: str):
    game = game_or_404(slug)
    require_master(game)
    ids = [int(x) for x in request.form.getlist("report") if x.isdigit()]
    return attempt(game, lambda: rooms_desk.reports_seen(db(), game, ids, current_user, now()),
                   back=url_for("master.desk", slug=slug, _anchor="talk"))


def _secret() -> str:
    from flask import current_app
    return current_app.config["SECRET_KEY"]


# --------------------------------------------------------------------------- the desk's block

@bp.app_template_global("desk_talk")
def desk_talk(game: Game) -> dict[str, Any] | None:
    """What the desk shows of the talk (templates/rooms/desk_block.html), or None for a
    game whose players talk elsewhere."""
    rooms = talk.rooms_of(game)
    if rooms is None:
        return None
    lang = request_lang()
    chosen = rooms.chosen(talk.settings_of(game))
    session = db()
    names = {}
    traffic = rooms_desk.traffic(session, game, now(), game_tz(game))
    whispers = [t.room.id for t in traffic if t.room.kind == WHISPER]
    if whispers:
        from .rooms_view import whisper_names
        names = {k: ", ".join(v) for k, v in whisper_names(session, whispers).items()}
    reports = []
    for r in rooms_desk.unseen_reports(session, game):
        tokens = PostTokens(_secret(), r.room.id)
        reports.append({"id": r.report.id, "by": r.by.name, "note": r.report.note, "excerpt": r.post.body[:140],
                        "room": _room_title(rooms, r.room, names, lang),
                        "url": url_for("rooms.room", slug=game.slug, key=r.room.key, _anchor=tokens.of(r.post.id))})
    return {
        "settings": [{"key": s.key, "label": s.label.read(lang), "on": chosen[s.key]} for s in rooms.settings()],
        "archive": (game.talk or {}).get("archive") or DEFAULT_ARCHIVE,
        "archive_choices": [("all", _("Every room of the rules (never the private conversations)")),
                            ("plenary", _("Only the room every player shares")),
                            ("none", _("None"))],
        "traffic": [{"title": _room_title(rooms, t.room, names, lang), "today": t.today, "total": t.total,
                     "locked": t.room.locked,
                     "url": url_for("rooms.room", slug=game.slug, key=t.room.key)} for t in traffic],
        "reports": reports,
        "rooms_url": url_for("rooms.index", slug=game.slug),
    }


def _room_title(rooms: Any, room: Any, whisper_titles: dict[int, str], lang: str) -> str:
    if room.kind == WHISPER:
        return whisper_titles.get(room.id, "")
    spec = rooms.spec(room.key)
    return spec.name.read(lang) if spec is not None else room.key
