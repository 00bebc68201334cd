"""forms() offers only what validate() accepts, and the ritual form narrows its targets."""
from __future__ import annotations

import random

import pytest

from engine.core import Action, Phase, Rejected, setup_rng
from engine.lupus_live_12 import RULESET
from engine.lupus_live_12.autoplay import play_phase, random_game


def _every_choice(state, player):
    for form in RULESET.forms(state, player):
        if form.kind in ("shout", "notes", "ritual"):
            continue
        field = form.fields[0]
        for choice in field.choices:
            yield Action(player, form.kind, {field.name: choice})


@pytest.mark.parametrize("seed", range(6))
def test_every_offered_choice_is_accepted(seed: int) -> None:
    rng = random.Random(seed)
    state = random_game(rng, 16)
    checked: set[str] = set()
    for _ in range(16):
        if state.over:
            break
        for p in state.players:
            for action in _every_choice(state, p.name):
                RULESET.validate(state, action)  # raises if the form lied
                checked.add(action.kind)
        state = play_phase(state, rng, seed)[0].state
    # Not vacuous: the night's powers and the day's votes were offered and accepted.
    assert {"vote", "power"} <= checked, checked


def test_ritual_form_targets_depend_on_the_ritual() -> None:
    seating = [("Anna", "Lupo Mannaro"), ("Bruno", "Satanista"), ("Carla", "Contadino"),
               ("Dario", "Contadino"), ("Elena", "Contadino")]
    state, _ = RULESET.setup(seating, setup_rng(0), {"mayor": "Carla", "dead": ["Dario", "Elena"]})
    form = next(f for f in RULESET.forms(state, "Dario") if f.kind == "ritual")
    fields = {f.name: f for f in form.fields}
    assert "\\end{story}" in fields["ritual"].choices
    assert set(fields["with"].choices) == {"Elena"}  # the other ghosts
    # §2.6: the Satanista from a drop-down of every living player, so no role is told.
    assert set(fields["satanista"].choices) == {"Anna", "Bruno", "Carla"}
    assert not fields["satanista"].required
    dep = fields["target"].depends["ritual"]
    assert set(dep["Omicidio"]) == {"Anna", "Bruno", "Carla"}
    assert set(dep["Resurrezione"]) == {"Dario", "Elena"}
    assert dep["\\end{story}"] == []
    assert set(dep["Spionaggio"]) == {"Anna", "Bruno", "Carla", "Dario", "Elena"}
    # The Satanista's form: ghosts only, and no ritual of fewer than 3.
    sat = next(f for f in RULESET.forms(state, "Bruno") if f.kind == "ritual")
    sfields = {f.name: f for f in sat.fields}
    assert set(sfields["with"].choices) == {"Dario", "Elena"}
    assert sfields["n"].min == 2
    # The living Contadino has no ritual form.
    assert not [f for f in RULESET.forms(state, "Carla") if f.kind == "ritual"]


def test_day_forms_vote_and_appoint_night_forms_power() -> None:
    seating = [("Anna", "Lupo Mannaro"), ("Bruno", "Veggente"), ("Carla", "Contadino")]
    state, _ = RULESET.setup(seating, setup_rng(0), {"mayor": "Carla"})
    kinds = {f.kind for f in RULESET.forms(state, "Bruno")}
    assert "power" in kinds and "vote" not in kinds
    assert "power" not in {f.kind for f in RULESET.forms(state, "Anna")}  # no kill on night 1
    state.phase = Phase("day", 1)
    carla = {f.kind: f for f in RULESET.forms(state, "Carla")}
    assert set(carla) >= {"vote", "appoint"}
    assert carla["appoint"].fields[0].choices == ["Anna", "Bruno"]
    with pytest.raises(Rejected) as exc:
        RULESET.validate(state, Action("Bruno", "power", {"target": "Anna"}))
    assert exc.value.code == "not_now"
