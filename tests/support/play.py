"""Whole games played through the service for tests: started with the same seed so
two games differ only in what a test changes, submissions, boundaries, and what each
reader gets (the public page, the bulletin, a player's mail)."""
from __future__ import annotations

from datetime import datetime, timezone

from pbm import operations
from pbm.db import transaction
from pbm.models import Game, OutboxRow
from pbm.worker import Worker

from tests.support.helpers import make_game

TUESDAY_0930_ROME = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)   # day 1 open
TUESDAY_2130_ROME = datetime(2026, 11, 24, 20, 30, tzinfo=timezone.utc)  # night 2 open
WEDNESDAY_0930_ROME = datetime(2026, 11, 25, 8, 30, tzinfo=timezone.utc)  # day 2 open


# --------------------------------------------------------------------------- helpers

def new_game(app, clock, roles, *, ruleset="lupus-live-12", mayor=None) -> str:
    """A started game whose random draws are the same as any other game's made here,
    so two games differ only in what the test changes."""
    factory = app.extensions["pbm_sessions"]
    gid = make_game(factory, app.config, clock.now(), roles, mayor=mayor, ruleset=ruleset)
    with transaction(factory) as s:
        game = s.get(Game, gid)
        game.seed = "same-seed-for-every-game"
        return game.slug


def submit(app, clock, slug, name, submission):
    factory = app.extensions["pbm_sessions"]
    with transaction(factory) as s:
        game = s.query(Game).filter_by(slug=slug).one()
        operations.submit(s, app.config, game, game.seat_by_name(name), submission,
                          source="web", now=clock.now())


def pass_boundary(app, clock, when):
    clock.set(when)
    Worker(app, clock).boundaries()


def public_page(app, slug) -> str:
    return app.test_client().get(f"/g/{slug}/").get_data(as_text=True)


def bulletin_section(page: str) -> str:
    """The bulletin of a game page, with the game's own address taken out."""
    start = page.index("<h2>Bollettino</h2>")
    return page[start:page.index("</section>", start)]


def last_mail(app, slug, name, kind="phase_results") -> OutboxRow:
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        game = s.query(Game).filter_by(slug=slug).one()
        email = game.seat_by_name(name).user.email
        return (s.query(OutboxRow).filter_by(game_id=game.id, to_addr=email, kind=kind)
                .order_by(OutboxRow.id.desc()).first())


def mails_to_players(app, slug) -> list[OutboxRow]:
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        game = s.query(Game).filter_by(slug=slug).one()
        players = {seat.user.email for seat in game.seats}
        return [r for r in s.query(OutboxRow).filter_by(game_id=game.id) if r.to_addr in players]


def public_part(body: str) -> str:
    """The bulletin and the votes of a results mail: what every player receives alike."""
    start = body.index("BOLLETTINO")
    return body[start:body.index("\n-- \n")]


def private_part(body: str) -> str:
    if "SOLO PER TE" not in body:
        return ""
    return body[body.index("SOLO PER TE"):body.index("BOLLETTINO")]


def without_slug(text: str, slug: str) -> str:
    return text.replace(f"/g/{slug}/", "/g/GAME/")


def reserved_results(page: str) -> str:
    start = page.index("<h2>I tuoi risultati privati</h2>")
    return page[start:page.index("</section>", start)]


LIVE = {"Anna": "Lupo Mannaro", "Bruno": "Lupo Mannaro", "Carla": "Veggente", "Dario": "Contadino",
        "Elena": "Contadino", "Fabio": "Contadino", "Giulia": "Contadino"}


VOTES = [("Anna", "Carla"), ("Bruno", "Carla"), ("Elena", "Carla"), ("Carla", "Anna"),
         ("Dario", "Giulia")]


def played_a_day(app, clock, roles=LIVE, mayor="Fabio", votes=VOTES) -> str:
    """Night 1 and day 1 published; Carla burned by three votes to one and one."""
    slug = new_game(app, clock, roles, mayor=mayor)
    pass_boundary(app, clock, TUESDAY_0930_ROME)
    for voter, target in votes:
        submit(app, clock, slug, voter, {"vote": target})
    pass_boundary(app, clock, TUESDAY_2130_ROME)
    return slug
