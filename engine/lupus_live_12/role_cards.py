"""The role cards of Lupus LIVE! 12th edition (engine/cards.py), written from the
rulebook ("Personaggi e poteri", and "Principale" §1.4, §1.9, §1.10 for what every
player does): what each character does, when, its form and mail line, what it knows."""
from __future__ import annotations

from typing import Sequence

from ..cards import CardText, RoleCard, Words, written
from ..lupus_common import texts as lupus_texts
from ..lupus_common.cards import POWER_FORMS
from .roles import ALIVE, ANY, DEAD, LUPI, ROLES
from .vocabulary import ROLES_EN

# What every card of a targeted power shows as its form (Principale §1.4.2).
_FORM = {
    **POWER_FORMS,
    None: {"it": "Nessun modulo per il ruolo: di giorno voti con il modulo «Voto», di notte "
                 "puoi lasciare un urlo e le note.",
           "en": "No form for the role: by day you vote with the “Vote” form, at night you may "
                 "leave a shout and notes."},
}
_POWER_MAIL = {"it": "POTERE {name}", "en": "POWER {name}"}
_VILLAGE_KNOWS = {"it": "Solo il tuo ruolo: nel Villaggio nessuno sa chi sono gli altri.",
                  "en": "Only your own role: in the Village nobody knows who the others are."}
_WOLVES_KNOWS = {"it": "Chi sono gli altri giocatori della fazione dei Lupi (li trovi con il tuo "
                       "ruolo), e loro sanno chi sei tu.",
                 "en": "Who the other players of the Wolves' faction are (listed with your role), "
                       "and they know who you are."}
_EVERY_NIGHT = {"it": "Una volta a notte, ogni notte, anche la prima.",
                "en": "Once a night, every night, the first one too."}
_NEVER = {"it": "Mai: il ruolo non ha un potere da usare.",
          "en": "Never: the role has no power to use."}


def _card(does: Words, when: Words = _EVERY_NIGHT, *, mail: tuple[Words, ...] = (_POWER_MAIL,),
          form: Words | None = None, knows: Words | None = None, target: str | None = None) -> CardText:
    return CardText(does=does, when=when, form=form or _FORM[target], mail=mail,
                    knows=knows or {})


CARDS: dict[str, CardText] = {
    "Contadino": _card(
        {"it": "Nessun potere speciale: aiuta il Villaggio a scoprire i Lupi con il voto e con la "
               "discussione.",
         "en": "No special power: help the Village find the Wolves by voting and talking."},
        _NEVER, mail=()),
    "Cacciatore": _card(
        {"it": "Scegli un giocatore vivo da tenere sotto tiro: se quella notte i Lupi uccidono te, "
               "muore anche lui.",
         "en": "Pick a living player to keep in your sights: if the Wolves kill you that night, "
               "that player dies too."}, target=ALIVE,
        mail=({"it": "SPARO {name}", "en": "SHOOT {name}"},)),
    "Erede": _card(
        {"it": "All'inizio nessun potere. Se sei ancora in vita il giorno [n/4]+1 (n: i giocatori), "
               "scegli un ruolo del Villaggio, tranne Guardia del corpo ed Erede, e lo diventi a "
               "tutti gli effetti.",
         "en": "No power at the start. If you are still alive on day [n/4]+1 (n: the players), "
               "choose a Village role, except Bodyguard and Heir, and become it in every respect."},
        {"it": "Una volta, dal giorno [n/4]+1 in poi, se sei in vita.",
         "en": "Once, from day [n/4]+1 on, if you are alive."},
        form={"it": "Quando arriva il momento, nell'area riservata compare il modulo «Scelta del "
                    "ruolo»: scegli il ruolo dall'elenco e premi «Invia».",
              "en": "When the time comes, your reserved area shows the “Role choice” form: pick "
                    "the role from the list and press “Submit”."},
        mail=({"it": "DIVENTO Veggente", "en": "BECOME Seer"},)),
    "Espansivo": _card(
        {"it": "Scegli un giocatore vivo: i Master gli dicono che sei l'Espansivo.",
         "en": "Pick a living player: the Masters tell them that you are the Expansive."},
        {"it": "Di notte, anche la prima; dopo una notte in cui ci riesci, salti la notte "
               "successiva.",
         "en": "At night, the first one too; after a night it works, you skip the next night."},
        target=ALIVE),
    "Guardia del corpo": _card(
        {"it": "Scegli un giocatore vivo da proteggere: se quella notte i Lupi lo attaccano, non "
               "muore. Non vale su di te.",
         "en": "Pick a living player to protect: if the Wolves attack them that night, they do "
               "not die. You cannot protect yourself."}, target=ALIVE,
        mail=({"it": "PROTEGGO {name}", "en": "PROTECT {name}"},)),
    "Mago": _card(
        {"it": "Scegli un giocatore vivo: scopri se ha un potere magico.",
         "en": "Pick a living player: you learn whether they have a magic power."}, target=ALIVE),
    "Mannella": _card(
        {"it": "La prima volta che il villaggio ti manda al rogo non muori (anche se altro ti "
               "avrebbe salvato, la protezione è usata); dalla seconda volta il rogo è normale.",
         "en": "The first time the village sends you to the stake you do not die (even if "
               "something else would have saved you, the protection is spent); from the second "
               "time the stake works as usual."},
        {"it": "Al tuo primo rogo, senza che tu debba fare nulla.",
         "en": "At your first stake, without your doing anything."}, mail=()),
    "Medium": _card(
        {"it": "Scegli un giocatore morto: scopri se ha l'aura nera.",
         "en": "Pick a dead player: you learn whether their aura is black."}, target=DEAD),
    "Messia": _card(
        {"it": "Scegli un giocatore morto: se tu muori entro la fine del giorno dopo, lui torna in "
               "vita con il suo potere (non con la carica di Sindaco).",
         "en": "Pick a dead player: if you die by the end of the next day, they come back to "
               "life with their power (not with the office of mayor)."}, target=DEAD,
        mail=({"it": "RESUSCITO {name}", "en": "REVIVE {name}"},)),
    "Missile": _card(
        {"it": "La seconda, la terza e la quarta notte devi scegliere un giocatore vivo, ogni volta "
               "diverso. Se una di queste notti non scegli, muori; se scegli tre giocatori del "
               "Villaggio, muori alla fine della quarta notte.",
         "en": "On the second, third and fourth nights you must pick a living player, a "
               "different one each time. If you do not pick on one of these nights, you die; if "
               "you pick three Village players, you die at the end of the fourth night."},
        {"it": "Solo la seconda, la terza e la quarta notte: sono obbligatorie.",
         "en": "Only on the second, third and fourth nights: they are compulsory."}, target=ALIVE),
    "Profeta": _card(
        {"it": "Fai ai Master una domanda sulla partita a cui si risponde sì o no: la risposta è "
               "sempre vera. Se il potere ti viene impedito, la domanda è sprecata.",
         "en": "Ask the Masters a yes-or-no question about the game: the answer is always true. "
               "If your power is hindered, the question is wasted."},
        {"it": "Una volta in tutta la partita, di notte.",
         "en": "Once in the whole game, at night."},
        form={"it": "Di notte, nell'area riservata, il modulo «Domanda»: scrivi la domanda e premi "
                    "«Invia».",
              "en": "At night, in your reserved area, the “Question” form: write the question "
                    "and press “Submit”."},
        mail=({"it": "DOMANDA {name} è un Lupo Mannaro?", "en": "QUESTION Is {name} a werewolf?"},)),
    "Veggente": _card(
        {"it": "Scegli un giocatore vivo: scopri se ha l'aura nera.",
         "en": "Pick a living player: you learn whether their aura is black."}, target=ALIVE),
    "Lupo Mannaro": _card(
        {"it": "Con il branco scegli un giocatore vivo da sbranare: muore se tutti i Lupi Mannari "
               "che usano il potere indicano lo stesso giocatore e nessuno lo protegge.",
         "en": "With the pack, pick a living player to maul: they die if every Werewolf who uses "
               "the power names the same player and nobody protects them."},
        {"it": "Una volta a notte, dalla seconda notte: la prima notte non si uccide.",
         "en": "Once a night, from the second night: nobody is killed on the first night."},
        target=ALIVE, knows=_WOLVES_KNOWS,
        mail=({"it": "SBRANO {name}", "en": "MAUL {name}"},)),
    "Avvocato": _card(
        {"it": "Scegli un giocatore vivo: se il giorno dopo il villaggio lo manda al rogo, non "
               "muore.",
         "en": "Pick a living player: if the village sends them to the stake the next day, they "
               "do not die."},
        {"it": "Di notte, anche la prima; dopo una notte in cui ci riesci, salti la notte "
               "successiva.",
         "en": "At night, the first one too; after a night it works, you skip the next night."},
        target=ALIVE, knows=_WOLVES_KNOWS),
    "Fattucchiera": _card(
        {"it": "Scegli un giocatore, vivo o morto (anche su di te): le risposte sì/no dei poteri "
               "usati su di lui quella notte sono invertite.",
         "en": "Pick a player, living or dead (yourself too): the yes/no answers of the powers "
               "used on them that night are reversed."}, target=ANY, knows=_WOLVES_KNOWS),
    "Rasputin": _card(
        {"it": "Scegli un giocatore morto: scopri se è corrotto.",
         "en": "Pick a dead player: you learn whether they are corrupted."},
        {"it": "Di notte, anche la prima; dopo una notte in cui ci riesci, salti la notte "
               "successiva.",
         "en": "At night, the first one too; after a night it works, you skip the next night."},
        target=DEAD, knows=_WOLVES_KNOWS),
    "Sabbino": _card(
        {"it": "Il tuo voto per il rogo pesa 0 (cambia solo come quello di tutti); l'aura è "
               "bianca, ma giochi per i Lupi.",
         "en": "Your vote for the stake weighs 0 (it changes only as everyone's does); your aura "
               "is white, but you play for the Wolves."}, _NEVER, mail=(), knows=_WOLVES_KNOWS),
    "Satanista": _card(
        {"it": "In un rituale dei fantasmi di almeno 3 partecipanti prendi il posto di 2 di loro: indichi "
               "il rituale, gli altri fantasmi e il bersaglio; loro devono indicare te.",
         "en": "In a ghosts' ritual of 3 participants or more you take the place of 2: you name "
               "the ritual, the other ghosts and the target; they must name you."},
        {"it": "Una volta a notte, quando ci sono dei morti.",
         "en": "Once a night, when there are dead players."},
        form={"it": "Di notte, nell'area riservata, il modulo «Rituale (Satanista)»: il rituale, "
                    "i fantasmi con cui lo svolgi e il bersaglio.",
              "en": "At night, in your reserved area, the “Ritual (Satanista)” form: the ritual, "
                    "the ghosts you perform it with and the target."},
        mail=({"it": "RITUALE Spionaggio CON {name}, {other} SU {third}",
               "en": "RITUAL Espionage WITH {name}, {other} ON {third}"},), knows=_WOLVES_KNOWS),
    "Sequestratore": _card(
        {"it": "Scegli un giocatore vivo: quella notte non può usare il suo potere.",
         "en": "Pick a living player: that night they cannot use their power."}, target=ALIVE,
        knows=_WOLVES_KNOWS, mail=({"it": "SEQUESTRO {name}", "en": "KIDNAP {name}"},)),
    "Usurpatore": _card(
        {"it": "Scegli un giocatore: se è l'Erede, muore, e tu scegli un altro ruolo dei Lupi e lo "
               "diventi.",
         "en": "Pick a player: if they are the Heir, they die, and you choose another Wolves' role "
               "and become it."},
        {"it": "Di notte; dopo una notte in cui scegli, salti la notte successiva.",
         "en": "At night; after a night you pick, you skip the next night."},
        target=ANY, knows=_WOLVES_KNOWS),
}

# What every player does besides the role (Principale §1.4, §1.10, Personaggi §3), added
# to the "when" of every card: the vote, and the rituals once dead.
_EVERYONE = {"it": " Di giorno voti chi mandare al rogo; dopo la morte partecipi ai rituali dei "
                   "fantasmi (RITUALE).",
             "en": " By day you vote whom to send to the stake; once dead you take part in the "
                   "ghosts' rituals (RITUAL)."}


def role_card(role: str, lang: str, example_names: Sequence[str]) -> RoleCard | None:
    text, info = CARDS.get(role), ROLES.get(role)
    if text is None or info is None:
        return None
    english = ROLES_EN.get(role) if lang == "en" else None
    name = f"{english} ({role})" if english and english != role else role
    side = lupus_texts.card_side(info.faction, info.aura, lang, magic=info.magic)
    knows = text.knows or (_WOLVES_KNOWS if info.faction == LUPI else _VILLAGE_KNOWS)
    when = {k: v + _EVERYONE[k] for k, v in text.when.items()}
    return written(role, CardText(text.does, when, text.form, knows, text.mail), lang,
                   example_names, name=name, side=side)
