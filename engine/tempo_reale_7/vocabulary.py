"""What players of Lupus in tempo reale 7 write and read: the command words of mail and
the paste box (Italian and English), the supernatural powers in both languages, and
the words of the power forms.

The powers come from their own table (roles.POWERS): this module adds only what people
write for them, so a power added to the rules and forgotten here is caught by
tests/wording/test_vocabulary_drift.py (it has no English name).
"""
from __future__ import annotations

from typing import Any

from ..core import ActionForm
from ..lupus_common.actions import POWER
from ..interface import Keyword, Part, Vocabulary, word
from .roles import POWERS

# Each supernatural power (§3.7) in English; the rulebook's Italian name stays canonical.
POWERS_EN: dict[str, str] = {
    "Amnesia": "Amnesia",
    "Confusione": "Confusion",
    "Corruzione": "Corruption",
    "Illusione": "Illusion",
    "Ipnosi": "Hypnosis",
    "Morte": "Death",
    "Occultamento": "Concealment",
    "Visione": "Vision",
}
POWER_ALIASES = {"occultation": "Occultamento"}

# Words written before a power's name: "SPETTRO della Morte", "con il potere
# dell'Amnesia", "SPECTRE of Death" (folded: lower case, straight apostrophe).
FILLERS = ("spettro", "spectre", "specter", "con il", "with the", "potere", "power",
           "soprannaturale", "supernatural", "dell'", "della", "dello", "del", "di",
           "of the", "of", "the", "il", "la", "l'", "a")

_SLOTS = ("target", "target2")  # Confusione, Illusione, Ipnosi aim at two players
_SPECTRE = Part("power", ("SPETTRO", "COME SPETTRO", "CON IL POTERE"),
                ("SPECTRE", "SPECTER", "AS SPECTRE", "AS A SPECTRE", "AS SPECTER", "AS A SPECTER",
                 "WITH THE POWER"), "choice")
# The second target as the receipts name it ("Secondo bersaglio: Carla").
_SECOND = Part("target2", ("SECONDO BERSAGLIO",), ("SECOND TARGET",), "name")
# The verbs players write for a night power (issue 14): each is POTERE, judged by the
# engine against the writer's own role like any POTERE line.
VERBS_IT = ("SBRANO", "AZZANNO", "UCCIDO", "PROTEGGO", "INDAGO", "GUARDO", "OSSERVO",
            "SEGUO", "SEQUESTRO", "RISVEGLIO", "IPNOTIZZO", "ESORCIZZO", "DIFENDO")
VERBS_EN = ("MAUL", "KILL", "PROTECT", "INVESTIGATE", "WATCH", "FOLLOW", "STALK", "KIDNAP",
            "WAKE", "HYPNOTISE", "HYPNOTIZE", "EXORCISE", "DEFEND")
# How else players write them (issue 22): the wolves' plural, the infinitive after "voglio"
# / "I want to", everyday synonyms. Read as the verbs above: a command only when a
# player's name follows.
NATURAL_IT = ("SBRANIAMO", "SBRANANO", "SBRANARE", "AZZANNIAMO", "AZZANNARE", "UCCIDIAMO", "UCCIDERE",
              "MANGIO", "MANGIAMO", "MANGIARE", "ATTACCHIAMO", "PROTEGGERE", "SALVO", "SALVARE",
              "DIFENDERE", "INDAGARE", "CONTROLLO", "CONTROLLARE", "GUARDARE", "OSSERVARE",
              "SEGUIRE", "SEQUESTRARE", "RISVEGLIARE", "IPNOTIZZARE", "ESORCIZZARE")
NATURAL_EN = ("EAT", "DEVOUR", "ATTACK", "GUARD", "SAVE", "CHECK", "INSPECT", "KILLING",
              "PROTECTING", "INVESTIGATING", "EXORCIZE")
# A seer's power as people say it (issue 32): the aura of a player ("voglio vedere l'aura di
# Lucia"); every form of these verbs is read by its stem (pbm/mail/reading/stems.py).
AURA_IT = ("VEDO L'AURA DI", "VEDERE L'AURA DI", "GUARDO L'AURA DI", "CONTROLLO L'AURA DI",
           "SCOPRO L'AURA DI", "L'AURA DI")
AURA_EN = ("SEE THE AURA OF", "CHECK THE AURA OF", "READ THE AURA OF", "THE AURA OF")
# The words the service prints to name these actions (engine/lupus_common/texts.KEYS and ACTIONS, the
# web's form titles), understood back (tests/mail/test_natural_forms.py checks every one).
# The pack named before a command ("Noi lupi sbraniamo Dario", "We wolves: MAUL Dario"):
# the service reads the line after them (pbm/mail/reading/commands.py).
OPENERS = ("noi lupi", "lupi", "i lupi", "we wolves", "the wolves")
PRINTED_POWER = (("IL TUO POTERE", "IL MIO POTERE", "USO IL POTERE", "USO IL MIO POTERE"),
                 ("YOUR POWER", "MY POWER", "USE MY POWER", "USE POWER"))


def vocabulary() -> Vocabulary:
    return Vocabulary(
        keywords=[
            Keyword("vote", ("VOTO", "VOTO PER IL ROGO"), ("VOTE", "PYRE VOTE", "VOTE FOR THE PYRE"),
                    "name", "VOTO Carla", "VOTE Carla"),
            Keyword("vote", ("VOTARE", "VOTIAMO", "AL ROGO", "MANDO AL ROGO", "MANDIAMO AL ROGO", "MANDARE AL ROGO", "ROGO",
                             "CAMBIO VOTO", "CAMBIO IL VOTO", "CAMBIO IL MIO VOTO"),
                    ("VOTING", "LYNCH", "BURN", "PYRE", "CHANGE MY VOTE", "CHANGE VOTE", "CHANGING MY VOTE"),
                    "name", "VOTO per Carla", "I vote for Carla", verb=True),
            Keyword("elect", ("ELEGGO", "SINDACO", "ELEZIONE DEL SINDACO", "VOTO PER IL SINDACO",
                              "VOTO SINDACO", "IL SINDACO"),
                    ("ELECT", "MAYOR", "MAYOR ELECTION", "VOTE FOR MAYOR", "MAYOR VOTE",
                     "VOTE FOR THE MAYOR"), "name", "ELEGGO Carla", "ELECT Carla"),
            Keyword("elect", ("ELEGGERE", "ELEGGIAMO"), ("ELECTING",), "name", "ELEGGO Carla",
                    "ELECT Carla", verb=True),
            Keyword("appoint", ("SUCCESSORE", "NOMINA DEL SUCCESSORE", "VICESINDACO/SUCCESSORE"),
                    ("SUCCESSOR", "APPOINT", "DEPUTY/SUCCESSOR"), "name",
                    "SUCCESSORE Carla", "SUCCESSOR Carla"),
            Keyword("appoint", ("NOMINO", "NOMINARE"), ("NOMINATE", "APPOINTING"), "name",
                    "NOMINO Carla", "NOMINATE Carla", verb=True),
            Keyword("target", ("POTERE", "BERSAGLIO", *PRINTED_POWER[0]),
                    ("POWER", "TARGET", *PRINTED_POWER[1]), "names",
                    "POTERE Bruno", "POWER Bruno", slots=_SLOTS,
                    parts=(_SPECTRE, _SECOND)),
            Keyword("target", VERBS_IT + NATURAL_IT + AURA_IT, VERBS_EN + NATURAL_EN + AURA_EN, "names", "SBRANO Bruno",
                    "WATCH Bruno", slots=_SLOTS, parts=(_SPECTRE, _SECOND), verb=True),
        ],
        choices={"power": {a: p for a, p in POWER_ALIASES.items() if p in POWERS}},
        names={"power": {name: {"it": name, **({"en": POWERS_EN[name]} if name in POWERS_EN else {})}
                         for name in POWERS}},
        fillers=FILLERS,
        arguments={
            "target": {"it": "il bersaglio", "en": "the target"},
            "power": {"it": "il potere dello Spettro", "en": "the Spettro's power"},
        },
        openers=OPENERS,
    )


# --------------------------------------------------------------------------- the forms

# Two-target powers read better with what each chooser means (§3.7); the Negromante
# names the dead player to wake.
FIELD_TEXTS: dict[str, dict[str, str]] = {
    "Confusione.target": {"it": "Attorno a chi generi confusione", "en": "Who is surrounded by confusion"},
    "Confusione.target2": {"it": "Di chi si ricevono invece le informazioni",
                           "en": "Whose information is given instead"},
    "Illusione.target": {"it": "Dove compare l'illusione", "en": "Where the illusion appears"},
    "Illusione.target2": {"it": "Di chi è l'illusione (un giocatore vivo)",
                          "en": "Whose illusion (a living player)"},
    "Ipnosi.target": {"it": "Di chi controlli il voto", "en": "Whose vote you control"},
    "Ipnosi.target2": {"it": "Contro chi va quel voto", "en": "Against whom that vote goes"},
    "Negromante.target": {"it": "Il morto da risvegliare come Spettro",
                          "en": "The dead player to wake as a Spettro"},
    "Negromante.power": {"it": "Il potere del nuovo Spettro", "en": "The new Spettro's power"},
}


def field_label(form: ActionForm, field: str, lang: str) -> str | None:
    if form.kind != POWER or not form.label.startswith("form.power."):
        return None
    return word(FIELD_TEXTS, f"{form.label.removeprefix('form.power.')}.{field}", lang)


def describe_choice(key: str, value: Any, lang: str) -> str:
    """A power as the rulebook writes it, with the English name beside it in English."""
    english = POWERS_EN.get(str(value)) if key == "power" and lang == "en" else None
    if english and english != value:
        return f"{value} ({english})"
    return str(value)

