"""The engine and the words players write must not drift apart (issue 11).

For every registered ruleset, games are played at random through forms() and
validate() only, and for every form a player is offered on the way:

- every field the form requires can be written in a mail command of the ruleset's
  vocabulary, in Italian and in English;
- the line written from a legal submission, in either language, is read back by the
  mail parser (with that ruleset's vocabulary) as the same submission, and the engine
  accepts it;
- every choice the engine offers or lists (rituals, powers, roles to become) has an
  Italian and an English name, and the web form offers it under a label.

A ritual, power or role added to an engine table without its words fails here; the
last test proves it by adding one.
"""
from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from engine.core import ActionForm, GameState, Rejected
from engine.interface import Keyword, Vocabulary
from engine.registry import available, get_ruleset
from pbm.mail.reading.commands import parse_commands

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo", "Luca", "Marta",
         "Nadia", "Oscar", "Paolo", "Rita", "Sara", "Tino", "Ugo", "Vera", "Walter", "Zoe",
         "Alba", "Bice", "Ciro", "Dora", "Ezio", "Febo", "Gaia", "Ines", "Leone", "Mirta",
         "Nora", "Otto", "Pia", "Remo", "Sole", "Teo"]
LANGS = ("it", "en")


# --------------------------------------------------------------------------- random play

def _seating(key: str, rng: random.Random) -> list[tuple[str, str]]:
    """Every role the ruleset deals, once (so every power and form can appear); a game
    without roles (its set-up deals cards) seats as many as it takes."""
    rules = get_ruleset(key)
    roles = [r.name for r in rules.roles() if r.notes.get("dealt", True)]
    if not roles:
        return [(n, "") for n in NAMES[:min(rules.max_players, 4)]]
    rng.shuffle(roles)
    return list(zip(NAMES, roles))


def _fill(key: str, form: ActionForm, rng: random.Random) -> dict[str, Any] | None:
    """A random submission of the form, with only the choices it offers (and, as the
    page does, without the fields the ruleset hides for the other choices made)."""
    rules = get_ruleset(key)
    out: dict[str, Any] = {}
    for f in form.fields:
        when = rules.shown_when(form, f.name)
        if any(out.get(other) not in values for other, values in when.items()):
            continue
        choices = list(f.choices)
        if f.depends:
            (controller, table), = f.depends.items()
            choices = list(table.get(out.get(controller), choices))
        if not f.required and rng.random() < 0.5:
            continue
        if f.type in ("player", "choice"):
            if not choices:
                if f.required:
                    return None
                continue
            out[f.name] = rng.choice(choices)
        elif f.type == "players":
            low = max(f.min or 0, 1 if f.required else 0)
            high = min(f.max or len(choices), len(choices))
            if low > high:
                return None
            out[f.name] = rng.sample(choices, rng.randint(low, high))
        elif f.type == "int":
            low = f.min if f.min is not None else 1
            out[f.name] = rng.randint(low, max(low, min(f.max or low + 3, low + 3)))
        else:
            out[f.name] = "ciao a tutti"
    return out


def _accepted(key: str, state: GameState, player: str, submission: dict[str, Any]) -> bool:
    rules = get_ruleset(key)
    try:
        for action in rules.actions(player, submission):
            rules.validate(state, action)
    except (Rejected, ValueError, KeyError):
        return False
    return True


def played(key: str, seeds=range(4), phases: int = 14):
    """(state, player, form, legal submission) for every form offered in random games."""
    rules = get_ruleset(key)
    for seed in seeds:
        rng = random.Random(seed)
        state, _ = rules.setup(_seating(key, rng), random.Random(seed), {})
        for _ in range(phases):
            if state.over:
                break
            actions = []
            for p in state.players:
                for form in rules.forms(state, p.name):
                    submission = _fill(key, form, rng)
                    if submission is not None:  # as the page sends it (form_submission)
                        submission = rules.form_submission(form, submission)
                    if submission is None or not _accepted(key, state, p.name, submission):
                        yield state, p.name, form, None
                        continue
                    yield state, p.name, form, submission
                    actions.extend(rules.actions(p.name, submission))
            state = rules.resolve(state, actions, rng).state


# --------------------------------------------------------------------------- writing a line

def _main_keyword(vocab: Vocabulary, form: ActionForm,
                  submission: dict[str, Any] | None = None) -> Keyword | None:
    """The command for a form: the one filling its first field (a ritual form's ritual,
    a power form's target); in a vocabulary of words that imply their arguments
    (``fixed``: ``PASSO`` is an answer "pass"), the word for this form and submission."""
    implied = [k for k in vocab.keywords if not k.verb and k.fixed.get("kind") == form.kind]
    if implied:
        fitting = [k for k in implied if all(
            key == "kind" or (submission or {}).get(key) == value for key, value in k.fixed.items())]
        if submission is None:
            return implied[0]
        # The word that says most of the submission (COLPO Bruno rather than nothing).
        return max(fitting, key=lambda k: len(_covered(k) & set(submission)), default=None)
    for f in form.fields:
        k = next((k for k in vocab.keywords if not k.verb and k.key == f.name), None)
        if k is not None:
            return k
    return None


def _covered(k: Keyword) -> set[str]:
    """The submission keys a command line of this keyword can carry."""
    return {*([k.key] if k.value != "none" else []), *k.slots, *([k.number] if k.number else []),
            *(p.key for p in k.parts), *k.fixed}


def _names(values: Any) -> str:
    return ", ".join(values) if isinstance(values, list) else str(values)


def write_line(vocab: Vocabulary, k: Keyword, submission: dict[str, Any], lang: str) -> str:
    """The command line a player writes for ``submission``, in ``lang``'s words."""
    words = k.it if lang == "it" else k.en
    if k.value == "none":
        main = ""
    elif k.key not in submission and k.fixed:  # the word alone ('BLOCCO')
        main = ""
    elif k.value == "choices":
        main = " ".join(vocab.choice_name(k.key, v, lang) for v in submission[k.key])
    elif k.value == "choice":
        main = vocab.choice_name(k.key, submission[k.key], lang)
        if k.number and submission.get(k.number) is not None:
            main += f" {submission[k.number]}"
    elif k.value == "names" and k.slots:
        main = ", ".join(submission[s] for s in k.slots if s in submission)
    else:
        main = _names(submission[k.key])
    line = f"{words[0]} {main}".strip()
    for part in k.parts:
        value = submission.get(part.key)
        if value in (None, "", []):
            continue
        marker = (part.it if lang == "it" else part.en)[0]
        shown = vocab.choice_name(part.key, value, lang) if part.value == "choice" else _names(value)
        line += f" {marker} {shown}"
    return line


def _without_empty(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v not in (None, "", [])}


# --------------------------------------------------------------------------- the checks

def drift(key: str) -> list[str]:
    """Every way the engine of ``key`` and its words disagree (empty: none)."""
    rules = get_ruleset(key)
    vocab = rules.vocabulary()
    problems: list[str] = []
    kinds: set[str] = set()
    offered: dict[str, set[str]] = {}
    checked = 0
    for state, player, form, submission in played(key):
        kinds.add(form.kind)
        for f in form.fields:
            if f.type == "choice":
                offered.setdefault(f.name, set()).update(f.choices)
        k = _main_keyword(vocab, form, submission)
        if k is None and submission is not None and _main_keyword(vocab, form) is not None:
            problems.append(f"{key}: no word for the {form.kind} submission {submission}")
            continue
        if k is None:
            problems.append(f"{key}: no keyword for the form {form.kind} ({[f.name for f in form.fields]})")
            continue
        for lang in LANGS:
            if not (k.it if lang == "it" else k.en):
                problems.append(f"{key}: the {k.key} command has no {lang} word")
        required = {f.name for f in form.fields if f.required} - _covered(k)
        if required:
            problems.append(f"{key}: the {form.kind} form's {sorted(required)} cannot be written in mail")
        if submission is None:
            continue
        wanted = _without_empty({f: v for f, v in submission.items() if f in _covered(k)})
        if not wanted or not _accepted(key, state, player, wanted):
            # Only optional fields, all left empty; or the submission needs an optional
            # field mail writes another way (the Satanista drop-down is one more name in CON).
            continue
        for lang in LANGS:
            line = write_line(vocab, k, wanted, lang)
            commands, errors, ignored = parse_commands(line, list(state.names()), key)
            got = _without_empty(commands[0]) if len(commands) == 1 else None
            if errors or ignored or got != wanted:
                problems.append(f"{key}: {line!r} read as {commands} {errors} {ignored}, not {wanted}")
            elif not _accepted(key, state, player, commands[0]):
                problems.append(f"{key}: {line!r} read as {commands[0]}, which the engine refuses"
                                f" (the form sent {submission})")
            checked += 1
    # Every choice the engine offers, or lists in its own tables, is named in both
    # languages and read back from either name.
    for field, values in offered.items():
        for value in sorted(values | set(vocab.canonical_values(field))):
            for lang in LANGS:
                if lang not in (vocab.names.get(field) or {}).get(value, {}):
                    problems.append(f"{key}: the {field} {value!r} has no {lang} name")
    if not checked:
        problems.append(f"{key}: no form was ever filled in (nothing was checked)")
    return sorted(set(problems))


@pytest.mark.parametrize("key", available())
def test_every_form_of_the_engine_can_be_written_in_mail_in_both_languages(key):
    assert drift(key) == []


@pytest.mark.parametrize("key", available())
def test_the_random_games_reach_every_kind_of_form(key):
    # So that the drift check above is not vacuous: the games meet the forms of the
    # night and of the day (a vote, a power at least), and fill them in.
    met = [(form.kind, submission is not None) for _, _, form, submission in played(key)]
    assert len({kind for kind, _ in met}) >= 2, met
    assert sum(filled for _, filled in met) >= 50


@pytest.mark.parametrize("key", available())
def test_the_web_form_offers_every_choice_under_its_name(key, app):
    from pbm.web.player import build_form
    rules = get_ruleset(key)
    seen = 0
    with app.test_request_context("/"):
        for state, _player, form, _ in played(key, seeds=range(1), phases=8):
            built = build_form(form, ruleset=key, state=state)
            for f in form.fields:
                if f.type not in ("choice", "player", "players"):
                    continue
                shown = {c.value: c.label for c in getattr(built, f.name).choices}
                for value in f.choices:
                    # Players read as their names only (a label must never tell a role);
                    # other choices as the ruleset names them, the rulebook's name readable.
                    wanted = value if f.type != "choice" else rules.describe_choice(f.name, value, "it")
                    assert shown.get(value) == wanted, (key, f.name, value)
                    # The engine's own value shows, or its name in the rulebook's language.
                    assert value in shown[value] or rules.vocabulary().choice_name(
                        f.name, value, "it") in shown[value], (key, f.name, value)
                    seen += 1
    assert seen, f"{key}: no form field was ever built"


def test_a_ritual_added_without_its_words_is_caught(monkeypatch):
    from engine.lupus_live_12 import rituals
    from engine.lupus_live_12.roles import ALIVE
    monkeypatch.setitem(rituals.RITUALS, "Sacrificio", rituals.Ritual("Sacrificio", 3, ALIVE))
    problems = drift("lupus-live-12")
    assert any("'Sacrificio' has no en name" in p for p in problems), problems


def test_a_power_added_without_its_words_is_caught(monkeypatch):
    from engine.tempo_reale_7 import roles
    monkeypatch.setitem(roles.POWERS, "Fulmine", roles.Power("Fulmine", roles.ALIVE))
    problems = drift("tempo-reale-7")
    assert any("'Fulmine' has no en name" in p for p in problems), problems


# --------------------------------------------------------------------------- standing answers

def standing_drift(key: str) -> list[str]:
    """Every standing answer the ruleset offers (the game page's checkboxes) must be
    set and taken back by mail in both languages, and all of them taken back at once:
    the line written from the vocabulary is read back as exactly that change."""
    from engine.interface import STANDING
    rules = get_ruleset(key)
    vocab = rules.vocabulary()
    words = [k for k in vocab.keywords if k.fixed.get("kind") == STANDING]
    problems: list[str] = []

    def lines_for(answer: str | None, on: bool, lang: str) -> list[str]:
        out = []
        for k in words:
            if k.fixed.get("on") != on or not (k.it if lang == "it" else k.en):
                continue
            word = (k.it if lang == "it" else k.en)[0]
            if k.value == "none" and k.fixed.get("standing", "missing") == answer:
                out.append(word)
            elif k.value == "choice" and answer is not None and answer in (vocab.names.get(k.key) or {}):
                if lang in vocab.names[k.key][answer]:
                    out.append(f"{word} {vocab.choice_name(k.key, answer, lang)}")
        return out

    def reads_as(line: str, expected: dict[str, Any]) -> bool:
        commands, errors, ignored = parse_commands(line, ["Anna", "Bruno"], key)
        return not errors and not ignored and commands == [expected]

    for answer, label in rules.standing_answers():
        for lang in LANGS:
            if lang not in label:
                problems.append(f"{key}: the standing answer {answer!r} has no {lang} label")
            # The page's own label, copied into a mail, sets what the page's box does.
            elif not reads_as(label[lang], {"kind": STANDING, "on": True, "standing": answer}):
                problems.append(f"{key}: the page's label {label[lang]!r} is not read as {answer!r}")
            for on in (True, False):
                lines = lines_for(answer, on, lang)
                if not lines:
                    problems.append(f"{key}: no {lang} line {'sets' if on else 'clears'} {answer!r}")
                for line in lines:
                    if not reads_as(line, {"kind": STANDING, "on": on, "standing": answer}):
                        problems.append(f"{key}: {line!r} is not read as {answer!r} {on}")
    if rules.standing_answers():
        for lang in LANGS:
            lines = lines_for(None, False, lang)
            if not any(reads_as(line, {"kind": STANDING, "on": False, "standing": None}) for line in lines):
                problems.append(f"{key}: no {lang} line takes every standing answer back")
            listing = [(k.it if lang == "it" else k.en) for k in words if k.fixed.get("list")]
            if not any(reads_as(w[0], {"kind": STANDING, "on": True, "standing": None, "list": True})
                       for w in listing if w):
                problems.append(f"{key}: no {lang} line lists the standing answers")
    return problems


@pytest.mark.parametrize("key", available())
def test_every_standing_answer_can_be_set_and_cleared_by_mail_in_both_languages(key):
    assert standing_drift(key) == []


def test_the_standing_answers_are_checked_at_all():
    offered = [k for k in available() if get_ruleset(k).standing_answers()]
    assert offered, "no ruleset offers standing answers: the check above checked nothing"


def test_a_standing_answer_added_without_its_words_is_caught(monkeypatch):
    rules = get_ruleset("complots")
    offered = rules.standing_answers()
    monkeypatch.setattr(type(rules), "standing_answers", lambda self: offered + [
        ("block_always", {"it": "Blocco sempre", "en": "Always block"})])
    problems = standing_drift("complots")
    assert "complots: no it line sets 'block_always'" in problems
    assert "complots: no en line clears 'block_always'" in problems
    assert "complots: the page's label 'Blocco sempre' is not read as 'block_always'" in problems


def test_standing_answers_that_cannot_be_listed_by_mail_are_caught(monkeypatch):
    rules = get_ruleset("complots")
    vocab = rules.vocabulary()
    # The listing words in Italian only: the English reader could not list them.
    vocab.keywords[:] = [dataclasses.replace(k, en=()) if k.fixed.get("list") else k for k in vocab.keywords]
    monkeypatch.setattr(type(rules), "vocabulary", lambda self: vocab)
    assert standing_drift("complots") == ["complots: no en line lists the standing answers"]
