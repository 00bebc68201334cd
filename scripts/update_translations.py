"""Extract the messages and merge them into the Italian catalog.

Run after changing user-facing strings: `python scripts/update_translations.py`,
then translate the new empty entries in pbm/translations/it/LC_MESSAGES/messages.po
(tests/wording/test_i18n.py fails while any is missing).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POT = ROOT / "pbm" / "translations" / "messages.pot"
PO = ROOT / "pbm" / "translations" / "it" / "LC_MESSAGES" / "messages.po"


def main() -> int:
    pybabel = [sys.executable, "-m", "babel.messages.frontend"]
    subprocess.run(pybabel + ["extract", "-F", str(ROOT / "babel.cfg"), "-k", "_l", "-k", "lazy_gettext", "-k", "gettext_in:2",
                              "--ignore-dirs=.venv tests", "--no-location", "--sort-output",
                              "-o", str(POT), str(ROOT)], check=True, cwd=ROOT)
    if PO.exists():
        subprocess.run(pybabel + ["update", "-i", str(POT), "-o", str(PO), "-l", "it",
                                  "--no-fuzzy-matching", "--ignore-obsolete"], check=True)
    else:
        subprocess.run(pybabel + ["init", "-i", str(POT), "-o", str(PO), "-l", "it"], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
