"""The demo seeded by `pbm run` shows an archive with published phases and a vote picture."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from pbm import demo
from pbm.db import transaction


def test_demo_has_an_archive_with_a_vote_picture(app, clock):
    factory = app.extensions["pbm_sessions"]
    with transaction(factory) as s:
        assert demo.seed(s, app.config, clock.now()) is not None
    with transaction(factory) as s:
        assert demo.seed(s, app.config, clock.now()) is None  # only on an empty database
    client = app.test_client()
    listing = client.get("/g/demo/phases/").get_data(as_text=True)
    assert 'href="/g/demo/phases/1"' in listing and 'href="/g/demo/phases/2"' in listing
    svg = client.get("/g/demo/phases/2/votes.svg")
    assert svg.status_code == 200
    desc = ET.fromstring(svg.data).find("{http://www.w3.org/2000/svg}desc").text
    # The mayor (drawn at random) counts 1¼.
    assert re.search(r"Elena: 4(,25)? \(Anna, Bruno, Carla, Dario\)", desc), desc
    assert re.search(r"Giulia: 2(,25)? \(Elena, Fabio\)", desc), desc
    # The game goes on: a phase is open for the players to try.
    assert "Scadenza" in client.get("/g/demo/").get_data(as_text=True)
