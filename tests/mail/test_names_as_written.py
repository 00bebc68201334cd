"""Names as people write them (issue 32): first name, surname, both either way round, an
unambiguous start, with or without accents, one letter wrong when one player alone is that
close; a name that fits two players is asked about, never guessed."""
from __future__ import annotations

import pytest

from pbm.mail.reading.commands import parse_commands

PLAYERS = ["Alessandro Bianchi", "Alessia De Luca", "Lucia Verdi", "Giorgio Rossi", "Niccolò Galli",
           "Sara", "Maria Luisa Ferri", "Pier Paolo", "Piero"]


@pytest.mark.parametrize("written, meant", [
    ("Voto Bianchi", "Alessandro Bianchi"),
    ("voto bianchi", "Alessandro Bianchi"),
    ("Voto De Luca", "Alessia De Luca"),
    ("Voto de luca", "Alessia De Luca"),
    ("Voto Alessandro", "Alessandro Bianchi"),
    ("Voto Alessandro Bianchi", "Alessandro Bianchi"),
    ("Voto Bianchi Alessandro", "Alessandro Bianchi"),
    ("Voto Niccolo", "Niccolò Galli"),
    ("Voto NICCOLÒ GALLI", "Niccolò Galli"),
    ("Voto Galli, ha mentito", "Niccolò Galli"),
    ("Voto Alesandro", "Alessandro Bianchi"),      # one letter missing
    ("Voto Giorgoi", "Giorgio Rossi"),             # two letters swapped
    ("Voto Luica Verdi", "Lucia Verdi"),
    ("Voto Ferri", "Maria Luisa Ferri"),
    ("Voto Maria Luisa", "Maria Luisa Ferri"),
    ("Voto Gior", "Giorgio Rossi"),                # an unambiguous start
    ("Voto Sara", "Sara"),
])
def test_a_name_as_written_reads_as_its_player(written, meant):
    commands, errors, _ = parse_commands(written, PLAYERS, "lupus-live-12")
    assert (commands, errors) == ([{"vote": meant}], [])


@pytest.mark.parametrize("written, candidates", [
    ("Voto Ales", {"Alessandro Bianchi", "Alessia De Luca"}),   # the start of two
    ("Voto pier", {"Pier Paolo", "Piero"}),                     # a first name and another's start
])
def test_a_name_that_fits_two_players_is_asked_about(written, candidates):
    commands, errors, _ = parse_commands(written, PLAYERS, "lupus-live-12")
    assert commands == []
    assert [e["code"] for e in errors] == ["ambiguous_name"] and set(errors[0]["candidates"]) == candidates


@pytest.mark.parametrize("written", [
    "Voto Luca",       # not Alessia De Luca (a particle's word alone) nor Lucia (short: another name)
    "Voto Mario",      # one vowel from Maria: another person, never a slip
    "Voto Saro",
    "Voto Alessandra", # one letter from Alessandro, and also from nobody else: but the ending says who
])
def test_a_name_that_is_not_a_players_is_never_guessed(written):
    commands, errors, _ = parse_commands(written, PLAYERS + ["Maria"], "lupus-live-12")
    assert commands == [] and [e["code"] for e in errors] == ["unknown_name"], (commands, errors)


def test_a_slip_that_fits_two_players_is_asked_about():
    commands, errors, _ = parse_commands("Voto Marko", ["Marco", "Marta", "Mirko"], "lupus-live-12")
    assert commands == [] and errors[0]["code"] == "ambiguous_name"
    assert set(errors[0]["candidates"]) == {"Marco", "Mirko"}
