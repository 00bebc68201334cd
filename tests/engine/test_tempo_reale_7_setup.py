"""Setup, forms and wording of tempo-reale-7."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine.core import MASTER, PRIVATE, Action, Event, Rejected, setup_rng
from engine.registry import get_ruleset
from engine.interface import Viewer

R = get_ruleset("tempo-reale-7")
SEATING = [("Anna", "Lupo"), ("Bruno", "Lupo"), ("Dina", "Divinatore"), ("Carla", "Massone"),
           ("Cora", "Massone"), ("Ivo", "Ipnotista"), ("Mina", "Medium"), ("Nina", "Negromante"),
           ("Vera", "Veggente"), ("Sam", "Sequestratore"), ("Elio", "Contadino")]


def test_three_factions_are_needed():
    with pytest.raises(ValueError, match="three factions"):
        R.setup([("Anna", "Lupo"), ("Bruno", "Contadino")], random.Random(0), {})


def test_roles_as_the_rulebook_writes_them():
    assert R.canonical_role("guardia del CORPO") == "Guardia del corpo"
    assert R.canonical_role("Lupi") == "Lupo"
    assert R.canonical_role("custode del cimitero") == "Custode del cimitero"
    with pytest.raises(KeyError):
        R.canonical_role("Mannella")


def test_initial_knowledge_goes_to_the_groups_of_3_8():
    _, events = R.setup(SEATING, random.Random(1), {"mayor": "Elio"})
    knows = {e.to[0]: set(e.data["players"]) for e in events if e.kind == "knows"}
    assert knows["Anna"] == {"Bruno"} and knows["Carla"] == {"Cora"}
    assert knows["Ivo"] == {"Mina"} and knows["Mina"] == {"Ivo"}
    assert "Nina" not in knows and "Vera" not in knows and "Sam" not in knows


@pytest.mark.parametrize("seed", range(20))
def test_divinatore_gets_two_true_and_two_false_propositions(seed):
    state, events = R.setup(SEATING, setup_rng(seed), {"mayor": "Elio"})
    roles = {p.name: p.role for p in state.players}
    (mine,) = [e for e in events if e.kind == "propositions"]
    assert mine.visibility == PRIVATE and mine.to == ["Dina"]
    props = mine.data["propositions"]
    assert len(props) == 4 and len({p["player"] for p in props}) == 4
    assert sum(roles[p["player"]] == p["role"] for p in props) == 2
    assert all(p["player"] != "Dina" for p in props)
    assert any(e.kind == "divinatore_propositions" and e.visibility == MASTER for e in events)


def test_masters_may_edit_the_propositions():
    edited = [{"player": "Anna", "role": "Lupo"}, {"player": "Vera", "role": "Veggente"},
              {"player": "Sam", "role": "Medium"}, {"player": "Elio", "role": "Stregone"}]
    _, events = R.setup(SEATING, random.Random(0), {"mayor": "Elio",
                                                    "divinatore_propositions": {"Dina": edited}})
    (mine,) = [e for e in events if e.kind == "propositions"]
    assert [(p["player"], p["role"]) for p in mine.data["propositions"]] == \
        [(p["player"], p["role"]) for p in edited]
    wrong = edited[:3] + [{"player": "Elio", "role": "Contadino"}]  # three true
    with pytest.raises(ValueError, match="exactly two true"):
        R.setup(SEATING, random.Random(0), {"divinatore_propositions": {"Dina": wrong}})


def test_every_choice_a_form_offers_is_accepted():
    state, _ = R.setup(SEATING, random.Random(0), {"mayor": "Elio"})
    checked = []
    for p in state.players:
        for form in R.forms(state, p.name):
            for field in form.fields:
                if field.type != "player":
                    continue
                for choice in field.choices:
                    args = {f.name: f.choices[0] for f in form.fields}
                    args[field.name] = choice
                    R.validate(state, Action(p.name, form.kind, args))
                    checked.append((p.name, form.kind))
    # Not vacuous: the first night's powers (Veggente, Sequestratore, Ipnotista, Medium...)
    # and the mayor's successor were all offered and accepted.
    assert {kind for _, kind in checked} >= {"power", "appoint"}, checked
    assert len({name for name, kind in checked if kind == "power"}) >= 3, checked


def test_first_night_forms_hide_killing_powers():
    state, _ = R.setup(SEATING, random.Random(0), {"mayor": "Elio"})
    assert [f.kind for f in R.forms(state, "Anna")] == []
    with pytest.raises(Rejected) as exc:
        R.validate(state, Action("Anna", "power", {"target": "Elio"}))
    assert exc.value.code == "first_night_kill"


def test_every_rejection_code_is_worded_in_both_languages():
    src = Path(__file__).resolve().parents[2] / "engine" / "tempo_reale_7"
    codes = set()
    for f in src.glob("*.py"):
        codes |= set(re.findall(r'Rejected\("([a-z_0-9]+)"', f.read_text()))
    assert codes
    for code in codes:
        for lang in ("it", "en"):
            worded = R.describe_rejection(code, {"target": "X", "power": "Morte", "role": "R",
                                                       "kind": "k"}, lang)
            assert worded and worded != code, (code, lang)


def test_result_events_are_worded():
    for kind in ("aura", "mystic", "role", "acted_on", "visitors", "others", "visited_by", "spettro"):
        for lang in ("it", "en"):
            assert R.describe(Event(kind, {"target": "X", kind: "v"}), lang, Viewer(player="X"))
