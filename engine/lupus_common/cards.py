"""What the role cards of the two Lupus games share (engine/cards.py): how a targeted
power's form reads, by whom it may target. Each game words its own formless roles."""
from __future__ import annotations

# Whom a power may target, as both games' role tables say it.
ALIVE, DEAD, ANY = "alive", "dead", "any"

POWER_FORMS = {
    ALIVE: {"it": "Di notte, nell'area riservata, il modulo «Potere»: scegli un giocatore vivo "
                  "dall'elenco e premi «Invia». Puoi cambiare scelta fino alla scadenza.",
            "en": "At night, in your reserved area, the “Power” form: pick a living player from "
                  "the list and press “Submit”. You can change your choice until the deadline."},
    DEAD: {"it": "Di notte, nell'area riservata, il modulo «Potere»: scegli un giocatore morto "
                 "dall'elenco e premi «Invia». Puoi cambiare scelta fino alla scadenza.",
           "en": "At night, in your reserved area, the “Power” form: pick a dead player from the "
                 "list and press “Submit”. You can change your choice until the deadline."},
    ANY: {"it": "Di notte, nell'area riservata, il modulo «Potere»: scegli un giocatore, vivo o "
                "morto, dall'elenco e premi «Invia». Puoi cambiare scelta fino alla scadenza.",
          "en": "At night, in your reserved area, the “Power” form: pick a player, living or "
                "dead, from the list and press “Submit”. You can change your choice until the "
                "deadline."},
}
