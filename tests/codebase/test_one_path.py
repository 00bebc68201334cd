"""One path for each everyday question (issue 36), read from the source:

- a page's refusal is caught and said in one place, ``pbm/web/refusals.py``
  (``attempt``/``attempted``): no other page module catches a ``Rejected`` or the
  ``REFUSALS`` itself;
- the reader's language is asked in one place, ``pbm.i18n.request_lang``: only
  ``pbm/i18n.py`` asks Babel for the locale;
- one form carries a CSRF token and nothing else (``CsrfForm``);
- nothing in the engine or the service asks a ruleset for a method by name
  (``getattr``/``hasattr``): what only some games do is an ability.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "pbm" / "web"


def _sources(*folders: Path) -> list[Path]:
    return sorted(f for folder in folders for f in folder.rglob("*.py") if "migrations" not in f.parts)


def _caught(path: Path) -> set[str]:
    """The names of what ``path``'s ``except`` clauses catch."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ExceptHandler) and node.type is not None:
            kinds = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
            names |= {ast.unparse(k).rsplit(".", 1)[-1] for k in kinds}
    return names


def test_only_the_refusals_module_catches_a_refusal_of_the_rules_or_the_service():
    catching = {f.name for f in _sources(WEB) if f.name != "refusals.py"
                and _caught(f) & {"Rejected", "REFUSALS", "OperationError"}}
    assert catching == set()


def test_only_the_i18n_module_asks_babel_for_the_locale():
    asking = {str(f.relative_to(ROOT)) for f in _sources(ROOT / "pbm") if f.name != "i18n.py"
              and re.search(r"\bget_locale\b", f.read_text(encoding="utf-8"))}
    assert asking == set()


def _fieldless_forms() -> set[str]:
    out = set()
    for f in _sources(WEB):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.ClassDef) and any(ast.unparse(b) == "FlaskForm" for b in node.bases)
                    and not any(isinstance(s, (ast.Assign, ast.AnnAssign, ast.ClassDef)) for s in node.body)):
                out.add(node.name)
    return out


def test_one_form_carries_a_csrf_token_and_nothing_else():
    assert _fieldless_forms() == {"CsrfForm"}


def test_nothing_asks_a_ruleset_for_a_method_by_name():
    asking = [f"{f.relative_to(ROOT)}:{i}" for f in _sources(ROOT / "pbm", ROOT / "engine")
              for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
              if re.search(r"\b(getattr|hasattr)\(\s*[\w.]*ruleset\b", line)]
    assert asking == []
