"""Replies as players write them, round 2 (issue 32): the rulebooks' actions in everyday
words, verbs in other persons or with words between, names by surname, without accents
or with a letter wrong, keywords with a letter wrong, corrections, a player's own
forward of our mail, and Outlook's windows-1252 bytes under an iso-8859-1 label.

Every case was written from what the player means, before the reader was run, and is
read in each of five client shapes (tests/support/client_shapes.py), quoting the
service's own mail with a decoy command in it that must never count. Where a careful
Master would hesitate, the expectation is that nothing is recorded (``NOTHING``): the
receipt asks. The rule is one: a wrong command is worse than none.
"""
from __future__ import annotations

import pytest

from pbm.mail.reading.parse import parse_message
from tests.support.client_shapes import FORWARDS, SHAPES, client_mail, forwarded_mail

PLAYERS = ["Alessandro Bianchi", "Alessia De Luca", "Lucia Verdi", "Giorgio Rossi", "Niccolò Galli",
           "Sara Conti", "Chiara Fontana", "Tommaso Neri", "Marco D'Angelo", "Anna Russo"]
LIVE, TEMPO, COMPLOTS = "lupus-live-12", "tempo-reale-7", "complots"
# The service's mail each reply quotes; the decoy names Anna, whom no case means.
QUOTED = {
    "lupus": ["Partita: Villaggio", "È iniziato il giorno di martedì 24 novembre.",
              "Scrivi un comando per riga, per esempio:", "VOTO Anna Russo", "POTERE Anna Russo"],
    "complots": ["Partita: Tavolo 3", "Giorgio dichiara la Duchessa.", "Sfidi, blocchi o passi?",
                 "Rispondi con una di queste righe:", "SFIDO", "BLOCCO Contessa", "FURTO Anna Russo"],
}
NOTHING = None  # no command recorded, whatever the receipt says


def case(ruleset, written, commands, errors=(), *, id_=None):
    return pytest.param(ruleset, written, commands, list(errors),
                        id=id_ or f"{ruleset}-{written[:48]}".replace("\n", "|"))


def turn(action, target=None):
    return [{"kind": "turn", "action": action, **({"target": target} if target else {})}]


def answer(kind, as_=None):
    return [{"kind": "answer", "answer": kind, **({"as": as_} if as_ else {})}]


CASES = [
    # --- Complots: the rulebook's actions in everyday words (Italian) -----------------------------
    case(COMPLOTS, "Incasso una moneta", turn("income")),
    case(COMPLOTS, "Prendo una moneta dal tesoro", turn("income")),
    case(COMPLOTS, "Incassiamo il reddito", turn("income")),
    case(COMPLOTS, "Reddito, grazie", turn("income")),
    case(COMPLOTS, "Prendo l'aiuto estero", turn("foreign_aid")),
    case(COMPLOTS, "Chiedo gli aiuti stranieri", turn("foreign_aid")),
    case(COMPLOTS, "Aiuti esteri", turn("foreign_aid")),
    case(COMPLOTS, "Tasse", turn("tax")),
    case(COMPLOTS, "Prendo le tasse con la Duchessa", turn("tax")),
    case(COMPLOTS, "Riscuoto le tasse", turn("tax")),
    case(COMPLOTS, "Guardo una carta di Tommaso", turn("examine", "Tommaso Neri")),
    case(COMPLOTS, "Voglio vedere una carta di Chiara", turn("examine", "Chiara Fontana")),
    case(COMPLOTS, "Rubo due monete a Giorgio", turn("steal", "Giorgio Rossi")),
    case(COMPLOTS, "Uso il Capitano su Rossi", turn("steal", "Giorgio Rossi")),
    case(COMPLOTS, "Rubo a Tomaso", turn("steal", "Tommaso Neri")),
    case(COMPLOTS, "Mando l'Assassino da Lucia", turn("assassinate", "Lucia Verdi")),
    case(COMPLOTS, "Assassinio su Alessandro", turn("coup", "Alessandro Bianchi")),
    case(COMPLOTS, "Faccio un assassinio contro Bianchi", turn("coup", "Alessandro Bianchi")),
    case(COMPLOTS, "Colpo di stato contro De Luca", turn("coup", "Alessia De Luca")),
    case(COMPLOTS, "Scambio le carte con la corte", turn("exchange")),
    case(COMPLOTS, "Ti sfido", answer("challenge")),
    case(COMPLOTS, "Non ci credo, sfido!", answer("challenge")),
    case(COMPLOTS, "Dubito", answer("challenge")),
    case(COMPLOTS, "Va bene, vai pure", answer("pass")),
    case(COMPLOTS, "Passo, anche stavolta", answer("pass")),
    case(COMPLOTS, "Duca bluffa di sicuro", NOTHING, ["unsure"]),
    case(COMPLOTS, "Sfido Giorgio", answer("challenge")),
    case(COMPLOTS, "Dubito che abbia la Duchessa", answer("challenge")),
    case(COMPLOTS, "Blocco, ho la Contessa", answer("block", "Contessa")),
    case(COMPLOTS, "Dichiaro il Capitano su Sara", turn("steal", "Sara Conti")),
    case(COMPLOTS, "No challenge, no block", answer("pass")),
    case(COMPLOTS, "Nessuna obiezione", answer("pass")),
    case(COMPLOTS, "Blocco con la Contessa", answer("block", "Contessa")),
    case(COMPLOTS, "Ho l'Inquisitore: blocco il furto", answer("block", "Inquisitore")),
    case(COMPLOTS, "Blocco il furto con l'Ambasciatore", answer("block", "Ambasciatore")),
    case(COMPLOTS, "Blocco l'Assassino con la Contessa", answer("block", "Contessa")),
    case(COMPLOTS, "Perdo il Capitano", [{"kind": "lose", "card": "Capitano"}]),
    case(COMPLOTS, "Scopro la Duchessa", [{"kind": "lose", "card": "Duchessa"}]),
    case(COMPLOTS, "Tengo il Duca e l'Assassino", [{"kind": "keep", "cards": ["Duchessa", "Assassino"]}]),
    case(COMPLOTS, "Mostro la Contessa", [{"kind": "show", "card": "Contessa"}]),
    case(COMPLOTS, "Da ora in poi passo sempre", [{"kind": "standing", "on": True, "standing": "pass_not_me"}]),
    case(COMPLOTS, "Mi serve più tempo", [{"kind": "more_time"}]),
    case(COMPLOTS, "Incasso una moneta?", NOTHING, ["question"]),
    case(COMPLOTS, "Ieri ho incassato una moneta", NOTHING),
    case(COMPLOTS, "Sfido o passo? Boh", NOTHING, ["question"]),
    case(COMPLOTS, "Non blocco niente", NOTHING),
    case(COMPLOTS, "Posso venire più tardi?", NOTHING),
    # --- Complots in English ---------------------------------------------------------------------
    case(COMPLOTS, "Collect income", turn("income")),
    case(COMPLOTS, "I'll take foreign aid", turn("foreign_aid")),
    case(COMPLOTS, "Take the tax", turn("tax")),
    case(COMPLOTS, "Let it go", answer("pass")),
    case(COMPLOTS, "Go ahead", answer("pass")),
    case(COMPLOTS, "I challenge you", answer("challenge")),
    case(COMPLOTS, "Block with the Countess", answer("block", "Contessa")),
    case(COMPLOTS, "I block the steal with the Ambassador", answer("block", "Ambasciatore")),
    case(COMPLOTS, "Steal from Giorgio", turn("steal", "Giorgio Rossi")),
    case(COMPLOTS, "Look at a card of Chiara", turn("examine", "Chiara Fontana")),
    case(COMPLOTS, "Coup on Rossi", turn("coup", "Giorgio Rossi")),
    case(COMPLOTS, "Assassin on Lucia", turn("assassinate", "Lucia Verdi")),
    # --- Lupus: verbs in other persons, words between, the command named first ----------------------
    case(TEMPO, "Io e Alessandro sbraniamo Giorgio", [{"target": "Giorgio Rossi"}]),
    case(LIVE, "Proteggo di nuovo Alessia", [{"target": "Alessia De Luca"}]),
    case(TEMPO, "Stanotte voglio vedere l'aura di Lucia", [{"target": "Lucia Verdi"}]),
    case(LIVE, "Per il rogo voto Sara", [{"vote": "Sara Conti"}]),
    case(TEMPO, "Come sindaco voto Chiara", [{"elect": "Chiara Fontana"}]),
    case(TEMPO, "Scelgo come successore Galli", [{"appoint": "Niccolò Galli"}]),
    case(LIVE, "Votiamo Sara", [{"vote": "Sara Conti"}]),
    case(LIVE, "Voterò Chiara", [{"vote": "Chiara Fontana"}]),
    case(LIVE, "Stanotte proteggiamo Tommaso", [{"target": "Tommaso Neri"}]),
    case(LIVE, "Indaghiamo su Galli", [{"target": "Niccolò Galli"}]),
    case(TEMPO, "Voglio proteggere Niccolo", [{"target": "Niccolò Galli"}]),
    case(LIVE, "Dopo lunga riflessione, voto Fontana.", [{"vote": "Chiara Fontana"}]),
    case(LIVE, "Lucia è troppo silenziosa. Voto Lucia.", [{"vote": "Lucia Verdi"}]),
    case(LIVE, "Il mio voto va a Rossi", [{"vote": "Giorgio Rossi"}]),
    case(LIVE, "Voto contro Neri", [{"vote": "Tommaso Neri"}]),
    case(LIVE, "Mando al rogo Conti", [{"vote": "Sara Conti"}]),
    case(LIVE, "Nomino vice De Luca", [{"appoint": "Alessia De Luca"}]),
    case(TEMPO, "Alessia sindaco!", [{"elect": "Alessia De Luca"}]),
    case(LIVE, "Lucia al rogo!", [{"vote": "Lucia Verdi"}]),
    # --- names as people write them ------------------------------------------------------------------
    case(LIVE, "voto Bianchi", [{"vote": "Alessandro Bianchi"}]),
    case(LIVE, "Voto De Luca", [{"vote": "Alessia De Luca"}]),
    case(LIVE, "Voto Alesandro", [{"vote": "Alessandro Bianchi"}]),
    case(LIVE, "Voto Bianchi Alessandro", [{"vote": "Alessandro Bianchi"}]),
    case(TEMPO, "Voto NICCOLO GALLI", [{"vote": "Niccolò Galli"}]),
    case(LIVE, "Voto D'Angelo", [{"vote": "Marco D'Angelo"}]),
    case(LIVE, "Voto Giorgoi", [{"vote": "Giorgio Rossi"}]),
    case(LIVE, "Voto Ales", NOTHING, ["ambiguous_name"]),
    case(LIVE, "Voto Luca", NOTHING, ["unknown_name"]),
    case(LIVE, "Voto Maria", NOTHING, ["unknown_name"]),
    # --- keywords one letter off ----------------------------------------------------------------------
    case(LIVE, "Vto Sara", [{"vote": "Sara Conti"}]),
    case(TEMPO, "Sbarno Giorgio", [{"target": "Giorgio Rossi"}]),
    case(LIVE, "Vatto Chiara", NOTHING),  # two letters off: not VOTO
    case(LIVE, "Vto Sara perché mente", NOTHING, ["unsure"]),
    # --- corrections ---------------------------------------------------------------------------------
    case(LIVE, "Voto Alessandro. Anzi no, Lucia.", [{"vote": "Lucia Verdi"}]),
    case(LIVE, "Voto Alessandro\nNo scusate, intendevo Lucia", [{"vote": "Lucia Verdi"}]),
    case(LIVE, "Voto Alessandro, anzi voto Lucia", [{"vote": "Lucia Verdi"}]),
    case(TEMPO, "Proteggo Sara... anzi no, proteggo Tommaso", [{"target": "Tommaso Neri"}]),
    case(LIVE, "Voto Rossi\nCorreggo: voto Neri", [{"vote": "Tommaso Neri"}]),
    case(LIVE, "Voto Alessandro, anzi no", NOTHING, ["correction"]),
    case(LIVE, "Voto Alessandro\nAnzi no, aspetto domani", NOTHING, ["correction"]),
    case(LIVE, "Vote Alessandro, I mean Lucia", [{"vote": "Lucia Verdi"}]),
    case(LIVE, "Vote Rossi\nSorry, I meant Conti", [{"vote": "Sara Conti"}]),
    case(COMPLOTS, "Blocco con la Contessa, anzi con il Capitano", answer("block", "Capitano")),
    case(COMPLOTS, "Rubo a Giorgio. Anzi no, a Sara", turn("steal", "Sara Conti")),
    # --- where a careful Master would hesitate -------------------------------------------------------
    case(LIVE, "Voterei Chiara", NOTHING, ["unsure"]),
    case(LIVE, "Ho votato Chiara", NOTHING, ["unsure"]),
    case(LIVE, "Non voto Sara", NOTHING),
    case(LIVE, "Lucia dice: voto Sara", NOTHING),
    case(LIVE, "Se Giorgio mente, voto Sara", NOTHING, ["unsure"]),
    case(LIVE, "Voto Sara o Chiara", NOTHING, ["unsure"]),
    case(LIVE, "Voto Sara e Chiara", NOTHING, ["unsure"]),
    case(LIVE, "Proteggere Lucia sarebbe utile", NOTHING, ["unsure"]),
    case(LIVE, "Io voto Tommaso, tu?", NOTHING, ["question"]),
    case(LIVE, "Ieri Giorgio ha votato Sara", NOTHING),
    case(LIVE, "Votare Sara è un errore secondo me.", NOTHING, ["unsure"]),
    case(LIVE, "Vi consiglio di votare Sara.", NOTHING),
    case(LIVE, "Giorgio ieri ha votato Lucia, strano no?", NOTHING),
    case(LIVE, "Il veggente dovrebbe controllare Giorgio.", NOTHING),
    case(LIVE, "Lucia ha detto che voterà Sara.", NOTHING),
    case(LIVE, "Please note that Sara is lying", NOTHING),
    case(LIVE, "We should protect Lucia tonight.", NOTHING),
    case(LIVE, "Lucia voted Sara yesterday.", NOTHING),
    case(LIVE, "Voto chi mi pare", NOTHING),
    case(COMPLOTS, "La Duchessa è un bluff", NOTHING, ["unsure"]),
    case(COMPLOTS, "L'Assassino è Giorgio", NOTHING, ["unsure"]),
    case(COMPLOTS, "Rubo un minuto per dire che Giorgio mente", NOTHING),
    case(COMPLOTS, "Faccio assassinare Tommaso", NOTHING, ["unsure"]),  # the Assassino or the Assassinio?
    case(COMPLOTS, "Uso l'ambasciatore", turn("exchange")),
    # --- Lupus in English -----------------------------------------------------------------------------
    case(LIVE, "I'm voting for Lucia", [{"vote": "Lucia Verdi"}]),
    case(LIVE, "We're killing Giorgio tonight", [{"target": "Giorgio Rossi"}]),
    case(LIVE, "Protecting Alessia again", [{"target": "Alessia De Luca"}]),
    case(LIVE, "Let's vote Rossi", [{"vote": "Giorgio Rossi"}]),
    case(LIVE, "Vote Bianchi", [{"vote": "Alessandro Bianchi"}]),
    case(TEMPO, "As mayor I elect Chiara", [{"elect": "Chiara Fontana"}]),
    case(LIVE, "I voted Lucia", NOTHING, ["unsure"]),
    case(LIVE, "I'd vote Sara", NOTHING),
    case(LIVE, "Maybe vote Sara", NOTHING),
    case(LIVE, "Sara says: vote Chiara", NOTHING),
]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("ruleset, written, commands, errors", CASES)
def test_a_reply_as_players_write_it(ruleset, written, commands, errors, shape):
    quoted = QUOTED["complots" if ruleset == COMPLOTS else "lupus"]
    parsed = parse_message(client_mail(shape, written, quoted), PLAYERS, vocabulary=ruleset)
    assert parsed.ignored is None
    if commands is NOTHING:
        assert parsed.commands == [], (written, parsed.commands)
        if errors:
            assert [e["code"] for e in parsed.errors] == errors, parsed.errors
        if parsed.errors and parsed.errors[0]["code"] in ("unsure", "correction"):
            assert parsed.errors[0]["line"], parsed.errors  # the receipt quotes the line it asks about
        return
    assert parsed.commands == commands, (written, parsed.reply_text, parsed.errors)
    assert parsed.errors == [], parsed.errors


# A player's own forward of our mail, her command on top (read with own=True: the service
# has found her seat by token and address).
FORWARDED = [
    ("VOTO Alessia", LIVE, [{"vote": "Alessia De Luca"}]),
    ("Voto Bianchi", LIVE, [{"vote": "Alessandro Bianchi"}]),
    ("Stanotte proteggo Giorgio, grazie", TEMPO, [{"target": "Giorgio Rossi"}]),
    ("Incasso una moneta", COMPLOTS, turn("income")),
    ("Passo", COMPLOTS, answer("pass")),
    ("", LIVE, []),
]


@pytest.mark.parametrize("client", sorted(FORWARDS))
@pytest.mark.parametrize("top, ruleset, commands", FORWARDED)
def test_her_own_forward_of_our_mail_is_her_reply(top, ruleset, commands, client):
    quoted = QUOTED["complots" if ruleset == COMPLOTS else "lupus"]
    raw = forwarded_mail(client, top, quoted)
    parsed = parse_message(raw, PLAYERS, vocabulary=ruleset, own=True)
    assert (parsed.source, parsed.commands) == (None, commands), parsed.errors
    if not commands:
        assert [e["code"] for e in parsed.errors] == ["no_command"]


def test_the_corpus_is_as_large_as_promised():
    """Issue 32 asks for at least 100 replies from new angles: the cases above, each in
    five client shapes, and the forwards in four clients."""
    assert len(CASES) + len(FORWARDED) >= 100
    assert len({c.values[1] for c in CASES}) == len(CASES)  # no reply twice
    assert sum(c.values[0] == COMPLOTS for c in CASES) >= 40
    assert sum(c.values[2] is NOTHING for c in CASES) >= 20
