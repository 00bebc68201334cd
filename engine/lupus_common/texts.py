"""The wording the three Lupus games share: refusals and events of powers, votes at the
stake and the mayor; their factions and auras; their forms; the words for what a player
knows of themself. Each game's ``texts`` extends these (``{**texts.EVENTS, ...}``) as
these extend the base catalogue (``engine/texts.py``), whose grammar they use.
"""
from __future__ import annotations

from typing import Any

from .. import texts as base
from ..core import FormField
from ..texts import names, tally_line, word

REJECTIONS = {**base.REJECTIONS,
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
    "mayor_not_a_player": {"it": "il Sindaco {name} non è un giocatore",
                           "en": "the mayor {name} is not a player"},
    # A text longer than TEXT_LIMITS allow (the service refuses it before the rules see
    # it, ``<key>_too_long``): the free-text keys of the Lupus games.
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
}

# "{winner}" of the base ``game_over`` is, in these games, the winner with its verb
# ("vince il Villaggio", "the Wolves win": see winner_line).
EVENTS = {**base.EVENTS,
    # A death with its cause, as the Masters read it (see death_line).
    "death_cause": {"it": "Muore {player} ({cause}).", "en": "{player} dies ({cause})."},
    "death_pyre": {"it": "{player} muore sul rogo.", "en": "{player} dies at the stake."},
    "mayor": {"it": "La carica di Sindaco va {player:a}.", "en": "{player} is now the mayor."},
    "mayor_none": {"it": "Non resta nessuno a cui affidare la carica di Sindaco.",
                   "en": "Nobody is left to hold the office of mayor."},
    "shout": {"it": "Urlo nella notte: «{text}»", "en": "A shout in the night: “{text}”"},
    "failed": {"it": "Il tuo potere non ha avuto effetto.", "en": "Your power had no effect."},
    "corrupted": {"it": "La corruzione ti ha raggiunto: ora giochi per i Lupi.",
                  "en": "Corruption has reached you: you now play for the Wolves."},
    "role_letter": {"it": "Il tuo ruolo: {role}. Giochi per {faction}; la tua aura è {aura}.",
                    "en": "Your role: {role}. You play for {faction}; your aura is {aura}."},
    "pack": {"it": "Il tuo branco: {members}.", "en": "Your pack: {members}."},
    # A day's vote (see pyre_line): its outcome, then the count.
    "pyre_no_quorum": {"it": "Votazione non valida: ha votato meno della metà dei vivi; "
                             "nessuno va al rogo.",
                       "en": "No valid vote: fewer than half the living voted; nobody is burned."},
    "pyre_burned": {"it": "Il villaggio manda al rogo {burned}.",
                    "en": "The village sends {burned} to the stake."},
    "pyre_nobody": {"it": "Nessuno va al rogo.", "en": "Nobody is burned."},
    "pyre_tally": {"it": "Voti: {tally}.", "en": "Votes: {tally}."},
}

# The welcome mail's lines about the game (LupusRuleset.welcome): what happens next,
# and an example of a mail command.
WELCOME = {
    "start": {"it": "Riceverai il tuo ruolo quando i Master avvieranno la partita.",
              "en": "You will receive your role when the Masters start the game."},
    "example": {"it": "es. VOTO Carla", "en": "e.g. VOTE Carla"},
    "length": {"it": "La partita va avanti, un giorno e una notte dopo l'altra, finché una fazione vince.",
               "en": "The game goes on, day after night, until a faction wins."},
}

# The submission kinds (engine/lupus_common/actions.py) as a reminder lists them ("you have not
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

# The factions of the three Lupus games with their article, as a sentence names them ("vince il
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


def mayor_option() -> FormField:
    """The set-up option that names the first Mayor (none: the set-up draws one)."""
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


# What a player knows of themself (LupusRuleset.self_facts, self_status).
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
