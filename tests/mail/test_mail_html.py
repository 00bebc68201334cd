"""The bulletin mail's HTML alternative: the same facts as the plain text, with the
vote as a table of bars, sent as multipart/alternative over real SMTP."""
from __future__ import annotations

import re

from pbm.mail.outbound import send
from pbm.models import Game, OutboxRow

from tests.support.play import VOTES, played_a_day
from tests.support.play import LIVE


def test_results_mail_is_multipart_alternative_with_the_vote_table(make_app, clock, smtp_server):
    app = make_app(MAIL_PORT=smtp_server.port)
    factory = app.extensions["pbm_sessions"]
    slug = played_a_day(app, clock)
    with factory() as s:
        game = s.query(Game).filter_by(slug=slug).one()
        email = game.seat_by_name("Giulia").user.email
        row = (s.query(OutboxRow).filter_by(game_id=game.id, to_addr=email, kind="phase_results")
               .order_by(OutboxRow.id.desc()).first())
        html, body, mid = row.html, row.body, row.message_id
        # A night's mail has no vote: no table of bars.
        night = (s.query(OutboxRow).filter_by(game_id=game.id, to_addr=email, kind="phase_results")
                 .order_by(OutboxRow.id).first())
        assert "Votato da" not in night.html
    assert "Elena → Carla" in body
    # The table: Carla's bar the full width, 3 votes, voted by Anna, Bruno and Elena.
    carla = re.search(r'<th scope="row"[^>]*>Carla</th>\s*<td.*?</td>\s*<td[^>]*>([^<]*)</td>', html, re.S)
    assert carla and carla.group(1) == "Anna, Bruno, Elena"
    assert 'width="100%" bgcolor="#8b1a1a"' in html  # the chosen one, in the accent colour
    assert 'width="33%"' in html  # Anna and Giulia: one vote of three
    assert f"http://lupus.test/g/{slug}/phases/2" in html
    with factory() as s:
        pending = s.query(OutboxRow).filter_by(status="pending").count()
    assert send.drain(app, factory, clock.now()) == pending
    message = next(m.message for m in smtp_server.wait_for(pending) if m.message["Message-ID"] == mid)
    assert message.get_content_type() == "multipart/alternative"
    parts = [p.get_content_type() for p in message.iter_parts()]
    assert parts == ["text/plain", "text/html"]  # plain first: read where HTML is not
    sent = message.get_body(("html",)).get_content()
    # The player's own beginning and the end all the players share (stored once), whole.
    assert "Ciao Giulia" in sent and "Anna, Bruno, Elena" in sent and sent.rstrip().endswith("</html>")


def test_names_are_escaped_in_the_html(app, clock):
    """A seat's name is typed by people: printed into HTML, it must stay text."""
    roles = {("Giulia <i>" if k == "Giulia" else k): v for k, v in LIVE.items()}
    slug = played_a_day(app, clock, roles, votes=[(v, "Giulia <i>" if t == "Giulia" else t)
                                                   for v, t in VOTES])
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        game = s.query(Game).filter_by(slug=slug).one()
        html = (s.query(OutboxRow).filter_by(game_id=game.id, kind="phase_results")
                .order_by(OutboxRow.id.desc()).first().html)
    assert "Giulia &lt;i&gt;" in html and "<i>" not in html
