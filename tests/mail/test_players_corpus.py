"""Replies as players write them (issue 22), in the shapes of real mail clients.

Each case is one line of what a player wrote, replying to the service's own mail (164
cases: both Lupus rulesets and Complots, Italian and English, each in every client). The
mail is built from one client's reply: twelve written for this project in the shapes
their clients send (tests/data/mail/clients: Gmail on the web and on Android, iPhone in
Italian and English, Apple Mail, Outlook for Windows, in Italian and on the web,
Thunderbird, Yahoo, Libero, Samsung; quoted-printable, base64, windows-1252, HTML only),
and, as an extra check, the twelve real replies of mailgun-talon's standard_replies in
../shared/email-corpus (eleven clients, read in place). The client's own reply text
("Hello") becomes the player's, and the mail it quotes ("Hi") becomes the service's
bulletin or window, with a decoy command inside the quote that must never count. The
subject is the service's own, as the client prefixes it (Re:, RE:, R:), so nothing may be
read from it either.

The expectations were written from what the player means, before the parser was run.
"""
from __future__ import annotations

import email
import email.policy
import html
import re
from pathlib import Path

import pytest

from pbm.mail.reading.parse import parse_message

from tests.support.external import EMAIL_CORPUS, params

OWN = Path(__file__).resolve().parents[1] / "data" / "mail" / "clients"
TALON = EMAIL_CORPUS / "mailgun-talon" / "tests" / "fixtures" / "standard_replies"

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
LIVE, TEMPO, COMPLOTS = "lupus-live-12", "tempo-reale-7", "complots"

# What the service wrote, as the player's client quotes it: the decoy names Elena, whom no
# case below means, so a quoted command that leaked would show.
QUOTED = {
    "it": ["Partita: Villaggio", "È iniziato il giorno di martedì 24 novembre.",
           "Scrivi un comando per riga, per esempio:", "VOTO Elena", "POTERE Elena"],
    "en": ["Game: Village", "The day of Tuesday 24 November has begun.",
           "Write one command per line, for example:", "VOTE Elena", "POWER Elena"],
    "complots-it": ["Partita: Tavolo 3", "Bruno dichiara la Duchessa.", "Sfidi, blocchi o passi?",
                    "SFIDO", "BLOCCO Contessa"],
    "complots-en": ["Game: Table 3", "Bruno claims the Duke.", "Challenge, block or pass?",
                    "CHALLENGE", "BLOCK Countess"],
}
SUBJECT = {
    "it": "[Villaggio] Bollettino: giorno 1, martedì 24 novembre [lupus:tok3n12345]",
    "en": "[Village] Bulletin: day 1, Tuesday 24 November [lupus:tok3n12345]",
    "complots-it": "[Tavolo 3] Sfidi, blocchi o passi? [lupus:tok3n12345]",
    "complots-en": "[Table 3] Challenge, block or pass? [lupus:tok3n12345]",
}


def own_clients() -> list[Path]:
    return sorted(OWN.glob("*.eml"))


def talon_clients() -> list[Path]:
    return sorted(TALON.glob("*.eml")) if TALON.is_dir() else []


# The clients every case is written in: the project's own, and the real ones when present.
CLIENTS = ([pytest.param(p, id=p.stem) for p in own_clients()]
           + params(talon_clients(), EMAIL_CORPUS, ids=[f"talon-{p.stem}" for p in talon_clients()]))


def reply_from(client: Path, written: str, quoted: list[str], subject: str) -> bytes:
    """The client's reply with ``written`` as the player's text and ``quoted`` as the
    quoted mail (each line with the client's own quote prefix). Its text part, or the
    HTML of a client that sends only HTML."""
    msg = email.message_from_bytes(client.read_bytes(), policy=email.policy.compat32)
    parts = [p for p in msg.walk() if p.get_content_type() == "text/plain"]
    if not parts:
        return _html_reply_from(msg, written, quoted, subject)
    plain = parts[0]
    text = plain.get_payload(decode=True).decode(plain.get_content_charset() or "latin-1", "replace")
    text = text.replace("\r\n", "\n")
    # The quote first: a player's line may itself start with "Hi".
    hi = re.search(r"^([> \t]*)\ufeff?Hi\b.*$", text, flags=re.M)
    assert hi, client
    prefix = hi.group(1) or ""
    text = text[:hi.start()] + "\n".join(prefix + line for line in quoted) + text[hi.end():]
    text = re.sub(r"^Hello *$", lambda _m: written.replace("\\", "\\\\"), text, count=1, flags=re.M)
    del plain["Content-Transfer-Encoding"]  # set_payload encodes afresh (base64 for utf-8)
    plain.set_payload(text, "utf-8")
    return _with_subject(msg, subject)


def _html_reply_from(msg, written: str, quoted: list[str], subject: str) -> bytes:
    part = next(p for p in msg.walk() if p.get_content_type() == "text/html")
    text = part.get_payload(decode=True).decode(part.get_content_charset() or "latin-1", "replace")
    assert text.count(">Hi<") == 1 and text.count(">Hello<") == 1, "one reply, one quote"
    text = text.replace(">Hi<", ">" + "<br>".join(html.escape(line) for line in quoted) + "<", 1)
    text = text.replace(">Hello<", ">" + "<br>".join(html.escape(line) for line in written.split("\n")) + "<", 1)
    del part["Content-Transfer-Encoding"]
    part.set_payload(text, "utf-8")
    return _with_subject(msg, subject)


def _with_subject(msg, subject: str) -> bytes:
    old = str(msg["Subject"])
    del msg["Subject"]
    msg["Subject"] = old[:old.index("Test")] + subject if "Test" in old else "Re: " + subject
    return msg.as_bytes()


def case(ruleset, lang, written, commands, errors=(), prose=None):
    return pytest.param(ruleset, lang, written, commands, list(errors), prose,
                        id=f"{ruleset}-{lang}-{written[:40]}")


def _turn(action, target=None):
    return {"kind": "turn", "action": action, **({"target": target} if target else {})}


def _answer(answer, as_=None):
    return {"kind": "answer", "answer": answer, **({"as": as_} if as_ else {})}


def _standing(on, standing):
    return {"kind": "standing", "on": on, "standing": standing}


CASES = [
    # --- Lupus LIVE! 12, Italian -------------------------------------------------------------
    case(LIVE, "it", "voto per Carla", [{"vote": "Carla"}]),
    case(LIVE, "it", "Il mio voto va a Carla", [{"vote": "Carla"}]),
    case(LIVE, "it", "il mio voto è per Carla.", [{"vote": "Carla"}]),
    case(LIVE, "it", "Voto Carla, mi sembra sospetta", [{"vote": "Carla"}], prose="mi sembra sospetta"),
    case(LIVE, "it", "Io voto Carla", [{"vote": "Carla"}]),
    case(LIVE, "it", "Ok, voto Carla. Grazie", [{"vote": "Carla"}]),
    case(LIVE, "it", "Carla al rogo!", [{"vote": "Carla"}]),
    case(LIVE, "it", "Al rogo Carla", [{"vote": "Carla"}]),
    case(LIVE, "it", "Voto per il rogo: Carla", [{"vote": "Carla"}]),
    case(LIVE, "it", "Sbrano Dario, secondo me è la guardia.", [{"target": "Dario"}],
         prose="secondo me è la guardia"),
    case(LIVE, "it", "POTERE Dario, secondo me è la guardia", [{"target": "Dario"}],
         prose="secondo me è la guardia"),
    case(LIVE, "it", "stanotte sbraniamo Dario", [{"target": "Dario"}]),
    case(LIVE, "it", "Noi lupi sbraniamo Dario", [{"target": "Dario"}]),
    case(LIVE, "it", "proteggo Bruno stanotte", [{"target": "Bruno"}]),
    case(LIVE, "it", "indago su Elena", [{"target": "Elena"}]),
    case(LIVE, "it", "Voglio indagare su Bruno", [{"target": "Bruno"}]),
    case(LIVE, "it", "Uso il mio potere su Bruno", [{"target": "Bruno"}]),
    case(LIVE, "it", "Sparo a Dario", [{"target": "Dario"}]),
    case(LIVE, "it", "Il mio vice è Carla", [{"appoint": "Carla"}]),
    case(LIVE, "it", "Nomino Carla vicesindaco", [{"appoint": "Carla"}]),
    case(LIVE, "it", "Divento il Veggente", [{"become": "Veggente"}]),
    case(LIVE, "it", "RITUALE di Omicidio con Anna, Bruno, Carla, Dario su Elena, che è un lupo",
         [{"ritual": "Omicidio", "with": ["Anna", "Bruno", "Carla", "Dario"], "target": "Elena"}],
         prose="che è un lupo"),
    case(LIVE, "it", "Domanda alle Master: Bruno è un lupo?", [{"question": "Bruno è un lupo?"}]),
    case(LIVE, "it", "Voto Carla?", [], ["question"]),
    case(LIVE, "it", "Voto Carla, ma stanotte proteggo Bruno", [], ["two_commands"]),
    # --- Lupus LIVE! 12, English -------------------------------------------------------------
    case(LIVE, "en", "I vote for Carla", [{"vote": "Carla"}]),
    case(LIVE, "en", "My vote goes to Carla", [{"vote": "Carla"}]),
    case(LIVE, "en", "My vote is Carla, she lied yesterday", [{"vote": "Carla"}], prose="she lied yesterday"),
    case(LIVE, "en", "Vote: Carla", [{"vote": "Carla"}]),
    case(LIVE, "en", "Pyre vote: Carla", [{"vote": "Carla"}]),
    case(LIVE, "en", "Tonight we maul Dario", [{"target": "Dario"}]),
    case(LIVE, "en", "I'll protect Bruno tonight", [{"target": "Bruno"}]),
    case(LIVE, "en", "I want to investigate Elena", [{"target": "Elena"}]),
    case(LIVE, "en", "Use my power on Bruno", [{"target": "Bruno"}]),
    case(LIVE, "en", "I appoint Carla as my deputy", [{"appoint": "Carla"}]),
    case(LIVE, "en", "I become the Seer", [{"become": "Veggente"}]),
    case(LIVE, "en", "Vote Carla?", [], ["question"]),
    # --- Lupus in tempo reale 7, Italian ---------------------------------------------------------
    case(TEMPO, "it", "voto per Carla", [{"vote": "Carla"}]),
    case(TEMPO, "it", "Il mio voto va a Carla", [{"vote": "Carla"}]),
    case(TEMPO, "it", "Voto Carla come sindaco", [{"elect": "Carla"}]),
    case(TEMPO, "it", "Voto per il sindaco: Carla", [{"elect": "Carla"}]),
    case(TEMPO, "it", "Eleggo Carla, è la più affidabile", [{"elect": "Carla"}], prose="è la più affidabile"),
    case(TEMPO, "it", "Carla sindaco!", [{"elect": "Carla"}]),
    case(TEMPO, "it", "Nomino Carla come successore", [{"appoint": "Carla"}]),
    case(TEMPO, "it", "stanotte sbraniamo Dario", [{"target": "Dario"}]),
    case(TEMPO, "it", "Uccidiamo Dario stanotte", [{"target": "Dario"}]),
    case(TEMPO, "it", "proteggo Bruno stanotte", [{"target": "Bruno"}]),
    case(TEMPO, "it", "indago su Elena", [{"target": "Elena"}]),
    case(TEMPO, "it", "Ipnotizzo Bruno e Carla", [{"target": "Bruno", "target2": "Carla"}]),
    case(TEMPO, "it", "Risveglio Bruno come Spettro della Morte", [{"target": "Bruno", "power": "Morte"}]),
    case(TEMPO, "it", "risveglio Bruno con il potere dell'Amnesia", [{"target": "Bruno", "power": "Amnesia"}]),
    case(TEMPO, "it", "Bersaglio: Bruno, secondo bersaglio: Carla", [{"target": "Bruno", "target2": "Carla"}]),
    case(TEMPO, "it", "Guardo Elena, voglio sapere chi va a trovare", [{"target": "Elena"}],
         prose="voglio sapere chi va a trovare"),
    case(TEMPO, "it", "Sbrano Dario?", [], ["question"]),
    # --- Lupus in tempo reale 7, English ---------------------------------------------------------
    case(TEMPO, "en", "I vote for Carla", [{"vote": "Carla"}]),
    case(TEMPO, "en", "Vote Carla for mayor", [{"elect": "Carla"}]),
    case(TEMPO, "en", "I elect Carla", [{"elect": "Carla"}]),
    case(TEMPO, "en", "Mayor: Carla", [{"elect": "Carla"}]),
    case(TEMPO, "en", "We kill Dario tonight", [{"target": "Dario"}]),
    case(TEMPO, "en", "I watch Elena", [{"target": "Elena"}]),
    case(TEMPO, "en", "Wake Bruno as a Spectre of Death", [{"target": "Bruno", "power": "Morte"}]),
    case(TEMPO, "en", "Hypnotise Bruno and Carla", [{"target": "Bruno", "target2": "Carla"}]),
    case(TEMPO, "en", "Successor: Carla", [{"appoint": "Carla"}]),
    case(TEMPO, "en", "Kill Dario, he is the seer for sure", [{"target": "Dario"}],
         prose="he is the seer for sure"),
    # --- every game: nothing written, questions ---------------------------------------------------
    case(LIVE, "it", "", [], ["no_command"]),
    case(LIVE, "en", "-- \nAnna Rossi", [], ["no_command"]),
    case(TEMPO, "it", "", [], ["no_command"]),
    case(TEMPO, "en", "Sent from my iPhone", [], ["no_command"]),
    case(COMPLOTS, "complots-en", "", [], ["no_command"]),
    case(COMPLOTS, "complots-en", "-- \nAnna", [], ["no_command"]),
    case(COMPLOTS, "complots-it", "", [], ["no_command"]),
    case(COMPLOTS, "complots-en", "what happens if I don't answer?", [], ["no_command"]),
    case(COMPLOTS, "complots-it", "Sfido o passo? Non ho capito…", [], ["question"]),
    case(COMPLOTS, "complots-en", "Challenge?", [], ["question"]),
    case(COMPLOTS, "complots-it", "Cosa succede se non rispondo?", [], ["no_command"]),
    case(LIVE, "it", "Cosa devo scrivere per votare?", [], ["no_command"]),
    # --- more as players write (the second round of issue 22) ------------------------------------
    # Lupus LIVE! 12, Italian: greetings first, a changed vote, capitals, a name begun.
    case(LIVE, "it", "Ciao a tutti, voto Carla", [{"vote": "Carla"}]),
    case(LIVE, "it", "Buongiorno! Voto per Carla.", [{"vote": "Carla"}]),
    case(LIVE, "it", "Cambio voto: Carla", [{"vote": "Carla"}]),
    case(LIVE, "it", "VOTO CARLA", [{"vote": "Carla"}]),
    case(LIVE, "it", "voto car", [{"vote": "Carla"}]),
    case(LIVE, "it", "- Voto Carla", [{"vote": "Carla"}]),
    case(LIVE, "it", "Mando al rogo Carla", [{"vote": "Carla"}]),
    case(LIVE, "it", "Indago Elena", [{"target": "Elena"}]),
    case(LIVE, "it", "Controllo Elena stanotte", [{"target": "Elena"}]),
    case(LIVE, "it", "Stanotte proteggo Bruno", [{"target": "Bruno"}]),
    case(LIVE, "it", "Difendo Bruno, è troppo esposto", [{"target": "Bruno"}], prose="è troppo esposto"),
    case(LIVE, "it", "Il mio bersaglio è Dario", [{"target": "Dario"}]),
    case(LIVE, "it", "Mangiamo Dario", [{"target": "Dario"}]),
    case(LIVE, "it", "Voglio diventare il Veggente", [{"become": "Veggente"}]),
    case(LIVE, "it", "Scelgo Carla come vice", [{"appoint": "Carla"}]),
    case(LIVE, "it", "Urlo notturno: Al lupo!", [{"shout": "Al lupo!"}]),
    case(LIVE, "it", "Domanda: Bruno è un lupo?", [{"question": "Bruno è un lupo?"}]),
    case(LIVE, "it", "Proteggo Bruno?", [], ["question"]),
    case(LIVE, "it", "Guardo la partita da lontano", [], ["no_command"]),
    case(LIVE, "it", "Voto Zorro", [], ["unknown_name"]),
    # Lupus LIVE! 12, English.
    case(LIVE, "en", "Hi all, I vote Carla", [{"vote": "Carla"}]),
    case(LIVE, "en", "Good morning, I vote for Carla", [{"vote": "Carla"}]),
    case(LIVE, "en", "I change my vote to Carla", [{"vote": "Carla"}]),
    case(LIVE, "en", "Carla to the pyre", [{"vote": "Carla"}]),
    case(LIVE, "en", "Burn Carla", [{"vote": "Carla"}]),
    case(LIVE, "en", "I investigate Elena", [{"target": "Elena"}]),
    case(LIVE, "en", "Protect Bruno", [{"target": "Bruno"}]),
    case(LIVE, "en", "We eat Dario tonight", [{"target": "Dario"}]),
    case(LIVE, "en", "My target is Dario", [{"target": "Dario"}]),
    case(LIVE, "en", "My deputy is Carla", [{"appoint": "Carla"}]),
    case(LIVE, "en", "Shout: Wolf!", [{"shout": "Wolf!"}]),
    case(LIVE, "en", "I'll protect Bruno, he is the seer", [{"target": "Bruno"}], prose="he is the seer"),
    case(LIVE, "en", "Protect Bruno?", [], ["question"]),
    # Lupus in tempo reale 7, Italian.
    case(TEMPO, "it", "Ciao a tutti, voto per Carla", [{"vote": "Carla"}]),
    case(TEMPO, "it", "Cambio voto: Carla", [{"vote": "Carla"}]),
    case(TEMPO, "it", "Eleggo Carla", [{"elect": "Carla"}]),
    case(TEMPO, "it", "Il mio sindaco è Carla", [{"elect": "Carla"}]),
    case(TEMPO, "it", "Sindaco: Carla", [{"elect": "Carla"}]),
    case(TEMPO, "it", "Voto Carla sindaco", [{"elect": "Carla"}]),
    case(TEMPO, "it", "Sbraniamo Dario", [{"target": "Dario"}]),
    case(TEMPO, "it", "Guardo Elena stanotte", [{"target": "Elena"}]),
    case(TEMPO, "it", "Ipnotizzo Bruno, Carla", [{"target": "Bruno", "target2": "Carla"}]),
    # Lupus in tempo reale 7, English.
    case(TEMPO, "en", "My mayor is Carla", [{"elect": "Carla"}]),
    case(TEMPO, "en", "Carla to be mayor", [{"elect": "Carla"}]),
    case(TEMPO, "en", "I protect Bruno tonight", [{"target": "Bruno"}]),
    case(TEMPO, "en", "I investigate Elena", [{"target": "Elena"}]),
    case(TEMPO, "en", "Good morning, vote Carla", [{"vote": "Carla"}]),
    case(TEMPO, "en", "Vote Carla, she lied", [{"vote": "Carla"}], prose="she lied"),
    # Complots, Italian: the card with its article, the character used, coins named, time asked.
    case(COMPLOTS, "complots-it", "Tengo la Duchessa e il Capitano",
         [{"kind": "keep", "cards": ["Duchessa", "Capitano"]}]),
    case(COMPLOTS, "complots-it", "Uso l'Assassino su Dario", [_turn("assassinate", "Dario")]),
    case(COMPLOTS, "complots-it", "Uso la Duchessa", [_turn("tax")]),
    case(COMPLOTS, "complots-it", "Prendo 2 monete a Carla", [_turn("steal", "Carla")]),
    case(COMPLOTS, "complots-it", "Prendo gli aiuti stranieri", [_turn("foreign_aid")]),
    case(COMPLOTS, "complots-it", "Mi serve più tempo", [{"kind": "more_time"}]),
    case(COMPLOTS, "complots-it", "Ciao a tutti, passo", [_answer("pass")]),
    case(COMPLOTS, "complots-it", "Passo, grazie", [_answer("pass")]),
    case(COMPLOTS, "complots-it", "Non ci credo!", [_answer("challenge")]),
    case(COMPLOTS, "complots-it", "Blocco con il Capitano, ce l'ho davvero",
         [_answer("block", as_="Capitano")], prose="ce l'ho davvero"),
    case(COMPLOTS, "complots-it", "Omicidio di Bruno", [_turn("coup", "Bruno")]),
    case(COMPLOTS, "complots-it", "Colpo di stato a Carla", [_turn("coup", "Carla")]),
    case(COMPLOTS, "complots-it", "Uccido Carla con l'Assassino", [_turn("assassinate", "Carla")]),
    case(COMPLOTS, "complots-it", "Scopro la Contessa", [{"kind": "lose", "card": "Contessa"}]),
    case(COMPLOTS, "complots-it", "Mostro il Capitano", [{"kind": "show", "card": "Capitano"}]),
    case(COMPLOTS, "complots-it", "Scarto la carta", [{"kind": "discard", "discard": "discard"}]),
    case(COMPLOTS, "complots-it", "Sempre sfido il Duca", [_standing(True, "challenge:Duchessa")]),
    case(COMPLOTS, "complots-it", "Non sfido più la Duchessa", [_standing(False, "challenge:Duchessa")]),
    case(COMPLOTS, "complots-it", "Nessuna risposta permanente", [_standing(False, None)]),
    case(COMPLOTS, "complots-it", "Risposte permanenti", [{**_standing(True, None), "list": True}]),
    case(COMPLOTS, "complots-it", "Sfido?", [], ["question"]),
    case(COMPLOTS, "complots-it", "Assassinio Bruno?", [], ["question"]),
    # Complots, English.
    case(COMPLOTS, "complots-en", "I keep the Duke and the Countess",
         [{"kind": "keep", "cards": ["Duchessa", "Contessa"]}]),
    case(COMPLOTS, "complots-en", "I use the Assassin on Dario", [_turn("assassinate", "Dario")]),
    case(COMPLOTS, "complots-en", "Take tax", [_turn("tax")]),
    case(COMPLOTS, "complots-en", "Take 2 coins from Carla", [_turn("steal", "Carla")]),
    case(COMPLOTS, "complots-en", "Steal 2 coins from Carla", [_turn("steal", "Carla")]),
    case(COMPLOTS, "complots-en", "I need more time", [{"kind": "more_time"}]),
    case(COMPLOTS, "complots-en", "Hi all, I pass", [_answer("pass")]),
    case(COMPLOTS, "complots-en", "Ok by me", [_answer("pass")]),
    case(COMPLOTS, "complots-en", "I doubt it", [_answer("challenge")]),
    case(COMPLOTS, "complots-en", "Coup on Bruno", [_turn("coup", "Bruno")]),
    case(COMPLOTS, "complots-en", "Assassination of Bruno", [_turn("coup", "Bruno")]),
    case(COMPLOTS, "complots-en", "I reveal the Captain", [{"kind": "lose", "card": "Capitano"}]),
    case(COMPLOTS, "complots-en", "Show the Countess", [{"kind": "show", "card": "Contessa"}]),
    case(COMPLOTS, "complots-en", "Discard the card", [{"kind": "discard", "discard": "discard"}]),
    case(COMPLOTS, "complots-en", "Always challenge the Duke", [_standing(True, "challenge:Duchessa")]),
    case(COMPLOTS, "complots-en", "No longer pass", [_standing(False, "pass_not_me")]),
    case(COMPLOTS, "complots-en", "My standing answers", [{**_standing(True, None), "list": True}]),
    case(COMPLOTS, "complots-en", "Block with the Captain, I have it", [_answer("block", as_="Capitano")],
         prose="I have it"),
]


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize("ruleset, lang, written, commands, errors, prose", CASES)
def test_a_player_reply_in_a_real_clients_shape(client, ruleset, lang, written, commands, errors, prose):
    raw = reply_from(client, written, QUOTED[lang], SUBJECT[lang])
    # The reply really carries the service's mail with its decoy command, quoted.
    body = email.message_from_bytes(raw, policy=email.policy.default).get_body(("plain", "html")).get_content()
    assert re.search(r"^[> ]*" + re.escape(QUOTED[lang][-1]) + r"\s*$", body, flags=re.M) \
        or ">" + html.escape(QUOTED[lang][-1]) + "<" in body, body
    parsed = parse_message(raw, PLAYERS, vocabulary=ruleset)
    assert parsed.ignored is None
    assert parsed.commands == commands, (parsed.reply_text, parsed.errors)
    assert [e["code"] for e in parsed.errors] == errors, parsed.errors
    if errors == ["no_command"] and not written.strip("- \n").replace("Anna Rossi", "").replace("Anna", "") \
            .replace("Sent from my iPhone", ""):
        assert parsed.errors[0].get("empty") is True  # the receipt says nothing was written
    if prose is not None:
        assert any(prose in item["text"] for item in parsed.ignored_text), parsed.ignored_text


def test_the_corpus_is_as_large_as_promised():
    """Issue 22 asks for at least 80 natural replies; this corpus holds twice that, every
    game and language with its share (the Complots corpus, test_complots_corpus.py, adds more)."""
    lupus = [c for c in CASES if c.values[0] in (LIVE, TEMPO)]
    complots = [c for c in CASES if c.values[0] == COMPLOTS]
    assert len(CASES) >= 160 and len(lupus) >= 110 and len(complots) >= 45
    for ruleset in (LIVE, TEMPO):
        assert {c.values[1] for c in lupus if c.values[0] == ruleset} == {"it", "en"}
    assert {c.values[1] for c in complots} == {"complots-it", "complots-en"}
    assert len({c.values[:3] for c in CASES}) == len(CASES)  # no case twice
    assert len(own_clients()) == 12
