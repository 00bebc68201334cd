"""The narrator's page for a game at the table (Lupus Noctis), step by step through the
real routes: seating without accounts, the first night's taps, nights resumed after a
reload, votes that cannot be changed, the run-off, the end and its summary."""
from __future__ import annotations

import io
import re

import pytest
from PIL import Image
from sqlalchemy import func, select

from pbm.models import ActionRow, Game, GameStatus, OutboxRow, PhaseRow, Seat, SeatPhoto

from tests.conftest import csrf_from
from tests.support.helpers import login, make_master

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo"]
# The standard village for eight (ruling N12): two Licantropi, a Veggente, a Medium.
WOLVES, SEER, MEDIUM = ["Bruno", "Fabio"], "Carla", "Gina"


class Narrator:
    """The narrator's phone: every call posts what the page shows, as a tap would."""

    def __init__(self, client, slug: str) -> None:
        self.client, self.slug = client, slug

    def page(self) -> str:
        r = self.client.get(f"/g/{self.slug}/narrator")
        assert r.status_code == 200, r.status_code
        return r.get_data(as_text=True)

    def post(self, path: str, data: dict, **kwargs) -> str:
        data = {"csrf_token": csrf_from(self.page()), **data}
        r = self.client.post(f"/g/{self.slug}/narrator/{path}", data=data, follow_redirects=True, **kwargs)
        assert r.status_code == 200, r.status_code
        return r.get_data(as_text=True)

    def call_index(self) -> int:
        match = re.search(r'id="call" data-index="(\d+)"', self.page())
        assert match, "no call on the page"
        return int(match.group(1))

    def tap(self, *faces: str, index: int | None = None) -> str:
        return self.post("call", {"index": self.call_index() if index is None else index,
                                  "tap": list(faces)})

    def answer(self) -> str | None:
        """The answer the page shows large for the narrator to signal, None: no answer now."""
        page = self.page()
        if 'id="answer"' not in page:
            return None
        told = re.search(r'<div class="told" id="told">(.*?)</div>', page, re.S).group(1)
        return " ".join(re.sub(r"<[^>]+>", " ", told).split())

    def done(self) -> str:
        """The narrator signalled the answer on the screen: "Done", on to the next call."""
        page = self.page()
        index = re.search(r'id="answer" data-index="(\d+)"', page).group(1)
        mark = re.search(r'name="mark" value="([^"]*)"', page).group(1)
        return self.post("shown", {"index": index, "mark": mark})

    def night_through(self, choose) -> None:
        """Every call of the night, each tapping choose(choices), each answer signalled."""
        while 'id="dawn"' not in (page := self.page()):
            if 'id="answer"' in page:
                self.done()
                continue
            self.tap(*choose(re.findall(r'name="tap" value="([^"]+)"', page.split('id="call"')[1])))

    def vote(self, voter: str, choice: str) -> str:
        return self.post("vote", {"voter": voter, "tap": [choice]})

    def close(self, factory, slug: str) -> str:
        with factory() as s:
            game = s.scalar(select(Game).where(Game.slug == slug))
            phase_id = max(p.id for p in game.phases)
        return self.post("close", {"phase": phase_id})


def jpeg_with_gps() -> bytes:
    img = Image.new("RGB", (1200, 900), (200, 120, 40))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x8825] = {1: "N", 2: (45.0, 28.0, 0.0)}  # GPS IFD
    out = io.BytesIO()
    img.save(out, "JPEG", exif=exif)
    return out.getvalue()


@pytest.fixture
def narrator(app, factory):
    make_master(factory)
    client = login(app, "master@example.org", "master")
    page = client.get("/master/new").get_data(as_text=True)
    r = client.post("/master/new", data={"csrf_token": csrf_from(page), "name": "Serata al bar",
                                         "ruleset": "lupus-noctis", "auto_publish": "y"})
    assert r.status_code == 302 and r.headers["Location"].endswith("/g/serata-al-bar/narrator")
    return Narrator(client, "serata-al-bar")


def seat_everyone(narrator: Narrator, photo_for: str | None = None) -> None:
    for name in NAMES:
        files = {"photo": (io.BytesIO(jpeg_with_gps()), "selfie.jpg")} if name == photo_for else {}
        narrator.post("seat", {"name": name, **files}, content_type="multipart/form-data")


def first_night(narrator: Narrator, factory) -> None:
    narrator.post("start", {"composition": "standard"})
    narrator.tap(*WOLVES)
    narrator.tap(SEER)
    narrator.tap(MEDIUM)
    narrator.close(factory, narrator.slug)


def test_table_players_have_no_account_their_photo_is_small_and_nothing_is_mailed(narrator, factory):
    seat_everyone(narrator, photo_for="Carla")
    page = narrator.post("seat", {"name": "anna"})  # the same name in other letters
    assert "Anna" in page and ("Nothing was recorded" in page or "Non è stato registrato nulla" in page)
    page = narrator.post("seat", {"name": "Zeno", "photo": (io.BytesIO(b"not a picture"), "x.jpg")},
                         content_type="multipart/form-data")
    assert "Zeno" not in re.sub(r'<input[^>]*>', "", page.split('id="join"')[0])
    with factory() as s:
        seats = s.scalars(select(Seat).order_by(Seat.position)).all()
        assert [x.name for x in seats] == NAMES and all(x.user_id is None for x in seats)
        photo = s.scalar(select(SeatPhoto))
        assert photo.seat_id == seats[2].id
    img = Image.open(io.BytesIO(photo.data))
    assert img.size == (256, 256) and len(photo.data) < 40_000
    assert not img.getexif()  # the camera's metadata (a place, a maker) is gone
    assert narrator.client.get(f"/g/serata-al-bar/narrator/photo/{photo.seat_id}").data == photo.data

    first_night(narrator, factory)
    narrator.vote("Anna", "Bruno")
    narrator.close(factory, narrator.slug)
    with factory() as s:
        # Nobody is written to while the table plays: never a seat, and not the
        # narrator either, who saw every moment happen on the phone.
        assert s.scalar(select(func.count()).select_from(OutboxRow)) == 0


def test_composition_standard_or_edited(narrator, factory):
    seat_everyone(narrator)
    page = narrator.page()
    assert "2 × Licantropo" in page and "4 × Contadino" in page
    roles = [r.strip() for r in re.findall(r'<label>([^<]+?) <input type="number"', page)]

    def counts(**village: int) -> dict[str, str]:
        return {f"count-{i}": str(village.get(role.replace(" ", "_"), 0)) for i, role in enumerate(roles)}

    page = narrator.post("start", {"composition": "edited", **counts(Licantropo=2, Veggente=1, Contadino=6)})
    assert "9" in page and "8" in page  # nine cards for eight players: refused
    with factory() as s:
        assert s.scalar(select(Game)).status == GameStatus.SETUP
    # One Licantropo, a Veggente, six Contadini: the night calls only those dealt.
    counts = counts(Licantropo=1, Veggente=1, Contadino=6)
    narrator.post("start", {"composition": "edited", **counts})
    with factory() as s:
        game = s.scalar(select(Game))
        assert game.status == GameStatus.RUNNING
        assert game.composition == {"Licantropo": 1, "Veggente": 1, "Contadino": 6}
    page = narrator.page()
    assert "call 1 of 2" in page or "chiamata 1 di 2" in page


def test_first_night_taps_deal_the_roles_and_refuse_what_does_not_fit(narrator, factory):
    seat_everyone(narrator)
    narrator.post("start", {"composition": "standard"})
    page = narrator.tap("Bruno")  # two Licantropi: one face is not enough
    assert narrator.call_index() == 0 and ("2" in page)
    narrator.tap(*WOLVES)
    page = narrator.page()
    assert 'value="Bruno"' not in page  # already tapped as a Licantropo: not offered again
    narrator.tap("Bruno")  # sent all the same (an old page): refused
    assert narrator.call_index() == 1
    page = narrator.close(factory, narrator.slug)  # calls left: the night does not end
    assert narrator.call_index() == 1
    narrator.tap(SEER)
    narrator.tap(MEDIUM)
    narrator.close(factory, narrator.slug)
    with factory() as s:
        game = s.scalar(select(Game))
        roles = {p["name"]: p["role"] for p in game.state["players"]}
    assert [n for n in NAMES if roles[n] == "Licantropo"] == WOLVES
    assert roles[SEER] == "Veggente" and roles[MEDIUM] == "Medium"
    assert sum(r == "Contadino" for r in roles.values()) == 4


def test_reload_resumes_at_the_same_call_and_a_stale_confirm_records_nothing(narrator, factory):
    seat_everyone(narrator)
    first_night(narrator, factory)
    for voter in NAMES:
        narrator.vote(voter, "Anna" if voter != "Anna" else "Dario")
    narrator.close(factory, narrator.slug)
    for voter in NAMES:
        if voter not in ("Anna", "Dario"):
            narrator.vote(voter, "Anna")
    narrator.close(factory, narrator.slug)  # Anna burned: night 2
    assert narrator.call_index() == 0
    narrator.tap("Dario")  # the pack
    first = narrator.page()
    second = narrator.page()  # the phone locked; the page reopens
    assert narrator.call_index() == 1
    assert re.search(r'<h1>([^<]+)</h1>', first).group(1) == re.search(r'<h1>([^<]+)</h1>', second).group(1)
    page = narrator.tap("Dario", index=0)  # the pack's confirm pressed twice
    assert "out of date" in page or "non era aggiornata" in page
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(ActionRow).join(PhaseRow)
                        .where(PhaseRow.kind == "night")) == 1
    # The Veggente's answer is shown to the narrator at once, large, on its own screen:
    # the next call only once the narrator says it was signalled.
    narrator.tap("Bruno")
    answer = narrator.answer()
    assert answer is not None and "Bruno" in answer and "malvagia" in answer
    assert 'id="call"' not in narrator.page()
    assert narrator.answer() == answer  # the phone locked: the answer is still there
    page = narrator.done()
    assert narrator.answer() is None and "<h1>Medium</h1>" in page.split('id="call"')[1]
    assert "Veggente, chiudi gli occhi." in page.split('id="call"')[0]  # then sent back to sleep
    assert "malvagia" not in page


def test_a_confirmed_vote_cannot_be_changed(narrator, factory):
    seat_everyone(narrator)
    first_night(narrator, factory)
    narrator.vote("Anna", "Bruno")
    page = narrator.vote("Anna", "Carla")
    assert "Anna" in page and ("cannot be changed" in page or "non si può cambiare" in page)
    with factory() as s:
        votes = [(r.seat.name, r.args) for r in s.scalars(select(ActionRow))]
    assert votes == [("Anna", {"vote": "Bruno"})]
    assert 'data-voter="Bruno"' in narrator.page()  # the next in seat order


def test_in_the_afternoon_only_the_living_outside_the_runoff_vote(narrator, factory):
    seat_everyone(narrator)
    first_night(narrator, factory)
    for voter in NAMES:
        narrator.vote(voter, "Carla" if voter in ("Anna", "Bruno", "Dario") else "Elena")
    narrator.close(factory, narrator.slug)
    page = narrator.page()
    assert "Carla" in page.split('id="announce"')[1].split("</div>")[0]
    assert 'data-voter="Anna"' in page  # Anna is not in the run-off
    assert "Giorno 1, votazione 2" in page
    page = narrator.vote("Carla", "Elena")  # Carla is
    assert "ballottaggio non vota" in page or "run-off do not vote" in page
    page = narrator.vote("Anna", "Bruno")  # only the two of the run-off can be voted
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(ActionRow).join(PhaseRow)
                        .where(PhaseRow.kind == "afternoon")) == 0
    voters = re.findall(r'<li(?: class="waiting")?>(\w+)', page.split('id="votes"')[1])
    assert voters == ["Anna", "Bruno", "Dario", "Fabio", "Gina", "Ivo"]


def test_the_summary_is_for_everyone_only_at_the_end(narrator, factory, app):
    seat_everyone(narrator)
    first_night(narrator, factory)
    anonymous = app.test_client()
    assert anonymous.get("/g/serata-al-bar/summary").status_code == 404
    # Burn the Licantropi one evening after the other: the village wins at the evening.
    for day, wolf in enumerate(WOLVES, start=1):
        for voter in NAMES:
            if _alive(factory, voter):
                narrator.vote(voter, wolf if voter != wolf else "Ivo")
        narrator.close(factory, narrator.slug)
        for voter in NAMES:
            if _alive(factory, voter) and voter not in _runoff(factory):
                narrator.vote(voter, wolf)
        narrator.close(factory, narrator.slug)
        if day == 1:  # night 2: each call taps its last choice (the pack: Ivo)
            narrator.night_through(lambda choices: choices[-1:])
            narrator.close(factory, narrator.slug)
    with factory() as s:
        assert s.scalar(select(Game)).status == GameStatus.OVER
    r = narrator.client.get("/g/serata-al-bar/narrator")
    assert r.status_code == 302 and r.headers["Location"].endswith("/g/serata-al-bar/summary")
    page = anonymous.get("/g/serata-al-bar/summary").get_data(as_text=True)
    for name in NAMES:
        assert name in page
    assert page.count("Licantropo") == 2 and "Veggente" in page
    assert "Villaggio" in page and "Fabio → " in page
    assert "unlucky" not in page and "sfortunato" not in page


def test_the_narrator_is_mailed_nothing_during_play_and_the_whole_game_at_the_end(
        narrator, factory, app):
    """At a real table nobody wants a mail per call or per vote: the narrator gets one
    mail, once the game is over, with every moment in order and the night's choices
    (what the phone showed only to them), in the narrator's language."""
    seat_everyone(narrator)
    first_night(narrator, factory)
    for day, wolf in enumerate(WOLVES, start=1):
        for voter in NAMES:
            if _alive(factory, voter):
                narrator.vote(voter, wolf if voter != wolf else "Ivo")
        narrator.close(factory, narrator.slug)
        for voter in NAMES:
            if _alive(factory, voter) and voter not in _runoff(factory):
                narrator.vote(voter, wolf)
        narrator.close(factory, narrator.slug)
        if day == 1:
            with factory() as s:  # a whole day and the nights played: still no mail
                assert s.scalar(select(func.count()).select_from(OutboxRow)) == 0
            narrator.night_through(lambda choices: choices[-1:])
            narrator.close(factory, narrator.slug)
    with factory() as s:
        assert s.scalar(select(Game)).status == GameStatus.OVER
        mails = s.scalars(select(OutboxRow)).all()
    assert [(m.to_addr, m.kind) for m in mails] == [("master@example.org", "master_game_report")]
    body = mails[0].body
    # Every moment, in order, each with its number: night 1 ... afternoon 2.
    heads = [line for line in body.splitlines() if line.isupper() and line.strip()]
    assert heads == ["NIGHT 1", "MORNING 1", "AFTERNOON 1", "NIGHT 2", "MORNING 2", "AFTERNOON 2"]
    night2 = body.split("NIGHT 2", 1)[1].split("MORNING 2", 1)[0]
    # The pack's choice, which the table never hears (dawn gives no cause).
    assert "I Licantropi hanno sbranato Ivo" in night2 or "The Licantropi devoured Ivo" in night2
    assert "Bruno" in body and "Fabio" in body
    assert "unlucky" not in body and "sfortunat" not in body


def _state(factory) -> dict:
    with factory() as s:
        return s.scalar(select(Game)).state


def _alive(factory, name: str) -> bool:
    return next(p["alive"] for p in _state(factory)["players"] if p["name"] == name)


def _runoff(factory) -> list[str]:
    return _state(factory)["data"].get("runoff") or []



def test_two_confirms_of_one_vote_at_once_record_one_vote(narrator, factory, app, clock, monkeypatch):
    """The phone sends Confirm twice (a double tap, a retry): whichever comes second
    finds the vote recorded, or is turned away by the database, never recorded."""
    from sqlalchemy.exc import OperationalError

    from pbm import operations
    from pbm.db import transaction
    from pbm.models import User
    from pbm.operations import actions, table

    from tests.support.helpers import first_waits_for_second, run_overlapping

    seat_everyone(narrator)
    first_night(narrator, factory)
    wrapper, first_inside = first_waits_for_second(actions._hold_phase)
    monkeypatch.setattr(actions, "_hold_phase", wrapper)

    def vote(choice: str):
        def run() -> None:
            with transaction(factory) as s:
                game = s.scalar(select(Game))
                master = s.scalar(select(User))
                table.record_vote(s, app.config, game, voter="Anna", choice=choice, now=clock.now(),
                                  by=master)
        return run

    caught = run_overlapping(vote("Bruno"), vote("Carla"), first_inside,
                             tolerate=(operations.OperationError, OperationalError))
    assert len(caught) == 1
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(ActionRow)) == 1


def test_the_desk_and_the_public_page_know_players_without_an_address(narrator, factory, app):
    seat_everyone(narrator)
    first_night(narrator, factory)
    desk = narrator.client.get("/g/serata-al-bar/master").get_data(as_text=True)
    assert "al tavolo" in desk and 'id="narrator-link"' in desk
    assert "ha chiamato Licantropo, toccati: Bruno, Fabio" in desk  # the Masters' log
    # Nothing that means nothing at a table (issue 31): no deadline to move, no mail
    # language, no substitutes' seat list of "Marco ()".
    assert 'id="extend"' not in desk and 'id="substitute-form"' not in desk and "()" not in desk
    assert narrator.client.get("/g/serata-al-bar/master/as/Anna").status_code == 200
    home = app.test_client().get("/g/serata-al-bar/")
    assert home.status_code == 200 and "summary-link" not in home.get_data(as_text=True)
    # Nobody else opens the narrator's page, nor a player's face.
    assert app.test_client().get("/g/serata-al-bar/narrator").status_code == 302  # to log in
    with factory() as s:
        seat_id = s.scalar(select(Seat.id))
    assert app.test_client().get(f"/g/serata-al-bar/narrator/photo/{seat_id}").status_code == 302


def test_the_page_reads_in_english_too(narrator, factory):
    seat_everyone(narrator)
    narrator.post("start", {"composition": "standard"})
    narrator.client.post("/lang/en", data={"csrf_token": csrf_from(narrator.page())})
    page = narrator.page()
    # The service's words through Babel, the game's from the ruleset's catalogue.
    assert "Night 1" in page and "Read aloud" in page
    assert "Night falls on the village" in page and "Werewolves, open your eyes." in page
    assert "Scende la notte" not in page


def test_a_player_taken_out_before_the_start_leaves_the_others_in_order(narrator, factory):
    for name in ["Anna", "Bruno", "Carla"]:
        files = {"photo": (io.BytesIO(jpeg_with_gps()), "selfie.jpg")} if name == "Bruno" else {}
        narrator.post("seat", {"name": name, **files}, content_type="multipart/form-data")
    narrator.post("unseat", {"name": "Bruno"})
    with factory() as s:
        assert [(x.name, x.position) for x in s.scalars(select(Seat).order_by(Seat.position))] == [
            ("Anna", 0), ("Carla", 1)]
        assert s.scalar(select(func.count()).select_from(SeatPhoto)) == 0
    page = narrator.post("start", {"composition": "standard"})  # two players: too few
    flash = re.search(r'<p class="flash error"[^>]*>([^<]*)</p>', page).group(1)
    assert "almeno 5 giocatori" in flash
    with factory() as s:
        assert s.scalar(select(Game)).status == GameStatus.SETUP


def test_a_role_whose_holder_is_dead_is_called_all_the_same(narrator, factory):
    seat_everyone(narrator)
    first_night(narrator, factory)
    for voter in NAMES:  # the village burns its own Veggente
        narrator.vote(voter, SEER if voter != SEER else "Anna")
    narrator.close(factory, narrator.slug)
    for voter in NAMES:
        if voter not in _runoff(factory):
            narrator.vote(voter, SEER)
    narrator.close(factory, narrator.slug)
    assert not _alive(factory, SEER)
    narrator.tap("Anna")  # the pack
    page = narrator.page()
    call = page.split('id="call"')[1]
    assert "<h1>Veggente</h1>" in call and "Veggente, apri gli occhi." in call  # read as ever
    assert 'name="tap"' not in call and "nessuno può rispondere" in call.lower()
    assert f"{SEER} (" in call  # the narrator's small note: the holder is dead
    narrator.tap()  # read, waited, went on
    assert "<h1>Medium</h1>" in narrator.page().split('id="call"')[1]
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(ActionRow).join(PhaseRow)
                        .where(PhaseRow.kind == "night")) == 1


def test_a_moment_the_narrator_closes_shows_no_deadline(narrator, factory, app):
    seat_everyone(narrator)
    first_night(narrator, factory)
    home = app.test_client().get("/g/serata-al-bar/").get_data(as_text=True)
    desk = narrator.client.get("/g/serata-al-bar/master").get_data(as_text=True)
    for page in (home, desk):
        assert "9999" not in page and "Scadenza" not in page.split('class="phase"')[1].split("</p>")[0]


def test_the_moments_are_named_in_the_reader_s_language_with_their_number(narrator, factory, app):
    seat_everyone(narrator)
    first_night(narrator, factory)
    home = app.test_client().get("/g/serata-al-bar/").get_data(as_text=True)
    assert "mattina 1" in home.split('class="phase"')[1].split("</p>")[0]
    english = app.test_client().get("/g/serata-al-bar/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "morning 1" in english.split('class="phase"')[1].split("</p>")[0]


def test_the_pages_carry_no_inline_script(narrator, factory, app):
    """A Content-Security-Policy without 'unsafe-inline' must find nothing to block."""
    pages = [narrator.page()]
    seat_everyone(narrator)
    pages.append(narrator.page())
    narrator.post("start", {"composition": "standard"})
    pages.append(narrator.page())
    narrator.tap(*WOLVES)
    narrator.tap(SEER)
    narrator.tap(MEDIUM)
    pages.append(narrator.page())  # dawn
    narrator.close(factory, narrator.slug)
    pages.append(narrator.page())  # the vote
    for page in pages:
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)
        assert not re.search(r"\son[a-z]+\s*=", page)
        assert not re.search(r"\sstyle\s*=", page)


def test_a_first_night_closed_early_from_the_desk_goes_on_from_the_narrator_s_page(
        narrator, factory, app, clock):
    from pbm import operations

    seat_everyone(narrator)
    narrator.post("start", {"composition": "standard"})
    narrator.tap(*WOLVES)
    with factory() as s:
        game_id = s.scalar(select(Game.id))
    operations.close_now(factory, app.config, game_id, clock.now())  # the desk's button
    with factory() as s:
        phase = s.scalar(select(PhaseRow))
        assert phase.status == "draft" and [p["kind"] for p in phase.pending] == ["identify"]
    assert narrator.call_index() == 1  # the narrator goes on where they were
    narrator.tap(SEER)
    narrator.tap(MEDIUM)
    narrator.close(factory, narrator.slug)
    with factory() as s:
        game = s.get(Game, game_id)
        assert [p.kind for p in game.phases] == ["night", "morning"]
        assert game.phases[0].status == "published"
        roles = {p["name"]: p["role"] for p in game.state["players"]}
    assert roles[SEER] == "Veggente" and [n for n in NAMES if roles[n] == "Licantropo"] == WOLVES
    assert 'data-voter="Anna"' in narrator.page()


def test_an_optional_power_may_pass_with_no_face(narrator, factory):
    for name in [*NAMES, "Lia"]:  # nine: the standard village adds the Apprendista Necromante
        narrator.post("seat", {"name": name})
    narrator.post("start", {"composition": "standard"})
    narrator.tap(*WOLVES)
    narrator.tap("Lia")  # the Apprendista
    narrator.tap(SEER)
    narrator.tap(MEDIUM)
    narrator.close(factory, narrator.slug)
    voters = [*NAMES, "Lia"]
    for voter in voters:
        narrator.vote(voter, "Anna" if voter != "Anna" else "Dario")
    narrator.close(factory, narrator.slug)
    for voter in voters:
        if voter not in _runoff(factory):
            narrator.vote(voter, "Anna")
    narrator.close(factory, narrator.slug)  # Anna burned: the Apprendista could raise her
    narrator.tap("Dario")  # the pack
    page = narrator.page()
    assert 'data-optional="1"' in page and 'value="Anna"' in page
    narrator.tap()  # the Apprendista lets the night pass
    assert "<h1>Veggente</h1>" in narrator.page()
    narrator.tap()  # the Veggente's power is not optional: refused, still at the call
    assert "<h1>Veggente</h1>" in narrator.page()
    with factory() as s:
        night = [r.seat.name for r in s.scalars(select(ActionRow).join(PhaseRow)
                                                .where(PhaseRow.kind == "night"))]
    assert night == ["Bruno"]  # the pack's tap only
