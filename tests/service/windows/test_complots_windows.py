"""Complots through the service: answer windows that close early, time out as passes,
refuse late answers, extensions, standing answers and the loser who never chooses."""
from __future__ import annotations

from datetime import timedelta

import pytest

from engine.core import GameState
from pbm import operations
from pbm.db import transaction
from pbm.models import ActionRow, EventRow, Game, OutboxRow, PhaseRow, Seat, User
from pbm.worker import Worker

from tests.support.helpers import make_master

NAMES = ("Anna", "Bruno", "Carla")
WINDOW = timedelta(minutes=10)
# A fixed deal: Anna holds a Duchessa and a Capitano, Bruno a Contessa and an
# Assassino, Carla an Ambasciatore and a Duchessa.
HANDS = {"Anna": ["Duchessa", "Capitano"], "Bruno": ["Contessa", "Assassino"],
         "Carla": ["Ambasciatore", "Duchessa"]}


def start(app, factory, now, hands=HANDS, coins=None, extensions=None) -> int:
    master_id = make_master(factory)
    with transaction(factory) as s:
        master = s.get(User, master_id)
        game = operations.create_game(s, name="Complotto", ruleset="complots", master=master,
                                      now=now, answer_window=WINDOW, extensions=extensions)
        for name in hands:
            operations.add_player(s, app.config, game, name=name, email=f"{name.lower()}@players.test",
                                  now=now, by=master, password="pw-" + name.lower())
        options = {"hands": hands, "variant": "ambasciatore"}
        if coins:
            options["coins"] = coins
        operations.start_game(s, app.config, game, options=options, now=now, by=master)
        return game.id


def send(app, factory, gid, name, submission, now, **kw):
    with transaction(factory) as s:
        game = s.get(Game, gid)
        operations.submit(s, app.config, game, game.seat_by_name(name), submission,
                          source="web", now=now, **kw)
    return operations.settle(factory, app.config, gid, now)


def open_phase(factory, gid) -> PhaseRow:
    with factory() as s:
        game = s.get(Game, gid)
        phase = operations.current_phase(s, game)
        s.expunge(phase)
        return phase


def state(factory, gid) -> GameState:
    with factory() as s:
        return GameState.from_dict(s.get(Game, gid).state)


def public_kinds(factory, gid) -> list[str]:
    with factory() as s:
        return [r.kind for r in s.query(EventRow).filter_by(game_id=gid, visibility="public")
                .order_by(EventRow.phase_id, EventRow.seq)]


def test_a_window_closes_as_soon_as_all_have_answered_and_the_next_opens_at_once(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0)
    turn = open_phase(factory, gid)
    assert (turn.kind, turn.ends_at) == ("turn", t0 + WINDOW)
    t1 = t0 + timedelta(minutes=1)
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "tax"}, t1)
    answer = open_phase(factory, gid)
    # Resolved in the request: the answer window is open now, with its whole time.
    assert (answer.kind, answer.starts_at, answer.ends_at) == ("answer", t1, t1 + WINDOW)
    t2 = t1 + timedelta(minutes=2)
    send(app, factory, gid, "Bruno", {"kind": "answer", "answer": "pass"}, t2)
    assert open_phase(factory, gid).id == answer.id  # Carla still to answer
    t3 = t2 + timedelta(minutes=1)
    send(app, factory, gid, "Carla", {"kind": "answer", "answer": "pass"}, t3)
    nxt = open_phase(factory, gid)
    assert (nxt.kind, nxt.starts_at) == ("turn", t3)
    assert state(factory, gid).player("Anna").data["coins"] == 5  # 2 + the Duchessa's 3


def test_a_window_timing_out_counts_as_passes(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0)
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "tax"}, t0)
    answer = open_phase(factory, gid)
    send(app, factory, gid, "Bruno", {"kind": "answer", "answer": "pass"}, t0 + timedelta(minutes=1))
    clock.set(answer.ends_at - timedelta(seconds=1))
    assert Worker(app, clock).boundaries() == []  # not due yet
    clock.set(answer.ends_at)
    assert Worker(app, clock).boundaries() == [answer.id]
    assert state(factory, gid).player("Anna").data["coins"] == 5
    assert "challenge" not in public_kinds(factory, gid)
    assert open_phase(factory, gid).kind == "turn"


def test_a_late_answer_is_refused_and_never_applied_to_the_open_window(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0)
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "steal", "target": "Carla"}, t0)
    answer = open_phase(factory, gid)
    # Carla, the target, blocks with a second to go: the next window gets its whole time.
    last_second = answer.ends_at - timedelta(seconds=1)
    send(app, factory, gid, "Carla", {"kind": "answer", "answer": "block", "as": "Ambasciatore"},
         last_second)
    clock.set(answer.ends_at)
    Worker(app, clock).boundaries()
    block = open_phase(factory, gid)
    assert block.kind == "block_challenge" and block.ends_at == answer.ends_at + WINDOW
    # Bruno's pass, written for the first window, comes after it closed: refused.
    with pytest.raises(operations.Rejected) as late:
        send(app, factory, gid, "Bruno", {"kind": "answer", "answer": "pass"},
             answer.ends_at + timedelta(seconds=5), expected_phase_id=answer.id)
    assert late.value.code == "moment_passed"
    # So is an answer naming the earlier moment by its number (a mail's subject).
    with pytest.raises(operations.Rejected) as aimed:
        send(app, factory, gid, "Bruno", {"kind": "answer", "answer": "challenge",
                                         "moment": answer.number}, answer.ends_at + timedelta(seconds=6))
    assert aimed.value.code == "not_your_moment"
    with factory() as s:
        assert s.query(ActionRow).filter_by(phase_id=block.id).count() == 0
    from pbm import render
    assert render.rejection("moment_passed", {}, "complots", "en").startswith(
        "Too late: that moment has passed")


def test_a_loser_who_never_chooses_loses_a_card_at_random_and_everyone_is_told(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0, coins={"Anna": 7})
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "coup", "target": "Bruno"}, t0)
    lose = open_phase(factory, gid)
    assert lose.kind == "lose"
    with factory() as s:
        assert operations.windows.asked(s.get(Game, gid), lose) == ["Bruno"]
    clock.set(lose.ends_at)
    Worker(app, clock).boundaries()
    bruno = state(factory, gid).player("Bruno")
    assert len(bruno.data["hand"]) == 1 and len(bruno.data["revealed"]) == 1
    assert "lost_card_at_random" in public_kinds(factory, gid)
    assert open_phase(factory, gid).kind == "turn"


def test_an_extension_adds_one_window_a_limited_number_of_times(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0, extensions=1)
    turn = open_phase(factory, gid)
    with transaction(factory) as s:
        game = s.get(Game, gid)
        with pytest.raises(operations.Rejected) as not_asked:
            operations.windows.extend(s, app.config, game, game.seat_by_name("Bruno"), t0)
        assert not_asked.value.code == "extension_not_asked"
        operations.windows.extend(s, app.config, game, game.seat_by_name("Anna"), t0)
    assert open_phase(factory, gid).ends_at == turn.ends_at + WINDOW
    with transaction(factory) as s, pytest.raises(operations.Rejected) as used:
        game = s.get(Game, gid)
        operations.windows.extend(s, app.config, game, game.seat_by_name("Anna"), t0)
    assert used.value.code == "no_extensions_left"


def test_standing_answers_are_applied_as_windows_open_and_logged(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0)
    with transaction(factory) as s:
        game = s.get(Game, gid)
        operations.windows.set_standing(s, app.config, game, game.seat_by_name("Bruno"),
                                        ["pass_not_me"], t0)
        operations.windows.set_standing(s, app.config, game, game.seat_by_name("Carla"),
                                        ["challenge:Duchessa"], t0)
    # Anna claims the Duchessa: Carla's standing challenge closes the window at once.
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "tax"}, t0 + timedelta(minutes=1))
    with factory() as s:
        rows = s.query(ActionRow).join(Seat).filter(ActionRow.game_id == gid,
                                                    ActionRow.source == "standing").all()
        assert {(r.seat.name, r.args["answer"]) for r in rows} == {("Bruno", "pass"),
                                                                   ("Carla", "challenge")}
    assert "challenge" in public_kinds(factory, gid)  # Anna had it: Carla loses a card
    # A steal aimed at Bruno: his standing pass does not answer for him.
    with transaction(factory) as s:
        game = s.get(Game, gid)
        operations.windows.set_standing(s, app.config, game, game.seat_by_name("Carla"), [], t0)


def test_mail_goes_to_those_asked_and_the_turn_to_everyone(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0)
    with factory() as s:
        first = s.query(OutboxRow).filter_by(game_id=gid, kind="window").all()
        assert len(first) == 3  # the deal to everyone, Anna asked
        anna = next(r for r in first if r.to_addr == "anna@players.test")
        assert "REDDITO" in anna.body and "Duchessa" in anna.body
        bruno = next(r for r in first if r.to_addr == "bruno@players.test")
        assert "Contessa" in bruno.body and "Capitano" not in bruno.body  # only his own hand
        before = s.query(OutboxRow).count()
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "tax"}, t0)
    with factory() as s:
        asked = s.query(OutboxRow).filter(OutboxRow.id > before, OutboxRow.kind == "window").all()
        assert sorted(r.to_addr for r in asked) == ["bruno@players.test", "carla@players.test"]
        assert all("SFIDO" in r.body and "PASSO" in r.body for r in asked)
        before = s.query(OutboxRow).count()
    send(app, factory, gid, "Bruno", {"kind": "answer", "answer": "pass"}, t0)
    send(app, factory, gid, "Carla", {"kind": "answer", "answer": "pass"}, t0)
    with factory() as s:
        summary = s.query(OutboxRow).filter(OutboxRow.id > before, OutboxRow.kind == "window").all()
        assert len(summary) == 3  # the turn's log to all, Bruno asked for his turn


def _answer_forms(html: str) -> list[dict[str, str]]:
    """Each answer button's hidden fields and label."""
    import re
    forms = []
    for block in re.findall(r'<form method="post" action="/g/[^"]+/answer" class="answer[^"]*"[^>]*>(.*?)</form>', html, re.S):
        fields = {}
        for tag in re.findall(r"<input[^>]*>", block):
            name, value = re.search(r'name="([^"]+)"', tag), re.search(r'value="([^"]*)"', tag)
            fields[name.group(1)] = value.group(1) if value else ""
        fields["_label"] = re.search(r'<button[^>]*>(.*?)</button>', block, re.S).group(1).strip()
        forms.append(fields)
    return forms


def test_the_page_offers_only_the_legal_answers_and_refuses_a_stale_button(app, factory, clock):
    from tests.support.helpers import login
    t0 = clock.now()
    gid = start(app, factory, t0)
    with factory() as s:
        slug = s.get(Game, gid).slug
    anna = login(app, "anna@players.test", "pw-anna")
    page = anna.get(f"/g/{slug}/me").get_data(as_text=True)
    assert "Duchessa" in page and "Capitano" in page  # her hand
    buttons = _answer_forms(page)
    actions = {b["action"] for b in buttons}
    assert "income" in actions and "coup" not in actions and "examine" not in actions  # 2 coins
    tax = next(b for b in buttons if b["action"] == "tax")
    r = anna.post(f"/g/{slug}/answer", data=tax)
    assert r.status_code == 302
    assert open_phase(factory, gid).kind == "answer"
    bruno = login(app, "bruno@players.test", "pw-bruno")
    page = bruno.get(f"/g/{slug}/me").get_data(as_text=True)
    assert "Duchessa" not in page.split('id="window"')[0].split("Le tue carte")[-1]  # not Anna's cards
    labels = {b["_label"] for b in _answer_forms(page)}
    assert labels == {"Passo", "Sfido la Duchessa di Anna"}  # tax cannot be blocked
    stale = next(b for b in _answer_forms(page) if b["answer"] == "challenge")
    bruno.post(f"/g/{slug}/answer", data=next(b for b in _answer_forms(page) if b["answer"] == "pass"))
    carla = login(app, "carla@players.test", "pw-carla")
    carla_page = carla.get(f"/g/{slug}/me").get_data(as_text=True)
    carla.post(f"/g/{slug}/answer", data=next(b for b in _answer_forms(carla_page) if b["answer"] == "pass"))
    # Bruno's page was for the answer window, now closed: a tap on it is refused.
    r = bruno.post(f"/g/{slug}/answer", data=stale, follow_redirects=True)
    assert "Troppo tardi: quel momento è passato" in r.get_data(as_text=True)
    assert "challenge" not in public_kinds(factory, gid)
    assert state(factory, gid).player("Anna").data["coins"] == 5


def test_a_master_answers_for_a_player_by_the_desk_with_a_copy_to_the_player(app, factory, clock):
    from tests.conftest import csrf_from
    from tests.support.helpers import login
    t0 = clock.now()
    gid = start(app, factory, t0)
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "steal", "target": "Carla"}, t0)
    with factory() as s:
        slug = s.get(Game, gid).slug
    master = login(app, "master@example.org", "master")
    desk = master.get(f"/g/{slug}/master").get_data(as_text=True)
    r = master.post(f"/g/{slug}/master/behalf", data={
        "csrf_token": csrf_from(desk), "player": "Carla", "commands": "BLOCCO Ambasciatore",
        "source": "sms"}, follow_redirects=True)
    assert "Registrato per Carla" in r.get_data(as_text=True)
    with factory() as s:
        (row,) = s.query(ActionRow).filter_by(game_id=gid, source="master").all()
        assert row.args == {"answer": "block", "as": "Ambasciatore"}
        copy = s.query(OutboxRow).filter_by(to_addr="carla@players.test", kind="on_behalf_copy").one()
        assert "Blocco" in copy.body and "Ambasciatore" in copy.body


def test_an_exchange_is_kept_by_ticking_cards_on_the_page_and_the_desk_shows_the_game(app, factory, clock):
    import re
    from tests.conftest import csrf_from
    from tests.support.helpers import login
    t0 = clock.now()
    gid = start(app, factory, t0)
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "income"}, t0)
    send(app, factory, gid, "Bruno", {"kind": "turn", "action": "income"}, t0)
    send(app, factory, gid, "Carla", {"kind": "turn", "action": "exchange"}, t0)
    send(app, factory, gid, "Anna", {"kind": "answer", "answer": "pass"}, t0)
    send(app, factory, gid, "Bruno", {"kind": "answer", "answer": "pass"}, t0)
    assert open_phase(factory, gid).kind == "exchange"
    with factory() as s:
        slug = s.get(Game, gid).slug
    carla = login(app, "carla@players.test", "pw-carla")
    page = carla.get(f"/g/{slug}/me").get_data(as_text=True)
    boxes = re.findall(r'name="cards" value="([^"]+)"', page)
    assert len(boxes) == 4  # her two cards and the two drawn
    anna_page = login(app, "anna@players.test", "pw-anna").get(f"/g/{slug}/me").get_data(as_text=True)
    assert 'name="cards"' not in anna_page
    picked = boxes[-2:]
    phase_id = re.search(r'name="phase" value="(\d+)"', page).group(1)
    r = carla.post(f"/g/{slug}/answer", data={"csrf_token": csrf_from(page), "kind": "keep",
                                            "phase": phase_id, "cards": picked}, follow_redirects=True)
    assert "Registrato" in r.get_data(as_text=True)
    assert sorted(state(factory, gid).player("Carla").data["hand"]) == sorted(
        p.split("|", 1)[1] for p in picked)
    desk = login(app, "master@example.org", "master").get(f"/g/{slug}/master")
    assert desk.status_code == 200 and "Carla" in desk.get_data(as_text=True)


def test_the_mail_shows_a_players_standing_answers(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0)
    with transaction(factory) as s:
        game = s.get(Game, gid)
        operations.windows.set_standing(s, app.config, game, game.seat_by_name("Bruno"),
                                        ["challenge:Assassino"], t0)
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "tax"}, t0)
    with factory() as s:
        mail = (s.query(OutboxRow).filter_by(to_addr="bruno@players.test", kind="window")
                .order_by(OutboxRow.id.desc()).first())
        assert "Sfido sempre chi dichiara l'Assassino" in mail.body  # shown, not applied to a Duchessa
        assert s.query(ActionRow).filter_by(game_id=gid, source="standing").count() == 0


def test_two_players_each_choose_a_card_of_their_bundle_then_the_first_turn_opens(app, factory, clock):
    t0 = clock.now()
    master_id = make_master(factory)
    with transaction(factory) as s:
        master = s.get(User, master_id)
        game = operations.create_game(s, name="Duello", ruleset="complots", master=master, now=t0,
                                      answer_window=WINDOW)
        for name in ("Anna", "Bruno"):
            operations.add_player(s, app.config, game, name=name, email=f"{name.lower()}@players.test",
                                  now=t0, by=master)
        operations.start_game(s, app.config, game, now=t0, by=master)  # a random deal: bundles
        gid = game.id
    choose = open_phase(factory, gid)
    assert choose.kind == "choose"
    with factory() as s:
        game = s.get(Game, gid)
        assert sorted(operations.windows.waiting_for(s, game, choose)) == ["Anna", "Bruno"]
        mails = s.query(OutboxRow).filter_by(game_id=gid, kind="window").all()
        assert len(mails) == 2 and all("SCELGO" in m.body for m in mails)
        bundles = GameState.from_dict(choose.state_before).data["window"]["bundles"]
    send(app, factory, gid, "Anna", {"kind": "choose", "card": bundles["Anna"][0]}, t0)
    assert open_phase(factory, gid).kind == "choose"
    send(app, factory, gid, "Bruno", {"kind": "choose", "card": bundles["Bruno"][1]}, t0)
    assert open_phase(factory, gid).kind == "turn"
    assert bundles["Anna"][0] in state(factory, gid).player("Anna").data["hand"]


def test_a_master_pastes_a_players_standing_answer_and_more_time_on_the_desk(app, factory, clock):
    """What a player may write by mail, a Master may paste for them: the on-behalf box
    carries out a standing answer and a request for more time as the mail would."""
    from tests.conftest import csrf_from
    from tests.support.helpers import login
    t0 = clock.now()
    gid = start(app, factory, t0, extensions=1)
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "steal", "target": "Carla"}, t0)
    window = open_phase(factory, gid)
    with factory() as s:
        slug = s.get(Game, gid).slug
    master = login(app, "master@example.org", "master")
    desk = master.get(f"/g/{slug}/master").get_data(as_text=True)
    page = master.post(f"/g/{slug}/master/behalf", data={
        "csrf_token": csrf_from(desk), "player": "Bruno", "commands": "SEMPRE PASSO\nPIÙ TEMPO",
        "source": "sms"}, follow_redirects=True).get_data(as_text=True)
    assert "Non registrato" not in page
    assert page.count("Registrato per Bruno") == 2
    with factory() as s:
        assert s.get(Game, gid).seat_by_name("Bruno").standing == ["pass_not_me"]
    assert open_phase(factory, gid).ends_at == window.ends_at + WINDOW
    # Nothing left to extend: refused in words, and the standing answer is untouched.
    desk = master.get(f"/g/{slug}/master").get_data(as_text=True)
    page = master.post(f"/g/{slug}/master/behalf", data={
        "csrf_token": csrf_from(desk), "player": "Bruno", "commands": "PIÙ TEMPO",
        "source": "sms"}, follow_redirects=True).get_data(as_text=True)
    assert "Non registrato" in page and "Registrato per Bruno" not in page
