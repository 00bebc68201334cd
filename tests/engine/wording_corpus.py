"""Every line the four rulesets word, gathered from seeded random games in Italian and
English: events as each viewer reads them, refusals, tables, the Masters' panels and
remedies, form titles and labels, headings, the narrator's script, vote tallies and
submissions. tests/engine/test_wording.py reads it for the grammar the issue asks of
every word (issue 21); run it as a script to print the corpus for a review by eye:

    .venv/bin/python tests/engine/wording_corpus.py > /tmp/corpus.txt
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Iterator

from engine import remedies
from engine.core import Action, Event, GameState, Rejected, Resolution, phase_rng, setup_rng
from engine.interface import LANGS, BaseRuleset, TableScript, Viewer
from engine.registry import get_ruleset

# Seat names of both genders, several starting with a vowel (for "ad Anna", "ed Elena").
NAMES = ["Anna", "Bruno", "Carla", "Elena", "Dario", "Ivo", "Olga", "Franco", "Ugo", "Giulia",
         "Ettore", "Rita", "Aldo", "Marta", "Luca", "Irene", "Sara", "Oscar", "Emma", "Nino",
         "Ada", "Pietro", "Ines", "Tito"]


@dataclass(frozen=True)
class Line:
    ruleset: str
    lang: str
    source: str  # what produced it: "event:death", "rejection:not_now", "panel"...
    text: str

    def __str__(self) -> str:
        return f"[{self.ruleset} {self.lang} {self.source}] {self.text}"


# -- games --------------------------------------------------------------------------

def _play(rules: BaseRuleset, state: GameState, rng: random.Random, seed: int, moments: int,
          skip: float = 0.2, extra=None, gm=None) -> Iterator[tuple[GameState, Resolution]]:
    for _ in range(moments):
        if state.over:
            return
        actions = []
        for p in state.players:
            for form in rules.forms(state, p.name):
                if form.kind in ("shout", "notes") or rng.random() < skip:
                    continue
                args: dict[str, Any] = {}
                for f in form.fields:
                    choices = list(f.choices)
                    for dep_key, table in (getattr(f, "depends", None) or {}).items():
                        choices = list(table.get(args.get(dep_key), []))
                    if f.type == "text":
                        args[f.name] = "Anna è un lupo?"
                    elif f.type == "cards" and choices:
                        args[f.name] = rng.sample(choices, f.min)
                    elif f.type == "players" and choices:
                        args[f.name] = rng.sample(choices, min(len(choices), 2))
                    elif choices:
                        args[f.name] = rng.choice(choices)
                if not args:
                    continue
                try:
                    actions.append(rules.validate(state, Action(p.name, form.kind, args)))
                except Rejected:
                    pass
        if extra is not None:
            actions += extra(state, rng)
        res = rules.resolve(state, actions, phase_rng(seed, state.phase), gm(state, rng) if gm else {})
        yield state, res
        state = res.state


def lupus_live_12(seed: int) -> Iterator[tuple[GameState, list[Event]]]:
    from engine.lupus_live_12.autoplay import ALL_ROLES, ritual_actions
    rules = get_ruleset("lupus-live-12")
    rng = random.Random(seed)
    size = rng.randint(8, 16)
    roles = ["Lupo Mannaro", "Lupo Mannaro", "Contadino"] + [rng.choice(ALL_ROLES) for _ in range(size - 3)]
    rng.shuffle(roles)
    state, events = rules.setup(list(zip(NAMES, roles)), setup_rng(seed), {})
    yield state, events
    answers = lambda st, r: {"answers": {p.name: r.choice(["yes", "no"]) for p in st.players}}  # noqa: E731
    for before, res in _play(rules, state, rng, seed, 14, extra=ritual_actions, gm=answers):
        yield before, res.events
        state = res.state
    yield from _remedies(rules, state, rng)


def tempo_reale_7(seed: int) -> Iterator[tuple[GameState, list[Event]]]:
    from engine.tempo_reale_7.roles import FACTIONS, ROLES
    rules = get_ruleset("tempo-reale-7")
    rng = random.Random(seed)
    by_faction = {f: [r.name for r in ROLES.values() if r.faction == f] for f in FACTIONS}
    roles = ["Lupo", "Negromante", "Contadino"]
    roles += [rng.choice(by_faction[rng.choice(FACTIONS)]) for _ in range(rng.randint(6, 14))]
    seating = list(zip(NAMES, roles))
    rng.shuffle(seating)
    state, events = rules.setup(seating, setup_rng(seed), {})
    yield state, events
    for before, res in _play(rules, state, rng, seed, 14):
        yield before, res.events
        state = res.state
    yield from _remedies(rules, state, rng)


def lupus_noctis(seed: int) -> Iterator[tuple[GameState, list[Event]]]:
    rules = get_ruleset("lupus-noctis")
    rng = random.Random(seed)
    n = rng.randrange(rules.min_players, 16)
    roles = [role for role, count in rules.default_composition(n).items() for _ in range(count)]
    rng.shuffle(roles)
    state, events = rules.setup(list(zip(NAMES, roles)), setup_rng(seed), {})
    yield state, events
    for before, res in _play(rules, state, rng, seed, 40, skip=0.1):
        yield before, res.events
        state = res.state


def complots(seed: int) -> Iterator[tuple[GameState, list[Event]]]:
    rules = get_ruleset("complots")
    rng = random.Random(seed)
    players = 2 + seed % 7
    variant = ("ambasciatore", "inquisitore")[seed % 2]
    state, events = rules.setup([(n, "") for n in NAMES[:players]], setup_rng(seed), {"variant": variant})
    yield state, events
    for before, res in _play(rules, state, rng, seed, 300, skip=0.15):
        yield before, res.events
        state = res.state
    yield state, []


def _remedies(rules: BaseRuleset, state: GameState, rng: random.Random) -> Iterator[tuple[GameState, list[Event]]]:
    """The Masters' remedies on the game as it ended (or stalled)."""
    alive = [p.name for p in state.players if p.alive][:2]
    dead = [p.name for p in state.players if not p.alive][:2]
    for key, args in ((remedies.KILL, {"players": alive}), (remedies.RESURRECT, {"players": dead}),
                      (remedies.DRAW, {})):
        try:
            after, events = rules.apply_remedy(state, key, args, rng)
        except Rejected:
            continue
        yield after, events


GAMES = {"lupus-live-12": lupus_live_12, "tempo-reale-7": tempo_reale_7,
         "lupus-noctis": lupus_noctis, "complots": complots}


# -- the words --------------------------------------------------------------------------

def _viewers(state: GameState) -> list[Viewer]:
    return [Viewer(master=True), Viewer()] + [Viewer(player=p.name) for p in state.players]


def event_lines(key: str, rules: BaseRuleset, state: GameState, events: list[Event]) -> Iterator[Line]:
    for e in events:
        for viewer in _viewers(state):
            seen = rules.visible(e, viewer)
            if seen is None:
                continue
            for lang in LANGS:
                text = rules.describe(seen, lang, viewer)
                if text:
                    yield Line(key, lang, f"event:{e.kind}", text)
                tally = rules.tally(seen, lang)
                if tally is not None and tally.needed:
                    yield Line(key, lang, f"tally:{e.kind}", tally.needed)


def state_lines(key: str, rules: BaseRuleset, state: GameState) -> Iterator[Line]:
    for lang in LANGS:
        for viewer in _viewers(state)[:3]:
            for panel in rules.public_table(state, viewer, lang):
                for text in [panel.title, *panel.lines]:
                    yield Line(key, lang, "table", str(text))
        for panel in rules.panels(state, [], lang):
            for text in [panel.title, *panel.lines]:
                yield Line(key, lang, "panel", str(text))
        heading = rules.moment_heading(state, lang)
        if heading:
            yield Line(key, lang, "heading", heading)
        for p in state.players:
            for title in rules.titles(state, p.name, lang):
                yield Line(key, lang, "title", f"{p.name} ({title})")
            for form in rules.forms(state, p.name):
                for text in (rules.form_title(form, lang), getattr(rules, "describe_form", lambda *a: None)(
                        form.label, lang)):
                    if text:
                        yield Line(key, lang, "form", text)
                for f in form.fields:
                    for text in (rules.field_label(form, f.name, lang), rules.field_help(form, f.name, lang)):
                        if text:
                            yield Line(key, lang, "form", text)
                    for c in list(f.choices)[:6]:
                        yield Line(key, lang, f"choice:{f.name}", str(rules.describe_choice(f.name, c, lang)))
                    if f.choices:
                        sub = {"kind": form.kind, f.name: list(f.choices)[0]}
                        for text in rules.describe_submission(sub, lang, state):
                            yield Line(key, lang, "submission", text)
        table = rules.ability(TableScript)
        for call in table.night_script(state) if table is not None else ():
            for said in (call.open, call.do, call.close):
                if said is not None:
                    yield Line(key, lang, "script", said.read(lang))


def rejection_lines(key: str, rules: BaseRuleset) -> Iterator[Line]:
    params = {"target": "Anna", "player": "Elena", "name": "Ivo", "role": "Veggente", "ritual": "Omicidio",
              "day": 2, "power": "Morte", "missing": ["Negromanti"], "players": 5, "roles": 6,
              "count": 1, "minimum": 5, "card": "Duchessa", "variant": "x", "coins": 1, "need": 3,
              "have": 1, "expected": 1, "got": 2, "other": "Veggente", "action": "x", "answer": "x",
              "character": "Duchessa", "blockers": "Contessa", "value": "x", "waiting": "Anna",
              "kind": "vote", "reason": "r", "length": 300, "limit": 280, "field": "x"}
    for code in rules.REJECTIONS:
        for lang in LANGS:
            text = rules.describe_rejection(code, params, lang)
            if text:
                yield Line(key, lang, f"rejection:{code}", text)
    for remedy in rules.remedies():
        for lang in LANGS:
            yield Line(key, lang, "remedy", remedy.label[lang])


def corpus(seeds: range = range(6)) -> Iterator[Line]:
    """Every worded line of ``seeds`` games of each ruleset, repeats and all."""
    for key, play in GAMES.items():
        rules = get_ruleset(key)
        yield from rejection_lines(key, rules)
        for seed in seeds:
            for state, events in play(seed):
                yield from event_lines(key, rules, state, events)
                yield from state_lines(key, rules, state)


if __name__ == "__main__":
    seen: set[Line] = set()
    for line in corpus():
        if line not in seen:
            seen.add(line)
            print(line)
