"""Nothing leaks: a player sees only what the rules let them know, on every page and in
every mail; the Masters see everything.

Most checks compare two games that differ only in a secret (a role, who used a power,
who shouted): whatever a player may read (the public page, the bulletin mail, their own
reserved area and results) must be the same in both, or the secret could be read off
it. The expectations come from the rulebooks, cited by title and edition at each test.
"""
from __future__ import annotations

import html
import re
from datetime import datetime, timezone

from engine.interface import Viewer
from pbm import operations, visibility
from pbm.db import transaction
from pbm.models import EventRow, Game, OutboxRow, PhaseRow
from pbm.worker import Worker

from tests.support.helpers import login
from tests.support.forms import area, edit_open_state, forms_of, logged_in, post_form, flash_of, kill
from tests.support.play import (
    LIVE, TUESDAY_0930_ROME, TUESDAY_2130_ROME, WEDNESDAY_0930_ROME, bulletin_section,
    last_mail, mails_to_players, new_game, pass_boundary, private_part, public_page,
    public_part, reserved_results, submit, without_slug,
)


# --------------------------------------------------------------------------- Lupus LIVE! 12


def test_live_bulletin_is_the_same_whoever_is_the_sabbino(app, clock):
    """Principale §1.5: the votes are public; personaggi §2.5: the Sabbino's vote weighs 0.
    With the votes public, a published weighted tally would tell everybody whose vote
    weighs nothing. The bulletin must read the same whether Elena is a Sabbino or not
    (the outcome being the same)."""
    pages, mails = [], []
    for elena in ("Sabbino", "Contadino"):
        slug = new_game(app, clock, {**LIVE, "Elena": elena}, mayor="Fabio")
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
        pass_boundary(app, clock, TUESDAY_0930_ROME)
        # Carla gets 2 (Sabbino) or 3 votes, Anna 1, Giulia 1: Carla is designated either way.
        for voter, target in [("Anna", "Carla"), ("Bruno", "Carla"), ("Elena", "Carla"),
                              ("Carla", "Anna"), ("Dario", "Giulia")]:
            submit(app, clock, slug, voter, {"vote": target})
        pass_boundary(app, clock, TUESDAY_2130_ROME)
        pages.append(bulletin_section(public_page(app, slug)))
        mails.append(public_part(last_mail(app, slug, "Giulia").body))
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
    assert "Il villaggio manda al rogo Carla." in mails[0]
    assert "Elena → Carla" in mails[0] and "Elena → Carla" in pages[0]  # §1.5: votes are public
    assert pages[0] == pages[1]
    assert mails[0] == mails[1]


def test_live_night_death_does_not_name_its_cause(app, clock):
    """Principale §1.5: the use of powers is secret; nothing publishes the role of the
    dead (the Medium learns only their aura, personaggi §1.8). A Missile who does not
    choose on night 2 dies (personaggi §1.10): the village must read the same as for a
    Contadino killed by the wolves."""
    pages, mails = [], []
    for dario in ("Missile", "Contadino"):
        slug = new_game(app, clock, {**LIVE, "Dario": dario}, mayor="Fabio")
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
        pass_boundary(app, clock, TUESDAY_0930_ROME)
        pass_boundary(app, clock, TUESDAY_2130_ROME)  # nobody voted: nobody burns
        if dario == "Contadino":
            submit(app, clock, slug, "Anna", {"target": "Dario"})
            submit(app, clock, slug, "Bruno", {"target": "Dario"})
        pass_boundary(app, clock, WEDNESDAY_0930_ROME)
        page = public_page(app, slug)
        pages.append(bulletin_section(page))
        mails.append(public_part(last_mail(app, slug, "Giulia").body))
        assert "Dario" in page and "Missile" not in page and "wolves" not in page
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
    assert "Muore Dario." in mails[0]
    assert pages[0] == pages[1]
    assert mails[0] == mails[1]


def test_live_shouts_do_not_tell_who_shouted(app, clock):
    """Principale §3.4: players may talk "anonimamente tramite l'urlo notturno". Two games
    where the same shouts are sent in the same order by different players publish the
    same bulletin, and the shouter's own mail is no different from anybody else's."""
    pages, mails = [], []
    for first, second in (("Carla", "Fabio"), ("Fabio", "Carla")):
        slug = new_game(app, clock, LIVE, mayor="Giulia")
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
        submit(app, clock, slug, first, {"shout": "Al lupo!"})
        submit(app, clock, slug, second, {"shout": "Anna mente"})
        pass_boundary(app, clock, TUESDAY_0930_ROME)
        pages.append(bulletin_section(public_page(app, slug)))
        mail_of = {n: last_mail(app, slug, n).body for n in ("Carla", "Fabio", "Giulia")}
        assert public_part(mail_of["Carla"]) == public_part(mail_of["Fabio"]) == public_part(mail_of["Giulia"])
        assert private_part(mail_of["Carla"]) == private_part(mail_of["Giulia"]) == ""
        mails.append(public_part(mail_of["Giulia"]))
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
    assert "Al lupo!" in pages[0] and "Anna mente" in pages[0]
    assert pages[0] == pages[1] and mails[0] == mails[1]


def test_live_shouts_in_the_piazza_do_not_tell_who_shouted(app, clock):
    """Principale §3.4: the night shout is anonymous; at dawn it is a post of the piazza
    (issue 30), with no author. Two games where the same shouts come from different
    players: the piazza reads the same to the shouters and to everyone else, and in
    neither is a shout anyone's own post."""
    from tests.security.leak_scanner import normal
    pages = []
    for first, second in (("Carla", "Fabio"), ("Fabio", "Carla")):
        slug = new_game(app, clock, LIVE, mayor="Giulia")
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
        submit(app, clock, slug, first, {"shout": "Al lupo!"})
        submit(app, clock, slug, second, {"shout": "Anna mente"})
        pass_boundary(app, clock, TUESDAY_0930_ROME)
        read = {}
        for name in ("Carla", "Fabio", "Giulia"):
            page = logged_in(app, name).get(f"/g/{slug}/rooms/piazza").get_data(as_text=True)
            piazza = page[page.index('id="posts"'):page.index('id="composer"')]
            assert "Al lupo!" in piazza and "Anna mente" in piazza and "Carla" not in piazza
            assert "Fabio" not in piazza and 'class="post mine' not in piazza
            read[name] = normal(without_slug(piazza, slug), [])
        assert read["Carla"] == read["Fabio"] == read["Giulia"]
        pages.append(read["Giulia"])
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
    assert pages[0] == pages[1]


def test_live_draft_shows_nothing_until_the_masters_publish(app, clock):
    """Principale §1.2: the intermediate phase lasts until the Masters have settled the
    results; personaggi §1.11: the Profeta asks the Masters, and (§1.9) whoever gets an
    answer reads it in their own reserved area. Before publication players see only that
    results are being prepared; after it, the question stays between the Profeta and the
    Masters."""
    roles = {**LIVE, "Carla": "Profeta", "Dario": "Veggente"}
    slug = new_game(app, clock, roles, mayor="Giulia")
    question = "Bruno è un lupo mannaro?"
    submit(app, clock, slug, "Carla", {"question": question})
    submit(app, clock, slug, "Dario", {"target": "Anna"})
    submit(app, clock, slug, "Fabio", {"shout": "Urlo della bozza"})
    before = len(mails_to_players(app, slug))
    pass_boundary(app, clock, TUESDAY_0930_ROME)
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        phase = s.query(PhaseRow).filter_by(index=0).join(Game).filter(Game.slug == slug).one()
        assert phase.status == "draft"
        phase_id = phase.id

    # The draft: players and the public see it is being prepared, nothing of it.
    page = public_page(app, slug)
    assert "stanno preparando i risultati" in page
    assert "Urlo della bozza" not in page and question not in page and "Ancora nessun bollettino" in page
    for name in ("Carla", "Dario", "Giulia"):
        mine = area(logged_in(app, name), slug)
        assert "stanno preparando i risultati" in mine
        # The Veggente's answer about Anna (the role card says what the role learns, in general).
        read = html.unescape(mine)
        assert "Anna ha l'aura nera" not in read and "Anna non ha l'aura nera" not in read
        assert "I Master rispondono" not in mine
        assert "Urlo della bozza" not in mine
        assert forms_of(mine) == {}  # no action form while the Masters work
    assert len(mails_to_players(app, slug)) == before  # not a word to the players yet

    # The Masters see the question and the draft.
    master = login(app, "master@example.org", "master")
    desk = master.get(f"/g/{slug}/master").get_data(as_text=True)
    assert question in desk

    with transaction(factory) as s:
        game = s.query(Game).filter_by(slug=slug).one()
        phase = s.get(PhaseRow, phase_id)
        operations.answer_pending(s, app.config, game, phase, {"answers": {"Carla": "yes"}}, clock.now())
        if phase.status == "draft":
            operations.publish(s, app.config, game, phase, clock.now())

    page = public_page(app, slug)
    assert "Urlo della bozza" in page and question not in page
    carla = last_mail(app, slug, "Carla").body
    assert "sì" in private_part(carla)
    for name in ("Anna", "Bruno", "Dario", "Elena", "Fabio", "Giulia"):
        body = last_mail(app, slug, name).body
        assert question not in body
        assert "Profeta" not in body
        assert "Anna ha l'aura nera." in body if name == "Dario" else "aura nera" not in body
        assert question not in area(logged_in(app, name), slug)
    assert question in area(logged_in(app, "Carla"), slug)


def test_live_pack_is_the_whole_faction_and_nobody_else_knows_it(app, clock):
    """Personaggi §2: "Tutti i giocatori della fazione dei Lupi si conoscono tra di loro"
    (the Satanista and the Sabbino included); §1: the Villaggio do not know each other.
    The role letter (mail) and the reserved area say so, and nothing more."""
    roles = {"Anna": "Lupo Mannaro", "Bruno": "Satanista", "Carla": "Sabbino", "Dario": "Veggente",
             "Elena": "Contadino", "Fabio": "Contadino", "Giulia": "Guardia del corpo"}
    slug = new_game(app, clock, roles, mayor="Elena")
    wolves = {"Anna", "Bruno", "Carla"}
    for name, role in roles.items():
        letter = last_mail(app, slug, name, kind="role_letter")
        page = area(logged_in(app, name), slug)
        others = {n: r for n, r in roles.items() if n != name}
        for text in (letter.subject + letter.body, page):
            assert role in text
            for other_role in set(others.values()) - {role}:
                assert other_role not in text, (name, other_role)
        if name in wolves:
            for mate in wolves - {name}:
                assert mate in letter.body and mate in page
        else:
            assert "branco" not in letter.body.lower() and "branco" not in page.lower()
        # The Veggente's choices include the wolves: a list without them would name them.
        if name == "Dario":
            assert set(forms_of(page)["form-power"].options("power-target")) == set(roles) - {"Dario"}


def test_live_ghosts_form_does_not_point_at_the_satanista(app, clock):
    """Personaggi §2.6: a ghost names the Satanista "da un'apposita casella a discesa"
    of living players; nothing tells the ghost which one is the Satanista, neither the
    form nor the answer to a submission naming him or naming someone else."""
    roles = {"Anna": "Lupo Mannaro", "Bruno": "Satanista", "Carla": "Contadino", "Dario": "Veggente",
             "Elena": "Contadino", "Fabio": "Contadino", "Giulia": "Contadino", "Hugo": "Contadino"}
    slug = new_game(app, clock, roles, mayor="Elena")
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        gid = s.query(Game).filter_by(slug=slug).one().id
    edit_open_state(factory, gid, kill(["Fabio", "Giulia", "Hugo"]))
    ghost = logged_in(app, "Fabio")
    form = forms_of(area(ghost, slug))["form-ritual"]
    living = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
    assert sorted(form.options("ritual-satanista")) == living
    labels = form.labels("ritual-satanista")
    assert all(labels[n] == n for n in living)  # no name marked
    assert set(form.boxes("ritual-with")) == {"Giulia", "Hugo"}
    answers = []
    for named in ("Bruno", "Carla"):
        page = post_form(ghost, "form-ritual", {"ritual": "Spionaggio", "with": ["Giulia"],
                                                "satanista": named, "target": "Anna"}, slug=slug)
        answers.append(flash_of(page).replace(named, "NAME"))
    assert answers[0] == answers[1] and answers[0].startswith("Registrato")


def test_live_players_cannot_open_the_masters_pages(app, clock):
    """Principale §3.2.2: a reserved area is for its player only; the Masters see all."""
    slug = new_game(app, clock, LIVE, mayor="Giulia")
    anna = logged_in(app, "Anna")
    for path in ("master", "master/as/Carla"):
        assert anna.get(f"/g/{slug}/{path}").status_code == 403
    assert anna.get("/master/mailbox").status_code == 403
    anonymous = app.test_client()
    assert anonymous.get(f"/g/{slug}/me").status_code in (302, 401)
    master = login(app, "master@example.org", "master")
    as_carla = master.get(f"/g/{slug}/master/as/Carla").get_data(as_text=True)
    assert "Veggente" in as_carla
    feed = anonymous.get(f"/g/{slug}/calendar.ics").get_data(as_text=True)
    assert not any(name in feed for name in LIVE) and "Lupo" not in feed


# --------------------------------------------------------------------------- tempo reale 7

TR7 = {"Anna": "Lupo", "Bruno": "Lupo", "Carla": "Rinnegato", "Dario": "Massone", "Elena": "Massone",
       "Fabio": "Negromante", "Giulia": "Ipnotista", "Hugo": "Contadino", "Ines": "Negromante",
       "Luca": "Medium"}


def test_tr7_initial_knowledge_is_exactly_section_3_8(app, clock):
    """Tempo reale §3.8: Massoni know each other, Lupi know each other, the "complici"
    (Rinnegato...) know each other, Negromanti know each other, the Ipnotisti, Medium and
    Scrutatori know each other; nobody else is named to anybody."""
    slug = new_game(app, clock, TR7, ruleset="tempo-reale-7", mayor="Hugo")
    knows = {"Anna": {"Bruno"}, "Bruno": {"Anna"}, "Dario": {"Elena"}, "Elena": {"Dario"},
             "Fabio": {"Ines"}, "Ines": {"Fabio"}, "Giulia": {"Luca"}, "Luca": {"Giulia"},
             "Carla": set(), "Hugo": set()}
    for name, known in knows.items():
        # The letter names the mayor (public) and its footer an example (VOTO Carla);
        # the page's forms offer every living player.
        letter = last_mail(app, slug, name, kind="role_letter").body
        letter = letter[:letter.index("\n-- \n")].replace("La carica di Sindaco va a Hugo.", "")
        page = area(logged_in(app, name), slug)
        role_section = page[page.index('<section class="role">'):page.index("</section>")]
        for text in (letter, role_section):
            # A role card's mail example names a player of the game, whoever they are.
            text = re.sub(r"Per mail, per esempio:.*|<code>[^<]*</code>", "", text)
            named = {n for n in set(TR7) - {name} if re.search(rf"\b{n}\b", text)}
            assert named == known, (name, named)
            for other in known:
                assert f"{other} ({TR7[other]})" in text
        assert "{'" not in letter  # worded, not a Python dict


def test_tr7_hypnotised_player_is_not_told(app, clock):
    """Tempo reale FAQ 31: "I personaggi su cui un Ipnotista agisce con successo non
    vengono informati di essere sotto il suo controllo". Hugo's mail, reserved area and the
    bulletin read the same whether the Ipnotista took his mind or not."""
    seen = []
    for hypnotise in (True, False):
        slug = new_game(app, clock, TR7, ruleset="tempo-reale-7", mayor="Dario")
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
        if hypnotise:
            submit(app, clock, slug, "Giulia", {"target": "Hugo"})
        pass_boundary(app, clock, TUESDAY_0930_ROME)
        body = last_mail(app, slug, "Hugo").body
        page = area(logged_in(app, "Hugo"), slug)
        seen.append((without_slug(body, slug), reserved_results(page), bulletin_section(public_page(app, slug))))
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
    assert seen[0] == seen[1]


def test_tr7_awakened_spettro_is_not_public(app, clock):
    """Tempo reale §3.7: "il villaggio non viene informato del suo risveglio"; the Spettro
    is told the Negromanti who woke him. Nobody else learns anything."""
    outcomes = []
    for wake in (True, False):
        slug = new_game(app, clock, TR7, ruleset="tempo-reale-7", mayor="Dario")
        factory = app.extensions["pbm_sessions"]
        with factory() as s:
            gid = s.query(Game).filter_by(slug=slug).one().id
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
        edit_open_state(factory, gid, kill(["Hugo"]))
        if wake:
            for negromante in ("Fabio", "Ines"):
                submit(app, clock, slug, negromante, {"target": "Hugo", "power": "Visione"})
        pass_boundary(app, clock, TUESDAY_0930_ROME)
        hugo = last_mail(app, slug, "Hugo").body
        if wake:
            assert "Spettro" in private_part(hugo) and "Fabio" in hugo and "Ines" in hugo
            assert "Spettro" in area(logged_in(app, "Hugo"), slug)
        others = {n: without_slug(last_mail(app, slug, n).body, slug)
                  for n in ("Anna", "Carla", "Dario", "Luca")}
        outcomes.append((others, bulletin_section(public_page(app, slug))))
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
    assert outcomes[0] == outcomes[1]


def test_live_mail_receipt_is_the_same_whether_the_name_is_the_satanista(app, clock):
    """Personaggi §2.6 and principale §1.5: a ghost who names a living player as the
    Satanista by mail gets the same receipt whether that player is the Satanista or
    not, and a refused line tells nothing of anybody else either."""
    import mailbox
    from email.message import EmailMessage
    from email.utils import make_msgid

    from pbm.mail.sources import open_source

    receipts = []
    for bruno in ("Satanista", "Contadino"):
        roles = {"Anna": "Lupo Mannaro", "Bruno": bruno, "Carla": "Contadino", "Dario": "Veggente",
                 "Elena": "Contadino", "Fabio": "Contadino", "Giulia": "Contadino", "Hugo": "Contadino"}
        slug = new_game(app, clock, roles, mayor="Elena")
        factory = app.extensions["pbm_sessions"]
        with factory() as s:
            gid = s.query(Game).filter_by(slug=slug).one().id
        edit_open_state(factory, gid, kill(["Fabio", "Giulia", "Hugo"]))
        letter = last_mail(app, slug, "Fabio", kind="role_letter")
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "fabio@players.test", letter.reply_to, "Re: " + letter.subject
        msg["Message-ID"], msg["In-Reply-To"] = make_msgid(domain="players.test"), letter.message_id
        msg.set_content("RITUALE Spionaggio CON Giulia, Bruno SU Anna\nVOTO Bruno\n")
        mailbox.Maildir(app.config["MAIL_SOURCE"]["path"], create=True).add(bytes(msg))
        source = open_source(app.config["MAIL_SOURCE"])
        try:
            Worker(app, clock).mail_once(source)
        finally:
            source.close()
        receipt = last_mail(app, slug, "Fabio", kind="receipt")
        assert receipt is not None
        receipts.append(without_slug(receipt.body, slug))
    assert "Spionaggio" in receipts[0] and "Bruno" in receipts[0]
    assert "Satanista" not in receipts[0].replace("Con il Satanista", "")
    assert receipts[0] == receipts[1]


def test_live_corrupted_ghost_is_told_and_nobody_else(app, clock):
    """Principale §1.11.1 and docs/rulings.md §3: the corrupted ghost is told privately
    that it now plays for the Lupi, not who they are; the Lupi are not told who was
    corrupted; the village reads nothing of it. Here by a Maledizione (personaggi §4.4)
    of five ghosts on one of them."""
    roles = {"Anna": "Lupo Mannaro", "Bruno": "Lupo Mannaro", "Carla": "Veggente", "Dario": "Contadino",
             "Elena": "Contadino", "Fabio": "Contadino", "Giulia": "Contadino", "Hugo": "Contadino",
             "Ines": "Contadino", "Luca": "Contadino"}
    slug = new_game(app, clock, roles, mayor="Carla")
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        gid = s.query(Game).filter_by(slug=slug).one().id
    ghosts = ["Elena", "Fabio", "Giulia", "Hugo", "Ines"]
    edit_open_state(factory, gid, kill(ghosts))
    for g in ghosts:
        submit(app, clock, slug, g, {"ritual": "Maledizione", "with": [o for o in ghosts if o != g],
                                     "target": "Elena"})
    pass_boundary(app, clock, TUESDAY_0930_ROME)

    elena = last_mail(app, slug, "Elena").body
    assert "corru" in private_part(elena) and "Anna" not in private_part(elena)
    assert "Bruno" not in private_part(elena)
    page = area(logged_in(app, "Elena"), slug)
    assert "Lupi" in page and "Anna" not in page.replace("VOTO Anna", "")
    for name in ("Anna", "Bruno"):
        body = last_mail(app, slug, name).body
        assert "Elena" not in body and "corru" not in body
        assert "Elena" not in area(logged_in(app, name), slug)
    for name in ("Carla", "Dario", "Luca", "Fabio"):
        assert "corru" not in last_mail(app, slug, name).body
    assert "corru" not in public_page(app, slug)


def test_tr7_exiled_players_are_shown_exiled_not_dead(app, clock):
    """Tempo reale §3.1: when the last Negromante dies, the members of the faction are made
    public and exiled; a living exile has not died, and the page must not say it has."""
    roles = {"Anna": "Lupo", "Bruno": "Negromante", "Carla": "Ipnotista", "Dario": "Contadino",
             "Elena": "Contadino", "Fabio": "Contadino", "Giulia": "Contadino"}
    slug = new_game(app, clock, roles, ruleset="tempo-reale-7", mayor="Dario")
    pass_boundary(app, clock, TUESDAY_0930_ROME)
    for voter in ("Anna", "Dario", "Elena", "Fabio"):
        submit(app, clock, slug, voter, {"vote": "Bruno"})
    pass_boundary(app, clock, datetime(2026, 11, 24, 21, 30, tzinfo=timezone.utc))  # days end at 22 (§2.1)
    page = public_page(app, slug)
    players = page[page.index('<ul class="players">'):]
    players = players[:players.index("</ul>")]
    assert "Carla (in esilio)" in players and "Carla †" not in players
    assert "Dario †" not in players and "Anna †" not in players
    assert "Carla" in bulletin_section(page)  # the losing faction is published


def test_live_order_of_the_nights_deaths_says_nothing(app, clock):
    """Personaggi §1.2 and principale §1.5: the wolves kill the Cacciatore, who takes the
    player he aimed at with him. Which of the two was the Cacciatore is a secret: the
    bulletin must read the same either way (the order of the deaths included)."""
    pages, mails = [], []
    for hunter, aimed in (("Giulia", "Carla"), ("Carla", "Giulia")):
        roles = {**LIVE, "Carla": "Contadino", hunter: "Cacciatore"}
        slug = new_game(app, clock, roles, mayor="Fabio")
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
        pass_boundary(app, clock, TUESDAY_0930_ROME)
        pass_boundary(app, clock, TUESDAY_2130_ROME)
        submit(app, clock, slug, hunter, {"target": aimed})
        submit(app, clock, slug, "Anna", {"target": hunter})
        submit(app, clock, slug, "Bruno", {"target": hunter})
        pass_boundary(app, clock, WEDNESDAY_0930_ROME)
        pages.append(bulletin_section(public_page(app, slug)))
        mails.append(public_part(last_mail(app, slug, "Elena").body))
        # The Masters see everything: who died of what.
        factory = app.extensions["pbm_sessions"]
        with factory() as s:
            game = s.query(Game).filter_by(slug=slug).one()
            report = (s.query(OutboxRow).filter_by(game_id=game.id, kind="master_report")
                      .order_by(OutboxRow.id.desc()).first().body)
        assert f"Muore {hunter} (vittima dei Lupi)." in report
        assert f"Muore {aimed} (colpo del Cacciatore)." in report
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
    assert "Muore Carla." in mails[0] and "Muore Giulia." in mails[0]
    assert pages[0] == pages[1] and mails[0] == mails[1]


def test_live_pyre_survivor_does_not_say_why(app, clock):
    """Personaggi §1.7 (the Mannella survives her first pyre) and §2.2 (the Avvocato's
    protection): the village sees that the designated player did not die, not which
    power saved her."""
    pages, mails = [], []
    for carla, bruno in (("Mannella", "Lupo Mannaro"), ("Contadino", "Avvocato")):
        slug = new_game(app, clock, {**LIVE, "Carla": carla, "Bruno": bruno}, mayor="Fabio")
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
        if bruno == "Avvocato":
            submit(app, clock, slug, "Bruno", {"target": "Carla"})
        pass_boundary(app, clock, TUESDAY_0930_ROME)
        for voter in ("Anna", "Dario", "Elena", "Giulia"):
            submit(app, clock, slug, voter, {"vote": "Carla"})
        pass_boundary(app, clock, TUESDAY_2130_ROME)
        page = public_page(app, slug)
        assert "Carla †" not in page
        pages.append(bulletin_section(page))
        mails.append(public_part(last_mail(app, slug, "Elena").body))
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
    assert "Il villaggio manda al rogo Carla." in mails[0]
    assert "Mannella" not in pages[0] + mails[0] and "Avvocato" not in pages[1] + mails[1]
    assert pages[0] == pages[1] and mails[0] == mails[1]


# --------------------------------------------------------------------------- the archive

def archive_pages(app, slug, client=None) -> dict[str, str]:
    """Every public address of the archive (the game's own address taken out)."""
    client = client or app.test_client()
    out = {}
    for path in ("phases/", "phases/1", "phases/2", "phases/2/votes.svg", "bulletin.atom",
                 "archive.json", "reveal"):
        r = client.get(f"/g/{slug}/{path}")
        text = r.get_data(as_text=True)
        if path != "phases/2/votes.svg" and "<main>" in text:
            text = text[text.index("<main>"):]
        out[path] = f"{r.status_code} {without_slug(text, slug)}"
    return out


def test_live_archive_is_the_same_whoever_is_the_sabbino(app, clock):
    """Principale §1.5 and personaggi §2.5, as for the bulletin: the phase pages, the vote
    picture and the feed show the votes at the weights everybody knows, and the rest of
    the archive is closed until the end, so none of it tells whose vote weighs nothing."""
    seen = []
    for elena in ("Sabbino", "Contadino"):
        slug = new_game(app, clock, {**LIVE, "Elena": elena}, mayor="Fabio")
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
        pass_boundary(app, clock, TUESDAY_0930_ROME)
        for voter, target in [("Anna", "Carla"), ("Bruno", "Carla"), ("Elena", "Carla"),
                              ("Carla", "Anna"), ("Dario", "Giulia")]:
            submit(app, clock, slug, voter, {"vote": target})
        pass_boundary(app, clock, TUESDAY_2130_ROME)
        pages = archive_pages(app, slug)
        # The results mail's HTML alternative, with its table of the vote, likewise.
        pages["mail.html"] = without_slug(last_mail(app, slug, "Giulia").html, slug)
        seen.append(pages)
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
    assert seen[0]["archive.json"].startswith("404") and seen[0]["reveal"].startswith("404")
    assert "Elena" in seen[0]["mail.html"]
    assert "Elena" in seen[0]["phases/2/votes.svg"]
    assert seen[0] == seen[1]


def test_live_archive_shows_a_player_no_more_than_the_public(app, clock):
    """A player logged in reads the archive as anyone does: the Veggente's answer and the
    roles stay in the reserved area, not on a page with a stable public address."""
    slug = new_game(app, clock, LIVE, mayor="Fabio")
    submit(app, clock, slug, "Carla", {"target": "Anna"})  # the Veggente looks at a wolf
    pass_boundary(app, clock, TUESDAY_0930_ROME)
    for voter in ("Anna", "Bruno", "Elena", "Dario"):
        submit(app, clock, slug, voter, {"vote": "Giulia"})
    pass_boundary(app, clock, TUESDAY_2130_ROME)
    public = archive_pages(app, slug)
    for name in ("Carla", "Anna"):
        mine = archive_pages(app, slug, logged_in(app, name))
        for path in ("phases/", "phases/1", "phases/2", "phases/2/votes.svg", "bulletin.atom"):
            strip = lambda t: t[t.index("</header>") if "</header>" in t else 0:]  # noqa: E731
            assert strip(mine[path]) == strip(public[path]), (name, path)
        assert mine["archive.json"].startswith("404") and mine["reveal"].startswith("404")
    for text in public.values():
        assert "Lupo Mannaro" not in text and "Veggente" not in text


def test_live_substitute_sees_exactly_what_the_seat_saw(app, clock):
    """Issue 14: the newcomer gets the seat's history, no more and no less: the reserved
    area's private results read the same before and after the hand-over, and the mail
    carries each of them."""
    from pbm.models import User
    from pbm.operations import seats
    slug = new_game(app, clock, LIVE, mayor="Fabio")
    submit(app, clock, slug, "Carla", {"target": "Anna"})
    pass_boundary(app, clock, TUESDAY_0930_ROME)
    before = reserved_results(area(logged_in(app, "Carla"), slug))
    factory = app.extensions["pbm_sessions"]
    with transaction(factory) as s:
        game = s.query(Game).filter_by(slug=slug).one()
        master = s.get(User, game.masters[0].user_id)
        seats.substitute(s, app.config, game, game.seat_by_name("Carla"), email="nora@new.test",
                         name="Nora", now=clock.now(), by=master)
        s.flush()
        s.query(User).filter_by(email="nora@new.test").one().set_password("pw-nora")
    nora = login(app, "nora@new.test", "pw-nora")
    after = reserved_results(nora.get(f"/g/{slug}/me").get_data(as_text=True))
    assert after == before and "Anna" in after
    with factory() as s:
        mail = s.query(OutboxRow).filter_by(kind="substitute_welcome").one().body
        # Nora's own copy greets her by her name; the others' must not name her.
        others = [m.body for m in s.query(OutboxRow).filter_by(kind="substitute_announced")
                  if m.to_addr != "nora@new.test"]
        assert others
    assert "Anna" in mail[mail.index("RISULTATI PRIVATI"):]
    # The others learn only that the seat changed hands: no role, no result, no address.
    for body in others:
        assert "Veggente" not in body and "nora@new.test" not in body and "Nora" not in body


# --------------------------------------------------------------------------- the one filter

def filtered(app, slug, viewer) -> list[tuple[str, str]]:
    """What pbm.visibility lets ``viewer`` read of the whole game: (visibility, line)."""
    factory = app.extensions["pbm_sessions"]
    with factory() as s:
        game = s.query(Game).filter_by(slug=slug).one()
        rows = (s.query(EventRow).filter_by(game_id=game.id)
                .order_by(EventRow.phase_id, EventRow.seq).all())
        return [(x.visibility, x.text or x.event.kind)
                for x in visibility.seen(rows, viewer, game.ruleset, "it")]


def test_live_filter_gives_each_viewer_the_same_unless_the_rules_tell_them(app, clock):
    """The filter every page and mail uses, asked directly for every kind of viewer: two
    games that differ only in Dario's secret role (a Missile who dies for not choosing,
    personaggi §1.10, or a Contadino killed by the wolves) read the same to the public and
    to every player but Dario (principale §1.5: powers and roles stay secret); the Masters
    read the cause in each."""
    seen: dict[str, list] = {}
    for dario in ("Missile", "Contadino"):
        slug = new_game(app, clock, {**LIVE, "Dario": dario}, mayor="Fabio")
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
        pass_boundary(app, clock, TUESDAY_0930_ROME)
        pass_boundary(app, clock, TUESDAY_2130_ROME)
        if dario == "Contadino":
            submit(app, clock, slug, "Anna", {"target": "Dario"})
            submit(app, clock, slug, "Bruno", {"target": "Dario"})
        pass_boundary(app, clock, WEDNESDAY_0930_ROME)
        viewers = {"public": Viewer(), "masters": Viewer(master=True),
                   **{n: Viewer(player=n) for n in LIVE if n != "Dario"}}
        for who, viewer in viewers.items():
            seen.setdefault(who, []).append(filtered(app, slug, viewer))
        clock.set(datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc))
    assert ("public", "Muore Dario.") in seen["public"][0]
    for who, (missile, contadino) in seen.items():
        if who == "masters":
            assert ("public", "Muore Dario (Missile).") in missile
            assert ("public", "Muore Dario (vittima dei Lupi).") in contadino
        else:
            assert missile == contadino, who
            assert all(vis in ("public", "private") for vis, _ in missile), who
    # A player reads the public events and their own, nobody else's.
    assert {line for vis, line in seen["Carla"][0] if vis == "private"}.isdisjoint(
        {line for vis, line in seen["Elena"][0] if vis == "private"})


def test_live_filter_shows_a_draft_to_the_masters_only(app, clock):
    """Principale §1.2: until the Masters publish, the phase's events are theirs alone,
    whoever asks the filter (the public, the Profeta who asked, anybody else)."""
    roles = {**LIVE, "Carla": "Profeta"}
    slug = new_game(app, clock, roles, mayor="Giulia")
    question = "Bruno è un lupo mannaro?"
    submit(app, clock, slug, "Carla", {"question": question})
    submit(app, clock, slug, "Fabio", {"shout": "Urlo della bozza"})
    pass_boundary(app, clock, TUESDAY_0930_ROME)
    masters = " ".join(line for _, line in filtered(app, slug, Viewer(master=True)))
    assert question in masters and "Urlo della bozza" in masters
    for viewer in [Viewer()] + [Viewer(player=n) for n in roles]:
        text = " ".join(line for _, line in filtered(app, slug, viewer))
        assert question not in text and "Urlo della bozza" not in text, viewer
