"""The wording scanner (issue 21): bot games of every ruleset, in Italian and in English,
read by every kind of visitor (anonymous, an outsider, another game's Master, each
player alive or dead, the game's Master or narrator, the table hearing the narrator)
on every page about the game and in every mail, checked by tests/support/wording.py:
no snake_case key, no dump of a submission, no True/False/None, no ISO time, no
unfilled placeholder, no sentence of the other language.

This is the quick version (a short game each, each viewer reading one seat's and one
phase's pages at each moment, in turn); faults/test_wording_scan_full.py plays whole
games and reads everything at every step (`make faults`)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from tests.support import wording

# Long enough for a moment to be resolved and published (and, in Lupus LIVE! 12, the
# Profeta's question to hold the night for the Masters): the whole games are in faults/.
QUICK_STEPS = {"lupus-live-12": 1, "tempo-reale-7": 1, "complots": 2, "lupus-noctis": 2}


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("ruleset", sorted(QUICK_STEPS))
def test_no_page_or_mail_shows_internal_text(tmp_path, ruleset, lang):
    scenario = replace(wording.GAMES[ruleset], lang=lang, max_steps=QUICK_STEPS[ruleset])
    found = wording.scan(scenario, tmp_path)
    assert not found.problems, found.report()
    # It read pages and mail, as every kind of viewer.
    assert found.read > 100 and (found.mails > 0 or scenario.at_table)
    assert {"anonymous", "outsider", "other_master", "master"} <= found.viewers
    assert set(scenario.players) <= found.viewers or scenario.at_table


# --------------------------------------------------------------------------- it can fail

PLANTED = {
    "a key from the code": "extend_window player: Bruno, phase: 9, old: 2026-11-27T02:34:11.085422+00:00",
    "a Python value": "Corruzione di Carla: False (attese 3/10, effettive 0)",
    "a sentence of the other language": "finché non si chiude.Going away? Tell the Masters: they decide "
                                        "whether to pause the game.",
    "an unworded date": "Fri, 27 Nov 2026 02:26:10 +0000",
    "an unfilled placeholder": "Ora: {phase_label}",
    "a dump of keys and values": "{'kind': 'vote', 'target': 'Anna'}",
    "a word that takes the reader's gender": "Ciao Anna, sei iscritto alla partita.",
    "a value of the other language": "La tua aura: white.",
    "an internal key": "Scelte valide: income, tax.",
    "nested parentheses": "Fase: notte 2 (termina il 24/11/2026 alle 21:00 (Europe/Rome)).",
}


def test_the_scan_finds_internal_text_on_a_page(tmp_path):
    """Lines of internal text added to the game's page, as seen on this service: the
    scan names each."""
    def tamper(app):
        home = app.view_functions["public.game_home"]

        def leaky(*args, **kwargs):
            response = app.make_response(home(*args, **kwargs))
            planted = "".join(f"<p>{line}</p>" for line in PLANTED.values())
            response.set_data(response.get_data(as_text=True).replace("</main>", planted + "</main>"))
            return response
        app.view_functions["public.game_home"] = leaky
    scenario = replace(wording.GAMES["complots"], max_steps=1)
    found = wording.scan(scenario, tmp_path, tamper=tamper)
    assert {p.what for _, _, _, p in found.problems} == set(PLANTED), found.report()


def test_the_checks_leave_the_services_own_words_alone():
    """What the pages rightly say: names, times worded, a ritual's name in braces."""
    for text, lang in [("lun 23 nov 2026, 10:00 Master Mara: ha messo in pausa la partita", "it"),
                       ("Riusciti finora: \\end{story} ancora possibile", "it"),
                       ("The Masters paused the game until Friday 27 November.", "en"),
                       ("Scrivi a lupus+tok_en@lupus.test o apri http://lupus.test/g/a_b/me", "it"),
                       ("Il Veggente ha visto Anna: ha l'aura nera.", "it"),
                       # reply tags are random tokens (they once read as English, or a key)
                       ("[Partita] Il tuo ruolo [lupus:At2tRrhP4TZa95TO]", "it"),
                       ("[Altra partita] Il tuo ruolo [lupus:l_0u-N5QimWupJwE]", "it")]:
        assert wording.problems(text, lang) == [], text
