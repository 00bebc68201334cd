"""Replies generated from the vocabulary (issue 32), as a property: every command form x
every way of writing a name x prose before and after x the shape of a mail client, and
every one reads as its command; the same words made into lines that are not commands
(a past, a question, a condition, somebody else's words, a negation) never read as one.

The command forms are each ruleset's own words (its ``vocabulary()``), and the verbs'
other persons are made here by the rule of the Italian present (1st person plural in
-iamo, "-chiamo"/"-ghiamo" after c and g) and English "-ing", never by the reader's code.
Every mail quotes the service's bulletin with a decoy command in it, which never counts.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.lupus_live_12 import vocabulary as live_words
from engine.registry import get_ruleset
from engine.tempo_reale_7 import vocabulary as tempo_words
from pbm.mail.reading.parse import parse_message
from tests.support.client_shapes import SHAPES
from tests.support.client_shapes import client_mail as shaped

PLAYERS = ["Alessandro Bianchi", "Alessia De Luca", "Lucia Verdi", "Giorgio Rossi", "Niccolò Galli",
           "Sara Conti"]
DECOY = "Sara Conti"  # only ever in the quoted bulletin
TARGETS = [p for p in PLAYERS if p != DECOY]
RULESETS = ("lupus-live-12", "tempo-reale-7", "complots")
NAME_KEYS = ("vote", "target", "appoint", "elect")


def name_forms(player: str) -> list[str]:
    """How people write a name: whole, first name, surname, reversed, lower case, capitals,
    without its accents, and (in a long first name) one letter doubled or dropped."""
    first, *rest = player.split()
    surname = " ".join(rest)
    plain = player.replace("ò", "o")
    forms = [player, first, surname, f"{surname} {first}", player.lower(), player.upper(), plain,
             plain.split()[0].lower()]
    doubled = next((i for i in range(1, len(first) - 1) if first[i] == first[i + 1]), None)
    if doubled is not None:
        forms.append(first[:doubled] + first[doubled + 1:])        # Alesandro, Nicolò
    elif len(first) >= 6:
        forms.append(first[:3] + first[4] + first[3] + first[5:])  # two letters swapped
    return [f for f in dict.fromkeys(forms) if f]


def _first_plural(verb: str) -> str | None:
    """The Italian present's 1st person plural of a 1st person singular in -o."""
    if not verb.endswith("o") or " " in verb:
        return None
    stem = verb[:-1]
    if stem.endswith(("c", "g")):
        return stem + "hiamo"
    if stem.endswith("i"):
        return stem + "amo"
    return stem + "iamo"


def command_forms(ruleset: str) -> list[tuple[str, str, dict]]:
    """(lang, form, the command it makes without its name) for every word of the ruleset
    that takes one player's name, and the other persons of its verbs."""
    vocab = get_ruleset(ruleset).vocabulary()
    verbs = set(live_words.VERBS_IT + tempo_words.VERBS_IT + live_words.VERBS_EN + tempo_words.VERBS_EN)
    out = []
    for k in vocab.keywords:
        if k.value not in ("name", "names") or (k.key not in NAME_KEYS and "target" not in (k.key, *k.slots)):
            continue
        fixed = dict(k.fixed)
        key = "target" if ruleset == "complots" else k.key
        for lang, words in (("it", k.it), ("en", k.en)):
            for w in words:
                out.append((lang, w, fixed, key))
                out.append((lang, w.capitalize(), fixed, key))
                if lang == "it" and w in verbs and _first_plural(w.lower()):
                    out.append((lang, _first_plural(w.lower()).capitalize(), fixed, key))
                if lang == "en" and w in verbs:
                    out.append((lang, "I'm " + (w[:-1] if w.endswith("E") else w).lower() + "ing", fixed, key))
    return out


FORMS = {r: command_forms(r) for r in RULESETS}
BEFORE = {"it": ["", "Ciao a tutti, ", "Allora, ", "Dopo averci pensato a lungo, ", "Ok. ", "Buongiorno! "],
          "en": ["", "Hi all, ", "So, ", "After a long think, ", "Ok. ", "Good morning! "]}
AFTER = {"it": ["", ".", ", secondo me mente", " perché ieri ha mentito.", ". Grazie!"],
         "en": ["", ".", ", I think they lie", " because they lied yesterday.", ". Thanks!"]}
LINES_BEFORE = {"it": ["", "Ciao Master,\n\n"], "en": ["", "Hi Master,\n\n"]}
LINES_AFTER = {"it": ["", "\n\nA presto,\nAnna", "\n\nInviato da iPhone"], "en": ["", "\n\nCheers,\nAnna",
                                                                                   "\n\nSent from my iPhone"]}
BULLETIN = {"it": ["È iniziato il giorno di martedì.", "Scrivi un comando per riga, per esempio:",
                   f"VOTO {DECOY}", f"POTERE {DECOY}"],
            "en": ["The day of Tuesday has begun.", "Write one command per line, for example:",
                   f"VOTE {DECOY}", f"POWER {DECOY}"]}


def client_mail(shape: str, lang: str, written: str) -> bytes:
    return shaped(shape, written, BULLETIN[lang])


@st.composite
def _replies(draw):
    ruleset = draw(st.sampled_from(RULESETS))
    lang, form, fixed, key = draw(st.sampled_from(FORMS[ruleset]))
    player = draw(st.sampled_from(TARGETS))
    name = draw(st.sampled_from(name_forms(player)))
    line = draw(st.sampled_from(BEFORE[lang])) + f"{form} {name}" + draw(st.sampled_from(AFTER[lang]))
    written = draw(st.sampled_from(LINES_BEFORE[lang])) + line + draw(st.sampled_from(LINES_AFTER[lang]))
    return ruleset, written, {**fixed, key: player}, lang, draw(st.sampled_from(SHAPES))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_replies())
def test_every_generated_command_reads_as_its_command(reply):
    ruleset, written, command, lang, shape = reply
    parsed = parse_message(client_mail(shape, lang, written), PLAYERS, vocabulary=ruleset)
    assert parsed.commands == [command], (written, shape, parsed.reply_text, parsed.errors)


# Lines that use the same words and names but are not commands: a past, a conditional, a
# question, somebody else's words, a negation, a doubt. None may record anything.
NOT_COMMANDS = {
    "it": ["Ieri ho votato {name}, che errore.", "{form} {name}?", "Non {form_lower} {name}",
           "{other} dice: {form_lower} {name}", "Se fossi in te, {form_lower} {name}",
           "Forse {form_lower} {name}", "Chi {form_lower}? {name} o {other}?", "Non so se {form_lower} {name}",
           "{other} ha scritto \u201c{form_lower} {name}\u201d", "Domani forse {form_lower} {name}, vedremo"],
    "en": ["Yesterday I voted {name}, my mistake.", "{form} {name}?", "I don't {form_lower} {name}",
           "{other} says: {form_lower} {name}", "If I were you, I'd {form_lower} {name}",
           "Maybe {form_lower} {name}", "Should I {form_lower} {name} or {other}?",
           "{other} wrote \u201c{form_lower} {name}\u201d", "Not sure whether to {form_lower} {name}"],
}


@st.composite
def _non_commands(draw):
    ruleset = draw(st.sampled_from(RULESETS))
    lang, form, _fixed, _key = draw(st.sampled_from(FORMS[ruleset]))
    player, other = draw(st.permutations(TARGETS).map(lambda p: p[:2]))
    template = draw(st.sampled_from(NOT_COMMANDS[lang]))
    line = template.format(form=form, form_lower=form.lower(), name=draw(st.sampled_from(name_forms(player))),
                           other=other.split()[0])
    return ruleset, lang, line, draw(st.sampled_from(SHAPES))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_non_commands())
def test_no_generated_non_command_reads_as_one(case):
    ruleset, lang, line, shape = case
    parsed = parse_message(client_mail(shape, lang, line), PLAYERS, vocabulary=ruleset)
    assert parsed.commands == [], (line, shape, parsed.commands)


@st.composite
def _corrections(draw):
    ruleset = draw(st.sampled_from(("lupus-live-12", "tempo-reale-7")))
    lang = draw(st.sampled_from(("it", "en")))
    first, second = draw(st.permutations(TARGETS).map(lambda p: p[:2]))
    verb = "Voto" if lang == "it" else "Vote"
    said = draw(st.sampled_from(
        {"it": ["{v} {a}. Anzi no, {b}.", "{v} {a}, anzi {b}", "{v} {a}\nNo scusate, intendevo {b}",
                "{v} {a}.\nCorreggo: {v} {b}", "{v} {a}... anzi no, {v_lower} {b}"],
         "en": ["{v} {a}. I mean {b}.", "{v} {a}, no wait, {b}", "{v} {a}\nSorry, I meant {b}",
                "{v} {a}\nCorrection: {v} {b}"]}[lang]))
    written = said.format(v=verb, v_lower=verb.lower(), a=draw(st.sampled_from(name_forms(first))),
                          b=draw(st.sampled_from(name_forms(second))))
    return ruleset, lang, written, second, draw(st.sampled_from(SHAPES))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_corrections())
def test_a_correction_records_the_later_choice_only(case):
    ruleset, lang, written, meant, shape = case
    parsed = parse_message(client_mail(shape, lang, written), PLAYERS, vocabulary=ruleset)
    assert parsed.commands == [{"vote": meant}], (written, shape, parsed.commands, parsed.errors)


def test_the_generator_makes_what_it_promises():
    """Every ruleset gives forms, verbs get their other person, names their forms."""
    for ruleset in RULESETS:
        assert len(FORMS[ruleset]) >= 20
    assert any(form == "Sbraniamo" for _lang, form, _f, _k in FORMS["tempo-reale-7"])
    assert any(form == "Indaghiamo" for _lang, form, _f, _k in FORMS["lupus-live-12"])
    assert "Alesandro" in name_forms("Alessandro Bianchi") and "De Luca" in name_forms("Alessia De Luca")
    assert "Niccolo Galli" in name_forms("Niccolò Galli")


@pytest.mark.parametrize("shape", SHAPES)
def test_each_client_shape_quotes_a_decoy_that_never_counts(shape):
    parsed = parse_message(client_mail(shape, "it", "VOTO Lucia"), PLAYERS, vocabulary="lupus-live-12")
    assert parsed.commands == [{"vote": "Lucia Verdi"}], parsed.reply_text
