"""An address with a line break in it would write headers of its own into
every mail to that player ('anna@x.it\\r\\nBcc: spy@...'): the Masters' form
refuses it, and the outbox would refuse it even if something let it in."""
from __future__ import annotations

import pytest

from pbm.mail import outbound
from pbm.models import OutboxRow, User

from tests.conftest import csrf_from
from tests.support.helpers import login, make_master


@pytest.mark.parametrize("email", [
    "anna@players.test\r\nBcc: spy@evil.test",
    "anna@players.test\nBcc: spy@evil.test",
    "anna@players.test\rBcc:spy@evil.test",
    "anna@players.test\tx",
    "anna@players.test\r\nBcc:list-everyone",
    "anna@players.test,spy@evil.test",
    "Anna <anna@players.test>",
])
def test_the_add_player_form_refuses_an_address_with_more_than_an_address(app, factory, email):
    make_master(factory)
    client = login(app, "master@example.org", "master")
    page = client.get("/master/new").get_data(as_text=True)
    client.post("/master/new", data={"csrf_token": csrf_from(page), "name": "Iniezione",
                                     "ruleset": "lupus-live-12", "auto_publish": "y"})
    desk = client.get("/g/iniezione/master").get_data(as_text=True)
    r = client.post("/g/iniezione/master/players", follow_redirects=True,
                    data={"csrf_token": csrf_from(desk), "name": "Anna", "email": email, "lang": "it"})
    assert r.status_code == 200
    assert "indirizzo" in r.get_data(as_text=True).lower()
    with factory() as s:
        assert s.query(User).filter(User.email.like("anna%")).count() == 0
        assert s.query(OutboxRow).filter(OutboxRow.to_addr.like("%spy%")).count() == 0


def test_the_outbox_refuses_an_address_with_a_line_break(app, factory, clock):
    with factory() as s, pytest.raises(ValueError):
        outbound.queue(s, app.config, to="anna@players.test\r\nBcc: spy@evil.test", template="receipt",
                     lang="it", now=clock.now(), context={})
