"""The narrator in the dark (Lupus Noctis at a table): an information call's answer on
a screen of its own before the next call, a mis-tapped face of the night corrected until
the dawn (never a vote of the day), and the day's votes shown with their count and, when
bad luck broke a tie, between whom. Through the real routes, as the phone taps them."""
from __future__ import annotations

import html
import re

from sqlalchemy import select

from pbm.models import ActionRow, MasterLog, PhaseRow

from tests.web.test_narrator import (  # noqa: F401  (narrator: the fixture)
    MEDIUM, NAMES, SEER, WOLVES, Narrator, _alive, _runoff, _state, first_night, narrator,
    seat_everyone,
)

NOT_NIGHT = ("It is not night any more", "Non è più notte")


def refused(page: str, *words: str) -> bool:
    flash = re.search(r'<p class="flash error"[^>]*>([^<]*)</p>', page)
    return flash is not None and any(w in flash.group(1) for w in words)


def confirmed(page: str) -> dict[str, str]:
    """Tonight's calls as the page lists them: {call: faces}, and whether each has its
    "Correct"."""
    if 'id="tonight"' not in page:
        return {}
    part = page.split('id="tonight"')[1].split("</section>")[0]
    return {name: " ".join(faces.split()) for name, faces in
            re.findall(r"<strong>([^<]+)</strong>: ([^<]*)</span>", part)}


def correct(narrator: Narrator, index: int, *faces: str) -> str:
    page = narrator.client.get(f"/g/{narrator.slug}/narrator?fix={index}").get_data(as_text=True)
    assert f'id="fix" data-index="{index}"' in page
    return narrator.post("correct", {"index": index, "tap": list(faces)})


def burn(narrator: Narrator, factory, victim: str, other: str) -> None:
    """A day that sends ``victim`` to the stake: all vote them (they vote ``other``)."""
    for voter in NAMES:
        if _alive(factory, voter):
            narrator.vote(voter, victim if voter != victim else other)
    narrator.close(factory, narrator.slug)
    for voter in NAMES:
        if _alive(factory, voter) and voter not in _runoff(factory):
            narrator.vote(voter, victim)
    narrator.close(factory, narrator.slug)


def night_actions(factory) -> list[tuple[str, dict]]:
    with factory() as s:
        phase = s.scalars(select(PhaseRow).where(PhaseRow.kind == "night").order_by(PhaseRow.index.desc())).first()
        return [(r.seat.name, r.args) for r in s.scalars(
            select(ActionRow).where(ActionRow.phase_id == phase.id).order_by(ActionRow.id))]


# --------------------------------------------------------------------------- the answer

def test_the_answer_is_shown_large_before_the_next_call_and_a_stale_done_moves_nothing(narrator, factory):
    seat_everyone(narrator)
    first_night(narrator, factory)
    burn(narrator, factory, "Anna", "Dario")
    narrator.tap("Dario")  # the pack: nothing to tell them
    assert narrator.answer() is None and narrator.call_index() == 1
    narrator.tap("Elena")  # the Veggente looks at a Contadino
    page = narrator.page()
    assert 'id="call"' not in page and 'id="dawn"' not in page
    answer = narrator.answer()
    assert "Elena" in answer and "buona" in answer
    # What they pointed at, with the face, above the answer; the answer is never read aloud.
    assert re.search(r'class="asked">.*Elena', page, re.S)
    assert "buona" not in "".join(re.findall(r'<div class="(?:say|announce)[^"]*">.*?</div>', page, re.S))
    stale = narrator.post("shown", {"index": 1, "mark": "0" * 16})  # another answer than the one shown
    assert refused(stale, "out of date", "non era aggiornata") and narrator.answer() == answer
    narrator.done()
    assert narrator.answer() is None and narrator.call_index() == 2  # the Medium
    page = narrator.post("shown", {"index": 1, "mark": "x"})  # Done pressed twice
    assert refused(page, "out of date", "non era aggiornata") and narrator.call_index() == 2


# --------------------------------------------------------------------------- corrections

def test_a_night_tap_is_corrected_until_dawn_and_the_answer_shown_again(narrator, factory, app):
    seat_everyone(narrator)
    first_night(narrator, factory)
    burn(narrator, factory, "Anna", "Dario")
    narrator.tap("Dario")  # the pack pointed at Elena: a mis-tap
    narrator.tap("Elena")  # the Veggente pointed at Bruno: a mis-tap too
    assert "buona" in narrator.answer()
    page = narrator.done()
    assert confirmed(page) == {"Licantropi": "Dario", "Veggente": "Elena"}
    assert page.count('class="fix-link"') == 2

    page = correct(narrator, 1, "Bruno")
    # The answer changed: shown again, large, before anything else.
    answer = narrator.answer()
    assert "Bruno" in answer and "malvagia" in answer and "Elena" not in answer
    assert "Corretto" in page or "Corrected" in page
    narrator.done()
    correct(narrator, 0, "Elena")
    assert narrator.answer() is None  # the pack is told nothing either way
    assert confirmed(narrator.page()) == {"Licantropi": "Elena", "Veggente": "Bruno"}
    assert sorted(night_actions(factory)) == [("Bruno", {"target": "Elena"}), ("Carla", {"target": "Bruno"})]

    narrator.tap("Anna")  # the Medium
    narrator.done()
    page = narrator.page()
    assert 'id="dawn"' in page and 'id="tonight"' in page  # still correctable at the dawn's screen
    narrator.close(factory, narrator.slug)
    assert not _alive(factory, "Elena") and _alive(factory, "Dario")  # the corrected tap counted

    # After the dawn: no correction, nothing changed.
    page = narrator.page()
    assert 'id="tonight"' not in page and 'class="fix-link"' not in page
    page = narrator.post("correct", {"index": 0, "tap": ["Ivo"]})
    assert refused(page, *NOT_NIGHT)
    assert sorted(night_actions(factory)) == [("Bruno", {"target": "Elena"}), ("Carla", {"target": "Bruno"}),
                                              ("Gina", {"target": "Anna"})]
    assert _alive(factory, "Ivo")

    # The Masters' log keeps the mis-tap and its correction.
    with factory() as s:
        logged = [(e.details["role"], e.details["before"], e.details["taps"])
                  for e in s.scalars(select(MasterLog).where(MasterLog.action == "narrator_correction")
                                     .order_by(MasterLog.id))]
    assert logged == [("Veggente", ["Elena"], ["Bruno"]), ("Licantropo", ["Dario"], ["Elena"])]
    desk = html.unescape(narrator.client.get(f"/g/{narrator.slug}/master").get_data(as_text=True))
    assert "ha corretto Veggente prima dell'alba: era Elena, ora Bruno" in desk


def test_a_day_vote_is_never_corrected(narrator, factory):
    seat_everyone(narrator)
    first_night(narrator, factory)
    narrator.vote("Anna", "Bruno")
    page = narrator.page()
    assert 'class="fix-link"' not in page
    for index in (0, 1):
        page = narrator.post("correct", {"index": index, "tap": ["Carla"]})
        assert refused(page, *NOT_NIGHT)
    with factory() as s:
        votes = [(r.seat.name, r.args) for r in s.scalars(select(ActionRow))]
    assert votes == [("Anna", {"vote": "Bruno"})]


def test_a_first_night_face_is_corrected_and_the_roles_follow(narrator, factory):
    seat_everyone(narrator)
    narrator.post("start", {"village": "standard"})
    narrator.tap("Anna", "Fabio")  # the Licantropi: Anna opened her eyes by mistake
    page = narrator.client.get(f"/g/{narrator.slug}/narrator?fix=0").get_data(as_text=True)
    assert re.search(r'value="Anna" checked', page) and re.search(r'value="Fabio" checked', page)
    assert not re.search(r'value="Bruno" checked', page)
    page = correct(narrator, 0, *WOLVES)
    assert confirmed(page) == {"Licantropi": "Bruno, Fabio"}
    page = narrator.page()
    assert 'value="Anna"' in page.split('id="call"')[1] and 'value="Bruno"' not in page.split('id="call"')[1]
    narrator.tap(SEER)
    page = correct(narrator, 1, "Bruno")  # a Licantropo already: refused
    assert refused(page, "already tapped", "già stato toccato", "già toccat")
    assert confirmed(narrator.page())["Veggente"] == SEER
    page = narrator.post("correct", {"index": 2, "tap": [MEDIUM]})  # the Medium, not yet called
    assert refused(page, "out of date", "non era aggiornata")
    narrator.tap(MEDIUM)
    narrator.close(factory, narrator.slug)
    roles = {p["name"]: p["role"] for p in _state(factory)["players"]}
    assert [n for n in NAMES if roles[n] == "Licantropo"] == WOLVES
    assert roles["Anna"] == "Contadino" and roles[SEER] == "Veggente" and roles[MEDIUM] == "Medium"


def test_an_optional_power_corrected_to_no_face_is_taken_back(narrator, factory):
    players = [*NAMES, "Lia"]  # nine: the standard village adds the Apprendista Necromante
    for name in players:
        narrator.post("seat", {"name": name})
    narrator.post("start", {"village": "standard"})
    narrator.tap(*WOLVES)
    narrator.tap("Lia")
    narrator.tap(SEER)
    narrator.tap(MEDIUM)
    narrator.close(factory, narrator.slug)
    for voter in players:
        narrator.vote(voter, "Anna" if voter != "Anna" else "Dario")
    narrator.close(factory, narrator.slug)
    for voter in players:
        if voter not in _runoff(factory):
            narrator.vote(voter, "Anna")
    narrator.close(factory, narrator.slug)  # Anna burned
    narrator.tap("Dario")  # the pack
    narrator.tap("Anna")  # the Apprendista raises Anna... or so the narrator thought
    assert ("Lia", {"target": "Anna"}) in night_actions(factory)
    correct(narrator, 1)  # no face: the Apprendista let the night pass
    assert night_actions(factory) == [("Bruno", {"target": "Dario"})]
    assert confirmed(narrator.page())["Apprendista Necromante"] == "—"
    narrator.night_through(lambda choices: choices[:1])
    narrator.close(factory, narrator.slug)
    assert not _alive(factory, "Anna")


# --------------------------------------------------------------------------- the votes shown

def nearest_to_bad_luck(unlucky: str, among: list[str]) -> str:
    """Who bad luck picks among ``among``: walking out from the unlucky seat, one step
    clockwise, then one counter-clockwise, then two... (the rulebook's "vicinanza")."""
    n, at = len(NAMES), NAMES.index(unlucky)
    walk = [NAMES[at]]
    for step in range(1, n):
        walk += [NAMES[(at + step) % n], NAMES[(at - step) % n]]
    return next(name for name in walk if name in among)


def tally_on(page: str) -> tuple[list[tuple[str, int]], str | None]:
    """The counts the page shows, and its line about a tie (None: no tie)."""
    part = page.split('id="tally"')[1].split("</table>")[0]
    rows = [(name.strip(), int(count)) for name, count in
            re.findall(r"<tr[^>]*><td>([^<]+?)(?:<span[^>]*>[^<]*</span>)?</td><td>(\d+)</td></tr>", part)]
    tie = re.search(r'<p class="tie" id="tie">([^<]*)</p>', page)
    return rows, (tie.group(1) if tie else None)


def test_the_run_off_shows_its_votes_and_how_bad_luck_broke_a_tie(narrator, factory):
    seat_everyone(narrator)
    first_night(narrator, factory)
    unlucky = _state(factory)["data"]["unlucky"]
    # Dario 3, Elena 2, Ivo 2, Anna 1: Elena and Ivo tie for the run-off's second place.
    votes = {"Anna": "Dario", "Bruno": "Dario", "Carla": "Dario", "Dario": "Elena", "Elena": "Ivo",
             "Fabio": "Elena", "Gina": "Ivo", "Ivo": "Anna"}
    for voter, choice in votes.items():
        narrator.vote(voter, choice)
    narrator.close(factory, narrator.slug)
    second = nearest_to_bad_luck(unlucky, ["Elena", "Ivo"])
    assert _runoff(factory) == ["Dario", second]
    page = narrator.page()
    rows, tie = tally_on(page)
    other = "Ivo" if second == "Elena" else "Elena"
    assert rows == [("Dario", 3), (second, 2), (other, 2), ("Anna", 1)]
    assert tie is not None and "2" in tie and "Elena" in tie and "Ivo" in tie
    assert tie.rstrip(".").endswith(second)  # whom bad luck chose
    assert "sfortunato" in page.split('id="tally"')[1].split("</div>")[0]  # the rule that chose
    assert "Fabio → Elena" in page.split('id="tally"')[1]

    # The afternoon: 3 to 3, bad luck again; the night's first screen shows it.
    voters = [n for n in NAMES if n not in ("Dario", second)]
    for i, voter in enumerate(voters):
        narrator.vote(voter, "Dario" if i % 2 else second)
    narrator.close(factory, narrator.slug)
    burned = nearest_to_bad_luck(unlucky, ["Dario", second])
    assert not _alive(factory, burned)
    page = narrator.page()
    assert 'id="call"' in page and '<details class="vote-fold" open>' in page  # a tie: unfolded
    rows, tie = tally_on(page)
    assert rows[0] == (burned, 3) and sorted(rows) == sorted([("Dario", 3), (second, 3)])
    assert tie is not None and "3" in tie and tie.rstrip(".").endswith(burned)


def test_a_run_off_filled_at_no_votes_says_so_and_a_clear_vote_claims_no_tie(narrator, factory):
    seat_everyone(narrator)
    first_night(narrator, factory)
    unlucky = _state(factory)["data"]["unlucky"]
    for voter in NAMES:  # everybody votes Anna, Anna too: the second place is a tie at 0
        narrator.vote(voter, "Anna")
    narrator.close(factory, narrator.slug)
    second = nearest_to_bad_luck(unlucky, [n for n in NAMES if n != "Anna"])
    assert _runoff(factory) == ["Anna", second]
    rows, tie = tally_on(narrator.page())
    assert rows == [("Anna", 8), (second, 0)]
    assert tie is not None and ("zero" in tie or "no votes" in tie) and tie.rstrip(".").split()[-1] != ""
    assert second in tie
    # The afternoon: 5 to 1, no tie.
    voters = [n for n in NAMES if n not in ("Anna", second)]
    for i, voter in enumerate(voters):
        narrator.vote(voter, second if i else "Anna")
    narrator.close(factory, narrator.slug)
    rows, tie = tally_on(narrator.page())
    assert rows == [(second, 5), ("Anna", 1)] and tie is None


def test_a_corrected_answer_wakes_its_role_and_no_answer_screen_shows_the_night(narrator, factory):
    """Issue 31: correcting an information call after later calls gave no cue to wake
    that player; the answer screen, for one player's eyes, showed the night's taps (the
    pack's victim) under it."""
    seat_everyone(narrator)
    first_night(narrator, factory)
    burn(narrator, factory, "Anna", "Dario")
    narrator.tap("Elena")  # the pack's victim
    narrator.tap("Elena")  # the Veggente looks at Elena
    page = narrator.page()
    assert narrator.answer() and 'id="tonight"' not in page  # nothing but the answer on it
    narrator.done()
    narrator.tap("Anna")  # the Medium, a later call
    narrator.done()
    page = correct(narrator, 1, "Bruno")  # the Veggente's tap, corrected after the Medium
    said = " ".join(re.findall(r'<div class="say"><p class="cue">[^<]*</p><p>([^<]*)</p>',
                               html.unescape(page)))
    assert "Veggent" in said, said  # wake the Veggente, then send them back to sleep
    assert 'id="tonight"' not in page.split('id="answer"')[1].split("</section>")[0]
