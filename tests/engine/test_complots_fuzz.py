"""Random bot-played Complots games: what stays true whatever the players do.

Seeded loops over every table size and both variants: bots answer only through
``forms`` (so every form must validate), stay silent at random (so every default runs),
and the games must end with a single winner.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.complots.cards import BOX_COINS, deck
from engine.core import PUBLIC, Action, GameState, Resolution, phase_rng, setup_rng
from engine.interface import Viewer
from engine.registry import get_ruleset

RULESET = get_ruleset("complots")
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Ivo"]


def form_action(state: GameState, player: str, rng: random.Random) -> Action | None:
    """A random submission built from the player's forms (None: the form is empty)."""
    forms = RULESET.forms(state, player)
    if not forms:
        return None
    form = forms[0]
    args: dict[str, Any] = {}
    for f in form.fields:
        choices = list(f.choices)
        for dep_key, table in f.depends.items():
            choices = list(table.get(args.get(dep_key), []))
        if not choices:
            continue
        if f.type == "cards":
            args[f.name] = rng.sample(choices, f.min)
        else:
            args[f.name] = rng.choice(choices)
    return Action(player, form.kind, args)


def play_random_game(seed: int, players: int, variant: str, silence: float = 0.2,
                     max_moments: int = 400) -> tuple[GameState, list[tuple[GameState, Resolution]]]:
    """Play a whole game with random answers; returns the final state and every moment."""
    rng = random.Random(seed)
    state, events = RULESET.setup([(n, "") for n in NAMES[:players]], setup_rng(seed),
                                  {"variant": variant})
    history: list[tuple[GameState, Resolution]] = [(state, Resolution(state, events))]
    for _ in range(max_moments):
        if state.over:
            break
        actions = []
        for name in RULESET.timing(state).answerers:
            if rng.random() < silence:
                continue
            action = form_action(state, name, rng)
            if action is not None:
                actions.append(RULESET.validate(state, action))
        res = RULESET.resolve(state, actions, phase_rng(seed, state.phase))
        history.append((state, res))
        state = res.state
    return state, history


CARD_KEYS = ("card", "cards", "drew", "saw", "dealt", "returned", "hand")
# Public events that may name a card, because it is face up for everyone to see.
FACE_UP = {"lost_card": "card", "lost_card_at_random": "card", "eliminated": "cards"}

GAMES = [(seed, players, variant) for players in range(2, 9)
         for variant in ("ambasciatore", "inquisitore") for seed in range(6)]


@pytest.mark.parametrize("seed,players,variant", GAMES)
def test_random_games_keep_secrets_and_invariants(seed, players, variant):
    check_game(seed, players, variant, silence=0.2)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**9), players=st.integers(2, 8),
       variant=st.sampled_from(["ambasciatore", "inquisitore"]),
       silence=st.floats(0.0, 1.0))
def test_any_game_keeps_secrets_and_invariants(seed, players, variant, silence):
    check_game(seed, players, variant, silence)


def check_game(seed: int, players: int, variant: str, silence: float) -> None:
    final, history = play_random_game(seed, players, variant, silence)
    if silence == 1.0:  # nobody ever answers: the defaults alone must end the game
        assert all(e.kind != "action" for _, res in history for e in res.events)
    assert final.over and final.winner in final.names()
    assert [p.name for p in final.players if p.alive] == [final.winner]
    checked = 0
    for _before, res in history:
        state = res.state
        # Coins and cards are conserved.
        assert sum(p.data["coins"] for p in state.players) + state.data["treasury"] == BOX_COINS
        cards = Counter(state.data["court"]) + Counter(state.data["out_of_play"])
        for p in state.players:
            cards += Counter(p.data["hand"]) + Counter(p.data["revealed"])
        window = state.data.get("window") or {}
        cards += Counter(window.get("drawn", []))
        if state.phase.kind == "choose":
            continue  # two players still choosing: the bundles are not dealt yet
        full = deck(3 if players == 2 else players, variant)
        assert cards == Counter(full), (state.phase, cards)
        for p in state.players:
            assert p.data["coins"] >= 0 and (p.alive or p.data["coins"] == 0)
            assert p.alive == bool(p.data["hand"])
            assert len(p.data["hand"]) + len(p.data["revealed"]) == 2
        for e in res.events:
            assert e.kind in RULESET.EVENTS, e.kind
            for lang in ("it", "en"):
                text = RULESET.describe(e, lang, Viewer(master=True))
                assert text and "{" not in text, (e, text)  # every placeholder filled
            if e.visibility != PUBLIC:
                assert e.to, e
                continue
            for key in CARD_KEYS:
                if key in e.data:
                    assert FACE_UP.get(e.kind) == key, e
                    shown = e.data[key] if isinstance(e.data[key], list) else [e.data[key]]
                    owner = state.player(e.data["player"])
                    assert not Counter(shown) - Counter(owner.data["revealed"]), e
                    checked += 1
    # Every game loses cards, so public events naming cards were checked.
    assert checked >= 1


@pytest.mark.parametrize("seed", range(10))
def test_public_table_does_not_depend_on_hidden_cards(seed):
    """Swapping every face-down card and the court order changes nothing a non-owner sees."""
    final, history = play_random_game(seed, 4, "ambasciatore")
    seen = 0
    for _, res in history[1:]:
        state = res.state
        other = state.copy()
        for p in other.players:
            p.data["hand"] = ["Duchessa" if c != "Duchessa" else "Contessa" for c in p.data["hand"]]
        other.data["court"] = list(reversed(other.data["court"]))
        for viewer in (Viewer(), Viewer(player="Anna")):
            a = RULESET.public_table(state, viewer, "it")
            b = RULESET.public_table(other, viewer, "it")
            assert a[0] == b[0]
            seen += 1
        # Forms of others do not show anyone's hand either.
        for name in state.names():
            for form in RULESET.forms(state, name):
                for f in form.fields:
                    if f.name in ("card", "cards"):
                        own = state.player(name).data["hand"] + \
                            (state.data["window"].get("drawn", []) if form.kind == "keep" else [])
                        assert not Counter(f.choices) - Counter(own)
    assert seen > 0


def test_forms_are_the_legal_answers():
    """A form's every choice validates; a choice outside it is refused (sampled)."""
    checked = 0
    for seed in range(5):
        _, history = play_random_game(seed, 5, "inquisitore")
        for _, res in history:
            state = res.state
            if state.over:
                continue
            answerers = RULESET.timing(state).answerers
            for name in state.names():
                forms = RULESET.forms(state, name)
                assert bool(forms) == (name in answerers)
                for form in forms:
                    assert RULESET.describe_form(form.label, "it")
                    assert RULESET.describe_form(form.label, "en")
                    first = form.fields[0]
                    if first.type != "choice" or len(form.fields) > 1:
                        continue
                    for choice in first.choices:
                        RULESET.validate(state, RULESET.submission_action(
                            name, {"kind": form.kind, first.name: choice}))
                        checked += 1
    assert checked > 50


@pytest.mark.parametrize("players", range(2, 9))
def test_a_table_where_nobody_ever_answers_still_ends(players):
    """Silence is every window's default answer (rulings R1), even at an empty treasury."""
    check_game(players, players, "ambasciatore", silence=1.0)
