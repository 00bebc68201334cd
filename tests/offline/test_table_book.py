"""The narrator's phone plays on ``engine.table_book.Book`` without a network (issue 35):
its book, tap by tap, hashes as the server's stored game does after the same taps
online; taps made on the phone and sent back are replayed through the same operations
and leave the server's game as the phone's; a game changed elsewhere meanwhile stops
the sync at that tap, says so in words, and applies nothing after it."""
from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from engine.table_book import Book, Refused, book_hash
from engine.table_screen import screen
from pbm.models import Game
from pbm.web import narrator_view

from tests.web.test_narrator import (  # noqa: F401  (narrator: the fixture)
    MEDIUM, NAMES, SEER, WOLVES, Narrator, csrf_from, narrator, seat_everyone,
)


def server_book(narrator: Narrator) -> tuple[Book, str]:
    r = narrator.client.get(f"/g/{narrator.slug}/narrator/book.json")
    assert r.status_code == 200
    data = r.get_json()
    return Book.from_dict(data["book"]), data["hash"]


def phone_taps(book: Book, taps: list[dict]) -> list[dict]:
    """Each tap played on the phone's book, with the hash before and after it."""
    out = []
    for tap in taps:
        before = book_hash(book)
        book.play(tap)
        out.append({**tap, "before": before, "after": book_hash(book)})
    return out


def first_night_taps() -> list[dict]:
    return [{"op": "call", "index": 0, "taps": WOLVES}, {"op": "call", "index": 1, "taps": [SEER]},
            {"op": "call", "index": 2, "taps": [MEDIUM]}]


def sync(narrator: Narrator, taps: list[dict]) -> dict:
    token = csrf_from(narrator.page())
    r = narrator.client.post(f"/g/{narrator.slug}/narrator/sync", data=json.dumps({"taps": taps}),
                             content_type="application/json", headers={"X-CSRFToken": token})
    assert r.status_code == 200, r.get_data(as_text=True)
    return r.get_json()


def test_the_phone_s_book_hashes_as_the_server_s_game_after_each_tap_online(narrator, factory):
    seat_everyone(narrator)
    narrator.post("start", {"composition": "standard"})
    phone, first = server_book(narrator)
    assert book_hash(phone) == first
    for tap in first_night_taps():
        phone.play(tap)
        narrator.tap(*tap["taps"], index=tap["index"])
        assert book_hash(phone) == server_book(narrator)[1], tap
    phone.play({"op": "close", "phase": phone.index})
    narrator.close(factory, narrator.slug)
    mine, theirs = phone.to_dict(), server_book(narrator)[0].to_dict()
    assert mine == theirs and book_hash(phone) == server_book(narrator)[1]
    assert screen(phone, "it")["step"] == "vote"


def test_a_night_and_a_day_played_on_the_phone_are_replayed_on_the_server(narrator, factory):
    seat_everyone(narrator)
    narrator.post("start", {"composition": "standard"})
    phone, _first = server_book(narrator)
    taps = phone_taps(phone, [*first_night_taps(), {"op": "close", "phase": phone.index}])
    voters = [v["name"] for v in screen(phone, "it")["voters"]]
    assert voters  # the day's vote: everyone alive, in seat order
    taps += phone_taps(phone, [{"op": "vote", "voter": v, "choice": "Anna" if v != "Anna" else "Bruno"}
                               for v in voters])
    taps += phone_taps(phone, [{"op": "close", "phase": phone.index}])
    done = sync(narrator, taps)
    assert done["stopped_at"] is None and done["applied"] == len(taps)
    assert done["hash"] == book_hash(phone) == server_book(narrator)[1]
    with factory() as s:  # the vote as the server's page shows it, and as the phone's does
        game = s.scalar(select(Game))
        shown = narrator_view.last_vote(game, narrator_view.phase_events(s, narrator_view.last_published(s, game)), "it")
    assert shown is not None and shown["counts"] and screen(phone, "it")["tally"] == shown
    again = sync(narrator, taps)  # a sync cut off before its answer, sent again: nothing twice
    assert again["applied"] == len(taps) and again["hash"] == book_hash(phone)


def test_a_game_changed_elsewhere_stops_the_sync_in_words_and_applies_nothing_after(narrator, factory):
    seat_everyone(narrator)
    narrator.post("start", {"composition": "standard"})
    phone, _first = server_book(narrator)
    taps = phone_taps(phone, [{"op": "call", "index": 0, "taps": WOLVES},
                              {"op": "call", "index": 1, "taps": [SEER]}])
    narrator.tap("Anna", "Dario", index=0)  # a second phone, online, tapped other faces
    changed = server_book(narrator)[1]
    done = sync(narrator, taps)
    assert done["applied"] == 0 and done["stopped_at"] == 0 and done["why"] == "conflict"
    assert done["hash"] == changed == server_book(narrator)[1]
    assert "Tap 1" in done["message"] or "tocco 1" in done["message"].lower(), done["message"]


def test_a_tap_the_rules_refuse_is_refused_on_the_phone_as_on_the_server(narrator, factory):
    seat_everyone(narrator)
    narrator.post("start", {"composition": "standard"})
    phone, _first = server_book(narrator)
    phone.play({"op": "call", "index": 0, "taps": WOLVES})
    with pytest.raises(Refused) as refused:
        phone.play({"op": "call", "index": 1, "taps": [WOLVES[0]]})  # a wolf tapped as the Veggente
    assert refused.value.code == "tapped_twice"
    narrator.tap(*WOLVES, index=0)
    page = narrator.tap(WOLVES[0], index=1)
    assert server_book(narrator)[1] == book_hash(phone)  # refused on both: nothing recorded
    assert 'class="flash error"' in page


def test_a_power_corrected_offline_and_its_answer_signalled_again_sync_to_the_same_game(narrator, factory):
    seat_everyone(narrator)
    narrator.post("start", {"composition": "standard"})
    phone, _first = server_book(narrator)
    taps = phone_taps(phone, [*first_night_taps(), {"op": "close", "phase": phone.index}])
    # The day: each voter in turn for the first face offered, then the close (a run-off too).
    while (now := screen(phone, "it"))["step"] == "vote":
        if now["current"]:
            tap = {"op": "vote", "voter": now["current"]["name"], "choice": now["current"]["choices"][0]}
        else:
            tap = {"op": "close", "phase": phone.index}
        taps += phone_taps(phone, [tap])
    night = screen(phone, "it")
    assert night["step"] == "night"
    alive = [n for n, living in night["alive"].items() if living]
    taps += phone_taps(phone, [{"op": "call", "index": 0, "taps": [night["call"]["choices"][0]]}])
    seer = screen(phone, "it")
    assert seer["step"] == "night" and seer["call_index"] == 1
    first_look, second_look = [c for c in seer["call"]["choices"] if c in alive][:2]
    taps += phone_taps(phone, [{"op": "call", "index": 1, "taps": [first_look]}])
    answer = screen(phone, "it")
    assert answer["step"] == "answer" and first_look in " ".join(answer["answer"]["lines"])
    taps += phone_taps(phone, [{"op": "shown", "index": 1, "mark": answer["answer"]["mark"]},
                               {"op": "correct", "index": 1, "taps": [second_look]}])
    again = screen(phone, "it")
    assert again["step"] == "answer" and again["answer"]["again"]  # the corrected answer, signalled anew
    assert second_look in " ".join(again["answer"]["lines"])
    taps += phone_taps(phone, [{"op": "shown", "index": 1, "mark": again["answer"]["mark"]}])
    done = sync(narrator, taps)
    assert done["stopped_at"] is None and done["applied"] == len(taps), done
    assert done["hash"] == book_hash(phone) == server_book(narrator)[1]
    assert server_book(narrator)[0].tapped() == phone.tapped()
