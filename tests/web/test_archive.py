"""The archive at its stable addresses: the phase list, one phase with its vote and
its picture, the bulletin's Atom feed, and the whole game after the end (404 to
everyone but the Masters before it)."""
from __future__ import annotations

import json

import pytest
import xml.etree.ElementTree as ET

from pbm.db import transaction
from pbm.models import Game

from tests.support.helpers import login
from tests.support.play import LIVE, VOTES, played_a_day

SVG = "{http://www.w3.org/2000/svg}"
ATOM = "{http://www.w3.org/2005/Atom}"
def test_phase_list_and_pages_at_stable_addresses(app, clock):
    slug = played_a_day(app, clock)
    client = app.test_client()
    listing = client.get(f"/g/{slug}/phases/").get_data(as_text=True)
    assert f'href="/g/{slug}/phases/1"' in listing and f'href="/g/{slug}/phases/2"' in listing
    assert f'href="/g/{slug}/phases/3"' not in listing  # night 2 is open, not published
    assert client.get(f"/g/{slug}/phases/3").status_code == 404
    assert client.get(f"/g/{slug}/phases/0").status_code == 404
    day = client.get(f"/g/{slug}/phases/2").get_data(as_text=True)
    assert "Il villaggio manda al rogo Carla." in day
    # The tally as text: who voted whom, the count, and what the vote needed.
    assert "<th scope=\"row\">Elena</th><td>Carla</td>" in day
    assert "<th scope=\"row\">Carla</th><td>3</td>" in day
    assert "almeno la metà dei vivi: 4 su 7" in day
    assert f'src="/g/{slug}/phases/2/votes.svg"' in day
    # Feed readers find the feed from the game's page.
    home = client.get(f"/g/{slug}/").get_data(as_text=True)
    assert f'type="application/atom+xml" title="Test game" href="/g/{slug}/bulletin.atom"' in home
    # A night without a vote has no picture.
    assert client.get(f"/g/{slug}/phases/1/votes.svg").status_code == 404


def test_vote_picture_is_svg_with_the_same_facts(app, clock):
    slug = played_a_day(app, clock)
    r = app.test_client().get(f"/g/{slug}/phases/2/votes.svg")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    root = ET.fromstring(r.data)
    assert root.get("role") == "img"
    desc = root.find(f"{SVG}desc").text
    assert "Carla: 3 (Anna, Bruno, Elena), scelto" in desc or "Carla: 3 (Anna, Bruno, Elena)" in desc
    assert "Anna: 1 (Carla)" in desc and "Giulia: 1 (Dario)" in desc
    bars = {}
    for g in root.iter(f"{SVG}g"):
        name = g.find(f"{SVG}text").text
        bars[name] = float(g.find(f"{SVG}rect").get("width"))
    assert set(bars) == {"Carla", "Anna", "Giulia"}
    assert bars["Carla"] == pytest.approx(3 * bars["Anna"], abs=0.5)
    assert bars["Anna"] == bars["Giulia"]


def test_atom_feed_has_an_entry_per_published_phase(app, clock):
    slug = played_a_day(app, clock)
    r = app.test_client().get(f"/g/{slug}/bulletin.atom")
    assert r.mimetype == "application/atom+xml"
    feed = ET.fromstring(r.data)
    entries = feed.findall(f"{ATOM}entry")
    assert [e.find(f"{ATOM}id").text for e in entries] == [
        f"http://lupus.test/g/{slug}/phases/2", f"http://lupus.test/g/{slug}/phases/1"]
    content = entries[0].find(f"{ATOM}content")
    assert content.get("type") == "html"
    assert "<li>Il villaggio manda al rogo Carla." in content.text
    # A quiet night says so, never an empty list (issue 31).
    assert all("<ul></ul>" not in (e.find(f"{ATOM}content").text or "") for e in entries)
    assert any("Nessun evento." in (e.find(f"{ATOM}content").text or "") for e in entries)


def test_archive_json_is_404_before_the_end_but_for_the_masters(app, clock):
    slug = played_a_day(app, clock)
    assert app.test_client().get(f"/g/{slug}/archive.json").status_code == 404
    assert app.test_client().get(f"/g/{slug}/reveal").status_code == 404
    player = login(app, "anna@players.test", "pw-anna")
    assert player.get(f"/g/{slug}/archive.json").status_code == 404
    master = login(app, "master@example.org", "master")
    data = master.get(f"/g/{slug}/archive.json").get_json()
    assert {p["name"]: p["role"] for p in data["players"]} == LIVE
    day = data["phases"][1]
    assert {s["player"]: s["args"] for s in day["submissions"]} == {v: {"vote": t} for v, t in VOTES}
    assert day["tally"]["chosen"] == "Carla"


def test_after_the_end_everyone_reads_the_whole_game(app, clock):
    slug = played_a_day(app, clock)
    factory = app.extensions["pbm_sessions"]
    master_id = None
    with transaction(factory) as s:
        game = s.query(Game).filter_by(slug=slug).one()
        master_id = game.masters[0].user_id
    from pbm.models import User
    from pbm.operations import desk
    with transaction(factory) as s:
        game = s.query(Game).filter_by(slug=slug).one()
        desk.intervene(s, app.config, game, "end", ["draw"], clock.now(), s.get(User, master_id))
    client = app.test_client()
    r = client.get(f"/g/{slug}/archive.json")
    assert r.status_code == 200
    data = json.loads(r.data)
    assert data["game"]["status"] == "over"
    assert {p["name"]: p["role"] for p in data["players"]} == LIVE
    # Every night action and every private result is there, with who it was for.
    assert any(e["visibility"] == "private" for ph in data["phases"] for e in ph["events"]) or \
        any(e["visibility"] == "private" for e in data["setup"])
    page = client.get(f"/g/{slug}/reveal").get_data(as_text=True)
    assert "Lupo Mannaro" in page and "Veggente" in page
