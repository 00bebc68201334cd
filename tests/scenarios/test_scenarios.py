"""Every scenario file under tests/scenarios/ is a test (the format: docs/scenarios.md)."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbm.scenario_cli import run_file, scenario_files

ROOT = Path(__file__).parent
FILES = scenario_files([str(ROOT)])


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario(path: Path) -> None:
    ok, why = run_file(path)
    assert ok, why
