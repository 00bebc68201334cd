"""The visibility rule as SQL (``visibility.readable_by``) and as Python
(``visibility.seen``, asking the ruleset) agree on every event of whole games.

Pages narrow their queries by ``readable_by`` and then ask ``seen``: if the SQL
condition let through less than ``seen`` shows, a player would miss a result; if
more, nothing leaks (``seen`` still filters) but the page loads what it drops. So
the two must select the same rows, for every viewer: the public, each player, a
stranger to the game, a Master. The games are every scenario of the rulebooks'
examples (tests/scenarios) played through their ruleset, each event stored
published or not in turn; and a few events to names that JSON and SQL quote
(accents, apostrophes, double quotes, LIKE's wildcards).
"""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
import yaml
from sqlalchemy import select

from engine.core import MASTER, PRIVATE, PUBLIC, Event, Phase, Rejected, phase_rng, setup_rng
from engine.interface import Viewer
from engine.registry import get_ruleset
from pbm import visibility
from pbm.db import transaction
from pbm.models import EventRow, Game

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
NOW = datetime(2026, 11, 24, 8, 30, tzinfo=timezone.utc)
QUOTED = ["Nicolò", "D'Annunzio", 'Il "Rosso"', "50%_e_più", "Zoë Ñ"]


def played(data: dict[str, Any]) -> tuple[list[str], list[Event]]:
    """Every event of a scenario's game (set-up included), played as the scenario runner
    plays it (engine/scenario.py) but without checking its expectations."""
    ruleset = get_ruleset(data["ruleset"])
    seed = int(data.get("seed", 0))
    seating = [(str(n), str(r)) for n, r in (data.get("players") or {}).items()]
    state, events = ruleset.setup(seating, setup_rng(seed), dict(data.get("setup") or {}))
    events = list(events)
    for step in data.get("steps") or []:
        if state.over:
            break
        accepted = []
        for name, submission in (step.get("act") or {}).items():
            try:
                for action in ruleset.actions(str(name), submission or {}):
                    accepted.append(ruleset.validate(state, action))
            except (Rejected, ValueError, KeyError):
                continue
        try:
            res = ruleset.resolve(state, accepted, phase_rng(seed, Phase(state.phase.kind, state.phase.number)),
                                  step.get("gm") or {})
        except Exception:  # a scenario about a refusal or a pending answer: the game so far
            break
        events += res.events
        state = res.state
    return [n for n, _r in seating], events


def games_by_ruleset() -> dict[str, tuple[set[str], list[Event]]]:
    out: dict[str, tuple[set[str], list[Event]]] = {}
    for path in sorted(SCENARIOS.glob("*/*.yaml")):
        data = yaml.safe_load(path.read_text())
        if not isinstance(data, dict) or "players" not in data:
            continue  # a game that plays its own kind of scenario (Complots' turns)
        names, events = played(data)
        players, all_events = out.setdefault(data["ruleset"], (set(), []))
        players.update(names)
        all_events += events
    return out


GAMES = games_by_ruleset()


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_sql_and_python_admit_the_same_events_for_every_viewer(factory, ruleset):
    players, events = GAMES[ruleset]
    assert any(e.visibility == PRIVATE for e in events) and any(e.visibility == PUBLIC for e in events)
    events = events + [
        Event("note", {"n": 1}, PRIVATE, [QUOTED[0], QUOTED[1]]),
        Event("note", {"n": 2}, PRIVATE, [QUOTED[2]]),
        Event("note", {"n": 3}, PRIVATE, [QUOTED[3], sorted(players)[0]]),
        Event("note", {"n": 4}, PRIVATE, []),
        Event("note", {"n": 5}, MASTER, [sorted(players)[0]]),
        Event("note", {"n": 6}, PUBLIC, [QUOTED[4]]),
    ]
    with transaction(factory) as s:
        game = Game(slug=f"vis-{ruleset}", name="Visibility", ruleset=ruleset, seed="s", created_at=NOW)
        s.add(game)
        s.flush()
        for seq, e in enumerate(events):
            s.add(EventRow(game_id=game.id, phase_id=None, seq=seq, kind=e.kind, data=e.data,
                           visibility=e.visibility, recipients=list(e.to), published=seq % 3 != 0))
        game_id = game.id
    viewers = [Viewer(), Viewer(master=True), Viewer(player="Nessuno"), Viewer(player="nicolò"),
               Viewer(player="50%"), *(Viewer(player=p) for p in sorted(players) + QUOTED)]
    with factory() as s:
        rows = s.scalars(select(EventRow).where(EventRow.game_id == game_id)).all()
        for viewer in viewers:
            by_sql = set(s.scalars(select(EventRow.id).where(EventRow.game_id == game_id,
                                                              visibility.readable_by(viewer))))
            by_python = {r.id for r in rows if visibility.seen([r], viewer, ruleset, "it")}
            assert by_sql == by_python, viewer
        # Not vacuous: every kind of viewer sees some rows and misses others.
        for viewer in (Viewer(), Viewer(player=sorted(players)[0]), Viewer(player=QUOTED[2])):
            seen = {r.id for r in rows if visibility.seen([r], viewer, ruleset, "it")}
            assert 0 < len(seen) < len(rows), viewer
