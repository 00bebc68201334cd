"""A choice sent by the reserved page's script (static/forms.js, header X-Pbm-Fragment)
is answered in place: the receipt and the forms as they now stand, not a redirect to
the whole page (issue 33: the deadline rush's third request of every vote). Stored
before the answer, flashed nowhere (the next page shows no receipt again); refused,
it goes back to the page that says why, as without the script."""
from __future__ import annotations

from pbm.web.player import FRAGMENT, FRAGMENT_HEADER
from tests.support.cost import counting
from tests.support.forms import area, flash_of, forms_of, logged_in, recorded
from tests.web.test_reserved_page_cost import day_one


def _send(client, values: dict[str, str], *, in_place: bool = True):
    form = forms_of(area(client))["form-vote"]
    data = {**form.hidden, **{f"vote-{k}": v for k, v in values.items()}}
    headers = {FRAGMENT_HEADER: FRAGMENT} if in_place else {}
    return client.post(form.action, data=data, headers=headers)


def test_a_vote_sent_by_the_script_is_stored_and_answered_in_place(app, factory, clock):
    day_one(app, factory, clock)
    bruno = logged_in(app, "Bruno")
    answer = _send(bruno, {"vote": "Anna"})
    assert answer.status_code == 200 and answer.headers[FRAGMENT_HEADER] == FRAGMENT
    assert answer.headers["Cache-Control"] == "no-store"
    html = answer.get_data(as_text=True)
    assert recorded(factory, "Bruno") == [("Bruno", "vote", {"vote": "Anna"})]
    assert "Registrato" in flash_of(html) and "Voto: Anna" in flash_of(html)
    assert "<html" not in html and 'id="form-vote"' in html  # the forms alone, ready for the next choice
    assert '<option selected value="Anna">' in html and "Voto: Anna" in html.split("Le tue scelte")[1]
    again = _send(bruno, {"vote": "Carla"}).get_data(as_text=True)  # the new form's token works
    assert '<option selected value="Carla">' in again and "Voto: Anna" not in again.split("Le tue scelte")[1]
    page = area(bruno)
    assert 'class="flash' not in page  # nothing flashed: the receipt was shown in place
    assert "Voto: Carla" in page.split("Le tue scelte")[1]


def test_a_vote_refused_goes_back_to_the_page_that_says_why(app, factory, clock):
    day_one(app, factory, clock)
    bruno = logged_in(app, "Bruno")
    _send(bruno, {"vote": "Anna"})
    answer = _send(bruno, {"vote": ""})  # a vote cannot be withdrawn
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/g/test-game/me")
    assert FRAGMENT_HEADER not in answer.headers
    assert "Non registrato" in flash_of(area(bruno))
    assert recorded(factory, "Bruno") == [("Bruno", "vote", {"vote": "Anna"})]


def test_the_answer_in_place_costs_less_than_the_post_and_the_page_after_it(app, factory, clock):
    day_one(app, factory, clock)
    bruno, dario = logged_in(app, "Bruno"), logged_in(app, "Dario")
    area(bruno)
    area(dario)
    with counting(app) as in_place:
        assert _send(bruno, {"vote": "Anna"}).status_code == 200
    with counting(app) as redirected:
        assert _send(dario, {"vote": "Anna"}, in_place=False).status_code == 302
        assert "Registrato" in flash_of(area(dario))
    # _send reads the page first: the same page each way, so the difference is the answer's.
    assert in_place.statements < redirected.statements
    assert in_place.loaded["ActionRow"] == 1  # the seat's own latest choice, read with the vote


def test_the_forms_answered_in_place_are_each_voters_own_and_written_once_for_alike(app, factory, clock,
                                                                                     monkeypatch):
    """The forms in the answer are those of the player's page as it now stands, with
    their session's own form token; written once for players offered the same forms who
    chose alike, and anew when the open phase's state changes under them."""
    from pbm.web import reserved_page
    from tests.support.forms import edit_open_state
    from tests.support.reserved import TOKEN, afresh, forms_written
    gid = day_one(app, factory, clock, mayor="Fabio")  # none of the voters below
    clients = {name: logged_in(app, name) for name in ("Bruno", "Dario", "Elena", "Gino")}
    built = forms_written(monkeypatch)

    def forms_in_place(name: str) -> tuple[list[str], str]:
        """The forms built for the answer to a vote for Anna, and the forms answered."""
        form = forms_of(area(clients[name]))["form-vote"]
        built.clear()
        html = clients[name].post(form.action, data={**form.hidden, "vote-vote": "Anna"},
                                  headers={FRAGMENT_HEADER: FRAGMENT}).get_data(as_text=True)
        return list(built), html[html.index("</p>") + len("</p>"):].strip()

    def as_the_page_has_them(name: str, forms: str) -> None:
        page = afresh(clients[name])
        assert 'id="form-vote"' in forms and TOKEN.sub("", forms) in TOKEN.sub("", page), name
        assert {a or b for a, b in TOKEN.findall(forms)} == {a or b for a, b in TOKEN.findall(page)}, name

    made, bruno = forms_in_place("Bruno")
    assert made
    made, dario = forms_in_place("Dario")
    assert not made  # Bruno's, as written for a vote for Anna, with Dario's token
    as_the_page_has_them("Bruno", bruno)
    as_the_page_has_them("Dario", dario)
    reserved_page.forget(app)  # nothing kept (the pages above kept the same forms on SQLite)
    assert forms_in_place("Gino")[0]  # written from nothing, then kept for the same open state
    edit_open_state(factory, gid, lambda state: state.setdefault("notes", {}).update(edited=True))
    made, elena = forms_in_place("Elena")
    assert made  # another open state: written anew
    as_the_page_has_them("Elena", elena)
