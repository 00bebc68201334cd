"""Issue 29, findings 1 and 7: what an address may hold, checked where it is typed.

The attacks: ``p…@évil.test`` was accepted by the sign-up and reset forms and then
stalled the outbox (tests/mail/test_unsendable_address.py); ``an<ZWSP>na@…``,
``anna@example.com<RLO>`` and ``аnna@example.com`` with a Cyrillic "а" were accepted
too, each an address that reads as another. Now each form refuses them in words
(Italian, English for an English reader), queues no mail and makes no account; an
address with letters outside ASCII before the @ is taken only where the relay
offers SMTPUTF8 (MAIL_SMTPUTF8), and a domain in Unicode letters always.
"""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from pbm import accounts, addresses, operations
from pbm.db import transaction
from pbm.models import OutboxRow, User
from pbm.operations import signups

from tests.conftest import csrf_from
from tests.support.helpers import login, make_master

# (typed address, what is wrong, Italian words, English words)
REFUSED = [
    ("an\u200bna@players.test", addresses.INVISIBLE, "carattere invisibile", "invisible character"),
    ("anna@players.test\u202e", addresses.INVISIBLE, "carattere invisibile", "invisible character"),
    ("\u2066anna@players.test", addresses.INVISIBLE, "carattere invisibile", "invisible character"),
    ("\u0430nna@players.test", addresses.MIXED_SCRIPTS, "alfabeti diversi", "different alphabets"),
    ("anna@pl\u0430yers.test", addresses.MIXED_SCRIPTS, "alfabeti diversi", "different alphabets"),
    ("p\u00e9@\u00e9vil.test", addresses.NEEDS_SMTPUTF8, "lettere accentate", "accented or non-Latin"),
    ("\u5f20\u4f1f@players.test", addresses.NEEDS_SMTPUTF8, "lettere accentate", "accented or non-Latin"),
]


@pytest.mark.parametrize("typed,code,_it,_en", REFUSED)
def test_the_one_check_says_why(app, typed, code, _it, _en):
    assert accounts.address_problem(app.config, typed) == code


@pytest.mark.parametrize("typed", ["anna@\u00e9vil.test", "anna@\u6771\u4eac.jp", "anna@players.test",
                                   "ta\u0161a@players.test", "\u6771\u4eacabc@players.test"])
def test_what_is_taken(make_app, typed):
    """A domain in any script (sent in its IDNA form); with SMTPUTF8, accented and
    CJK letters before the @, and the mixes browsers allow (Han with Latin)."""
    app = make_app(MAIL_SMTPUTF8=True)
    assert accounts.address_problem(app.config, typed) is None


def reader(app, lang: str):
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    return client


def nothing_queued(factory) -> None:
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(OutboxRow)
                        .where(OutboxRow.kind.in_(["signup", "password_reset"]))) == 0
        assert s.scalar(select(func.count()).select_from(User).where(User.email.like("%nna%"))) == 0


@pytest.fixture
def signup_token(app, factory, clock):
    master_id = make_master(factory)
    with transaction(factory) as s:
        game = operations.create_game(s, name="Inverno", ruleset="lupus-live-12", master=s.get(User, master_id),
                                      now=clock.now())
        return signups.open_signups(s, game, closes_at=clock.now() + timedelta(days=3), max_players=9,
                                    by=s.get(User, master_id), now=clock.now()).token


@pytest.mark.parametrize("typed,_code,it,en", REFUSED)
def test_the_sign_up_form(app, factory, signup_token, typed, _code, it, en):
    for lang, words in (("it", it), ("en", en)):
        client = reader(app, lang)
        page = client.get(f"/join/{signup_token}").get_data(as_text=True)
        r = client.post(f"/join/{signup_token}", data={"csrf_token": csrf_from(page), "name": "Sub",
                                                       "email": typed, "lang": lang})
        assert r.status_code < 500 and words in r.get_data(as_text=True), (lang, r.get_data(as_text=True)[:2000])
    nothing_queued(factory)


@pytest.mark.parametrize("typed,_code,it,en", REFUSED)
def test_the_password_reset_form(app, factory, typed, _code, it, en):
    for lang, words in (("it", it), ("en", en)):
        client = reader(app, lang)
        page = client.get("/password-reset").get_data(as_text=True)
        r = client.post("/password-reset", data={"csrf_token": csrf_from(page), "email": typed})
        assert r.status_code < 500 and words in r.get_data(as_text=True), lang
    nothing_queued(factory)


def test_the_sign_up_itself_checks_too(app, factory, signup_token, clock):
    """Whatever form sent it, the sign-up refuses it (operations.signups)."""
    with transaction(factory) as s:
        signup = signups.by_token(s, signup_token)
        with pytest.raises(operations.OperationError) as refused:
            signups.request_seat(s, app.config, signup, name="Sub", email="p\u00e9@\u00e9vil.test", lang="it",
                                 client="1.2.3.4", now=clock.now())
    assert refused.value.code == addresses.NEEDS_SMTPUTF8
    nothing_queued(factory)


def test_the_add_player_form(app, factory, signup_token):
    master = login(app, "master@example.org", "master")
    desk = master.get("/g/inverno/master").get_data(as_text=True)
    r = master.post("/g/inverno/master/players", follow_redirects=True,
                    data={"csrf_token": csrf_from(desk), "name": "Sub", "email": "\u0430nna@players.test",
                          "lang": "it"})
    assert r.status_code < 500 and "alfabeti diversi" in r.get_data(as_text=True)
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(User).where(User.email.like("%nna%"))) == 0
