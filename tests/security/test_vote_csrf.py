"""A vote from the reserved area counts only with the page's CSRF token: a vote
posted from another site (no token, or a token of its own making) records nothing.

CSRFProtect checks every POST before the view; the form a vote is read with
checks the token itself whenever CSRFProtect has not (it is switched off by
default: WTF_CSRF_CHECK_DEFAULT), so turning that check off never opens the vote.
"""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from pbm.worker import Worker
from tests.support.forms import area, flash_of, forms_of, logged_in, recorded
from tests.support.helpers import make_game

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Contadino",
         "Elena": "Contadino", "Fabio": "Contadino", "Gino": "Contadino", "Ida": "Lupo Mannaro"}
TUESDAY_0930_ROME = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)  # day 1 open


def day_one(app, clock) -> None:
    make_game(app.extensions["pbm_sessions"], app.config, clock.now(), ROLES)
    clock.set(TUESDAY_0930_ROME)
    Worker(app, clock).boundaries()


@pytest.mark.parametrize("check_default", [True, False], ids=["csrfprotect", "form-only"])
def test_a_vote_without_the_pages_token_records_nothing(make_app, clock, check_default):
    app = make_app(WTF_CSRF_CHECK_DEFAULT=check_default)
    day_one(app, clock)
    factory = app.extensions["pbm_sessions"]
    dario = logged_in(app, "Dario")
    form = dict(forms_of(area(dario))["form-vote"].hidden)
    token = form.pop("vote-csrf_token")
    forged = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    for sent in ({}, {"vote-csrf_token": forged}):
        r = dario.post("/g/test-game/act", data={**form, **sent, "vote-vote": "Anna"})
        if check_default:
            assert r.status_code == 400  # CSRFProtect, before the view
        else:
            assert r.status_code == 302 and "Non registrato" in flash_of(area(dario))
    assert recorded(factory) == []
    r = dario.post("/g/test-game/act", data={**form, "vote-csrf_token": token, "vote-vote": "Anna"})
    assert r.status_code == 302 and "Registrato" in flash_of(area(dario))
    assert recorded(factory) == [("Dario", "vote", {"vote": "Anna"})]
