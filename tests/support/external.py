"""Data some tests check against from outside the repository, and how they say it is missing.

The repository holds all the suite needs (tests/data/: mail written for this project).
Beside a checkout there may also be a folder ``shared/`` (or the folder ``PBM_SHARED``
names) holding an independent corpus of real mail from public projects,
``shared/email-corpus``, each file with its origin and licence in its MANIFEST: read in
place, never copied here. The tests that read it are *extra checks*, marked
``extra_check``: they run when it is there; when it is not, each is skipped with the
reason, and the end of the run says, in its own section, how many were skipped and why
(tests/conftest.py). Nothing they check goes unchecked without them: the in-repository
data covers the same behaviour.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("PBM_SHARED") or ROOT.parent / "shared")
EMAIL_CORPUS = SHARED / "email-corpus"

# The words every skip of an extra check starts with; the run's summary counts them.
SKIPPED = "extra check skipped:"


def extra_check(folder: Path) -> pytest.MarkDecorator:
    """Mark a test (or one parameter) that checks against ``folder`` outside the repository."""
    return pytest.mark.extra_check(folder=str(folder))


def shown(folder: Path | str) -> str:
    """``folder`` as a reader of the summary knows it: beside the checkout when it is."""
    folder = Path(folder)
    try:
        return "../" + str(folder.resolve().relative_to(ROOT.parent.resolve()))
    except ValueError:
        return str(folder)


def missing(folder: Path | str) -> str | None:
    """The skip's reason when ``folder`` is absent, else None."""
    if Path(folder).is_dir():
        return None
    return f"{SKIPPED} {shown(folder)} not found (set PBM_SHARED to the folder that holds email-corpus)"


def params(values: list[Any], folder: Path, ids: list[str] | None = None, arity: int = 1) -> list[Any]:
    """``values`` (tuples when ``arity`` > 1) as parameters of an extra check on ``folder``;
    when the folder is absent and they cannot be listed, one parameter that is skipped, so
    that the run says so rather than collecting nothing."""
    mark = extra_check(folder)
    if not values:
        return [pytest.param(*([None] * arity), marks=mark, id="absent")]
    return [pytest.param(*(v if arity > 1 else (v,)), marks=mark, id=ids[i] if ids else None)
            for i, v in enumerate(values)]
