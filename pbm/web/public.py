"""Public pages: the list of games and each game's home (the bulletin)."""
from __future__ import annotations

from flask import Blueprint, Response, render_template
from flask_login import current_user
from sqlalchemy import or_, select

from engine.registry import get_ruleset

from ..i18n import request_lang
from .. import archive, operations, render, role_cards
from ..views.deadline_note import deadline_note
from ..models import Game, GameMaster, GameStatus, Listing, PhaseRow, Seat
from . import config, db, game_or_404, my_seat, now

bp = Blueprint("public", __name__)


@bp.app_template_filter("local_time")
def local_time(when, tz: str) -> str:
    """A stored UTC time as the game's clock shows it, in the reader's words."""
    return render.when_text(when, request_lang(), tz)


@bp.app_template_filter("day")
def day(when) -> str:
    """A calendar day (an absence's first or last) in the reader's words."""
    return render.day_text(when, request_lang())


@bp.app_template_filter("ruleset_name")
def ruleset_name(key: str) -> str:
    """A ruleset as people call it, in the reader's language, not its key."""
    try:
        return get_ruleset(key).name_in(request_lang()) or key
    except KeyError:
        return key


@bp.route("/")
def index():
    """The games: the visitor's own first (where they play or are a Master), then the
    others listed for everyone; an unlisted or private game is found by its link alone."""
    mine: list[Game] = []
    if current_user.is_authenticated:
        mine = db().scalars(select(Game).where(or_(
            Game.id.in_(select(Seat.game_id).where(Seat.user_id == current_user.id)),
            Game.id.in_(select(GameMaster.game_id).where(GameMaster.user_id == current_user.id))))
            .order_by(Game.created_at.desc())).all()
    others = db().scalars(select(Game).where(Game.listing == Listing.PUBLIC,
                                             Game.id.not_in([g.id for g in mine]))
                          .order_by(Game.created_at.desc())).all()
    return render_template("index.html", mine=mine, games=others)


@bp.route("/g/<slug>/")
def game_home(slug: str):
    game = game_or_404(slug)
    state = operations.current_state(game)
    timing = operations.timing.moments(game, state)
    if timing.page == operations.timing.WINDOW_PAGE:  # the table and the log, without anyone's hand
        from .window_page import render_page
        return render_page(game, None)
    lang = request_lang()
    tz = operations.game_tz(game)
    phase = operations.current_phase(db(), game)
    # Each published phase as the archive shows it (the public's view), newest first.
    bulletins = [{"phase": v.phase, "number": v.number, "label": v.label, "lines": v.lines,
                  "substitutes": v.substitutes, "votes": archive.vote_lines(v.tally)}
                 for v in reversed(archive.phase_views(db(), game, lang, tz))]
    dead = [p.name for p in state.players if not p.alive] if state else []
    return render_template(
        "game_home.html", game=game, phase=phase, bulletins=bulletins, dead=dead, state=state,
        titles=render.titles(game.ruleset, state, lang),
        phase_label=render.phase_label(phase, lang, tz) if phase else None,
        deadline=(render.deadline_text(phase.ends_at, lang, tz)
                  if phase and phase.has_deadline else None),
        deadline_note=deadline_note(db(), game, phase, lang, tz),
        seat=my_seat(game), is_master=game.is_master(_user()),
        narrated=timing.page == operations.timing.TABLE_PAGE,
    )


@bp.route("/g/<slug>/rules")
def rules(slug: str):
    """The game's rules page: the card of every role it may have (engine/cards.py),
    written with the game's own players; public, as the rulebook is."""
    game = game_or_404(slug)
    state = operations.current_state(game)
    cards = role_cards.game_cards(game, state, request_lang())
    return render_template("rules.html", game=game, cards=cards)


def _user():
    from flask_login import current_user
    return current_user if current_user.is_authenticated else None


@bp.route("/g/<slug>/calendar.ics")
def calendar_feed(slug: str):
    """The game's deadlines as an iCalendar feed: past phases as they were,
    the coming ones as the calendar schedules them."""
    from .. import calendar
    game = game_or_404(slug)
    sched = operations.game_schedule(game)
    rows = db().scalars(select(PhaseRow).where(PhaseRow.game_id == game.id)
                        .order_by(PhaseRow.index)).all()
    dated = [r for r in rows if r.has_deadline]
    phases = [calendar.Phase(r.kind, r.starts_at.astimezone(sched.zone), r.ends_at.astimezone(sched.zone),
                             r.long) for r in dated]
    lang = request_lang()
    # A moment that is no night or day (an answer window) is named by its ruleset,
    # as the desk and the mail name it, never by its kind.
    names = {i: render.phase_label(r, lang, operations.game_tz(game))
             for i, r in enumerate(dated) if r.kind not in ("day", "night")}
    if game.status != GameStatus.OVER and operations.timing.moments(game).scheduled:
        # A boundary belongs to the phase that starts there: the next phase.
        phases += calendar.phases_from(sched, rows[-1].ends_at if rows else now(), 14)
    url = f"{config()['BASE_URL']}/g/{game.slug}/"
    body = calendar.to_ics(phases, game.name, url, dtstamp=now(), lang=lang, uid_prefix=f"{game.slug}-",
                           names=names)
    return Response(body, mimetype="text/calendar", headers={
        "Content-Disposition": f'inline; filename="{game.slug}.ics"'})
