"""The role cards of Lupus in tempo reale, 7th edition (engine/cards.py), written from
the rulebook: what each character does (§3.7), when (§3.4, §3.9: every night, every
other night, once; no killing on the first night), its form and mail line, what it
knows from the start (§3.8)."""
from __future__ import annotations

from typing import Sequence

from .. import texts as base_texts
from ..cards import CardText, RoleCard, Words, written
from ..lupus_common import texts as lupus_texts
from ..lupus_common.cards import POWER_FORMS
from .roles import EVERY_NIGHT, EVERY_OTHER, KNOWLEDGE_GROUPS, ONCE, ROLES, SPETTRO_ROLE

# The characters in English (the rulebook's Italian names stay the game's own).
ROLES_EN = {
    "Contadino": "Farmer", "Custode del cimitero": "Graveyard keeper", "Divinatore": "Diviner",
    "Esorcista": "Exorcist", "Espansivo": "Expansive", "Guardia del corpo": "Bodyguard",
    "Investigatore": "Investigator", "Mago": "Wizard", "Massone": "Freemason", "Messia": "Messiah",
    "Sciamano": "Shaman", "Stalker": "Stalker", "Trasformista": "Shapeshifter", "Veggente": "Seer",
    "Voyeur": "Voyeur", "Lupo": "Wolf", "Assassino": "Assassin", "Avvocato": "Lawyer",
    "Diavolo": "Devil", "Fattucchiera": "Witch", "Necrofilo": "Necrophile", "Rinnegato": "Renegade",
    "Sequestratore": "Kidnapper", "Stregone": "Sorcerer", "Negromante": "Necromancer",
    "Fantasma": "Ghost", "Ipnotista": "Hypnotist", "Medium": "Medium", "Scrutatore": "Teller",
    "Spettro": "Spectre",
}

_FORM = {
    **POWER_FORMS,
    None: {"it": "Nessun modulo per il ruolo: di giorno voti con i moduli «Voto» ed «Elezione del "
                 "Sindaco».",
           "en": "No form for the role: by day you vote with the “Vote” and “Mayor election” "
                 "forms."},
}
_POWER_MAIL = ({"it": "POTERE {name}", "en": "POWER {name}"},)

_WHEN = {
    EVERY_NIGHT: {"it": "Ogni notte, anche la prima.", "en": "Every night, the first one too."},
    EVERY_OTHER: {"it": "Ogni due notti: dopo una notte in cui agisci, che riesca o no, salti la "
                        "notte successiva.",
                  "en": "Every other night: after a night you act, whether it works or not, you "
                        "skip the next night."},
    ONCE: {"it": "Una sola volta in tutta la partita, di notte.",
           "en": "Once in the whole game, at night."},
    None: {"it": "Mai: il ruolo non ha un potere da usare.",
           "en": "Never: the role has no power to use."},
}
# §3.4: "I poteri che uccidono un personaggio non possono essere utilizzati la prima notte".
_KILLER_WHEN = {
    EVERY_NIGHT: {"it": "Ogni notte dalla seconda: la prima notte non si uccide.",
                  "en": "Every night from the second: nobody is killed on the first night."},
    EVERY_OTHER: {"it": "Ogni due notti, dalla seconda (la prima notte non si uccide): dopo una "
                        "notte in cui agisci, che riesca o no, salti la notte successiva.",
                  "en": "Every other night, from the second (nobody is killed on the first "
                        "night): after a night you act, whether it works or not, you skip the "
                        "next night."},
}
_EVERYONE = {"it": " Di giorno voti chi mandare al rogo e, se vuoi, un nuovo Sindaco.",
             "en": " By day you vote whom to send to the stake and, if you like, a new mayor."}

# §3.8: whom each group knows from the start.
_GROUPS = {
    "massoni": {"it": "Chi sono gli altri Massoni.", "en": "Who the other Freemasons are."},
    "lupi": {"it": "Chi sono gli altri Lupi.", "en": "Who the other Wolves are."},
    "complici": {"it": "Chi sono gli Assassini, gli Avvocati, i Necrofili, i Rinnegati e i "
                       "Sequestratori della partita.",
                 "en": "Who the game's Assassins, Lawyers, Necrophiles, Renegades and Kidnappers "
                       "are."},
    "maghi_neri": {"it": "Chi sono i Diavoli, le Fattucchiere e gli Stregoni della partita.",
                   "en": "Who the game's Devils, Witches and Sorcerers are."},
    "negromanti": {"it": "Chi sono gli altri Negromanti.", "en": "Who the other Necromancers are."},
    "setta": {"it": "Chi sono gli Ipnotisti, i Medium e gli Scrutatori della partita.",
              "en": "Who the game's Hypnotists, Mediums and Tellers are."},
}
_ALONE = {"it": "Solo il tuo ruolo: nessuno ti è stato presentato.",
          "en": "Only your own role: nobody was introduced to you."}


def _card(does: Words, *, mail: tuple[Words, ...] = _POWER_MAIL, form: Words | None = None,
          knows: Words | None = None, when: Words | None = None) -> CardText:
    return CardText(does=does, when=when or {}, form=form or {}, knows=knows or {}, mail=mail)


CARDS: dict[str, CardText] = {
    "Contadino": _card({"it": "Nessun potere speciale: aiuta i Popolani con il voto e la discussione.",
                        "en": "No special power: help the Commoners by voting and talking."}, mail=()),
    "Custode del cimitero": _card(
        {"it": "Scegli un morto e sorveglia la sua tomba: se i Negromanti tentano di risvegliarlo "
               "come Spettro, falliscono. Scopri anche quanti altri hanno agito su di lui.",
         "en": "Pick a dead player and guard the grave: if the Necromancers try to wake them as a "
               "Spectre, they fail. You also learn how many others acted on them."}),
    "Divinatore": _card(
        {"it": "Nessun potere speciale: parti con quattro proposizioni «X ha il ruolo Y», "
               "esattamente due vere e due false.",
         "en": "No special power: you start with four statements “X has role Y”, exactly two "
               "true and two false."}, mail=(),
        knows={"it": "Le quattro proposizioni (le trovi con il tuo ruolo): due vere, due false.",
               "en": "The four statements (listed with your role): two true, two false."}),
    "Esorcista": _card(
        {"it": "Scegli un giocatore, vivo o morto, e benedici la sua casa: uno Spettro che agisce "
               "su di lui quella notte non ha effetto.",
         "en": "Pick a player, living or dead, and bless their house: a Spectre acting on them "
               "that night has no effect."}),
    "Espansivo": _card(
        {"it": "Scegli un giocatore vivo e vai a trovarlo: scopre chi sei.",
         "en": "Pick a living player and visit them: they learn who you are."}),
    "Guardia del corpo": _card(
        {"it": "Scegli un giocatore vivo e proteggilo: se i Lupi tentano di ucciderlo quella "
               "notte, non ci riescono. Scopri anche quanti altri hanno agito su di lui.",
         "en": "Pick a living player and protect them: if the Wolves try to kill them that night, "
               "they fail. You also learn how many others acted on them."},
        mail=({"it": "PROTEGGO {name}", "en": "PROTECT {name}"},)),
    "Investigatore": _card(
        {"it": "Scegli un morto e indaga: scopri il colore della sua aura.",
         "en": "Pick a dead player and investigate: you learn the colour of their aura."},
        mail=({"it": "INDAGO {name}", "en": "INVESTIGATE {name}"},)),
    "Mago": _card(
        {"it": "Scegli un giocatore, vivo o morto: scopri se è un mistico.",
         "en": "Pick a player, living or dead: you learn whether they are a mystic."}),
    "Massone": _card({"it": "Nessun potere speciale: conosci gli altri Massoni.",
                      "en": "No special power: you know the other Freemasons."}, mail=()),
    "Messia": _card(
        {"it": "Scegli un morto e resuscitalo: torna in vita all'inizio del giorno dopo, con i "
               "suoi poteri. Su uno Spettro non ha effetto.",
         "en": "Pick a dead player and raise them: they come back to life at the start of the "
               "next day, with their powers. It has no effect on a Spectre."}),
    "Sciamano": _card(
        {"it": "Scegli un morto e tormentane lo spirito: se è uno Spettro e agisce, il suo potere "
               "non ha effetto.",
         "en": "Pick a dead player and torment their spirit: if they are a Spectre and act, "
               "their power has no effect."}),
    "Stalker": _card(
        {"it": "Scegli un giocatore vivo e pedinalo: scopri su chi ha agito quella notte (non "
               "cosa ha fatto).",
         "en": "Pick a living player and follow them: you learn whom they acted on that night "
               "(not what they did)."}, mail=({"it": "SEGUO {name}", "en": "FOLLOW {name}"},)),
    "Trasformista": _card(
        {"it": "Scegli un morto e prendine il ruolo: se era dei Popolani con un potere di ogni "
               "notte o di ogni due notti, lo scopri e lo diventi; altrimenti non ha effetto.",
         "en": "Pick a dead player and take their role: if they were a Commoner with a power of "
               "every night or every other night, you learn it and become it; otherwise it has "
               "no effect."}),
    "Veggente": _card(
        {"it": "Scegli un giocatore vivo e scrutalo: scopri il colore della sua aura.",
         "en": "Pick a living player and scry them: you learn the colour of their aura."}),
    "Voyeur": _card(
        {"it": "Scegli un giocatore vivo e spialo: scopri quali altri vivi hanno agito su di lui "
               "quella notte.",
         "en": "Pick a living player and spy on them: you learn which other living players acted "
               "on them that night."}, mail=({"it": "OSSERVO {name}", "en": "WATCH {name}"},)),
    "Lupo": _card(
        {"it": "Con gli altri Lupi scegli un giocatore vivo da uccidere: muore se tutti i Lupi che "
               "agiscono scelgono lui e se è dei Popolani. Se due Lupi scelgono giocatori "
               "diversi, non muore nessuno.",
         "en": "With the other Wolves, pick a living player to kill: they die if every Wolf who "
               "acts picks them and they are a Commoner. If two Wolves pick different players, "
               "nobody dies."}, mail=({"it": "SBRANO {name}", "en": "MAUL {name}"},)),
    "Assassino": _card(
        {"it": "Scegli un giocatore vivo e punta il fucile su casa sua: uccidi a caso uno degli "
               "altri vivi che quella notte hanno usato il potere su di lui.",
         "en": "Pick a living player and aim your rifle at their house: you kill, at random, one "
               "of the other living players who used their power on them that night."}),
    "Avvocato": _card(
        {"it": "Scegli un giocatore vivo: se il giorno dopo il villaggio lo manda al rogo, non "
               "muore.",
         "en": "Pick a living player: if the village sends them to the stake the next day, they "
               "do not die."}),
    "Diavolo": _card(
        {"it": "Scegli un giocatore vivo e leggi nella sua anima: scopri il suo ruolo (non sui "
               "Negromanti).",
         "en": "Pick a living player and read their soul: you learn their role (not on the "
               "Necromancers)."}),
    "Fattucchiera": _card(
        {"it": "Scegli un giocatore, vivo o morto, e stregalo: quella notte il colore della sua "
               "aura risulta l'opposto.",
         "en": "Pick a player, living or dead, and bewitch them: that night their aura reads as "
               "the opposite colour."}),
    "Necrofilo": _card(
        {"it": "Scegli un morto e prendine il ruolo: se era della Fazione dei Lupi, lo scopri e lo "
               "diventi; altrimenti non ha effetto.",
         "en": "Pick a dead player and take their role: if they were of the Wolves' faction, you "
               "learn it and become it; otherwise it has no effect."}),
    "Rinnegato": _card({"it": "Nessun potere speciale: giochi per i Lupi con l'aura bianca.",
                        "en": "No special power: you play for the Wolves with a white aura."},
                       mail=()),
    "Sequestratore": _card(
        {"it": "Scegli un giocatore vivo e rapiscilo: se quella notte agisce, il suo potere non ha "
               "effetto, come se non avesse agito.",
         "en": "Pick a living player and kidnap them: if they act that night, their power has no "
               "effect, as if they had not acted."},
        mail=({"it": "SEQUESTRO {name}", "en": "KIDNAP {name}"},)),
    "Stregone": _card(
        {"it": "Scegli un giocatore vivo e stregane la casa: chiunque altro di vivo agisca su di "
               "lui quella notte non ha effetto.",
         "en": "Pick a living player and hex their house: anyone else alive acting on them that "
               "night has no effect."}),
    "Negromante": _card(
        {"it": "Con gli altri Negromanti scegli un morto dei Popolani e un potere soprannaturale: "
               "se tutti scegliete lo stesso morto e lo stesso potere, si risveglia come Spettro "
               "e gioca per voi.",
         "en": "With the other Necromancers, pick a dead Commoner and a supernatural power: if "
               "you all pick the same dead player and the same power, they wake as a Spectre "
               "and play for you."},
        form={"it": "Di notte, nell'area riservata, il modulo «Potere»: il morto da risvegliare e "
                    "il potere del nuovo Spettro; premi «Invia».",
              "en": "At night, in your reserved area, the “Power” form: the dead player to wake "
                    "and the new Spectre's power; press “Submit”."},
        when={"it": "Ogni notte in cui c'è un morto dei Popolani da risvegliare (la prima notte "
                    "non c'è ancora nessun morto: il modulo compare dalla prima notte dopo una "
                    "morte).",
              "en": "Every night there is a dead Commoner to wake (on the first night nobody has "
                    "died yet: the form appears from the first night after a death)."},
        mail=({"it": "RISVEGLIO {name} SPETTRO Morte", "en": "WAKE {name} SPECTRE Death"},)),
    "Fantasma": _card(
        {"it": "Nessun potere speciale in vita. Se muori diventi subito uno Spettro con un potere "
               "soprannaturale scelto a caso, e conosci i Negromanti.",
         "en": "No special power while alive. If you die you at once become a Spectre with a "
               "supernatural power drawn at random, and you learn who the Necromancers are."},
        mail=()),
    "Ipnotista": _card(
        {"it": "Scegli un giocatore vivo e controllane la mente: da allora, finché sei in vita, il suo "
               "voto per il rogo è il tuo (anche se non voti).",
         "en": "Pick a living player and control their mind: from then on, while you live, their "
               "vote for the stake is yours (even if you do not vote)."}),
    "Medium": _card(
        {"it": "Scegli un morto e contattane lo spirito: scopri il suo ruolo.",
         "en": "Pick a dead player and contact their spirit: you learn their role."}),
    "Scrutatore": _card(
        {"it": "Scegli un giocatore vivo: il giorno dopo i voti diretti a lui vanno a chi voti tu.",
         "en": "Pick a living player: the next day the votes cast for them go to whom you vote "
               "for."}),
    "Spettro": _card(
        {"it": "Resti tra i morti ma giochi per i Negromanti, con il potere soprannaturale che ti è "
               "stato dato (te lo dice la mail del risveglio): Amnesia, Confusione, Corruzione, "
               "Ipnosi, Illusione, Morte, Occultamento o Visione.",
         "en": "You stay dead but play for the Necromancers, with the supernatural power you were "
               "given (the mail that woke you names it): Amnesia, Confusion, Corruption, Hypnosis, "
               "Illusion, Death, Concealment or Vision."},
        when={"it": "Dalla notte dopo il risveglio, quanto spesso lo dice il potere (ogni notte, "
                    "ogni due notti, una volta).",
              "en": "From the night after you wake, as often as the power says (every night, "
                    "every other night, once)."},
        form={"it": "Di notte, nell'area riservata, il modulo «Potere»: il bersaglio (e, per "
                    "Confusione, Ipnosi e Illusione, il secondo); premi «Invia».",
              "en": "At night, in your reserved area, the “Power” form: the target (and, for "
                    "Confusion, Hypnosis and Illusion, the second one); press “Submit”."},
        knows={"it": "Chi sono i Negromanti che ti hanno risvegliato.",
               "en": "Who the Necromancers who woke you are."},
        mail=({"it": "POTERE {name}", "en": "POWER {name}"},
              {"it": "POTERE {name}, {other}", "en": "POWER {name}, {other}"})),
}


def role_name(role: object, lang: str) -> str:
    """A role as the reader names it: the rulebook's, with the English beside it in
    English ("Seer (Veggente)"), as lupus-live-12 and lupus-noctis name theirs."""
    role = str(role)
    english = ROLES_EN.get(role) if lang == "en" else None
    return f"{english} ({role})" if english and english != role else role


def role_card(role: str, lang: str, example_names: Sequence[str]) -> RoleCard | None:
    text = CARDS.get(role)
    info = SPETTRO_ROLE if role == SPETTRO_ROLE.name else ROLES.get(role)
    if text is None or info is None:
        return None
    name = role_name(role, lang)
    spectre = role == SPETTRO_ROLE.name
    side = (base_texts.word(_SPECTRE_SIDE, "side", lang) or "" if spectre
            else lupus_texts.card_side(info.faction, info.aura, lang, mystic=info.mystic))
    when = dict(text.when or (_KILLER_WHEN if info.kills else _WHEN)[info.frequency if info.target else None])
    if not spectre:  # a Spettro is dead: no vote
        when = {k: v + _EVERYONE[k] for k, v in when.items()}
    groups = [words for group, members in KNOWLEDGE_GROUPS if role in members
              for words in [_GROUPS[group]]]
    knows = text.knows or (groups[0] if groups else _ALONE)
    return written(role, CardText(text.does, when, text.form or _FORM[info.target], knows,
                                  text.mail if info.target or spectre else ()),
                   lang, example_names, name=name, side=side)


# §3.7: "Nel momento in cui un personaggio diviene uno Spettro, mantiene la sua aura".
_SPECTRE_SIDE = {"side": {"it": "Giochi per i Negromanti; la tua aura resta quella che avevi.",
                          "en": "You play for the Necromancers; your aura stays what it was."}}
