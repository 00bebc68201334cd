"""The Lupus Noctis scenarios (tests/scenarios/lupus-noctis), played through the offline
page's engine, give the same results as through the server (issue 35): the same
``engine`` package, zipped as the page fetches it (``narrator_offline.engine_zip``),
runs in Pyodide under Node (the npm distribution ``make offline-assets`` fetched)
and in this CPython; each file's outcome and the state after every step of every
seed, hashed canonically, must agree."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import yaml

from engine.table_book import canonical
from pbm.web import narrator_offline

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios" / "lupus-noctis"
PYODIDE = ROOT / "build" / "pyodide" / f"pyodide-{narrator_offline.PYODIDE_VERSION}"

# Run alike by both Pythons: each file's outcome and the states it went through.
TRACE = '''
import hashlib
from engine.registry import get_ruleset
from engine.scenario import run_scenario
from engine.scenario_format import Scenarios
from engine.table_book import canonical

def _steps(data):
    ruleset = get_ruleset(data["ruleset"])
    scenarios = ruleset.ability(Scenarios)
    seeds = list(range(int(data["seeds"]))) if "seeds" in data else [int(data.get("seed", 0))]
    out = []
    for seed in seeds:
        try:
            state = scenarios.start(ruleset, data, seed)
            for index, step in enumerate(data.get("steps") or []):
                if state.over:
                    break
                state = scenarios.play(ruleset, state, step, str(index), seed).state
                out.append(hashlib.sha256(canonical(state.to_dict()).encode()).hexdigest()[:16])
        except Exception as exc:
            out.append("error: " + type(exc).__name__)
    return out

def trace(files):
    result = {}
    for name, data in files.items():
        outcome = run_scenario(data)
        result[name] = {"passed": outcome.passed, "failures": outcome.failures, "steps": _steps(data)}
    return result
'''


def files() -> dict[str, dict]:
    return {p.name: yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(SCENARIOS.glob("*.yaml"))}


def in_pyodide(tmp_path: Path, scenario_files: dict[str, dict]) -> dict:
    node = shutil.which("node")
    assert node, "node is needed (make system-deps installs npm and node)"
    assert (PYODIDE / "pyodide.asm.wasm").is_file(), f"no Pyodide in {PYODIDE}: run `make offline-assets`"
    package = tmp_path / "engine.zip"
    package.write_bytes(narrator_offline.engine_zip()[0])
    job = json.dumps({"code": TRACE, "call": "trace", "args": [scenario_files]})
    done = subprocess.run([node, str(Path(__file__).with_name("run_in_pyodide.mjs")), str(PYODIDE), str(package)],
                          input=job, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def in_cpython(scenario_files: dict[str, dict]) -> dict:
    space: dict = {}
    exec(TRACE, space)  # the same code the Pyodide side runs
    return json.loads(canonical(space["trace"](scenario_files)))


def test_the_noctis_scenarios_play_alike_in_pyodide_and_on_the_server(tmp_path):
    scenario_files = files()
    assert len(scenario_files) >= 30, f"the Noctis scenarios are missing from {SCENARIOS}"
    server = in_cpython(scenario_files)
    phone = in_pyodide(tmp_path, scenario_files)
    assert sorted(phone) == sorted(server)
    differ = [name for name in server if phone[name] != server[name]]
    assert not differ, {name: (server[name], phone[name]) for name in differ[:3]}
    assert all(r["passed"] for r in server.values()), [n for n, r in server.items() if not r["passed"]]
    steps = [s for r in server.values() for s in r["steps"]]
    assert len(steps) > 100 and not any(s.startswith("error") for s in steps)  # states compared, not just verdicts
