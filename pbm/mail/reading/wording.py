"""The service's words about commands, in the reader's language (Italian first,
English too): a structured error of the parser described, and example lines of a
game's commands for a receipt or a help page. The game's words (its arguments, its
choices, its examples) come from its vocabulary.
"""
from __future__ import annotations

from engine.core import ActionForm
from engine.interface import BaseRuleset, Vocabulary

from .grammar import VocabularyLike, grammar


# The service's own words for what any line is made of; a ruleset names its arguments
# (a choice such as a power) in Vocabulary.arguments.
_ARGUMENTS = {
    "it": {"name": "il nome di un giocatore", "names": "i nomi dei giocatori", "text": "il testo",
           "n": "il numero"},
    "en": {"name": "a player's name", "names": "the players' names", "text": "the text",
           "n": "the number"},
}

_MESSAGES = {
    "it": {
        "unknown_name": "Non conosco nessun giocatore che si chiami \u201c{name}\u201d. I nomi validi sono: {candidates}.",
        "ambiguous_name": "\u201c{name}\u201d pu\u00f2 indicare pi\u00f9 giocatori: {candidates}. Scrivi il nome per intero.",
        "missing_argument": "Manca {argument}.",
        "unknown_choice": "Non conosco {argument} \u201c{value}\u201d. Possibili: {candidates}.",
        "bad_parameter": "Il valore \u201c{value}\u201d non va bene per {argument}.",
        "no_command": "Nel messaggio non ho trovato comandi: non ho registrato nulla.",
        "empty": "Il messaggio è vuoto (o contiene solo la mail citata o una firma): non ho capito nessun comando e non ho registrato nulla.",
        "question": "Sembra una domanda: non ho registrato nulla. Se è il tuo comando, confermalo riscrivendolo senza il punto interrogativo.",
        "question_not_now": "In questa fase questo comando non si può usare: non ho registrato nulla.",
        "two_commands": "In questa riga c'è più di un comando (anche {value}): non ho registrato nulla. Scrivi un comando per riga.",
        "not_in_game": "In questa partita non c'\u00e8 il comando {value}.",
        "unknown_sender": "Non riesco a capire quale giocatore abbia scritto il messaggio inoltrato ({name}). Giocatori: {candidates}.",
        "command_outside_behalf": "Questo comando \u00e8 fuori dal messaggio inoltrato o dalla riga PER:, quindi non so per chi sia: non l'ho eseguito.",
        "multiple_behalf": "Un messaggio pu\u00f2 agire per un solo giocatore: da qui in poi (una seconda riga PER: o un secondo messaggio inoltrato) non ho eseguito nulla. Manda un messaggio per ogni giocatore.",
        "correction": "Qui correggi un comando, ma non capisco con che cosa: non ho registrato nulla, né la scelta ritirata né un'altra. Riscrivi il comando giusto, da solo sulla sua riga.",
        "unsure": "Non sono sicuro che sia un comando: non ho registrato nulla. Se lo è, riscrivilo come nelle righe di esempio (per esempio \u201cVOTO Nome\u201d).",
        "behalf_not_master": "Solo un Master può scrivere per conto di un altro giocatore: da questa riga in poi non ho registrato nulla.",
        "_other": "Non ho capito questa riga.",
    },
    "en": {
        "unknown_name": "There is no player called \u201c{name}\u201d. Valid names are: {candidates}.",
        "ambiguous_name": "\u201c{name}\u201d could mean more than one player: {candidates}. Please write the full name.",
        "missing_argument": "{argument} is missing.",
        "unknown_choice": "I do not know {argument} \u201c{value}\u201d. Possible: {candidates}.",
        "bad_parameter": "The value \u201c{value}\u201d is not valid for {argument}.",
        "no_command": "I found no command in your message: nothing was recorded.",
        "empty": "The message is empty (or holds only the quoted mail or a signature): I understood no command and recorded nothing.",
        "question": "This looks like a question: nothing was recorded. If it is your command, confirm it by writing it again without the question mark.",
        "question_not_now": "This command cannot be used in this phase: nothing was recorded.",
        "two_commands": "This line holds more than one command (also {value}): nothing was recorded. Write one command per line.",
        "not_in_game": "This game has no {value} command.",
        "unknown_sender": "I cannot tell which player wrote the forwarded message ({name}). Players: {candidates}.",
        "command_outside_behalf": "This command is outside the forwarded message or the FOR: line, so I cannot tell whose it is: it was not carried out.",
        "multiple_behalf": "One message can act for one player only: nothing from here on (a second FOR: line or a second forwarded message) was carried out. Send one message per player.",
        "correction": "This line corrects a command, but I cannot tell with what: nothing was recorded, neither the choice taken back nor another. Write the right command again, alone on its line.",
        "unsure": "I am not sure this is a command: nothing was recorded. If it is, write it again as in the example lines (for instance \u201cVOTE Name\u201d).",
        "behalf_not_master": "Only a Master can write on behalf of another player: nothing from this line on was recorded.",
        "_other": "I did not understand this line.",
    },
}


def describe_error(error: dict, lang: str = "it", vocabulary: VocabularyLike = None) -> str:
    """Plain-language wording of a structured error, Italian by default; the game's
    vocabulary names its own arguments."""
    lang = "en" if str(lang).lower().startswith("en") else "it"
    code = "empty" if error.get("code") == "no_command" and error.get("empty") else error.get("code", "")
    template = _MESSAGES[lang].get(code, _MESSAGES[lang]["_other"])
    key = error.get("argument", "")
    vocab = grammar(vocabulary).vocabulary
    named = vocab.arguments.get(key) or {}
    argument = named.get(lang) or _ARGUMENTS[lang].get(key, key)
    candidates = list(error.get("candidates") or [])
    if error.get("code") == "unknown_choice":  # as the reader calls them, not the engine
        candidates = list(dict.fromkeys(_named(vocab, key, c, lang) for c in candidates))
    fields = {
        "name": error.get("name", ""),
        "value": error.get("value", ""),
        "argument": argument,
        "candidates": ", ".join(candidates) or "-",
    }
    text = template.format(**fields)
    text = text[0].upper() + text[1:]
    line = error.get("line")
    if line:
        text = (f"\u00ab{line}\u00bb: " if lang == "it" else f"\u201c{line}\u201d: ") + text
    return text


def _named(vocab: Vocabulary, key: str, value: str, lang: str) -> str:
    """A choice in the reader's language, with the rulebook's (Italian) name beside it
    when they differ: "Murder (Omicidio)"; either may be written back."""
    own, rulebook = vocab.choice_name(key, value, lang), vocab.choice_name(key, value, "it")
    return own if own == rulebook else f"{own} ({rulebook})"


def examples(vocabulary: VocabularyLike, lang: str, keys: set[str] | None = None) -> list[str]:
    """One example line per command of the vocabulary (only those filling ``keys``, if
    given), in the reader's language: what a receipt or a help page shows."""
    out: list[str] = []
    for k in grammar(vocabulary).vocabulary.keywords:
        if k.verb or (keys is not None and k.key not in keys):
            continue
        example = (k.example_en if str(lang).startswith("en") else k.example_it) or \
            f"{(k.en if str(lang).startswith('en') else k.it)[0]}"
        if example not in out:
            out.append(example)
    return out


def lines_for_form(ruleset: BaseRuleset, form: ActionForm, lang: str) -> list[str]:
    """The mail lines that answer this form now, from the ruleset's vocabulary: one per
    command word the form allows, with the choices it may take (an answer window's mail,
    and what a refusal offers instead: only what can be done now, in the game's words).
    Only for the words whose ``fixed`` names the form's kind; none for a game whose
    words do not (the Lupus games, whose examples come from ``examples``)."""
    fields = {f.name: f for f in form.fields}
    out = []
    for kw in ruleset.vocabulary().keywords:
        if kw.verb:  # the natural forms are accepted, the mail offers the keyword
            continue
        fixed = dict(kw.fixed)
        if fixed.pop("kind", None) != form.kind:
            continue
        if any(k in fields and fields[k].choices and v not in fields[k].choices
               for k, v in fixed.items()):
            continue  # an answer the window does not allow now
        word = (kw.en if lang == "en" else kw.it)[0]
        arg = fields.get(kw.key)
        if kw.value == "none":
            out.append(word)
            continue
        if arg is None:
            continue
        choices = list(arg.choices)
        for k, v in fixed.items():  # narrowed by the word's own value (a target by action)
            narrowed = (arg.depends.get(k) or {}).get(v)
            if narrowed is not None:
                choices = list(narrowed)
        if not choices:
            continue
        shown = list(dict.fromkeys(ruleset.describe_choice(kw.key, c, lang) for c in choices))
        if kw.value == "choices":
            count = arg.min if arg.min == arg.max else f"{arg.min}-{arg.max}"
            out.append(f"{word} … ({count}: {', '.join(shown)})")
        else:  # one whole line per answer: copied as it stands, never edited
            out.extend(f"{word} {choice}" for choice in shown)
    return out
