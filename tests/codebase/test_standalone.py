"""The repository stands alone (issue 36): a clone runs its whole suite with nothing
beside it. No test reads a path of one machine; what comes from outside the repository
(../shared) is read only through tests/support/external.py, as extra checks that say so
when they are skipped; the docs and tests cite the rulebooks by title and edition, and
the scenario format by the project's own page."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve()
EXTERNAL = ROOT / "tests" / "support" / "external.py"


def python_files(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py") if p != HERE)


def text_files(*folders: str) -> list[Path]:
    suffixes = (".py", ".md", ".yaml", ".html", ".txt")
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*")
                  if p.suffix in suffixes and p != HERE and "data" not in p.relative_to(ROOT).parts)


def holding(pattern: str, files: list[Path]) -> list[str]:
    found = re.compile(pattern)
    return [str(p.relative_to(ROOT)) for p in files if found.search(p.read_text(encoding="utf-8", errors="replace"))]


def test_no_test_names_a_path_of_one_machine():
    assert holding(r"[\"']/(work|home|root|srv|Users)/", python_files("tests", "bench", "faults")) == []


def test_only_the_extra_checks_module_knows_where_shared_is():
    # A path built to ../shared ("shared" / ..., "../shared") anywhere but external.py.
    readers = holding(r"[\"']shared[\"']\s*/|[\"']\.\./shared|/shared/email-corpus[\"']",
                      python_files("tests", "bench", "faults"))
    assert readers == []
    assert "PBM_SHARED" in EXTERNAL.read_text(encoding="utf-8")


def test_rulebooks_are_cited_by_title_not_by_file():
    files = text_files("docs", "tests") + [ROOT / "README.md"]
    rulebook_files = r"(?<![\w-])(lupus-live-12-personaggi|lupus-live-12-principale|lupus-tempo-reale-7|" \
                     r"lupus-noctis|complots)\.md|shared/rules"
    assert holding(rulebook_files, files) == []
    assert holding(r"(?<![\w/])SCENARIOS\.md|ARCHITECTURE\.md", files) == []


def test_a_skipped_extra_check_is_said_at_the_end_of_the_run(tmp_path):
    """Without ../shared the extra checks are skipped, and the run's summary says how
    many, where they are, and what was missing."""
    env = {**os.environ, "PBM_SHARED": str(tmp_path / "nowhere")}
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                          "tests/mail/test_parse_property.py::test_mutated_corpus_messages"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    summary = run.stdout[run.stdout.index("extra checks skipped"):]
    assert "nowhere/email-corpus not found" in summary
    assert "tests/mail/test_parse_property.py: 1" in summary
    assert "1 skipped" in summary
