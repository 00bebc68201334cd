"""Every role of every game has its card (issue 31, Major 2): what it does, when, its form
and a mail line written with players of the game, what it knows, in both languages,
read as a person reads it (no internal text, no sentence of the other language, no
word that takes the reader's gender), and every mail line it suggests reads as a command
of that game."""
from __future__ import annotations

import pytest

from engine.registry import get_ruleset
from pbm.mail.reading.commands import parse_commands
from tests.support import wording

PLAYERS = ["Ottavia", "Pietro", "Quirino", "Rebecca"]
# The four games of the service (engine/registry.py); a test's own ruleset may join them.
RULESETS = ["complots", "lupus-live-12", "lupus-noctis", "tempo-reale-7"]


def _cards(key: str, lang: str):
    rules = get_ruleset(key)
    roles = rules.card_roles()
    assert roles, f"{key} lists no roles to write cards for"
    return [(role, rules.role_card(role, lang, PLAYERS)) for role in roles]


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("key", RULESETS)
def test_every_role_has_its_card(key, lang):
    missing = [role for role, card in _cards(key, lang) if card is None]
    assert not missing, f"{key}: roles without a card in {lang}: {missing}"
    for role, card in _cards(key, lang):
        for part in ("name", "side", "does", "when", "form", "knows"):
            assert getattr(card, part).strip(), f"{key} {role} ({lang}): no {part}"


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("key", RULESETS)
def test_cards_read_as_a_person_reads_them(key, lang):
    found = []
    for role, card in _cards(key, lang):
        for text in (card.name, card.side, card.does, card.when, card.form, card.knows, *card.mail):
            found += [f"{role}: {p}" for p in wording.problems(text, lang)]
            if lang == "it":
                found += [f"{role}: addresses a gender: {g!r} in {text!r}" for g in wording.gendered(text)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("key", RULESETS)
def test_a_cards_mail_lines_are_commands_of_its_game_with_its_players(key, lang):
    for role, card in _cards(key, lang):
        for line in card.mail:
            commands, errors, _ = parse_commands(line, PLAYERS, key)
            assert commands and not errors, f"{key} {role}: {line!r} reads as {commands} {errors}"
            named = [w for w in line.replace(",", " ").split() if w[:1].isupper() and w.istitle()]
            assert not set(named) & {"Anna", "Bruno", "Carla", "Dario", "Elena"}, \
                f"{key} {role}: {line!r} names a player who is not in the game"


def test_the_cards_tell_what_the_rulebooks_say_of_timing():
    """Spot checks against the rulebooks: killing waits for the second night, the
    Missile's three nights, the Profeta once."""
    live = get_ruleset("lupus-live-12")
    assert "seconda" in live.role_card("Lupo Mannaro", "it", PLAYERS).when
    assert "quarta" in live.role_card("Missile", "it", PLAYERS).when
    assert "Una volta in tutta la partita" in live.role_card("Profeta", "it", PLAYERS).when
    tr7 = get_ruleset("tempo-reale-7")
    assert "seconda" in tr7.role_card("Assassino", "it", PLAYERS).when
    assert "Ipnotisti" in tr7.role_card("Medium", "it", PLAYERS).knows
    assert get_ruleset("complots").card_roles() and "Esame" not in " ".join(
        get_ruleset("complots").role_card(c, "it", PLAYERS).form for c in ("Duchessa", "Capitano"))


def test_the_gender_check_can_fail():
    assert wording.gendered("Ciao Anna, sei iscritto alla partita.") == ["sei iscritto"]
    assert wording.gendered("Da morta partecipi ai rituali.") == ["Da morta"]
    assert wording.gendered("Sei in gioco: dopo la morte partecipi ai rituali.") == []
