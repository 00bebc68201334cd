"""What players of Lupus LIVE! 12 write and read: the command words of mail and the
paste box (Italian and English), the names of the rituals and roles in both languages,
and the words of the reserved area's forms.

The rituals and roles come from their own tables (rituals.RITUALS, roles.ROLES): this
module adds only what people write for them, so a ritual added to the rules and
forgotten here is caught by tests/wording/test_vocabulary_drift.py (it has no English name).
"""
from __future__ import annotations

from typing import Any

from ..core import ActionForm, GameState
from ..lupus_common.actions import RITUAL
from ..interface import Keyword, Part, Vocabulary, word
from .rituals import (
    CONFUSIONE, END_STORY, IMPEDIMENTO, MALEDIZIONE, MENO_DELEGATO, MENO_DIRETTO, OMICIDIO,
    REPLAY, RESURREZIONE, RITUALS, SPIONAGGIO, VOTO_DELEGATO, VOTO_DIRETTO,
)
from .roles import _ALIASES as ROLE_ALIASES
from .roles import ROLES

# Each ritual in English (the rulebook's Italian name stays the canonical one).
RITUALS_EN: dict[str, str] = {
    CONFUSIONE: "Confusion",
    END_STORY: "End of story",
    IMPEDIMENTO: "Hindrance",
    MALEDIZIONE: "Curse",
    MENO_DELEGATO: "Minus delegated vote",
    MENO_DIRETTO: "Minus direct vote",
    OMICIDIO: "Murder",
    REPLAY: "Replay",
    RESURREZIONE: "Resurrection",
    SPIONAGGIO: "Espionage",
    VOTO_DELEGATO: "Delegated vote",
    VOTO_DIRETTO: "Direct vote",
}
# Other spellings players use, in either language.
RITUAL_ALIASES: dict[str, str] = {
    "fine storia": END_STORY, "fine della storia": END_STORY, "end story": END_STORY,
    "endstory": END_STORY, "impediment": IMPEDIMENTO, "homicide": OMICIDIO, "spying": SPIONAGGIO,
}

# Each character in English, for BECOME (the rulebook's Italian names stay canonical).
ROLES_EN: dict[str, str] = {
    "Contadino": "Farmer", "Cacciatore": "Hunter", "Erede": "Heir", "Espansivo": "Expansive",
    "Guardia del corpo": "Bodyguard", "Mago": "Wizard", "Mannella": "Werewoman",
    "Medium": "Medium", "Messia": "Messiah", "Missile": "Missile", "Profeta": "Prophet",
    "Veggente": "Seer", "Lupo Mannaro": "Werewolf", "Avvocato": "Lawyer",
    "Fattucchiera": "Witch", "Rasputin": "Rasputin", "Sabbino": "Sabbino",
    "Satanista": "Satanist", "Sequestratore": "Kidnapper", "Usurpatore": "Usurper",
}
ROLE_ALIASES_EN = {"wolf": "Lupo Mannaro", "peasant": "Contadino"}

_NAMES = ("target",)
# The verbs players write for a night power (issue 14): each is POTERE, judged by the
# engine against the writer's own role like any POTERE line.
VERBS_IT = ("SBRANO", "AZZANNO", "UCCIDO", "SPARO", "PROTEGGO", "DIFENDO", "INDAGO",
            "GUARDO", "OSSERVO", "SEQUESTRO", "RESUSCITO")
VERBS_EN = ("MAUL", "KILL", "SHOOT", "PROTECT", "DEFEND", "INVESTIGATE", "WATCH", "KIDNAP",
            "REVIVE")
# How else players write them (issue 22): the wolves' plural ("stanotte sbraniamo Dario"),
# the infinitive after "voglio" / "I want to", and the everyday synonyms. Read exactly as
# the verbs above; the parser takes a line that starts with one as a command only when a
# player's name follows.
NATURAL_IT = ("SBRANIAMO", "SBRANANO", "SBRANARE", "AZZANNIAMO", "AZZANNARE", "UCCIDIAMO", "UCCIDERE",
              "MANGIO", "MANGIAMO", "MANGIARE", "ATTACCHIAMO", "SPARARE", "PROTEGGERE", "SALVO",
              "SALVARE", "DIFENDERE", "INDAGARE", "INDAGHERO", "CONTROLLO", "CONTROLLARE",
              "GUARDARE", "OSSERVARE", "SEQUESTRARE", "RESUSCITARE")
NATURAL_EN = ("EAT", "DEVOUR", "ATTACK", "GUARD", "SAVE", "CHECK", "INSPECT", "KILLING",
              "PROTECTING", "INVESTIGATING", "RESURRECT")
# A seer's power as people say it (issue 32): the aura of a player ("voglio vedere l'aura di
# Lucia"); every form of these verbs is read by its stem (pbm/mail/reading/stems.py).
AURA_IT = ("VEDO L'AURA DI", "VEDERE L'AURA DI", "GUARDO L'AURA DI", "CONTROLLO L'AURA DI",
           "SCOPRO L'AURA DI", "L'AURA DI")
AURA_EN = ("SEE THE AURA OF", "CHECK THE AURA OF", "READ THE AURA OF", "THE AURA OF")
# The words the service itself prints to name an action (receipts, forms, the desk:
# engine/lupus_common/texts.KEYS and ACTIONS, the web's form titles): a player who copies them back
# is understood (tests/mail/test_natural_forms.py checks every one).
# The pack named before a command ("Noi lupi sbraniamo Dario", "We wolves: MAUL Dario"):
# the service reads the line after them (pbm/mail/reading/commands.py).
OPENERS = ("noi lupi", "lupi", "i lupi", "we wolves", "the wolves")
PRINTED_VOTE = (("VOTO PER IL ROGO",), ("PYRE VOTE", "VOTE FOR THE PYRE"))
PRINTED_POWER = (("IL TUO POTERE", "IL MIO POTERE", "USO IL POTERE", "USO IL MIO POTERE"),
                 ("YOUR POWER", "MY POWER", "USE MY POWER", "USE POWER"))
# A vote as people say it: "al rogo Carla", "I'm voting for Carla".
NATURAL_VOTE = (("VOTARE", "VOTIAMO", "AL ROGO", "MANDO AL ROGO", "MANDIAMO AL ROGO", "MANDARE AL ROGO", "ROGO",
                 "CAMBIO VOTO", "CAMBIO IL VOTO", "CAMBIO IL MIO VOTO"),
                ("VOTING", "LYNCH", "BURN", "PYRE", "CHANGE MY VOTE", "CHANGE VOTE", "CHANGING MY VOTE"))


def _names(table: dict[str, Any], english: dict[str, str]) -> dict[str, dict[str, str]]:
    """{canonical: {"it", "en"}} for every entry of the engine's own table; one the
    English list forgot has no "en" (and the drift test says so)."""
    return {name: {"it": name, **({"en": english[name]} if name in english else {})}
            for name in table}


def _role_aliases() -> dict[str, str]:
    table = {alias: role for alias, role in ROLE_ALIASES.items() if role in ROLES}
    table.update({alias: role for alias, role in ROLE_ALIASES_EN.items() if role in ROLES})
    return table


def vocabulary() -> Vocabulary:
    ritual_parts = (
        Part("with", ("CON", "INSIEME A", "INSIEME AD", "INSIEME CON", "ASSIEME A", "ASSIEME AD",
                      "ASSIEME CON"), ("WITH", "TOGETHER WITH"), "names"),
        Part("target", ("SU", "CONTRO", "BERSAGLIO"), ("ON", "AGAINST", "TARGET"), "name"),
    )
    return Vocabulary(
        keywords=[
            Keyword("vote", ("VOTO", *PRINTED_VOTE[0]), ("VOTE", *PRINTED_VOTE[1]), "name",
                    "VOTO Carla", "VOTE Carla"),
            Keyword("vote", *NATURAL_VOTE, "name", "VOTO per Carla", "I vote for Carla", verb=True),
            Keyword("target", ("POTERE", "BERSAGLIO", *PRINTED_POWER[0]),
                    ("POWER", "TARGET", *PRINTED_POWER[1]), "names",
                    "POTERE Bruno", "POWER Bruno", slots=_NAMES),
            Keyword("target", VERBS_IT + NATURAL_IT + AURA_IT, VERBS_EN + NATURAL_EN + AURA_EN, "names", "SBRANO Bruno",
                    "PROTECT Bruno", slots=_NAMES, verb=True),
            Keyword("ritual", ("RITUALE",), ("RITUAL",), "choice",
                    "RITUALE Voto diretto 3 CON Anna, Bruno, Carla SU Dario",
                    "RITUAL Murder WITH Anna, Bruno, Carla, Dario ON Elena",
                    parts=ritual_parts, number="n"),
            Keyword("ritual", ("FACCIAMO IL RITUALE", "FACCIO IL RITUALE", "SVOLGIAMO IL RITUALE"),
                    ("WE PERFORM THE RITUAL", "PERFORM THE RITUAL"), "choice",
                    "RITUALE Omicidio CON Anna, Bruno, Carla, Dario SU Elena",
                    "RITUAL Murder WITH Anna, Bruno, Carla, Dario ON Elena",
                    parts=ritual_parts, number="n", verb=True),
            Keyword("appoint", ("VICE", "VICESINDACO", "SUCCESSORE", "VICESINDACO/SUCCESSORE",
                                "NOMINA DEL SUCCESSORE"),
                    ("APPOINT", "DEPUTY", "SUCCESSOR", "DEPUTY/SUCCESSOR"),
                    "name", "VICE Carla", "APPOINT Carla"),
            Keyword("appoint", ("NOMINO", "NOMINARE"), ("NOMINATE", "APPOINTING"), "name",
                    "NOMINO Carla", "NOMINATE Carla", verb=True),
            Keyword("become", ("DIVENTO", "DIVENTA", "SCEGLI IL TUO RUOLO", "RUOLO DA ASSUMERE",
                               "SCELTA DEL RUOLO"),
                    ("BECOME", "CHOOSE YOUR ROLE", "ROLE TO BECOME", "ROLE CHOICE"), "choice",
                    "DIVENTO Veggente", "BECOME Seer"),
            Keyword("become", ("DIVENTARE", "DIVENTIAMO"), ("BECOMING",), "choice",
                    "DIVENTO Veggente", "BECOME Seer", verb=True),
            Keyword("question", ("DOMANDA", "DOMANDA AI MASTER", "DOMANDA PER I MASTER", "DOMANDA ALLE MASTER",
                                 "DOMANDA PER LE MASTER"),
                    ("QUESTION", "QUESTION TO THE MASTERS", "QUESTION FOR THE MASTERS"), "text",
                    "DOMANDA Bruno è un lupo?", "QUESTION Is Bruno a wolf?"),
            Keyword("shout", ("URLO", "URLO NOTTURNO"), ("SHOUT", "NIGHT SHOUT"), "text",
                    "URLO Al lupo!", "SHOUT Wolf!"),
            Keyword("notes", ("NOTE",), ("NOTES",), "text", "NOTE sospetto di Bruno",
                    "NOTES suspect Bruno"),
        ],
        choices={"ritual": dict(RITUAL_ALIASES), "become": _role_aliases()},
        # "DIVENTO il Veggente", "BECOME the Seer", "RITUALE di Omicidio".
        fillers=("il", "lo", "la", "l'", "un", "una", "uno", "the", "a", "an", "di", "del", "dello",
                 "della", "dell'", "of", "of the", "rituale", "ritual"),
        names={"ritual": _names(RITUALS, RITUALS_EN), "become": _names(ROLES, ROLES_EN)},
        takes={"ritual": {r.name: {"with": False,
                                   **({"target": True} if r.target is not None else {}),
                                   **({"n": False} if r.parametric else {})}
                          for r in RITUALS.values()}},
        arguments={
            "target": {"it": "il bersaglio", "en": "the target"},
            "ritual": {"it": "il rituale", "en": "the ritual"},
            "with": {"it": "i partecipanti", "en": "the participants"},
            "become": {"it": "il ruolo", "en": "the role"},
            "n": {"it": "il numero n del rituale", "en": "the ritual's number n"},
        },
        openers=OPENERS,
    )


# --------------------------------------------------------------------------- the forms

FORM_TEXTS: dict[str, dict[str, str]] = {
    "title.ritual": {"it": "Rituale", "en": "Ritual"},
    "title.ritual.satanista": {"it": "Rituale (Satanista)", "en": "Ritual (Satanista)"},
    "label.ritual": {"it": "Rituale", "en": "Ritual"},
    "label.satanista": {"it": "Con il Satanista", "en": "With the Satanista"},
    "help.with": {"it": "Gli altri fantasmi che partecipano.", "en": "The other ghosts taking part."},
    "help.with.satanista": {
        "it": "I fantasmi con cui lo svolgi: tu prendi il posto di due partecipanti.",
        "en": "The ghosts you perform it with: you take the place of two participants."},
    "help.satanista": {
        "it": "Solo se partecipa un Satanista: prende il posto di due fantasmi. Se il giocatore "
              "che indichi non è il Satanista, il rituale fallisce.",
        "en": "Only if a Satanista takes part: they take the place of two ghosts. If the player "
              "you name is not the Satanista, the ritual fails."},
    "help.n": {"it": "Solo per i rituali con (n). Se lo lasci vuoto, si conta dal gruppo.",
               "en": "Only for the rituals marked (n). Left empty, it is counted from the group."},
    "help.target": {"it": "I bersagli possibili dipendono dal rituale.",
                    "en": "The legal targets depend on the ritual."},
    "choice.ritual": {"it": "{ritual}: {count} partecipanti", "en": "{ritual}: {count} participants"},
    "choice.ritual.n": {"it": "{ritual} (n): {base}+n partecipanti",
                        "en": "{ritual} (n): {base}+n participants"},
}

SATANISTA_FORM = "form.ritual.satanista"
SATANISTA_FIELD = "satanista"


def _is_ritual(form: ActionForm) -> bool:
    return form.kind == RITUAL


def form_title(form: ActionForm, lang: str) -> str | None:
    if not _is_ritual(form):
        return None
    return word(FORM_TEXTS, "title.ritual.satanista" if form.label == SATANISTA_FORM
                else "title.ritual", lang)


def field_label(form: ActionForm, field: str, lang: str) -> str | None:
    if _is_ritual(form) and field == "ritual":
        return word(FORM_TEXTS, "label.ritual", lang)
    if _is_ritual(form) and field == SATANISTA_FIELD:
        return word(FORM_TEXTS, "label.satanista", lang)
    return None


def field_help(form: ActionForm, field: str, lang: str) -> str | None:
    if not _is_ritual(form):
        return None
    if field == "with" and form.label == SATANISTA_FORM:
        return word(FORM_TEXTS, "help.with.satanista", lang)
    if field in ("with", SATANISTA_FIELD, "n", "target"):
        return word(FORM_TEXTS, f"help.{field}", lang)
    return None


def describe_choice(key: str, value: Any, lang: str) -> str:
    """A ritual in the reader's language with how many take part; a role in the reader's
    language. Players are never described here: a label must not tell a role."""
    ritual = RITUALS.get(str(value)) if key == "ritual" else None
    named = _names_in(key, str(value), lang)
    if ritual is None:
        return named
    if ritual.parametric:
        return word(FORM_TEXTS, "choice.ritual.n", lang, {"ritual": named, "base": ritual.base}) or named
    return word(FORM_TEXTS, "choice.ritual", lang, {"ritual": named, "count": ritual.base}) or named


def ritual_name(ritual: str, lang: str) -> str:
    """A ritual as the reader names it: "Omicidio", "Omicidio (Murder)"."""
    return _names_in("ritual", ritual, lang)


def _names_in(key: str, value: str, lang: str) -> str:
    tables: dict[str, tuple[dict[str, Any], dict[str, str]]] = {
        "ritual": (RITUALS, RITUALS_EN), "become": (ROLES, ROLES_EN)}
    langs = tables.get(key)
    if langs is None or value not in langs[0]:
        return value
    english = langs[1].get(value) if lang == "en" else None
    # The rulebook's name stays first: bulletins and the Masters use it.
    return f"{value} ({english})" if english and english != value else value


def shown_when(form: ActionForm, field: str) -> dict[str, list[str]]:
    if _is_ritual(form) and field == "n":
        return {"ritual": [r.name for r in RITUALS.values() if r.parametric]}
    return {}


def form_values(form: ActionForm, args: dict[str, Any], state: GameState) -> dict[str, Any]:
    """A ghost's stored ritual as its form: the one living player among the collaborators
    goes back to the Satanista drop-down (the engine merged it into ``with``)."""
    out = dict(args)
    if _is_ritual(form) and SATANISTA_FIELD in {f.name for f in form.fields}:
        together = list(out.get("with") or [])
        living = [n for n in together if state.has_player(n) and state.player(n).alive]
        out["with"] = [n for n in together if n not in living]
        out[SATANISTA_FIELD] = living[0] if living else None
    return out


# Free text that rides along with the night's main form (§1.4.2: the power or ritual form
# has "una casella di testo per le note ed una per un eventuale urlo notturno").
RIDERS = ("shout", "notes")


def form_groups(forms: list[ActionForm]) -> list[list[ActionForm]]:
    riders = [f for f in forms if f.kind in RIDERS]
    main = [f for f in forms if f.kind not in RIDERS]
    host = (next((f for f in main if f.kind == RITUAL), None)
            or next((f for f in main if f.kind == "power"), None))
    groups = [[f, *riders] if f is host else [f] for f in main]
    if host is None and riders:
        groups.append(riders)
    return groups
