"""`pbm scenario run PATH...`: play scenario files and print PASS/FAIL per file."""
from __future__ import annotations

import argparse
from pathlib import Path

import yaml

from engine.scenario import run_scenario


def scenario_files(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml"))
        else:
            files.append(path)
    return files


def run_file(path: Path) -> tuple[bool, str]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        return False, f"cannot read: {exc}"
    outcome = run_scenario(data)
    return outcome.passed, outcome.summary()


def _run(args: argparse.Namespace) -> int:
    files = scenario_files(args.paths)
    if not files:
        print("no scenario files found")
        return 1
    failed = 0
    for path in files:
        ok, why = run_file(path)
        if ok:
            print(f"PASS {path}")
        else:
            failed += 1
            print(f"FAIL {path}: {why}")
    return 1 if failed else 0


def register(subparsers: argparse._SubParsersAction) -> None:
    scenario = subparsers.add_parser("scenario", help="rule scenarios (docs/scenarios.md)")
    sub = scenario.add_subparsers(dest="scenario_command", required=True)
    run = sub.add_parser("run", help="run scenario files or folders")
    run.add_argument("paths", nargs="+")
    run.set_defaults(func=_run)
