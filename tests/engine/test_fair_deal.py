"""Fair dealing over many seeded deals (issue 34): a player with history in the watched
faction is dealt into it less often than under a uniform deal, never more often; with
no history (the option's effect when nobody has any) or everybody's, the deal is
uniform; and a deal replays exactly from its seed."""
from __future__ import annotations

from collections import Counter

from engine.core import setup_rng
from engine.fair_deal import WARY_WEIGHT, deal, weights

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo"]
ROLES = ["Lupo Mannaro", "Lupo Mannaro", "Veggente", "Guardia", "Contadino", "Contadino", "Contadino", "Contadino"]
WATCHED = {"Lupo Mannaro"}
DEALS = 6000
SHARE = 2 / len(NAMES)  # a uniform deal's chance of a watched role
# Three standard deviations of a share over DEALS deals.
SIGMA3 = 3 * (SHARE * (1 - SHARE) / DEALS) ** 0.5
# Chi-square's critical value at p = 0.001 for 7 degrees of freedom.
CHI2_7 = 24.32


def _watched_counts(history: dict[str, int]) -> Counter[str]:
    got: Counter[str] = Counter()
    for n in range(DEALS):
        for name, role in deal(NAMES, ROLES, WATCHED, history, setup_rng(f"seed{n}|draw1")):
            if role in WATCHED:
                got[name] += 1
    return got


def _chi2(counts: Counter[str], expected: float) -> float:
    return sum((counts[n] - expected) ** 2 / expected for n in NAMES)


def test_without_history_the_deal_is_uniform():
    got = _watched_counts({})
    assert _chi2(got, DEALS * SHARE) < CHI2_7, got
    # Every role, not only the watched ones: each seat gets each role as often.
    seen: Counter[tuple[str, str]] = Counter()
    for n in range(DEALS):
        seen.update(deal(NAMES, ROLES, WATCHED, {}, setup_rng(f"other{n}")))
    for role in set(ROLES):
        per_seat = Counter({name: seen[(name, role)] for name in NAMES})
        assert _chi2(per_seat, DEALS * ROLES.count(role) / len(NAMES)) < CHI2_7, role


def test_history_lowers_the_repeated_players_chance():
    got = _watched_counts({"Anna": 1})
    assert got["Anna"] / DEALS < SHARE - SIGMA3, got
    # The others share what she lost: none of them less likely than uniform.
    for name in NAMES[1:]:
        assert got[name] / DEALS > SHARE - SIGMA3, (name, got)


def test_a_player_with_history_is_never_more_likely_than_uniform():
    for history in ({"Anna": 1, "Bruno": 3}, dict.fromkeys(NAMES[:6], 1), {"Anna": 2, "Carla": 1, "Ugo": 1}):
        got = _watched_counts(history)
        for name in history:
            assert got[name] / DEALS <= SHARE + SIGMA3, (history, name, got)
        # Players with history all weigh the same, lowest weight.
        assert {weights(NAMES, history)[n] for n in history} == {WARY_WEIGHT}


def test_everybody_with_history_is_a_uniform_deal_again():
    got = _watched_counts(dict.fromkeys(NAMES, 1))
    assert _chi2(got, DEALS * SHARE) < CHI2_7, got


def test_a_deal_replays_from_its_seed():
    history = {"Anna": 1, "Dario": 2}
    first = deal(NAMES, ROLES, WATCHED, history, setup_rng("g1|draw3"))
    assert deal(NAMES, ROLES, WATCHED, history, setup_rng("g1|draw3")) == first
    assert sorted(r for _n, r in first) == sorted(ROLES)
    assert [n for n, _r in first] == NAMES
