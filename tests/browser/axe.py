"""axe-core (the npm package) run inside the page: accessibility checks of real pages.

The package is installed with npm into the virtualenv (``.venv/axe``) the first time
it is needed; ``scripts/install-system-deps.sh`` installs npm itself when missing.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

AXE_DIR = Path(sys.prefix) / "axe"
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
AXE_VERSION = "axe-core@4"
# What must never be on a page; "moderate" and "minor" findings are reported by axe too.
BLOCKING = ("serious", "critical")


def axe_source() -> str:
    if not AXE_JS.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("npm is missing: run scripts/install-system-deps.sh")
        subprocess.run([npm, "install", "--prefix", str(AXE_DIR), "--no-audit", "--no-fund",
                        "--silent", AXE_VERSION], check=True, timeout=300)
    return AXE_JS.read_text(encoding="utf-8")


def violations(page, source: str) -> list[str]:
    """The serious and critical violations of the page as loaded, one line each."""
    # Evaluated through the browser's debugging protocol, not as a <script> tag: the
    # site's CSP (script-src 'self') rightly refuses an inline script, and the pages
    # must be checked under the policy they are really served with.
    page.evaluate(source + "\n;true")
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            + "; ".join(" ".join(n["target"]) for n in v["nodes"][:5])
            for v in result["violations"] if v["impact"] in BLOCKING]
