"""Issue 29, finding 4: a Master could set a player's standing answers (by mail under
"PER: Bruno", or with the desk's form) without the player knowing, and the log named
nobody. Now the player gets a copy, as for every move made in their name, and the
log names the Master who did it.
"""
from __future__ import annotations

from sqlalchemy import select

from pbm.db import transaction
from pbm.operations.carry_out import Origin, carry_out
from pbm.models import Game, MasterLog, OutboxRow, User

from tests.conftest import csrf_from
from tests.mail.test_complots_by_mail import NAMES, start_game
from tests.support.helpers import login


def copies_to(factory, address: str) -> list[OutboxRow]:
    with factory() as s:
        return list(s.scalars(select(OutboxRow).where(OutboxRow.to_addr == address,
                                                      OutboxRow.kind == "on_behalf_copy")))


def test_the_desk_form_tells_the_player_and_the_log_names_the_master(app, factory, clock):
    gid = start_game(app, factory, clock.now())
    with factory() as s:
        slug = s.get(Game, gid).slug
    master = login(app, "master@example.org", "master")
    desk = master.get(f"/g/{slug}/master").get_data(as_text=True)
    r = master.post(f"/g/{slug}/master/behalf", data={"csrf_token": csrf_from(desk), "player": "Anna",
                                                      "commands": "SEMPRE SFIDO la Duchessa", "source": "phone"})
    assert r.status_code == 302
    with factory() as s:
        assert s.get(Game, gid).seat_by_name("Anna").standing == ["challenge:Duchessa"]
        entry = s.scalars(select(MasterLog).where(MasterLog.action == "standing_answers")).one()
        assert entry.user is not None and entry.user.email == "master@example.org"
        assert entry.details["player"] == "Anna" and entry.details["by_master"] is True
    (copy,) = copies_to(factory, "anna@players.test")
    assert "Risposte permanenti: Sfido sempre chi dichiara la Duchessa." in copy.body
    assert "a tuo nome" in copy.body and "None" not in copy.subject + copy.body
    # The desk's log says who did it, and for whom.
    page = master.get(f"/g/{slug}/master").get_data(as_text=True)
    assert "ha impostato le risposte permanenti di Anna" in page


def test_a_masters_mail_under_per_tells_the_player_in_their_language(app, factory, clock):
    gid = start_game(app, factory, clock.now())
    with transaction(factory) as s:
        game = s.get(Game, gid)
        master = s.scalar(select(User).where(User.email == "master@example.org"))
        bruno = game.seat_by_name("Bruno")
        done = carry_out(s, app.config, game, bruno, [{"kind": "standing", "standing": "pass_not_me", "on": True}],
                         lang="it", now=clock.now(), origin=Origin(by=master, source="master", detail="email"))
    assert done.errors == [] and done.applied
    assert NAMES["Bruno"] == "en"
    (copy,) = copies_to(factory, "bruno@players.test")
    assert "recorded in your name" in copy.body and "Standing answers:" in copy.body


def test_the_players_own_change_sends_no_copy(app, factory, clock):
    gid = start_game(app, factory, clock.now())
    with transaction(factory) as s:
        game = s.get(Game, gid)
        carry_out(s, app.config, game, game.seat_by_name("Carla"),
                  [{"kind": "standing", "standing": "pass_not_me", "on": True}], lang="it", now=clock.now(),
                  origin=Origin())
    assert copies_to(factory, "carla@players.test") == []
    with factory() as s:
        entry = s.scalars(select(MasterLog).where(MasterLog.action == "standing_answers")).one()
        assert entry.user is None and "by_master" not in entry.details
