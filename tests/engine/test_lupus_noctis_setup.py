"""Set-up, names and the standard village of Lupus Noctis."""
from __future__ import annotations

import random

import pytest

from engine.core import SetupError, UnknownRole, setup_rng
from engine.interface import BaseRuleset
from engine.lupus_noctis.roles import LICANTROPO, ROLES
from engine.registry import available

from lupus_noctis_play import R


def test_registered_and_built_on_the_interface():
    assert "lupus-noctis" in available()
    assert isinstance(R, BaseRuleset) and R.key == "lupus-noctis"
    assert R.names["it"] and R.names["en"]


@pytest.mark.parametrize("written,role", [
    ("licantropo", "Licantropo"), ("Licantropi", "Licantropo"), ("AMANTE SEGRETO", "Amante Segreto"),
    ("Amanti Segreti", "Amante Segreto"), ("procione mannaro", "Procione Mannaro"),
    ("Apprendista  Necromante", "Apprendista Necromante"), ("Medium", "Medium"),
    ("veggente", "Veggente"), ("Contadini", "Contadino"),
])
def test_roles_as_the_rulebook_writes_them(written, role):
    assert R.canonical_role(written) == role


def test_auras_and_sides():
    auras = {r.name: (r.aura, r.faction) for r in R.roles()}
    assert auras["Licantropo"] == ("malvagia", "Licantropi")
    assert auras["Apprendista Necromante"] == ("malvagia", "Licantropi")
    assert auras["Procione Mannaro"] == ("malvagia", "Villaggio")
    assert all(auras[r] == ("buona", "Villaggio") for r in
               ("Contadino", "Veggente", "Medium", "Amante Segreto"))


def test_bad_set_ups_are_refused_with_a_code():
    with pytest.raises(UnknownRole):
        R.setup([("Anna", "Lupo Nero"), ("Bruno", "Contadino"), ("Carla", "Contadino")], random.Random(0))
    with pytest.raises(SetupError) as seated:
        R.setup([("Anna", "Licantropo"), ("Anna", "Contadino"), ("Carla", "Contadino")], random.Random(0))
    assert seated.value.code == "seated_twice"
    with pytest.raises(SetupError) as unlucky:
        R.setup([("Anna", "Licantropo"), ("Bruno", "Contadino"), ("Carla", "Contadino")],
                random.Random(0), {"unlucky": "Zeno"})
    assert unlucky.value.code == "unlucky_not_a_player"


def test_the_unlucky_option_overrides_the_draw():
    seating = [("Anna", "Licantropo"), ("Bruno", "Contadino"), ("Carla", "Contadino")]
    assert {R.setup(seating, setup_rng(s), {"unlucky": "Bruno"})[0].data["unlucky"]
            for s in range(20)} == {"Bruno"}


def test_role_cards_go_only_to_their_holders():
    seating = [("Anna", "Licantropo"), ("Bruno", "Veggente"), ("Carla", "Contadino")]
    _, events = R.setup(seating, setup_rng(0), {})
    assert {(e.to[0], e.data["role"]) for e in events if e.kind == "role_card"} == \
        {("Anna", "Licantropo"), ("Bruno", "Veggente"), ("Carla", "Contadino")}
    assert all(e.visibility == "private" for e in events)


@pytest.mark.parametrize("n", range(5, 25))
def test_the_standard_village_for_each_number_of_players(n):
    village = R.default_composition(n)
    assert sum(village.values()) == n and all(c > 0 for c in village.values())
    assert set(village) <= set(ROLES)
    wolves = village[LICANTROPO]
    assert 1 <= wolves and 2 * wolves < n  # the game cannot be over before it starts
    assert village.get("Amante Segreto", 0) in (0, 2)
    bigger = R.default_composition(n + 1)
    assert all(bigger.get(role, 0) >= count for role, count in village.items() if role != "Contadino")


def test_too_few_players_have_no_standard_village():
    assert R.default_composition(R.min_players - 1) is None


def test_every_catalogue_entry_reads_in_italian_and_english_with_the_same_placeholders():
    import string

    checked = 0
    for table in (R.EVENTS, R.REJECTIONS, R.SCRIPT):
        for code, entry in table.items():
            assert entry.get("it") and entry.get("en"), code
            fields = [{f for _, f, _, _ in string.Formatter().parse(entry[lang]) if f}
                      for lang in ("it", "en")]
            assert fields[0] == fields[1], code
            checked += 1
    assert checked > 40
