"""The base wording catalogue: event kinds and rejection codes every ruleset shares.

Every table is ``{code: {"it": ..., "en": ...}}`` with ``str.format`` placeholders
taken from the event's data or the rejection's params. ``BaseRuleset`` uses these
as they are; a ruleset's own ``texts`` module adds and overrides
(``EVENTS = {**texts.EVENTS, ...}``). ``word`` formats one entry (Italian when a
language is missing, the bare template when a placeholder is). The helpers below
word the structured facts several rulesets publish alike (a death, a vote's count,
a list of names), so each ruleset's ``describe`` stays a few lines.
"""
from __future__ import annotations

import string
from typing import Any

LANGS = ("it", "en")

REJECTIONS = {
    "game_over": {"it": "La partita è finita.", "en": "The game is over."},
    "not_a_player": {"it": "Non sei un giocatore di questa partita.",
                     "en": "You are not a player in this game."},
    "unknown_player": {"it": "Non c'è nessun giocatore di nome «{target}».",
                       "en": "There is no player called “{target}”."},
    "not_now": {"it": "Questa azione non si può compiere in questa fase.",
                "en": "This action cannot be taken in this phase."},
    "dead_cannot_vote": {"it": "I morti non votano.", "en": "The dead do not vote."},
    "dead_no_power": {"it": "I morti non possono usare poteri.",
                      "en": "The dead cannot use powers."},
    "no_power": {"it": "Il tuo ruolo ({role}) non ha un potere da usare ora.",
                 "en": "Your role ({role}) has no power to use now."},
    "self_target": {"it": "Non puoi usare il potere su di te.",
                    "en": "You cannot use your power on yourself."},
    "target_not_alive": {"it": "{target} non è più in vita.", "en": "{target} is no longer alive."},
    "target_not_dead": {"it": "{target} è ancora in vita.", "en": "{target} is still alive."},
    "not_mayor": {"it": "Solo il Sindaco in vita può nominare il Vicesindaco.",
                  "en": "Only the living mayor can appoint a deputy."},
    "first_night_kill": {"it": "La prima notte non si uccide.",
                         "en": "Nobody can be killed on the first night."},
    # Set-up (SetupError, UnknownRole): completes "the rules refuse this set-up: ...".
    "mayor_not_a_player": {"it": "il Sindaco {name} non è un giocatore",
                           "en": "the mayor {name} is not a player"},
    "seated_twice": {"it": "{name} compare due volte", "en": "{name} is seated twice"},
    "unknown_role": {"it": "Non esiste un ruolo «{role}».", "en": "There is no role “{role}”."},
}

EVENTS = {
    # A death as everybody reads it; with its cause for the Masters (see death_line).
    "death": {"it": "Muore {player}.", "en": "{player} dies."},
    "death_cause": {"it": "Muore {player} ({cause}).", "en": "{player} dies ({cause})."},
    "death_pyre": {"it": "{player} muore sul rogo.", "en": "{player} dies at the stake."},
    "death_masters": {"it": "{player} muore per decisione dei Master.",
                      "en": "{player} dies by the Masters' decision."},
    "revive": {"it": "{player} torna in vita.", "en": "{player} comes back to life."},
    "mayor": {"it": "La carica di Sindaco va {player:a}.", "en": "{player} is now the mayor."},
    "mayor_none": {"it": "Non resta nessuno a cui affidare la carica di Sindaco.",
                   "en": "Nobody is left to hold the office of mayor."},
    "shout": {"it": "Urlo nella notte: «{text}»", "en": "A shout in the night: “{text}”"},
    # The end (see winner_line): "{winner}" is the winner with its verb ("vince il
    # Villaggio", "the Wolves win"), from FACTIONS or the winners' names.
    "game_over": {"it": "La partita è finita: {winner}.", "en": "The game is over: {winner}."},
    "game_over_draw": {"it": "La partita è finita in parità.", "en": "The game ends in a draw."},
    "failed": {"it": "Il tuo potere non ha avuto effetto.", "en": "Your power had no effect."},
    "corrupted": {"it": "La corruzione ti ha raggiunto: ora giochi per i Lupi.",
                  "en": "Corruption has reached you: you now play for the Wolves."},
    "role_letter": {"it": "Il tuo ruolo: {role}. Giochi per {faction}; la tua aura è {aura}.",
                    "en": "Your role: {role}. You play for {faction}; your aura is {aura}."},
    "pack": {"it": "Il tuo branco: {members}.", "en": "Your pack: {members}."},
    "rejected_at_resolution": {
        "it": "Un'azione non era più valida alla fine della fase: {why}",
        "en": "An action was no longer valid at the end of the phase: {why}"},
    # A day's vote (see pyre_line): its outcome, then the count.
    "pyre_no_quorum": {"it": "Votazione non valida: ha votato meno della metà dei vivi; "
                             "nessuno va al rogo.",
                       "en": "No valid vote: fewer than half the living voted; nobody is burned."},
    "pyre_burned": {"it": "Il villaggio manda al rogo {burned}.",
                    "en": "The village sends {burned} to the stake."},
    "pyre_nobody": {"it": "Nessuno va al rogo.", "en": "Nobody is burned."},
    "pyre_tally": {"it": "Voti: {tally}.", "en": "Votes: {tally}."},
}

# The welcome mail's lines about the game (BaseRuleset.welcome): what happens next,
# and an example of a mail command. A game of another kind brings its own.
WELCOME = {
    "start": {"it": "Riceverai il tuo ruolo quando i Master avvieranno la partita.",
              "en": "You will receive your role when the Masters start the game."},
    "example": {"it": "es. VOTO Carla", "en": "e.g. VOTE Carla"},
    "length": {"it": "La partita va avanti, un giorno e una notte dopo l'altra, finché una fazione vince.",
               "en": "The game goes on, day after night, until a faction wins."},
}

# The submission kinds of engine/core.py as a reminder lists them ("you have not
# played yet: vote, power").
ACTIONS = {
    "vote": {"it": "voto", "en": "vote"},
    "power": {"it": "potere", "en": "power"},
    "ritual": {"it": "rituale", "en": "ritual"},
    "elect": {"it": "elezione del Sindaco", "en": "mayor election"},
    "appoint": {"it": "nomina del successore", "en": "successor"},
    "become": {"it": "scelta del ruolo", "en": "role choice"},
    "question": {"it": "domanda", "en": "question"},
    "shout": {"it": "urlo", "en": "shout"},
    "notes": {"it": "note", "en": "notes"},
}

# The keys of a submission as a receipt or the desk lists them ("Voto: Carla").
KEYS = {
    "vote": {"it": "Voto", "en": "Vote"},
    "target": {"it": "Bersaglio", "en": "Target"},
    "target2": {"it": "Secondo bersaglio", "en": "Second target"},
    "power": {"it": "Potere", "en": "Power"},
    "ritual": {"it": "Rituale", "en": "Ritual"},
    "with": {"it": "Con", "en": "With"},
    "n": {"it": "Numero (n)", "en": "Number (n)"},
    "appoint": {"it": "Vicesindaco/successore", "en": "Deputy/successor"},
    "elect": {"it": "Sindaco", "en": "Mayor"},
    "become": {"it": "Diventa", "en": "Become"},
    "question": {"it": "Domanda", "en": "Question"},
    "shout": {"it": "Urlo", "en": "Shout"},
    "notes": {"it": "Note", "en": "Notes"},
    "satanista": {"it": "Satanista", "en": "Satanist"},  # lupus-live-12: the Satanista in a ritual
}

# Words for values inside events.
VALUES = {
    "yes": {"it": "sì", "en": "yes"},
    "no": {"it": "no", "en": "no"},
}


EVENTS.update({
    "disqualified": {"it": "I Master squalificano {players}.",
                     "en": "The Masters disqualify {players}."},
})


# The factions of the four games with their article, as a sentence names them ("vince il
# Villaggio", "the Wolves win"); ``many``: the Italian and English verb is plural.
FACTIONS = {
    "Villaggio": {"it": "il Villaggio", "en": "the Village"},
    "Lupi": {"it": "i Lupi", "en": "the Wolves", "many": "yes"},
    "Licantropi": {"it": "i Licantropi", "en": "the Werewolves", "many": "yes"},
    "Popolani": {"it": "i Popolani", "en": "the Commoners", "many": "yes"},
    "Negromanti": {"it": "i Negromanti", "en": "the Necromancers", "many": "yes"},
}
WINS = {"one": {"it": "vince {who}", "en": "{who} wins"},
        "many": {"it": "vincono {who}", "en": "{who} win"}}

# The colours of an aura, for the English reader (the rulebooks' words in Italian).
AURAS = {
    "bianca": {"it": "bianca", "en": "white"}, "nera": {"it": "nera", "en": "black"},
    "buona": {"it": "buona", "en": "good"}, "malvagia": {"it": "malvagia", "en": "evil"},
}


def masters_kind(events: dict[str, dict[str, str]], event: Any) -> str:
    """The entry to word ``event`` with: for an event of the Masters' own (``MASTER``)
    whose kind a player is told too in the second person ("Il tuo nuovo ruolo è..."),
    its Masters' wording in the third person, ``<kind>.masters``, when the catalogue
    has one; else the kind itself. A Masters' report never reads "you" (issue 31)."""
    from .core import MASTER
    if event.visibility == MASTER and f"{event.kind}.masters" in events:
        return f"{event.kind}.masters"
    return event.kind


def faction(name: Any, lang: str) -> str:
    """A faction with its article ("il Villaggio", "the Wolves"); an unknown one as it is."""
    return word(FACTIONS, str(name), lang) or str(name)


def faction_name(name: Any, lang: str) -> str:
    """A faction as a label's value ("Villaggio", "Village"): its name without the article."""
    named = faction(name, lang)
    for article in ("il ", "i ", "la ", "le ", "the "):
        if named.startswith(article) and named != str(name):
            return named[len(article):]
    return named


def aura(value: Any, lang: str) -> str:
    return word(AURAS, str(value), lang) or str(value)


def winner_line(events: dict[str, dict[str, str]], data: dict[str, Any], lang: str) -> str:
    """The end of a game: a draw, a faction with its verb ("vince il Villaggio"), or the
    players who won by name ("vince Bruno", "vincono Bruno e Dario")."""
    winner = data.get("winner")
    if winner in (None, "", "draw"):
        return word(events, "game_over_draw", lang) or ""
    if str(winner) in FACTIONS:
        who, many = faction(winner, lang), bool(FACTIONS[str(winner)].get("many"))
    else:
        players = [str(w) for w in data.get("winners") or []] or [str(winner)]
        who, many = names(players, lang), len(players) > 1
    return word(events, "game_over", lang, {
        "winner": word(WINS, "many" if many else "one", lang, {"who": who})}) or ""


def mayor_line(events: dict[str, dict[str, str]], data: dict[str, Any], lang: str) -> str:
    """Who holds the office of mayor now (nobody, when nobody is left alive)."""
    if not data.get("player"):
        return word(events, "mayor_none", lang) or ""
    return word(events, "mayor", lang, data) or ""


def role_letter(events: dict[str, dict[str, str]], data: dict[str, Any], lang: str,
                role: str | None = None) -> str:
    """A player's role as dealt: the role (``role``: as the reader's language names it),
    the side the player plays for, the aura."""
    return word(events, "role_letter", lang, {
        **data, "role": role or data.get("role"), "faction": faction(data.get("faction"), lang),
        "aura": aura(data.get("aura"), lang)}) or ""


# A role card's side (engine/cards.py): whom the role plays for, its aura, its marks.
CARD_SIDE = {
    "side": {"it": "Giochi per {faction}; la tua aura è {aura}.",
             "en": "You play for {faction}; your aura is {aura}."},
    "magic": {"it": "Il tuo potere è magico.", "en": "Your power is magic."},
    "mystic": {"it": "Hai l'attributo mistico.", "en": "You are a mystic."},
}


def card_side(faction_name: Any, aura_name: Any, lang: str, *, magic: bool = False,
              mystic: bool = False) -> str:
    """A role card's side: "Giochi per il Villaggio; la tua aura è bianca." and its marks."""
    out = [word(CARD_SIDE, "side", lang, {"faction": faction(faction_name, lang),
                                           "aura": aura(aura_name, lang)}) or ""]
    out += [word(CARD_SIDE, mark, lang) or "" for mark, on in (("magic", magic), ("mystic", mystic)) if on]
    return " ".join(out)


# The Mayor (Sindaco) of the two Lupus games: a set-up option, a title beside a name.
MAYOR = {"option": {"it": "Sindaco", "en": "Mayor"}, "title": {"it": "Sindaco", "en": "mayor"}}


def mayor_option() -> Any:
    """The set-up option that names the first Mayor (none: the set-up draws one)."""
    from .core import FormField
    return FormField("mayor", "player", required=False)


def mayor_titles(state: Any, player: str, lang: str) -> list[str]:
    return [word(MAYOR, "title", lang) or ""] if state.mayor == player else []


def mayor_choice(key: str, value: Any, lang: str) -> str | None:
    """The option's label on the desk (``describe_choice("option", "mayor")``)."""
    return word(MAYOR, "option", lang) if (key, value) == ("option", "mayor") else None


def mayor_drawn(events: list[Any]) -> dict[str, Any]:
    """The Mayor the set-up drew, kept when the draw is dealt."""
    drawn = [e.data["player"] for e in events if e.kind == "mayor"]
    return {"mayor": drawn[-1]} if drawn else {}


def word(table: dict[str, dict[str, str]], code: str, lang: str,
         params: dict[str, Any] | None = None) -> str | None:
    """A catalogue entry in ``lang`` (Italian when missing), formatted with ``params``.

    Beside plain ``{key}`` placeholders a template may say (``_Words``):
    ``{key:a}`` / ``{key:e}``: the name after "a" / "e", elided before a vowel in
    Italian ("tocca {player:a}": "tocca ad Anna"); ``{key:one|many}``: the form the
    number (or the length of the list) ``key`` asks for, ``#`` standing for the number
    ("{n:# moneta|# monete}", "{names:torna|tornano}"). A list reads as one phrase
    ("Anna, Bruno e Carla")."""
    entry = table.get(code)
    if not entry:
        return None
    lang = lang if lang in LANGS else "it"
    template = entry.get(lang) or entry.get("it") or ""
    try:
        return _Words(lang).vformat(template, (), dict(params or {}))
    except (KeyError, IndexError, ValueError, AttributeError):
        return template


class _Words(string.Formatter):
    """``str.format`` with the few grammatical specs of ``word``."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            one, many = format_spec.split("|", 1)
            count = len(value) if isinstance(value, (list, tuple, set, dict)) else value
            return plural(count, one, many).replace("#", number(count, self.lang))
        text = names(value, self.lang) if isinstance(value, (list, tuple)) else value
        if format_spec in ("a", "e"):
            return before(format_spec, str(text), self.lang)
        return super().format_field(text, format_spec)


# -- the grammar of names, lists and numbers (issue 21) ---------------------------------
# A seat's grammatical gender is unknown: no sentence makes a participle or an adjective
# agree with a player's name ("Rita è morto"); say it with a verb or a noun instead
# ("Rita muore sul rogo", "Rita è fuori dal gioco"). docs/rulesets.md, "Wording".

_VOWELS = "aeiouAEIOUàèéìòùÀÈÉÌÒÙ"
_ARTICLES = ("i ", "il ", "gli ", "l'", "la ", "le ", "lo ")  # "e i Lupi", not "ed i Lupi"


def before(preposition: str, name: str, lang: str = "it") -> str:
    """"a" or "e" and the name after it, "ad" / "ed" before a vowel in Italian:
    "ad Anna", "a Bruno", "ed Elena". English (or any other word) goes as it is."""
    name = str(name)
    if (lang == "it" and preposition in ("a", "e") and name[:1] in _VOWELS
            and not name.startswith(_ARTICLES)):
        preposition += "d"
    return f"{preposition} {name}"


def names(items: Any, lang: str) -> str:
    """Names as one phrase: "Anna, Bruno e Carla", "Anna ed Elena"; "Anna, Bruno and
    Carla"; "—" for none."""
    items = [str(i) for i in (items or [])]
    if not items:
        return "—"
    if len(items) == 1:
        return items[0]
    last = before("e", items[-1], lang) if lang == "it" else f"and {items[-1]}"
    return f"{', '.join(items[:-1])} {last}"


def plural(count: Any, one: str, many: str) -> str:
    """The form the number asks for: ``one`` for 1 (and -1), ``many`` otherwise (0 too:
    "0 monete", "0 coins")."""
    try:
        return one if abs(float(count)) == 1 else many
    except (TypeError, ValueError):
        return many


def counted(count: Any, one: str, many: str, lang: str = "it") -> str:
    """A number and its noun: "1 moneta", "3 monete", "1 coin"."""
    return f"{number(count, lang)} {plural(count, one, many)}"


def number(value: Any, lang: str) -> str:
    """1.25 as the reader writes it (1,25 in Italian)."""
    if isinstance(value, float):
        text = f"{value:g}"
        return text if lang == "en" else text.replace(".", ",")
    return str(value)


def listing(value: Any, lang: str = "it") -> str:
    """Names (and what goes with each) as one phrase: "Anna (Lupo) e Bruno (Lupo)"."""
    if isinstance(value, dict):
        return names([f"{k} ({v})" for k, v in value.items()], lang)
    if isinstance(value, (list, tuple)):
        return names(value, lang)
    return "—" if value in (None, "") else str(value)


def tally_line(tally: dict[str, Any], lang: str) -> str:
    """A count, most votes first: "Carla 3, Anna 1"."""
    ranked = sorted(tally.items(), key=lambda kv: (-float(kv[1]), kv[0]))
    return ", ".join(f"{name} {number(votes, lang)}" for name, votes in ranked)


def death_line(events: dict[str, dict[str, str]], causes: dict[str, dict[str, str]],
               data: dict[str, Any], lang: str) -> str:
    """A death; its cause only if the event still carries one (the Masters' copy,
    or a cause everybody saw: the stake, the Masters' own decision)."""
    player, cause = data.get("player"), data.get("cause")
    if cause in ("pyre", "masters"):
        return word(events, f"death_{cause}", lang, {"player": player}) or ""
    if cause:
        label = word(causes, cause, lang) or str(cause)
        return word(events, "death_cause", lang, {"player": player, "cause": label}) or ""
    return word(events, "death", lang, {"player": player}) or ""


def pyre_line(events: dict[str, dict[str, str]], data: dict[str, Any], lang: str,
              tally_code: str = "pyre_tally") -> str:
    """A day's vote: who goes to the stake, then the count under ``tally_code``."""
    if not data.get("quorum"):
        head = word(events, "pyre_no_quorum", lang)
    elif data.get("burned"):
        head = word(events, "pyre_burned", lang, {"burned": data["burned"]})
    else:
        head = word(events, "pyre_nobody", lang)
    tally = data.get("tally") or {}
    if tally:
        head = f"{head} {word(events, tally_code, lang, {'tally': tally_line(tally, lang)})}"
    return head or ""


def rejected_line(ruleset: Any, data: dict[str, Any], lang: str) -> str:
    """An action that was valid when sent but not when its phase closed, and why."""
    code = str(data.get("code") or "")
    why = ruleset.describe_rejection(code, data.get("params") or {}, lang) or code
    return word(ruleset.EVENTS, "rejected_at_resolution", lang, {"why": why}) or why


# --------------------------------------------------------------------------- asked by the service's pages
# What the reserved area and its forms ask of a ruleset (engine/interface.py): kept apart
# from the catalogue above, and read only through the methods named with each table.

# A text longer than the ruleset's TEXT_LIMITS allow (the service refuses it before the
# rules see it, ``<key>_too_long``): the core's free-text keys.
REJECTIONS.update({
    "shout_too_long": {
        "it": "L'urlo è troppo lungo ({length} caratteri, al massimo {limit}): non è stato registrato. "
              "Accorcialo e rimandalo.",
        "en": "The shout is too long ({length} characters, at most {limit}): it was not recorded. "
              "Shorten it and send it again."},
    "question_too_long": {
        "it": "La domanda è troppo lunga ({length} caratteri, al massimo {limit}): non è stata "
              "registrata. Accorciala e rimandala.",
        "en": "The question is too long ({length} characters, at most {limit}): it was not recorded. "
              "Shorten it and send it again."},
    "notes_too_long": {
        "it": "Le note sono troppo lunghe ({length} caratteri, al massimo {limit}): non sono state "
              "registrate. Accorciale e rimandale.",
        "en": "The notes are too long ({length} characters, at most {limit}): they were not recorded. "
              "Shorten them and send them again."},
})

# What a player knows of themself (BaseRuleset.self_facts, self_status).
SELF = {
    "role": {"it": "Ruolo", "en": "Role"},
    "faction": {"it": "Fazione", "en": "Faction"},
    "aura": {"it": "Aura", "en": "Aura"},
    "alive": {"it": "Sei in vita.", "en": "You are alive."},
    "dead": {"it": "Non sei più in vita: giochi da fantasma.", "en": "You are dead: you play as a ghost."},
}

# The two Lupus games' forms (``form_title``, ``field_label``, ``field_help`` below):
# titles by submission kind ("power.named": a power form labelled "form.power.<name>"),
# labels and help by submission key.
FORM_TITLES = {
    "vote": {"it": "Voto per il rogo", "en": "Pyre vote"},
    "power": {"it": "Il tuo potere", "en": "Your power"},
    "power.named": {"it": "Il tuo potere: {name}", "en": "Your power: {name}"},
    "become": {"it": "Scegli il tuo ruolo", "en": "Choose your role"},
    "question": {"it": "Domanda ai Master", "en": "Question to the Masters"},
    "shout": {"it": "Urlo notturno", "en": "Night shout"},
    "notes": {"it": "Note", "en": "Notes"},
}
FIELD_LABELS = {
    "vote": {"it": "Voto per il rogo", "en": "Vote for the pyre"},
    "target": {"it": "Bersaglio", "en": "Target"},
    "target2": {"it": "Secondo bersaglio", "en": "Second target"},
    "power": {"it": "Potere", "en": "Power"},
    "with": {"it": "Insieme a", "en": "Together with"},
    "n": {"it": "n", "en": "n"},
    "become": {"it": "Ruolo da assumere", "en": "Role to become"},
    "question": {"it": "Domanda per i Master", "en": "Question for the Masters"},
    "shout": {"it": "Urlo notturno", "en": "Night shout"},
    "notes": {"it": "Note", "en": "Notes"},
}
FIELD_HELP = {
    "shout": {"it": "Anonimo: pubblicato con il prossimo bollettino.",
              "en": "Anonymous: published with the next bulletin."},
    "question": {"it": "Una sola domanda Sì/No in tutta la partita; rispondono i Master.",
                 "en": "One yes/no question in the whole game; the Masters answer it."},
}


def form_title(form: Any, lang: str) -> str | None:
    """A Lupus form's title by its kind; a power form labelled ``form.power.<name>``
    names the power."""
    if form.kind == "power" and form.label.startswith("form.power."):
        return word(FORM_TITLES, "power.named", lang, {"name": form.label.removeprefix("form.power.")})
    return word(FORM_TITLES, form.kind, lang)


def field_label(field: str, lang: str) -> str | None:
    return word(FIELD_LABELS, field, lang)


def field_help(field: str, lang: str) -> str | None:
    return word(FIELD_HELP, field, lang)

# A post to a room or a whisper refused (engine/rooms.py: ``Refusal``), as the service
# tells the sender; a ruleset words them in its own terms where they differ (Complots'
# eliminated are not "the dead").
REJECTIONS.update({
    "room_unknown": {
        "it": "Questa stanza non c'è in questa partita: il messaggio non è stato pubblicato.",
        "en": "This game has no such room: the post was not published."},
    "room_not_member": {
        "it": "Non fai parte di questa stanza: il messaggio non è stato pubblicato.",
        "en": "You are not in this room: the post was not published."},
    "room_read_only": {
        "it": "In questa stanza ora puoi soltanto leggere: il messaggio non è stato pubblicato.",
        "en": "You may only read this room now: the post was not published."},
    "room_night_silence": {
        "it": "Di notte la piazza tace (scelta delle Master): il messaggio non è stato "
              "pubblicato. Potrai scriverlo di giorno.",
        "en": "At night the piazza is silent (the Masters' choice): the post was not published. "
              "You may post it by day."},
    "room_dead_read_only": {
        "it": "In questa partita i morti leggono ma non scrivono nelle stanze (scelta delle "
              "Master): il messaggio non è stato pubblicato.",
        "en": "In this game the dead read the rooms but do not post in them (the Masters' "
              "choice): the post was not published."},
    "whispers_off": {
        "it": "In questa partita non si aprono conversazioni private: si parla nelle stanze.",
        "en": "This game has no private conversations: all talk is in the rooms."},
    "whisper_not_in_game": {
        "it": "Solo chi gioca questa partita può scrivere in privato ai suoi giocatori.",
        "en": "Only the players of this game may write privately to its players."},
    "whisper_nobody": {
        "it": "Una conversazione privata va aperta con almeno un altro giocatore.",
        "en": "A private conversation is opened with at least one other player."},
    "whisper_recipients": {
        "it": "Una conversazione privata va aperta con altri giocatori di questa partita; "
              "«{player}» non lo è.",
        "en": "A private conversation is opened with other players of this game; "
              "“{player}” is not one."},
    "whisper_out": {
        "it": "{player} non gioca più in questa partita: niente conversazioni private.",
        "en": "{player} no longer plays in this game: no private conversations."},
    "whisper_dead_to_living": {
        "it": "In questa partita i morti non scrivono in privato ai vivi (scelta delle Master): "
              "{players}.",
        "en": "In this game the dead do not write privately to the living (the Masters' "
              "choice): {players}."},
})
