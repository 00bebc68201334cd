"""Wording of Complots events and refusals, in Italian and English.

Templates read the event's data (a number picks its noun's form: "{amount:# moneta|#
monete}", see ``engine.texts.word``); ``engine/complots/wording.py`` first turns card
and action codes into the reader's language (``{character}``, ``{card}``, ``{action}``...).

The names are the rulebook's ("A. Diverse azioni"): the 7-coin action that cannot be
blocked is the **Assassinio** (also "omicidio"; "colpo di stato" is accepted by mail as
a synonym), and the Assassino's power is worded as the book words it: "Assassino: paga 3
monete e uccide un personaggio". English follows: the Assassination, the Assassin.
"""
from __future__ import annotations

from .. import texts

ACTION_NAMES = {
    "income": {"it": "Reddito", "en": "Income"},
    "foreign_aid": {"it": "Aiuti stranieri", "en": "Foreign aid"},
    "coup": {"it": "Assassinio", "en": "Assassination"},
    "tax": {"it": "Tassa (Duchessa)", "en": "Tax (Duchess)"},
    "assassinate": {"it": "Assassino: paga 3 monete e uccide un personaggio",
                    "en": "the Assassin: pay 3 coins and kill a character"},
    "steal": {"it": "Furto (Capitano)", "en": "Steal (Captain)"},
    "exchange": {"it": "Scambio", "en": "Exchange"},
    "examine": {"it": "Esame (Inquisitore)", "en": "Examination (Inquisitor)"},
}

CHOICE_NAMES = {
    "pass": {"it": "Passo", "en": "Pass"},
    "challenge": {"it": "Sfido", "en": "Challenge"},
    "block": {"it": "Blocco", "en": "Block"},
    "return": {"it": "Restituisco", "en": "Give it back"},
    "discard": {"it": "Scarto", "en": "Discard"},
    "ambasciatore": {"it": "Ambasciatore", "en": "Ambassador"},
    "inquisitore": {"it": "Inquisitore", "en": "Inquisitor"},
    "variant": {"it": "Variante (quinto personaggio)", "en": "Variant (the fifth character)"},
}

# The windows (``phase.kind``) as receipts and pages name them.
MOMENT_NAMES = {
    "choose": {"it": "la scelta della carta dal mazzetto", "en": "the choice of a card from the bundle"},
    "turn": {"it": "il turno", "en": "the turn"},
    "answer": {"it": "le risposte all'azione", "en": "the answers to the action"},
    "block": {"it": "il blocco dopo il dubbio", "en": "the block after the challenge"},
    "block_challenge": {"it": "il dubbio sul blocco", "en": "the challenge of the block"},
    "lose": {"it": "la carta da scoprire", "en": "the card to reveal"},
    "exchange": {"it": "lo scambio", "en": "the exchange"},
    "show": {"it": "la carta da mostrare", "en": "the card to show"},
    "inspect": {"it": "la decisione dell'Inquisitore", "en": "the Inquisitor's decision"},
    "end": {"it": "la fine della partita", "en": "the end of the game"},
}

EVENTS = {
    "game_started": {"it": "Inizia la partita di Complots: {players} (variante {variant}).",
                     "en": "The Complots game begins: {players} (variant: {variant})."},
    "table": {"it": "Monete: {coins}. Carte nella Corte: {court}. Tesoro: {treasury}.",
              "en": "Coins: {coins}. Cards in the court: {court}. Treasury: {treasury}."},
    "bundle": {"it": "Il tuo mazzetto: {cards}. Ti è stata distribuita la carta {dealt}: scegline una dal mazzetto.",
               "en": "Your bundle: {cards}. You were dealt {dealt}: choose one card of the bundle."},
    "chose": {"it": "{player} ha scelto la sua carta.", "en": "{player} chose a card."},
    "chose_at_random": {"it": "{player} non ha scelto in tempo: la sua carta è stata presa a caso dal mazzetto.",
                        "en": "{player} did not choose in time: a card of the bundle was drawn at random."},
    "hand": {"it": "Le tue carte coperte: {cards}.", "en": "Your face-down cards: {cards}."},
    "hand_none": {"it": "Non ti restano carte coperte.", "en": "You have no face-down cards left."},
    "turn": {"it": "Turno {number}: tocca {player:a}.", "en": "Turn {number}: {player} to play."},
    "action": {"it": "{player} annuncia: {action}{on}.", "en": "{player} declares: {action}{on}."},
    # The two actions that kill, as the book words them (the others read "annuncia: ...").
    "action_coup": {"it": "{player} fa un Assassinio su {target}: paga 7 monete e non può essere bloccato.",
                    "en": "{player} makes an Assassination of {target}: pays 7 coins, and it cannot be blocked."},
    "action_assassinate": {"it": "{player} annuncia l'Assassino: paga 3 monete e uccide un personaggio di {target}.",
                           "en": "{player} claims the Assassin: pays 3 coins and kills one of {target}'s characters."},
    "turn_not_taken": {"it": "{player} non ha giocato in tempo: {action}{on}.",
                       "en": "{player} did not play in time: {action}{on}."},
    "gained": {"it": "{player} prende {amount:# moneta|# monete} dal Tesoro (ora {coins}).",
               "en": "{player} takes {amount:# coin|# coins} from the treasury (now {coins})."},
    "paid": {"it": "{player} paga {amount:# moneta|# monete} al Tesoro (ora {coins}).",
             "en": "{player} pays {amount:# coin|# coins} to the treasury (now {coins})."},
    "stole": {"it": "{player} prende {amount:# moneta|# monete} {target:a}.",
              "en": "{player} takes {amount:# coin|# coins} from {target}."},
    "challenge": {"it": "{player} dubita che {target} abbia {character}.",
                  "en": "{player} challenges {target}'s {character}."},
    "proved": {"it": "{player} mostra {character}, rimescola la carta nella Corte e ne pesca una nuova.",
               "en": "{player} shows the {character}, shuffles it into the court and draws a new card."},
    "bluff": {"it": "{player} non ha {character}: era un bluff.",
              "en": "{player} does not hold the {character}: it was a bluff."},
    "block": {"it": "{player} blocca {target} annunciando {character}.",
              "en": "{player} blocks {target}, claiming the {character}."},
    "blocked": {"it": "L'azione di {player} è bloccata da {by}.", "en": "{player}'s action is blocked by {by}."},
    "lost_card": {"it": "{player} scopre {card}.", "en": "{player} reveals the {card}."},
    "lost_card_at_random": {"it": "{player} non ha scelto in tempo: la sorte sceglie, e scopre {card}.",
                            "en": "{player} did not choose in time: the {card}, drawn at random, is revealed."},
    "eliminated": {"it": "{player} esce dal gioco: {coins:la sua moneta torna|le sue # monete tornano} "
                         "al Tesoro.",
                   "en": "{player} is out: {coins:their coin goes|their # coins go} back to the treasury."},
    "eliminated_none": {"it": "{player} esce dal gioco.", "en": "{player} is out."},
    "game_over": {"it": "{winner} vince la partita!", "en": "{winner} wins the game!"},
    "drew_from_court": {"it": "{player} pesca {count:# carta|# carte} dalla Corte.",
                        "en": "{player} draws {count:# card|# cards} from the court."},
    "drew": {"it": "Hai pescato: {drew}.", "en": "You drew: {drew}."},
    "replacement": {"it": "La tua nuova carta è {card}.", "en": "Your new card: {card}."},
    "exchanged": {"it": "{player} rimette {count:# carta|# carte} nella Corte, che viene mescolata.",
                  "en": "{player} puts {count:# card|# cards} back into the court, which is shuffled."},
    "exchange_not_chosen": {"it": "{player} non ha scelto in tempo: tiene le carte che aveva.",
                            "en": "{player} did not choose in time: they keep the cards they had."},
    "kept": {"it": "Tieni {cards}; rimetti nella Corte {returned}.",
             "en": "You keep {cards}; back to the court: {returned}."},
    "shown": {"it": "{player} mostra una carta {examiner:a}.", "en": "{player} shows a card to {examiner}."},
    "shown_at_random": {"it": "{player} non ha scelto in tempo: una carta tirata a sorte è mostrata {examiner:a}.",
                        "en": "{player} did not choose in time: a card drawn at random is shown to {examiner}."},
    "saw": {"it": "{target} ti mostra {saw}.", "en": "{target} shows you the {saw}."},
    "showed": {"it": "Hai mostrato {card} {examiner:a}.", "en": "You showed the {card} to {examiner}."},
    "returned": {"it": "{player} restituisce la carta {target:a}.",
                 "en": "{player} gives the card back to {target}."},
    "discarded": {"it": "{player} scarta la carta di {target}, che ne pesca un'altra dalla Corte.",
                  "en": "{player} discards {target}'s card; {target} draws another from the court."},
    "rejected_at_resolution": {"it": "La tua risposta non valeva più: {why}",
                               "en": "Your answer was no longer valid: {why}"},
}

REJECTIONS = {**texts.REJECTIONS,
    # -- the table's talk (rooms.py): the eliminated, not "the dead" --
    "room_dead_read_only": {
        "it": "In questa partita chi Ã¨ fuori dal gioco legge il tavolo ma non vi scrive (scelta "
              "dei Master): il messaggio non Ã¨ stato pubblicato.",
        "en": "In this game whoever is out of the game reads the table but does not post "
              "(the Masters' choice): the post was not published."},
    "whisper_dead_to_living": {
        "it": "In questa partita chi Ã¨ fuori dal gioco non scrive in privato a chi gioca ancora "
              "(scelta dei Master): {players}.",
        "en": "In this game whoever is out of the game does not write privately to those still "
              "playing (the Masters' choice): {players}."},
    # -- set-up (the desk shows these after "the rules refuse this set-up:") --
    "duplicate_player": {"it": "Due giocatori hanno lo stesso nome.",
                         "en": "Two players share a name."},
    "player_count": {"it": "Complots si gioca in 2-8, non in {count}.",
                     "en": "Complots is for 2 to 8 players, not {count}."},
    "unknown_variant": {"it": "Variante sconosciuta: «{variant}» (Ambasciatore o Inquisitore).",
                        "en": "Unknown variant “{variant}” (Ambassador or Inquisitor)."},
    "hand_size": {"it": "{player} deve avere due carte.", "en": "{player} must hold two cards."},
    "card_not_in_game": {"it": "{card} non è tra i personaggi di questa partita.",
                         "en": "{card} is not among this game's characters."},
    "card_not_available": {"it": "Non restano abbastanza carte nel mazzo ({card}).",
                           "en": "Not enough cards left in the deck ({card})."},
    "game_over": {"it": "La partita è finita.", "en": "The game is over."},
    "not_a_player": {"it": "{player} non gioca in questa partita.", "en": "{player} is not in this game."},
    "eliminated": {"it": "Sei fuori dal gioco.", "en": "You are out of the game."},
    "not_your_moment": {"it": "Non è il tuo momento di rispondere (ora si attende: {waiting}).",
                        "en": "It is not your moment to answer (now waiting for: {waiting})."},
    "unknown_action": {"it": "Azione sconosciuta: {action}.", "en": "Unknown action: {action}."},
    "not_in_game": {"it": "{character} non è in gioco in questa partita.",
                    "en": "The {character} is not in this game."},
    "must_coup": {"it": "Hai {coins:# moneta|# monete}: devi fare un Assassinio (7 monete, scrivi ASSASSINIO e il nome).",
                  "en": "You hold {coins:# coin|# coins}: you must make an Assassination (7 coins: write ASSASSINATION and "
                        "the name)."},
    "not_enough_coins": {"it": "Servono {need:# moneta|# monete}, ne hai {have}.",
                         "en": "You need {need:# coin|# coins} and hold {have}."},
    # not_enough_coins for the Assassinio (``need`` is its cost): the cost, and the Assassino.
    "not_enough_coins_coup": {
        "it": "L'Assassinio costa 7 monete e ne hai {have}. Per far uccidere un personaggio dall'Assassino "
              "(3 monete; la Contessa può bloccarlo) scrivi ASSASSINO e il nome del giocatore.",
        "en": "The Assassination costs 7 coins and you hold {have}. To have the Assassin kill a character "
              "(3 coins; the Countess may block it) write ASSASSIN and the player's name."},
    "not_enough_coins_coup_poor": {"it": "L'Assassinio costa 7 monete e ne hai {have}.",
                                   "en": "The Assassination costs 7 coins and you hold {have}."},
    "not_enough_coins_assassinate": {
        "it": "L'Assassino costa 3 monete e ne hai {have}.",
        "en": "The Assassin costs 3 coins and you hold {have}."},
    "no_target": {"it": "Indica il giocatore bersaglio.", "en": "Name the target player."},
    "unknown_player": {"it": "Nessun giocatore si chiama {player}.", "en": "No player is called {player}."},
    "target_self": {"it": "Il bersaglio dev'essere un altro giocatore.", "en": "You cannot target yourself."},
    "target_eliminated": {"it": "{player} è già fuori dal gioco.", "en": "{player} is already out."},
    "bad_answer": {"it": "Risposta non valida: {answer}.", "en": "Invalid answer: {answer}."},
    "cannot_challenge": {"it": "Qui non c'è nessun personaggio da mettere in dubbio.",
                         "en": "There is no character to challenge here."},
    "cannot_block": {"it": "Non puoi bloccare questa azione.", "en": "You cannot block this action."},
    "cannot_block_as": {"it": "{character} non blocca questa azione (bloccano: {blockers}).",
                        "en": "The {character} does not block this action (it is blocked by: {blockers})."},
    "block_needs_character": {"it": "Indica con quale personaggio blocchi ({blockers}).",
                              "en": "Say which character you block with ({blockers})."},
    "unknown_card": {"it": "Carta sconosciuta: {card}.", "en": "Unknown card: {card}."},
    "not_in_hand": {"it": "Non hai {card} tra le carte coperte.", "en": "You hold no face-down {card}."},
    "keep_count": {"it": "Devi tenere {count:# carta|# carte}.", "en": "You must keep {count:# card|# cards}."},
    "bad_choice": {"it": "Scelta non valida: {value}.", "en": "Invalid choice: {value}."}
}

# The labels of the forms (ActionForm.label), for the web pages and the mail's reminders.
FORMS = {
    "complots_choose": {"it": "Scegli la carta da tenere dal tuo mazzetto",
                        "en": "Choose the card you keep from your bundle"},
    "complots_turn": {"it": "Il tuo turno: scegli l'azione", "en": "Your turn: choose your action"},
    "complots_answer": {"it": "Dubiti, blocchi o passi?", "en": "Challenge, block or pass?"},
    "complots_answer_no_block": {"it": "Dubiti o passi?", "en": "Challenge or pass?"},
    "complots_block": {"it": "Blocchi l'azione o passi?", "en": "Block the action or pass?"},
    "complots_block_challenge": {"it": "Dubiti del blocco o passi?",
                                 "en": "Challenge the block or pass?"},
    "complots_lose": {"it": "Scegli la carta da scoprire", "en": "Choose the card you reveal"},
    "complots_keep": {"it": "Scegli le carte da tenere", "en": "Choose the cards you keep"},
    "complots_show": {"it": "Scegli la carta da mostrare all'Inquisitore",
                      "en": "Choose the card you show the Inquisitor"},
    "complots_inspect": {"it": "Restituisci la carta o la scarti?",
                         "en": "Give the card back or discard it?"},
}

# A moment by its name and number (``describe_moment``): the number grows with every
# window, so two turns never share a title in the mail, the desk or the calendar.
MOMENT = {"it": "{name}, momento {number}", "en": "{name}, moment {number}"}

# What a player has still to send, by submission kind (``describe_action``: a reminder's
# "Non hai ancora giocato: la tua azione").
KINDS = {
    "turn": {"it": "la tua azione", "en": "your action"},
    "answer": {"it": "la tua risposta", "en": "your answer"},
    "choose": {"it": "la carta da tenere", "en": "the card you keep"},
    "lose": {"it": "la carta da scoprire", "en": "the card you reveal"},
    "keep": {"it": "le carte da tenere", "en": "the cards you keep"},
    "show": {"it": "la carta da mostrare", "en": "the card you show"},
    "discard": {"it": "la decisione sulla carta", "en": "your decision on the card"},
}

# The events whose sentence has another form when the number it counts is 0
# (``<kind>_none``); the other numbers pick their form in the template ("{n:# moneta|# monete}").
# An event whose count or list is empty reads as its "_none" text: eliminated_none (no
# coin to give back), hand_none (the last card lost: no "—" to read).
COUNTED = {"eliminated": "coins", "hand": "cards"}

# The cards with their article, as a sentence names them ("Blocco con la Contessa").
THE_CARD = {
    "Duchessa": {"it": "la Duchessa", "en": "the Duchess"},
    "Assassino": {"it": "l'Assassino", "en": "the Assassin"},
    "Contessa": {"it": "la Contessa", "en": "the Countess"},
    "Capitano": {"it": "il Capitano", "en": "the Captain"},
    "Ambasciatore": {"it": "l'Ambasciatore", "en": "the Ambassador"},
    "Inquisitore": {"it": "l'Inquisitore", "en": "the Inquisitor"},
}

# A submission as a receipt, the desk and the answer buttons word it (``wording.submission``).
# ``{card}`` has its article, ``{cards}`` are bare names; ``{player}`` is whose claim is
# challenged. Each line reads back as the mail command it is (tests/engine/test_complots_words.py).
SUBMISSIONS = {
    "turn:income": {"it": "Reddito (1 moneta)", "en": "Income (1 coin)"},
    "turn:foreign_aid": {"it": "Aiuti stranieri (2 monete)", "en": "Foreign aid (2 coins)"},
    "turn:coup": {"it": "Assassinio di {target} (7 monete)", "en": "Assassination of {target} (7 coins)"},
    "turn:tax": {"it": "Tassa (Duchessa, 3 monete)", "en": "Tax (Duchess, 3 coins)"},
    "turn:assassinate": {"it": "Assassino contro {target}: paga 3 monete e uccide un personaggio",
                         "en": "the Assassin against {target}: pay 3 coins and kill a character"},
    "turn:steal": {"it": "Furto {target:a} (Capitano)", "en": "Steal from {target} (Captain)"},
    "turn:exchange": {"it": "Scambio con la Corte", "en": "Exchange with the court"},
    "turn:exchange_as": {"it": "Scambio con la Corte ({character})", "en": "Exchange with the court ({character})"},
    "turn:examine": {"it": "Esame di {target} (Inquisitore)", "en": "Examination of {target} (Inquisitor)"},
    "answer:pass": {"it": "Passo", "en": "Pass"},
    "answer:challenge": {"it": "Sfido", "en": "Challenge"},
    "answer:challenge_claim": {"it": "Sfido {card} di {player}", "en": "Challenge {player}'s {character}"},
    "answer:block": {"it": "Blocco", "en": "Block"},
    "answer:block_as": {"it": "Blocco con {card}", "en": "Block with {card}"},
    "choose": {"it": "Scelgo {card}", "en": "Choose {card}"},
    "lose": {"it": "Scopro {card}", "en": "Reveal {card}"},
    "show": {"it": "Mostro {card}", "en": "Show {card}"},
    "keep": {"it": "Tengo {cards}", "en": "Keep {cards}"},  # bare names: "Tengo Duca e Contessa"
    "discard:true": {"it": "Scarto la carta (ne pesca un'altra)", "en": "Discard the card (another is drawn)"},
    "discard:false": {"it": "Restituisco la carta", "en": "Give the card back"},
}

# What the table shows (``public_table``), each count in the form its number asks for.
TABLE = {
    "title": {"it": "Tavolo", "en": "Table"},
    "hand_title": {"it": "Le tue carte", "en": "Your hand"},
    "hand_empty": {"it": "Nessuna carta coperta.", "en": "No face-down cards."},
    "coins": {"it": "{n:# moneta|# monete}", "en": "{n:# coin|# coins}"},
    "face_down": {"it": "{n:# coperta|# coperte}", "en": "{n} face down"},
    "face_up": {"it": "scoperte: {cards}", "en": "face up: {cards}"},
    "out": {"it": " (fuori dal gioco)", "en": " (out)"},
    "court": {"it": "Corte: {n:# carta|# carte}", "en": "Court: {n:# card|# cards}"},
    "treasury": {"it": "Tesoro: {n}", "en": "Treasury: {n}"},
    "winner": {"it": "Ha vinto {winner}", "en": "Winner: {winner}"},
}

# The page's heading for the moment the game is at (``moment_heading``).
HEADINGS = {
    "turn": {"it": "Turno {number}: tocca {player:a}", "en": "Turn {number}: {player} to play"},
    "choose": {"it": "Scelta delle carte dal mazzetto", "en": "Choosing a card from the bundle"},
    "over": {"it": "Partita finita: vince {winner}", "en": "Game over: {winner} wins"},
}

# The welcome mail's lines about this game (``welcome``): what happens next, and an example.
WELCOME = {
    "start": {"it": "Quando i Master avvieranno la partita riceverai le tue carte coperte e le tue monete. "
                    "Ogni volta che ti tocca rispondere (il tuo turno, un dubbio, un blocco) ti arriva una "
                    "mail con le risposte possibili: rispondi con una riga, oppure tocca un pulsante sulla "
                    "tua pagina.",
              "en": "When the Masters start the game you will receive your face-down cards and your coins. "
                    "Whenever an answer of yours is awaited (your turn, a challenge, a block) a mail lists "
                    "what you may answer: reply with one line, or tap a button on your page."},
    "example": {"it": "es. REDDITO, SFIDO, PASSO, BLOCCO con la Contessa",
                "en": "e.g. INCOME, CHALLENGE, PASS, BLOCK with the Countess"},
    "length": {"it": "La partita va avanti, un turno dopo l'altro, finché resta in gioco un solo giocatore.",
               "en": "The game goes on, turn after turn, until only one player is left in it."},
}
