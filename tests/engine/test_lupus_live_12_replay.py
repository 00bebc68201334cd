"""A phase replayed from its seed gives the same events and state, in any process.

The service replays and previews phases from stored seeds (docs/service.md, a boundary), so
nothing may depend on set iteration order (which changes with PYTHONHASHSEED).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import hashlib, json, random
from engine.lupus_live_12.autoplay import play_phase, random_game
h = hashlib.sha256()
for seed in range(8):
    rng = random.Random(seed)
    state = random_game(rng, rng.randint(8, 24))
    for _ in range(20):
        if state.over:
            break
        res, _ = play_phase(state, rng, seed, groups=4)
        h.update(json.dumps([e.to_dict() for e in res.events], sort_keys=True).encode())
        h.update(json.dumps(res.state.to_dict(), sort_keys=True).encode())
        state = res.state
print(h.hexdigest())
"""


def _digest(hashseed: str) -> str:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_games_replay_identically_whatever_the_hash_seed() -> None:
    first = _digest("1")
    assert len(first) == 64
    assert _digest("2") == first
