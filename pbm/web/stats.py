"""The statistics' pages (issue 34): a player's page across games, a group's page, a
season's table and its export, and the Masters' forms for groups, seasons, points and
a game's season. Read from what was counted as each game ended (pbm/stats); nothing
of a game still running is there to show."""
from __future__ import annotations

import json
from typing import Any, Callable

from flask import Blueprint, Response, abort, jsonify, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup
from flask_login import current_user, login_required
from sqlalchemy import select

from engine.figures import GameFigures
from engine.registry import available, get_ruleset

from ..i18n import request_lang
from ..models import Game, GameStatus, User
from ..operations import seasons
from ..season_models import GroupRow, SeasonGame, SeasonRow
from ..stats import charts, export, pages, totals
from . import config, db, game_or_404, now, require_master
from .forms import CsrfForm
from .public import ruleset_name
from .refusals import attempt

bp = Blueprint("stats", __name__)
bp.add_app_template_filter(pages.percent, "percent")


def _group_or_404(slug: str) -> GroupRow:
    group = db().scalar(select(GroupRow).where(GroupRow.slug == slug))
    if group is None:
        abort(404)
    return group


def _season_or_404(group_slug: str, season_slug: str) -> tuple[GroupRow, SeasonRow]:
    """The season and its group, in one query."""
    row = db().execute(select(GroupRow, SeasonRow).join(SeasonRow, SeasonRow.group_id == GroupRow.id)
                       .where(GroupRow.slug == group_slug, SeasonRow.slug == season_slug)).first()
    if row is None:
        abort(404)
    return row[0], row[1]


def _owner(group: GroupRow) -> bool:
    return current_user.is_authenticated and (group.owner_id == current_user.id or current_user.is_admin)


def _pictures(view: dict) -> list[charts.Chart]:
    """The scope page's charts: the factions' win rates, the standings' points."""
    out = []
    if view["factions"]:
        out.append(charts.bars(_("Factions' win rates"), [
            (f["name"], f["rate"] or 0.0, _("%(wins)s of %(games)s", wins=f["wins"], games=f["games"]))
            for f in view["factions"]], scale=1))
    if view["standings"]:
        out.append(charts.bars(_("Points"), [(s.name, s.points, str(s.points)) for s in view["standings"][:10]]))
    return out


@bp.route("/groups/")
@login_required
def my_groups():
    return render_template("stats/groups.html", groups=seasons.groups_of(db(), current_user), form=CsrfForm())


@bp.route("/groups/", methods=["POST"])
@login_required
def new_group():
    if not current_user.is_admin or not CsrfForm().validate_on_submit():
        abort(403)
    return attempt(None, lambda: seasons.create_group(db(), name=request.form.get("name", ""), owner=current_user,
                                                       now=now()),
                   back=url_for("stats.my_groups"), success=_("Group created."))


# Rendered bodies of the statistics' pages, the same for every reader, kept per process
# until the figures they show change (a new revision: a game counted or taken back),
# so a visit reads a few rows instead of building the tables again.
_BODIES: dict[tuple[Any, ...], Markup] = {}
_BODIES_KEPT = 256


def _body(key: tuple[Any, ...], build: Callable[[], str]) -> Markup:
    # The database is part of the key: one process may serve several (tests, the leak
    # scanner's two sides), whose ids and revisions coincide.
    key = (config()["DATABASE_URL"], *key)
    body = _BODIES.get(key)
    if body is None:
        if len(_BODIES) >= _BODIES_KEPT:
            _BODIES.clear()
        body = _BODIES[key] = Markup(build())
    return body


def _scope_page(group: GroupRow, season: SeasonRow | None, scope: str) -> str:
    lang = request_lang()
    key = ("scope", scope, lang, totals.revisions(db(), scope, totals.PEOPLE), json.dumps(group.points, sort_keys=True),
           group.name, request.script_root)

    def build() -> str:
        season_ids = [season.id] if season is not None else [s.id for s in group.seasons]
        view = pages.scope_view(db(), scope, group, season_ids, lang)
        return render_template("stats/_scope_body.html", group=group, season=season, view=view,
                               charts=_pictures(view))
    return render_template("stats/scope.html", group=group, season=season, body=_body(key, build),
                           owner=_owner(group), points=pages.points_of(group),
                           rulesets=[(k, ruleset_name(k)) for k in available()] if season is None else [])


@bp.route("/groups/<group_slug>/")
def group_page(group_slug: str):
    group = _group_or_404(group_slug)
    return _scope_page(group, None, totals.group_scope(group.id))


@bp.route("/groups/<group_slug>/seasons", methods=["POST"])
@login_required
def new_season(group_slug: str):
    group = _group_or_404(group_slug)
    if not CsrfForm().validate_on_submit():
        abort(400)
    return attempt(None, lambda: seasons.add_season(db(), group, name=request.form.get("name", ""), by=current_user,
                                                     now=now()),
                   back=url_for("stats.group_page", group_slug=group_slug), success=_("Season added."))


@bp.route("/groups/<group_slug>/points", methods=["POST"])
@login_required
def set_points(group_slug: str):
    group = _group_or_404(group_slug)
    if not CsrfForm().validate_on_submit():
        abort(400)
    points = {k: {"win": request.form.get(f"{k}-win", ""), "play": request.form.get(f"{k}-play", "")}
              for k in available()}
    return attempt(None, lambda: seasons.set_points(db(), group, points, by=current_user),  # type: ignore[arg-type]
                   back=url_for("stats.group_page", group_slug=group_slug), success=_("Points saved."))


@bp.route("/groups/<group_slug>/<season_slug>/")
def season_page(group_slug: str, season_slug: str):
    group, season = _season_or_404(group_slug, season_slug)
    return _scope_page(group, season, totals.season_scope(season.id))


@bp.route("/groups/<group_slug>/<season_slug>/export.<fmt>")
def season_export(group_slug: str, season_slug: str, fmt: str):
    group, season = _season_or_404(group_slug, season_slug)
    if fmt not in ("json", "csv"):
        abort(404)
    named = request.args.get("names") == "1"
    data = export.season_games(db(), season, names=named, anonymous_word=_("Player"))
    filename = f"{group.slug}-{season.slug}{'' if named else '-anonymous'}.{fmt}"
    if fmt == "json":
        response = jsonify(data)
    else:
        response = Response(export.as_csv(data), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.route("/players/<int:user_id>/")
def player_page(user_id: int):
    user = db().get(User, user_id)
    if user is None:
        abort(404)
    mine = current_user.is_authenticated and current_user.id == user.id
    private = seasons.is_private(db(), user.id)
    if private and not mine:
        return render_template("stats/private.html", user=user), 403
    lang = request_lang()

    def build() -> str:
        view = pages.player_view(db(), user, lang)
        ways = [(_("web"), view["by_way"]["web"]), (_("mail"), view["by_way"]["mail"]),
                (_("through the Master"), view["by_way"]["master"])]
        picture = charts.bars(_("Moments acted in, by way"), [(w, n, str(n)) for w, n in ways]) \
            if view["done"] else None
        return render_template("stats/_player_body.html", view=view, chart=picture)
    key = ("player", user.id, lang, totals.revisions(db(), totals.ALL), user.name, request.script_root)
    return render_template("stats/player.html", user=user, mine=mine, body=_body(key, build),
                           private=private)


@bp.route("/players/me/privacy", methods=["POST"])
@login_required
def privacy():
    if not CsrfForm().validate_on_submit():
        abort(400)
    return attempt(None, lambda: seasons.set_private(db(), current_user, request.form.get("private") == "1"),
                   back=url_for("stats.player_page", user_id=current_user.id), success=_("Saved."))


@bp.route("/g/<slug>/master/season", methods=["POST"])
@login_required
def place_game(slug: str):
    game = game_or_404(slug)
    require_master(game)
    if not CsrfForm().validate_on_submit():
        abort(400)
    raw = request.form.get("season", "")
    season_id = int(raw) if raw.isdigit() else None
    return attempt(game, lambda: seasons.place_game(db(), game, season_id, fair_deal=request.form.get("fair") == "1",
                                                     by=current_user, now=now()),
                   back=url_for("master.desk", slug=slug), success=_("Season saved."))


def season_choice(game: Game) -> dict[str, Any]:
    """The desk's season block: the seasons this Master may choose while the game is in
    set-up, the season chosen, and the weights of a fair draw (the Masters' eyes only)."""
    placed = db().get(SeasonGame, game.id)
    fair = dict((game.prepared or {}).get("fair") or {})
    if fair:
        counting = get_ruleset(game.ruleset).ability(GameFigures)
        fair["faction_name"] = counting.faction_name(fair["faction"], request_lang()) if counting else fair["faction"]
    return {"editable": game.status == GameStatus.SETUP, "placed": placed, "fair": fair,
            "groups": [g for g in seasons.groups_of(db(), current_user) if g.seasons]}
