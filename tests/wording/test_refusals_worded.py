"""Every refusal that can reach a user is worded, in Italian and in English: the codes
are read from the code that raises them, never listed here by hand.

The service's: every ``OperationError``, ``AccountError``, ``TokenError`` and
``Rejected`` raised anywhere in ``pbm/`` (a code built at run time is expanded from
where it comes from, and a new kind of built code fails until this test is taught
it). The rules': every ``Rejected`` raised in ``engine/``, for each ruleset that can
raise it (its own package and the shared modules). Each is worded by
``pbm.errors`` as a page or a mail would word it, and must read neither as the
general sentence for unworded codes nor the same in both languages (a missing
Italian translation reads as the English msgid).
"""
from __future__ import annotations

import ast
import logging
import re
from pathlib import Path

import pytest

from engine.core import Rejected
from engine.registry import available, get_ruleset, ruleset_module
from pbm import errors
from pbm.accounts import AccountError
from pbm.operations import OperationError
from pbm.accounts.tokens import TokenError

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = {"OperationError": OperationError, "AccountError": AccountError, "TokenError": TokenError,
            "Rejected": Rejected}
# The general sentence of a code worded nowhere (pbm/errors.py).
GENERAL = {"it": "Questo non si può fare.", "en": "This cannot be done."}
# Engine codes that never reach a user as they are: the desk turns an unknown remedy
# into OperationError("unknown_action") (pbm/operations/desk.py), which is checked.
CONVERTED = {"unknown_remedy"}
# The rules' refusals: a Rejected raised, and a Refusal returned (a post to a room or a
# whisper refused, engine/rooms.py), both worded by the ruleset's REJECTIONS.
ENGINE_FAMILIES = {"Rejected", "Refusal"}


def _raised(path: Path, families: object = FAMILIES) -> list[tuple[str, ast.expr]]:
    """(family, first argument) of every refusal of ``families`` constructed in ``path``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and node.args:
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in families:
                out.append((name, node.args[0]))
    return out


def _returned_strings(path: Path, function: str) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function)
    return {n.value.value for n in ast.walk(found)
            if isinstance(n, ast.Return) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)}


def _class_strings(path: Path, name: str) -> set[str]:
    """Every string a class in ``path`` gives its attribute ``name`` (``late = "..."``, or
    ``kind, page, late = ..., ..., "..."``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, (ast.Assign, ast.AnnAssign)):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            pairs = (list(zip(target.elts, node.value.elts))
                     if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                     else [(target, node.value)])
            found |= {v.value for t, v in pairs if isinstance(t, ast.Name) and t.id == name
                      and isinstance(v, ast.Constant) and isinstance(v.value, str)}
    return found


def _constructed(path: Path, family: str) -> set[str]:
    return {code for _fam, arg in _raised(path, {family}) for code in _literal(arg) or ()}


def _built(path: Path, family: str, arg: ast.expr) -> set[tuple[str, str]]:
    """The codes of a refusal whose code is built at run time, from where they come."""
    source = f"{path.relative_to(ROOT)}: {family}({ast.unparse(arg)})"
    if source in ("pbm/operations/signups.py: OperationError(closed)", "pbm/web/join.py: OperationError(closed)"):
        return {(family, code) for code in _returned_strings(ROOT / "pbm" / "operations" / "signups.py", "why_closed")}
    if source == "pbm/operations/table.py: OperationError('photo_' + exc.code)":
        return {(family, f"photo_{code}") for code in _constructed(ROOT / "pbm" / "photos.py", "PhotoError")}
    if source == "pbm/operations/table.py: OperationError(exc.code)":
        # A tap refused by the engine's checks (engine/table_book.py, which the phone runs
        # offline too): its own codes are the service's.
        return {(family, code) for code in _constructed(ROOT / "engine" / "table_book.py", "Refused")}
    if source == "pbm/operations/table.py: Rejected(exc.code)":
        return set()  # the ruleset's own refusal of a tapped choice: the engine's codes, checked below
    if source == "pbm/operations/desk.py: OperationError(exc.code)":
        return set()  # a remedy's refusal, passed on: the engine's codes, checked below
    if source == "pbm/operations/actions.py: Rejected(moments(game).late)":
        return {(family, code) for code in _class_strings(ROOT / "pbm" / "operations" / "timing.py", "late")}
    if source == "pbm/operations/signups.py: OperationError(problem)":
        from pbm import addresses  # why a typed address is refused (accounts.address_problem)
        return {(family, code) for code in addresses.PROBLEMS}
    if source in ("pbm/operations/rooms.py: Rejected(code)",
                  "pbm/operations/rooms.py: Rejected(why.code)"):
        # A room's refusal passed on: the engine's (its Refusal codes, checked below per
        # ruleset) or a Master's lock of the room.
        rooms = ROOT / "engine" / "rooms.py"
        return {(family, code) for code in _constructed(rooms, "Refusal") | {"room_locked"}}
    if source == "pbm/limits.py: Rejected(code)":
        return {(family, f"{key}_too_long") for key in _text_keys()} | {(family, "text_too_long")}
    raise AssertionError(f"a refusal with a code built at run time: teach this test its codes ({source})")


def _text_keys() -> set[str]:
    return {key for ruleset in available() for key in get_ruleset(ruleset).TEXT_LIMITS}


def _literal(arg: ast.expr) -> set[str] | None:
    """The codes of a literal, or of a choice between literals ("a" if ... else "b")."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return {arg.value}
    if isinstance(arg, ast.IfExp):
        body, orelse = _literal(arg.body), _literal(arg.orelse)
        return body | orelse if body is not None and orelse is not None else None
    return None


def service_codes() -> set[tuple[str, str]]:
    codes: set[tuple[str, str]] = set()
    for path in (ROOT / "pbm").rglob("*.py"):
        for family, arg in _raised(path):
            literal = _literal(arg)
            codes |= {(family, c) for c in literal} if literal is not None else _built(path, family, arg)
    return codes


def engine_codes(key: str) -> set[str]:
    """The codes the rules of ``key`` may refuse with: its package's and the shared modules'."""
    folder = Path(ruleset_module(key).__file__).parent
    paths = [*folder.glob("*.py"), *(ROOT / "engine").glob("*.py")]
    codes = {code for path in paths for _fam, arg in _raised(path, ENGINE_FAMILIES)
             for code in _literal(arg) or ()}
    return codes - CONVERTED


def _placeholders() -> set[str]:
    """Every name a sentence of the catalogues fills, so each can be given a value."""
    names = set()
    for msgid in [*errors.CATALOGUE.values(), *(m for page in errors.PAGES.values() for m in page.values())]:
        names |= set(re.findall(r"%\((\w+)\)s", msgid))
    for key in available():
        for entry in get_ruleset(key).REJECTIONS.values():
            for text in entry.values():
                names |= set(re.findall(r"\{(\w+)", text))
    return names


PARAMS = dict.fromkeys(_placeholders(), "7")


def _check(worded: dict[str, str], what: str) -> None:
    for lang, text in worded.items():
        assert text != GENERAL[lang], f"{what} is not worded in {lang}"
        assert "%(" not in text and "{" not in text, f"{what} in {lang} leaves a placeholder: {text}"
    assert worded["it"] != worded["en"], f"{what} has no Italian: {worded['it']}"


def test_the_search_finds_the_codes():
    """The readers of the code above find what is there (else the test would pass on nothing)."""
    codes = service_codes()
    families = {family for family, _code in codes}
    assert families == set(FAMILIES), families
    assert ("OperationError", "full") in codes  # why_closed's, built at run time
    assert ("OperationError", "photo_not_an_image") in codes
    assert ("Rejected", "shout_too_long") in codes
    assert ("AccountError", "login_blocked") in codes and ("TokenError", "used") in codes
    assert len(codes) >= 70
    assert {"not_a_player", "game_over"} <= engine_codes("complots")
    assert {"room_night_silence", "whisper_out"} <= engine_codes("tempo-reale-7")


@pytest.mark.parametrize("family,code", sorted(service_codes()))
def test_every_refusal_of_the_service_is_worded_in_both_languages(family, code, caplog):
    exc = FAMILIES[family](code) if family == "TokenError" else FAMILIES[family](code, **PARAMS)
    with caplog.at_level(logging.WARNING, logger="pbm.errors"):
        # A service's Rejected may be a code the rules word (``not_now``): as a player's
        # page says it, for every game.
        for ruleset in (available() if family == "Rejected" else [None]):
            _check({lang: errors.refusal(exc, lang, ruleset=ruleset) for lang in ("it", "en")},
                   f"{family}({code!r}) in {ruleset or 'any game'}")
    assert not caplog.records


@pytest.mark.parametrize("key", available())
def test_every_refusal_of_the_rules_is_worded_in_both_languages(key):
    for code in sorted(engine_codes(key)):
        _check({lang: errors.refusal(Rejected(code, **PARAMS), lang, ruleset=key) for lang in ("it", "en")},
               f"Rejected({code!r}) of {key}")


@pytest.mark.parametrize("page,codes", sorted(errors.PAGES.items()))
def test_a_page_of_its_own_words_only_codes_the_catalogue_knows(page, codes):
    """A page's wording of a code is a variant: the code has a general one for every
    other page, and the variant is translated too."""
    for code in codes:
        assert code in errors.CATALOGUE, (page, code)
        _check({lang: errors.say(code, PARAMS, lang, page=page) for lang in ("it", "en")}, f"{code} on {page}")


def test_an_unknown_code_reads_as_a_general_sentence_in_the_readers_language_and_is_logged(caplog):
    with caplog.at_level(logging.WARNING, logger="pbm.errors"):
        italian = errors.refusal(OperationError("brand_new_refusal", name="Anna"), "it", ruleset="lupus-live-12")
        english = errors.refusal(Rejected("brand_new_rule"), "en", ruleset="complots")
    assert (italian, english) == (GENERAL["it"], GENERAL["en"])
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert "brand_new_refusal" in logged and "brand_new_rule" in logged
