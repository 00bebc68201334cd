"""A Complots refusal names only what the player can do now, in the game's words (issue
31, Major 3): with 2 coins, "Assassinio di Bruno" is refused with no engine key
("income, foreign_aid..."), no action the player cannot afford (the Assassino costs 3),
no character this game does not have (the Inquisitore's ESAMINO in an Ambasciatore game)."""
from __future__ import annotations

import re

from pbm.models import Game, OutboxRow
from pbm.worker import Worker

from tests.service.windows.test_complots_windows import start
from tests.support.mail import deliver, fast_passwords, message, receipts, run_mail  # noqa: F401

HANDS = {"Anna": ["Capitano", "Assassino"], "Bruno": ["Contessa", "Duchessa"],
         "Carla": ["Ambasciatore", "Duchessa"]}
ENGINE_KEYS = re.compile(r"\b(?:income|foreign_aid|coup|tax|assassinate|steal|exchange|examine)\b")


def _turn_of(factory, gid) -> str:
    with factory() as s:
        return s.get(Game, gid).state["data"]["turn_of"]


def test_a_refused_turn_offers_only_what_can_be_done_now_in_the_games_words(app, factory, clock):
    gid = start(app, factory, clock.now(), hands=HANDS)
    player = _turn_of(factory, gid)
    other = next(n for n in HANDS if n != player)
    email = f"{player.lower()}@players.test"
    with factory() as s:
        sent = (s.query(OutboxRow).filter_by(to_addr=email, kind="window")
                .order_by(OutboxRow.id.desc()).first())
    deliver(app, message(email, sent.reply_to, f"Assassinio di {other}", reply_to_row=sent))
    run_mail(app, Worker(app, clock))
    (receipt,) = receipts(factory, email)
    assert "NON REGISTRATO" in receipt and "7 monete" in receipt, receipt
    assert not ENGINE_KEYS.search(receipt), receipt
    assert "ASSASSINO" not in receipt and "Assassino" not in receipt.split("NON REGISTRATO")[1], receipt
    assert "ESAMINO" not in receipt and "Inquisitore" not in receipt
    # What can be done, as whole lines to copy: the income, the Duchessa's tax, a theft.
    assert "REDDITO" in receipt and "TASSA" in receipt and f"FURTO {other}" in receipt
