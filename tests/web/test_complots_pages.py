"""What a Complots player and Master read on the pages and in the mail: answer
buttons that name what they do, the game and the turn in the title, one list of who
is awaited, the deadline after more time, the standing answers of the game's own
variant, receipts and a desk without engine codes, and a welcome mail that is about
Complots (issue 21)."""
from __future__ import annotations

import html
import re
from datetime import timedelta

from pbm import operations, render
from pbm.db import transaction
from pbm.models import Game, OutboxRow, User

from tests.conftest import csrf_from
from tests.service.windows.test_complots_windows import open_phase, send, start
from tests.support.helpers import login, make_game, make_master

HANDS = {"Anna": ["Capitano", "Assassino"], "Bruno": ["Contessa", "Duchessa"],
         "Carla": ["Ambasciatore", "Duchessa"], "Dario": ["Contessa", "Capitano"]}


def buttons(page: str) -> list[dict[str, str]]:
    """Each answer button: its hidden fields and the label it shows."""
    out = []
    for block in re.findall(r'<form method="post" action="/g/[^"]+/answer" class="answer[^"]*"[^>]*>(.*?)</form>',
                            page, re.S):
        fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', block))
        fields["_label"] = html.unescape(re.search(r"<button[^>]*>(.*?)</button>", block, re.S).group(1).strip())
        out.append(fields)
    return out


def page_of(app, factory, gid, name: str) -> str:
    with factory() as s:
        slug = s.get(Game, gid).slug
    client = login(app, f"{name.lower()}@players.test", "pw-" + name.lower())
    return client.get(f"/g/{slug}/me").get_data(as_text=True)


def text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_answer_buttons_name_the_claim_and_only_a_block_names_a_card(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0, hands=HANDS)
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "steal", "target": "Carla"}, t0)
    bruno = buttons(page_of(app, factory, gid, "Bruno"))
    assert {b["_label"] for b in bruno} == {"Passo", "Sfido il Capitano di Anna"}  # only Carla may block
    carla = buttons(page_of(app, factory, gid, "Carla"))
    assert {b["_label"] for b in carla} == {"Passo", "Sfido il Capitano di Anna", "Blocco con il Capitano",
                                            "Blocco con l'Ambasciatore"}
    for b in carla:  # a card rides only with a block, and it is the card the label names
        assert ("as" in b) == (b["answer"] == "block"), b
        if "as" in b:
            assert b["_label"].endswith(b["as"])

    gid = start(app, factory, t0, hands=HANDS, coins={"Anna": 3})
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "assassinate", "target": "Dario"}, t0)
    dario = page_of(app, factory, gid, "Dario")
    assert {b["_label"] for b in buttons(dario)} == {"Passo", "Sfido l'Assassino di Anna",
                                                     "Blocco con la Contessa"}
    assert "Sfido · Contessa" not in dario and "Passo ·" not in dario
    # The round so far names the power as the book does.
    assert "Anna annuncia l'Assassino: paga 3 monete e uccide un personaggio di Dario." in text(dario)


def test_the_page_names_the_game_and_the_turn_and_who_is_awaited_once(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0, hands=HANDS)
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "steal", "target": "Carla"}, t0)
    send(app, factory, gid, "Bruno", {"kind": "answer", "answer": "pass"}, t0)
    page = page_of(app, factory, gid, "Bruno")
    title = html.unescape(re.search(r"<title>(.*?)</title>", page, re.S).group(1))
    assert "Complotto" in title and "Complots" in title and "Turno 1: tocca ad Anna" in title
    assert "Complotto: Bruno" not in page
    shown = text(page)
    # Bruno has answered: the one list of who is awaited leaves him out, and the table
    # does not keep a list of its own.
    assert shown.count("attende") == 1
    assert re.search(r"Si attende ancora: Carla, Dario\.", shown), shown


def test_more_time_tells_the_others_the_new_deadline_on_the_page_and_by_mail(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0, hands=HANDS)
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "steal", "target": "Carla"}, t0)
    before = open_phase(factory, gid)
    with factory() as s:
        slug, first_mail = s.get(Game, gid).slug, s.query(OutboxRow).count()
    carla = login(app, "carla@players.test", "pw-carla")
    page = carla.get(f"/g/{slug}/me").get_data(as_text=True)
    phase = re.search(r'name="phase" value="(\d+)"', page).group(1)
    r = carla.post(f"/g/{slug}/more-time", data={"csrf_token": csrf_from(page), "phase": phase},
                   follow_redirects=True)
    assert r.status_code == 200
    after = open_phase(factory, gid)
    assert after.ends_at > before.ends_at
    with factory() as s:
        game = s.get(Game, gid)
        new = render.deadline_text(after.ends_at, "it", operations.game_tz(game), seconds=True)
        old = render.deadline_text(before.ends_at, "it", operations.game_tz(game), seconds=True)
        told = s.query(OutboxRow).filter(OutboxRow.id > first_mail, OutboxRow.kind == "window").all()
    assert new != old
    assert sorted(m.to_addr for m in told) == ["anna@players.test", "bruno@players.test", "dario@players.test"]
    for m in told:
        assert new in m.subject and f"Carla ha chiesto più tempo: ora si può rispondere fino al {new}." in m.body
        assert old not in m.body
    bruno = text(page_of(app, factory, gid, "Bruno"))
    assert new in bruno and old not in bruno and "prolungato" in bruno


def test_standing_answers_are_those_of_the_games_variant(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0, hands=HANDS)
    page = page_of(app, factory, gid, "Bruno")
    offered = re.findall(r'name="standing" value="([^"]+)"', page)
    assert "challenge:Ambasciatore" in offered and "challenge:Inquisitore" not in offered
    with factory() as s:
        slug = s.get(Game, gid).slug
    bruno = login(app, "bruno@players.test", "pw-bruno")
    page = bruno.get(f"/g/{slug}/me").get_data(as_text=True)
    r = bruno.post(f"/g/{slug}/standing", data={"csrf_token": csrf_from(page),
                                                "standing": ["challenge:Inquisitore"]}, follow_redirects=True)
    assert "Risposta permanente sconosciuta" in r.get_data(as_text=True)
    with factory() as s:
        assert s.get(Game, gid).seat_by_name("Bruno").standing == []


def test_receipts_and_the_desk_word_the_answers(app, factory, clock):
    t0 = clock.now()
    gid = start(app, factory, t0, hands=HANDS)
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "steal", "target": "Carla"}, t0)
    send(app, factory, gid, "Bruno", {"kind": "answer", "answer": "pass"}, t0)
    with factory() as s:
        slug = s.get(Game, gid).slug
    desk = text(login(app, "master@example.org", "master").get(f"/g/{slug}/master").get_data(as_text=True))
    assert "Bruno: Passo (web)" in desk
    assert "answer:" not in desk and " as:" not in desk and "action:" not in desk
    # Interventions: Complots has none, so the desk shows no empty list of them.
    assert "Interventi" not in desk
    assert "ha avviato la partita" in desk and "×" not in desk
    carla = login(app, "carla@players.test", "pw-carla")
    page = carla.get(f"/g/{slug}/me").get_data(as_text=True)
    block = next(b for b in buttons(page) if b.get("as") == "Ambasciatore")
    data = {**{k: v for k, v in block.items() if k != "_label"}, "csrf_token": csrf_from(page)}
    dario = login(app, "dario@players.test", "pw-dario")
    r = carla.post(f"/g/{slug}/answer", data=data, follow_redirects=True).get_data(as_text=True)
    assert "Registrato: Blocco con l'Ambasciatore." in html.unescape(r)
    assert "La tua risposta: Blocco con l'Ambasciatore" in text(r)
    assert "Dario" in text(dario.get(f"/g/{slug}/me").get_data(as_text=True))


def test_a_complots_desk_offers_no_lupus_setup_and_the_welcome_mail_is_about_complots(app, factory, clock):
    make_master(factory)
    with transaction(factory) as s:
        master = s.query(User).one()
        game = operations.create_game(s, name="Complotto di venerdì", ruleset="complots", master=master,
                                      now=clock.now(), answer_window=timedelta(minutes=10))
        for name in ("Anna", "Bruno", "Carla"):
            operations.add_player(s, app.config, game, name=name, email=f"{name.lower()}@players.test",
                                  now=clock.now(), by=master, lang="en" if name == "Bruno" else "it")
        slug = game.slug
    client = login(app, "master@example.org", "master")
    desk = client.get(f"/g/{slug}/master").get_data(as_text=True)
    assert "Composizione" not in desk and 'name="role-' not in desk
    assert 'name="option-variant"' in desk
    r = client.post(f"/g/{slug}/master/draw", data={"csrf_token": csrf_from(desk), "option-variant": "inquisitore"},
                    follow_redirects=True).get_data(as_text=True)
    prepared = text(r.split('id="prepared"')[1].split("</section>")[0])
    assert "Anna:" not in prepared and "Inquisitore" in prepared and "Anna, Bruno, Carla" in prepared
    # The set-up's flash says what happened: no roles were drawn (issue 31).
    assert "Preparazione salvata" in text(r) and "Ruoli estratti" not in text(r)
    with factory() as s:
        welcome = {m.to_addr: m.body for m in s.query(OutboxRow).filter_by(kind="welcome")}
    for body in welcome.values():
        assert "VOTO" not in body and "VOTE" not in body and "ruolo" not in body and " role " not in body
        assert "Lupus" not in body.split("--")[0]
    assert "carte coperte" in welcome["anna@players.test"] and "REDDITO" in welcome["anna@players.test"]
    assert "face-down cards" in welcome["bruno@players.test"] and "INCOME" in welcome["bruno@players.test"]


def test_a_lupus_welcome_mail_keeps_its_own_words(app, factory, clock):
    make_game(factory, app.config, clock.now(), {"Anna": "Lupo Mannaro", "Bruno": "Contadino",
                                                 "Carla": "Veggente", "Dario": "Contadino"})
    with factory() as s:
        body = s.query(OutboxRow).filter_by(kind="welcome", to_addr="anna@players.test").one().body
    assert "Riceverai il tuo ruolo" in body and "VOTO Carla" in body


# --------------------------------------------------------------------------- found playing (audit of issue 21)

def test_a_steal_from_a_name_with_a_vowel_reads_ad(app, factory, clock):
    """The turn's buttons and the receipt say "Furto ad Anna", as Italian writes it
    (the turn buttons once said "Furto a Anna")."""
    t0 = clock.now()
    gid = start(app, factory, t0, hands=HANDS)
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "income"}, t0)
    bruno = text(page_of(app, factory, gid, "Bruno"))  # Bruno's turn: he may steal from Anna
    assert "Furto ad Anna (Capitano)" in bruno and "Furto a Anna" not in bruno
    assert "Furto a Carla (Capitano)" in bruno


def test_the_master_viewing_a_complots_seat_sees_no_lupus_facts(app, factory, clock):
    """The Master's view of a seat shows no empty role, faction and aura (Complots has
    none) and never says an eliminated player plays on as a ghost."""
    t0 = clock.now()
    gid = start(app, factory, t0, hands=HANDS)
    with factory() as s:
        slug = s.get(Game, gid).slug
    master = login(app, "master@example.org", "master")
    seen = text(master.get(f"/g/{slug}/master/as/Anna").get_data(as_text=True))
    assert "Ruolo:" not in seen and "Fazione:" not in seen and "Aura:" not in seen
    assert "Sei in gioco." in seen and "fantasma" not in seen


def test_the_calendar_names_complots_moments_in_words_and_apart(app, factory, clock):
    """The calendar feed named a Complots window by its kind ("answer",
    "block_challenge"); now by the ruleset's words and its number, each distinct."""
    t0 = clock.now()
    gid = start(app, factory, t0, hands=HANDS)
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "steal", "target": "Carla"}, t0)
    with factory() as s:
        slug = s.get(Game, gid).slug
    client = app.test_client()
    ics = client.get(f"/g/{slug}/calendar.ics", headers={"Accept-Language": "it"}).get_data(as_text=True)
    summaries = [re.sub(r"\\([,;\\])", r"\1", line.split(":", 1)[1])  # as a calendar program reads it
                 for line in re.sub(r"\r\n[ \t]", "", ics).splitlines() if line.startswith("SUMMARY:")]
    assert summaries, ics
    for summary in summaries:
        assert not re.search(r"\b(turn|answer|block_challenge|lose)\b", summary), summary
    assert any("il turno, momento" in s for s in summaries), summaries
    assert any("le risposte all'azione, momento" in s for s in summaries), summaries
    assert len(set(summaries)) == len(summaries), summaries


def test_a_complots_reminder_reads_right_in_both_languages(app, factory, clock):
    """The reminder said "la il turno termina ... e non hai ancora giocato (turn)" and
    "the the turn ends": now the moment in the ruleset's words, what is missing too."""
    app.config["REMINDER_BEFORE_MINUTES"] = 5
    t0 = clock.now()
    gid = start(app, factory, t0, hands=HANDS)
    with transaction(factory) as s:
        s.get(Game, gid).seat_by_name("Anna").user.lang = "en"
    from pbm.operations import reminders
    with transaction(factory) as s:
        assert reminders.send_due(s, app.config, t0 + timedelta(minutes=6)) == 1
    with factory() as s:
        (mail,) = s.query(OutboxRow).filter_by(kind="reminder").all()
    assert mail.to_addr == "anna@players.test"
    assert "the the" not in mail.subject and "the the" not in mail.body, mail.body
    assert "(turn)" not in mail.body and "You have not played yet: your action." in mail.body
    assert "Current phase: the turn, moment 1;" in mail.body, mail.body
    assert "Reminder: deadline soon (the turn, moment 1)" in mail.subject

    gid = start(app, factory, t0, hands=HANDS)  # the same players, Anna reading Italian again
    with transaction(factory) as s:
        s.get(Game, gid).seat_by_name("Anna").user.lang = "it"
    with transaction(factory) as s:
        assert reminders.send_due(s, app.config, t0 + timedelta(minutes=6)) == 1
    with factory() as s:
        mail = s.query(OutboxRow).filter_by(kind="reminder", game_id=gid).one()
    assert "la il" not in mail.body and "(turn)" not in mail.body, mail.body
    assert "Fase in corso: il turno, momento 1;" in mail.body
    assert "Non hai ancora giocato: la tua azione." in mail.body


def test_an_answer_after_someone_challenged_says_who_closed_the_window(app, factory, clock):
    """Issue 31: a challenge closes the window, and the others' timely answers got a bare
    "Troppo tardi"; now the refusal says who answered first, and how."""
    t0 = clock.now()
    gid = start(app, factory, t0, hands=HANDS)
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "tax"}, t0)  # claims the Duchessa
    with factory() as s:
        slug = s.get(Game, gid).slug
    client = login(app, "carla@players.test", "pw-carla")
    carla_page = client.get(f"/g/{slug}/me").get_data(as_text=True)  # read while the window is open
    passing = next(b for b in buttons(carla_page) if b.get("answer") == "pass")
    send(app, factory, gid, "Bruno", {"kind": "answer", "answer": "challenge"}, t0)  # closes it
    data = {k: v for k, v in passing.items() if not k.startswith("_")}
    data["csrf_token"] = csrf_from(carla_page)
    page = client.post(f"/g/{slug}/answer", data=data, follow_redirects=True).get_data(as_text=True)
    said = text(page)
    assert "Troppo tardi: Bruno aveva già risposto (" in said and "Sfid" in said, said[:2000]


def test_an_eliminated_player_is_told_once_then_gets_no_turns_mail(app, factory, clock):
    """Issue 31: eliminated players got every turn's mail; now the mail of the turn they
    went out in says so, and nothing more comes until the game's end."""
    t0 = clock.now()
    hands = {"Anna": ["Capitano", "Assassino"], "Bruno": ["Contessa", "Duchessa"],
             "Carla": ["Ambasciatore", "Duchessa"]}
    gid = start(app, factory, t0, hands=hands, coins={"Anna": 7, "Bruno": 7})

    def carla_mails() -> list[str]:
        with factory() as s:
            return [r.body for r in s.query(OutboxRow).filter_by(kind="window", to_addr="carla@players.test")
                    .order_by(OutboxRow.id)]

    def turn_of() -> str:
        with factory() as s:
            return s.get(Game, gid).state["data"]["turn_of"]

    # Two Assassinii against Carla, one from each of the others: she reveals one card,
    # then the other goes with the second (her last card is revealed for her).
    send(app, factory, gid, turn_of(), {"kind": "turn", "action": "coup", "target": "Carla"}, t0)
    send(app, factory, gid, "Carla", {"kind": "lose", "card": "Ambasciatore"}, t0)
    send(app, factory, gid, turn_of(), {"kind": "turn", "action": "coup", "target": "Carla"}, t0)
    assert _hand(factory, gid, "Carla") == []
    told = carla_mails()
    assert "Sei fuori dal gioco: non riceverai altre mail" in told[-1], told[-1]
    before = len(told)
    send(app, factory, gid, turn_of(), {"kind": "turn", "action": "income"}, t0)
    assert len(carla_mails()) == before  # a turn of the others: nothing for Carla


def _hand(factory, gid, name):
    with factory() as s:
        player = next(p for p in s.get(Game, gid).state["players"] if p["name"] == name)
        return player["data"]["hand"]


def test_a_window_is_timed_to_the_second_and_the_history_reads_one_way(app, factory, clock):
    """Issue 31: deadlines to the minute while windows end on the second; a page that
    never refreshed during a 1-3 minute window; the history newest turn first but oldest
    event first."""
    t0 = clock.now()
    gid = start(app, factory, t0, hands=HANDS)
    send(app, factory, gid, "Anna", {"kind": "turn", "action": "income"}, t0)  # turn 1 done
    page = page_of(app, factory, gid, "Bruno")
    deadline = re.search(r'<time id="deadline" datetime="([^"]+)">([^<]+)</time>', page)
    assert deadline and re.search(r"\d\d:\d\d:\d\d", deadline.group(2)), deadline
    assert "window.js" in page  # counts down and reloads while the window is open
    log = page.split('id="log"')[1]
    turns = re.findall(r"<article class=\"bulletin\"><ul>(.*?)</ul>", log, re.S)
    first = re.findall(r"<li>(.*?)</li>", turns[0])
    # Newest turn first, and in each the newest event first: the game's start is the
    # very last line; in the newest turn, what happened last comes first.
    oldest = re.findall(r"<li>(.*?)</li>", turns[-1])
    assert "Inizia la partita" in oldest[-1], oldest
    assert any("Reddito" in x or "prende 1 moneta" in x for x in first), first
    assert "Inizia la partita" not in " ".join(first)
