"""The character cards of Complots (engine/cards.py), written from the rulebook (A.4,
B, C): what each character's power does, when it may be claimed, its button on the
game's page and its mail line. A player holds two characters, face down: anyone may
claim any character (a bluff), and anyone may challenge a claim."""
from __future__ import annotations

from typing import Sequence

from ..cards import CardText, RoleCard, Words, written
from .cards import AMBASCIATORE, ASSASSINO, CAPITANO, CONTESSA, DUCHESSA, INQUISITORE, card_name

_ON_TURN = {"it": "Basta annunciarlo, anche senza averlo (un bluff): chiunque può dubitare, e "
                  "chi perde la sfida scopre una carta.",
            "en": "You need only claim it, even without holding it (a bluff): anyone may "
                  "challenge, and whoever loses the challenge reveals a card."}
_KNOWS = {"it": "Le tue due carte coperte; le monete e le carte scoperte di tutti.",
          "en": "Your two face-down cards; everyone's coins and face-up cards."}
_SIDE = {"it": "Un personaggio: ogni giocatore ne tiene due coperti; l'ultimo con carte coperte "
               "vince.",
         "en": "A character: each player holds two face down; the last one with face-down cards "
               "wins."}


def _card(does: Words, when: Words, form: Words, mail: tuple[Words, ...]) -> CardText:
    return CardText(does=does, when=when, form=form, knows=_KNOWS, mail=mail)


CARDS: dict[str, CardText] = {
    DUCHESSA: _card(
        {"it": "Prendi 3 monete dal Tesoro (la Tassa): non può essere bloccata. Blocca gli Aiuti "
               "stranieri di chiunque.",
         "en": "Take 3 coins from the treasury (the Tax): it cannot be blocked. Blocks anyone's "
               "Foreign aid."},
        {"it": "La Tassa nel tuo turno; il blocco quando un altro prende gli Aiuti stranieri. "
               + _ON_TURN["it"],
         "en": "The Tax on your turn; the block when another player takes Foreign aid. "
               + _ON_TURN["en"]},
        {"it": "Nella pagina della partita, al tuo turno, il pulsante «Tassa (Duchessa)»; agli "
               "Aiuti stranieri di un altro, il pulsante del blocco con la Duchessa.",
         "en": "On the game's page, on your turn, the “Tax (Duchess)” button; on another "
               "player's Foreign aid, the button that blocks with the Duchess."},
        ({"it": "TASSA", "en": "TAX"}, {"it": "BLOCCO Duchessa", "en": "BLOCK Duchess"})),
    ASSASSINO: _card(
        {"it": "Paga 3 monete e uccidi un personaggio di un avversario, che ne scopre uno a sua "
               "scelta. La Contessa lo blocca (le 3 monete restano pagate).",
         "en": "Pay 3 coins and kill one of an opponent's characters: they reveal one of their "
               "choice. The Countess blocks it (the 3 coins stay paid)."},
        {"it": "Nel tuo turno, con almeno 3 monete. " + _ON_TURN["it"],
         "en": "On your turn, with 3 coins at least. " + _ON_TURN["en"]},
        {"it": "Nella pagina della partita, al tuo turno, il pulsante dell'Assassino accanto al "
               "nome dell'avversario.",
         "en": "On the game's page, on your turn, the Assassin's button beside the opponent's "
               "name."},
        ({"it": "ASSASSINO {name}", "en": "ASSASSIN {name}"},)),
    CONTESSA: _card(
        {"it": "Nessuna azione: blocca l'Assassino che prende di mira te.",
         "en": "No action: blocks the Assassin aimed at you."},
        {"it": "Quando un avversario manda l'Assassino contro di te. " + _ON_TURN["it"],
         "en": "When an opponent sends the Assassin against you. " + _ON_TURN["en"]},
        {"it": "Nella pagina della partita, quando l'Assassino prende di mira te, il pulsante "
               "del blocco con la Contessa.",
         "en": "On the game's page, when the Assassin is aimed at you, the button that blocks "
               "with the Countess."},
        ({"it": "BLOCCO Contessa", "en": "BLOCK Countess"},)),
    CAPITANO: _card(
        {"it": "Prendi 2 monete a un avversario (1 se ne ha una sola). Blocca il Capitano che "
               "ruba a te.",
         "en": "Take 2 coins from an opponent (1 if they have only one). Blocks the Captain "
               "stealing from you."},
        {"it": "Il furto nel tuo turno; il blocco quando un Capitano ruba a te. " + _ON_TURN["it"],
         "en": "The theft on your turn; the block when a Captain steals from you. "
               + _ON_TURN["en"]},
        {"it": "Nella pagina della partita, al tuo turno, il pulsante «Furto (Capitano)» accanto "
               "al nome dell'avversario.",
         "en": "On the game's page, on your turn, the “Steal (Captain)” button beside the "
               "opponent's name."},
        ({"it": "FURTO {name}", "en": "STEAL {name}"}, {"it": "BLOCCO Capitano", "en": "BLOCK Captain"})),
    AMBASCIATORE: _card(
        {"it": "Prendi 2 carte dalla Corte, poi tieni 2 delle 4 carte e rimetti le altre. Blocca "
               "il Capitano che ruba a te.",
         "en": "Take 2 cards from the court, then keep 2 of the 4 and put the others back. Blocks "
               "the Captain stealing from you."},
        {"it": "Lo scambio nel tuo turno; il blocco quando un Capitano ruba a te. " + _ON_TURN["it"],
         "en": "The exchange on your turn; the block when a Captain steals from you. "
               + _ON_TURN["en"]},
        {"it": "Nella pagina della partita, al tuo turno, il pulsante «Scambio»; poi le carte da "
               "tenere.",
         "en": "On the game's page, on your turn, the “Exchange” button; then the cards to "
               "keep."},
        ({"it": "SCAMBIO", "en": "EXCHANGE"}, {"it": "BLOCCO Ambasciatore", "en": "BLOCK Ambassador"})),
    INQUISITORE: _card(
        {"it": "O prendi 1 carta dalla Corte e tieni 2 delle 3, o guardi una carta di un "
               "avversario (la sceglie lui) e decidi se restituirla o fargliela scartare. Blocca "
               "il Capitano che ruba a te.",
         "en": "Either take 1 card from the court and keep 2 of the 3, or look at one of an "
               "opponent's cards (they choose which) and decide whether to give it back or have "
               "it discarded. Blocks the Captain stealing from you."},
        {"it": "Lo scambio o l'esame nel tuo turno; il blocco quando un Capitano ruba a te. "
               + _ON_TURN["it"],
         "en": "The exchange or the examination on your turn; the block when a Captain steals "
               "from you. " + _ON_TURN["en"]},
        {"it": "Nella pagina della partita, al tuo turno, i pulsanti «Scambio» ed «Esame "
               "(Inquisitore)».",
         "en": "On the game's page, on your turn, the “Exchange” and “Examination "
               "(Inquisitor)” buttons."},
        ({"it": "SCAMBIO", "en": "EXCHANGE"}, {"it": "ESAMINO {name}", "en": "EXAMINE {name}"})),
}


def role_card(character: str, lang: str, example_names: Sequence[str]) -> RoleCard | None:
    text = CARDS.get(character)
    if text is None:
        return None
    name = card_name(character, lang)
    name = f"{name} ({character})" if name != character else name
    return written(character, text, lang, example_names, name=name, side=_SIDE.get(lang) or _SIDE["it"])
