"""Nothing leaks in Complots: a player's face-down cards reach no other player, on any
page or in any mail.

Two games are played alike, move for move, and differ only in Bruno's face-down cards
(the secret). Whatever Anna and Carla (and the public) may read, every mail and every
page, must be the same in both games, or Bruno's cards could be read off it. Bruno's
own mail and page must differ, so the comparison can fail.
"""
from __future__ import annotations

import re

from pbm import operations
from pbm.db import transaction
from pbm.models import Game, OutboxRow, User
from pbm.worker import Worker

from tests.support.helpers import login, make_master

HANDS = {"Anna": ["Duchessa", "Capitano"], "Carla": ["Ambasciatore", "Duchessa"]}
SECRETS = (["Contessa", "Assassino"], ["Capitano", "Ambasciatore"])

# The same moves in both games; nothing here depends on Bruno's cards. None: silence.
SCRIPT = [
    ("Anna", {"kind": "turn", "action": "tax"}), ("Bruno", {"kind": "answer", "answer": "pass"}),
    ("Carla", {"kind": "answer", "answer": "pass"}),
    ("Bruno", {"kind": "turn", "action": "income"}),
    ("Carla", {"kind": "turn", "action": "foreign_aid"}), ("Anna", {"kind": "answer", "answer": "pass"}),
    None,  # Bruno, who could block with a Duchessa, stays silent
    ("Anna", {"kind": "turn", "action": "steal", "target": "Carla"}),
    ("Bruno", {"kind": "answer", "answer": "pass"}), ("Carla", {"kind": "answer", "answer": "pass"}),
    ("Bruno", {"kind": "turn", "action": "income"}),
    ("Carla", {"kind": "turn", "action": "tax"}), ("Anna", {"kind": "answer", "answer": "pass"}),
    ("Bruno", {"kind": "answer", "answer": "pass"}),
    ("Anna", {"kind": "turn", "action": "coup", "target": "Carla"}),
    None,  # Carla never chooses the card to lose: one of hers at random
    ("Bruno", {"kind": "turn", "action": "income"}),
]


def play(app, clock, master_id, bruno_hand) -> str:
    factory = app.extensions["pbm_sessions"]
    now = clock.now()
    hands = {"Anna": HANDS["Anna"], "Bruno": bruno_hand, "Carla": HANDS["Carla"]}
    with transaction(factory) as s:
        master = s.get(User, master_id)
        game = operations.create_game(s, name="Complotto", ruleset="complots", master=master, now=now,
                                      seed="same-seed-for-both")
        for name in hands:
            operations.add_player(s, app.config, game, name=name, email=f"{name.lower()}@players.test",
                                  now=now, by=master, password="pw-" + name.lower())
        operations.start_game(s, app.config, game, options={"hands": hands}, now=now, by=master)
        gid, slug = game.id, game.slug
    pages = {}
    for step, move in enumerate(SCRIPT):
        if move is None:
            with factory() as s:
                phase = operations.current_phase(s, s.get(Game, gid))
            clock.set(phase.ends_at)
            Worker(app, clock).boundaries()
        else:
            name, submission = move
            with transaction(factory) as s:
                game = s.get(Game, gid)
                operations.submit(s, app.config, game, game.seat_by_name(name), submission,
                                  source="web", now=clock.now())
            operations.settle(factory, app.config, gid, clock.now())
        for name in ("Anna", "Bruno", "Carla"):
            client = login(app, f"{name.lower()}@players.test", "pw-" + name.lower())
            pages[(step, name)] = client.get(f"/g/{slug}/me").get_data(as_text=True)
        pages[(step, "public")] = app.test_client().get(f"/g/{slug}/").get_data(as_text=True)
    with factory() as s:
        mails = [(r.to_addr, r.kind, r.subject, r.body)
                 for r in s.query(OutboxRow).filter_by(game_id=gid).order_by(OutboxRow.id)]
    return slug, pages, mails


def normal(text: str, slug: str) -> str:
    """What differs between two games for reasons that are not the secret."""
    text = text.replace(f"/g/{slug}/", "/g/GAME/")
    text = re.sub(r'value="[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"', 'value="CSRF"', text)
    text = re.sub(r'name="phase" value="\d+"', 'name="phase"', text)
    text = re.sub(r"\[lupus:[^\]]+\]", "[TOKEN]", text)
    return re.sub(r"/(?:set-password|password|reset|join)/[^\s]+", "/LINK", text)


def test_no_page_or_mail_shows_another_players_face_down_cards(app, clock):
    master_id = make_master(app.extensions["pbm_sessions"])
    t0 = clock.now()
    first = play(app, clock, master_id, SECRETS[0])
    clock.set(t0)
    second = play(app, clock, master_id, SECRETS[1])
    (slug1, pages1, mails1), (slug2, pages2, mails2) = first, second
    assert pages1.keys() == pages2.keys()
    for key in pages1:
        if key[1] == "Bruno":
            continue
        assert normal(pages1[key], slug1) == normal(pages2[key], slug2), f"page {key} tells Bruno's cards"

    def of(mails, who):
        return [(kind, normal(subject, "-"), normal(body, slug)) for to, kind, subject, body in mails
                for slug in [slug1 if mails is mails1 else slug2] if to.startswith(who)
                and kind != "welcome"]  # the welcome carries the account's own links
    assert len(mails1) == len(mails2)
    for who in ("anna", "carla"):
        a, b = of(mails1, who), of(mails2, who)
        assert a and len(a) == len(b)
        for x, y in zip(a, b):
            assert x == y, f"a mail to {who} tells Bruno's cards"
    # The test can fail: Bruno's own page and mail show his hand.
    last = len(SCRIPT) - 1
    assert normal(pages1[(last, "Bruno")], slug1) != normal(pages2[(last, "Bruno")], slug2)
    assert of(mails1, "bruno") != of(mails2, "bruno")
    assert "Contessa" in pages1[(last, "Bruno")].split('id="table"')[1].split("</section>")[0]
