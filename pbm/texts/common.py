"""Messages shared by every ruleset."""

REJECTIONS = {
    "game_over": {"it": "La partita è finita.", "en": "The game is over."},
    "not_a_player": {"it": "Non sei un giocatore di questa partita.",
                     "en": "You are not a player in this game."},
    "unknown_player": {"it": "Non c'è nessun giocatore di nome «{target}».",
                       "en": "There is no player called “{target}”."},
    "not_now": {"it": "Questa azione non si può compiere in questa fase.",
                "en": "This action cannot be taken in this phase."},
    "phase_closed": {"it": "La fase è chiusa: l'azione non è stata registrata.",
                     "en": "The phase is closed: the action was not recorded."},
    "dead_cannot_vote": {"it": "I morti non votano.", "en": "The dead do not vote."},
    "dead_no_power": {"it": "I morti non possono usare poteri.",
                      "en": "The dead cannot use powers."},
    "no_power": {"it": "Il tuo ruolo ({role}) non ha un potere da usare ora.",
                 "en": "Your role ({role}) has no power to use now."},
    "self_target": {"it": "Non puoi usare il potere su te stesso.",
                    "en": "You cannot use your power on yourself."},
    "target_not_alive": {"it": "{target} non è vivo.", "en": "{target} is not alive."},
    "target_not_dead": {"it": "{target} non è morto.", "en": "{target} is not dead."},
    "not_mayor": {"it": "Solo il Sindaco in vita può nominare il Vicesindaco.",
                  "en": "Only the living mayor can appoint a deputy."},
    "first_night_kill": {"it": "La prima notte non si uccide.",
                         "en": "Nobody can be killed on the first night."},
}

EVENTS = {
    "death": {"it": "{player} è morto.", "en": "{player} died."},
    "revive": {"it": "{player} è tornato in vita.", "en": "{player} came back to life."},
    "mayor": {"it": "Sindaco: {player}.", "en": "Mayor: {player}."},
    "shout": {"it": "Urlo nella notte: «{text}»", "en": "A shout in the night: “{text}”"},
    "game_over": {"it": "La partita è finita: vincono i {winner}.",
                  "en": "The game is over: the {winner} win."},
    "failed": {"it": "Il tuo potere non ha avuto effetto.", "en": "Your power had no effect."},
    "answer": {"it": "Risposta su {target}: {answer}.", "en": "Answer about {target}: {answer}."},
    "corrupted": {"it": "Sei stato corrotto: ora giochi per i Lupi.",
                  "en": "You have been corrupted: you now play for the Wolves."},
    "role_letter": {"it": "Il tuo ruolo: {role} (fazione {faction}, aura {aura}).",
                    "en": "Your role: {role} (faction {faction}, aura {aura})."},
    "pack": {"it": "Il tuo branco: {members}.", "en": "Your pack: {members}."},
}

REJECTIONS.update({
    "bad_submission": {"it": "Richiesta non valida ({reason}).", "en": "Invalid request ({reason})."},
    "bad_form": {"it": "Modulo non valido: {errors}.", "en": "Invalid form: {errors}."},
    "empty_submission": {"it": "Non hai scelto nulla.", "en": "You chose nothing."},
})

EVENTS.update({
    "disqualified": {"it": "Le Master hanno squalificato: {players}.",
                     "en": "The Masters disqualified: {players}."},
})

REJECTIONS.update({
    "disqualified": {"it": "Sei stato squalificato: non puoi più agire.",
                     "en": "You have been disqualified: you can no longer act."},
})


# pbm/limits.py: what a player writes, in forms and mail alike.
REJECTIONS.update({
    "shout_too_long": {"it": "L'urlo è troppo lungo ({length} caratteri, al massimo {limit}): non è stato "
                             "registrato. Accorcialo e rimandalo.",
                       "en": "The shout is too long ({length} characters, at most {limit}): it was not "
                             "recorded. Shorten it and send it again."},
    "question_too_long": {"it": "La domanda è troppo lunga ({length} caratteri, al massimo {limit}): non è "
                                "stata registrata. Accorciala e rimandala.",
                          "en": "The question is too long ({length} characters, at most {limit}): it was "
                                "not recorded. Shorten it and send it again."},
    "notes_too_long": {"it": "Le note sono troppo lunghe ({length} caratteri, al massimo {limit}): non sono "
                             "state registrate. Accorciale e rimandale.",
                       "en": "The notes are too long ({length} characters, at most {limit}): they were not "
                             "recorded. Shorten them and send them again."},
    "text_too_long": {"it": "Un testo è troppo lungo ({length} caratteri, al massimo {limit}): non è stato "
                            "registrato.",
                      "en": "A text is too long ({length} characters, at most {limit}): it was not recorded."},
})
