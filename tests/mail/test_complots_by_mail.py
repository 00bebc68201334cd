"""A whole three-player Complots game played by mail: the service mails each player
what they may answer over real SMTP, the players reply through a real Dovecot, and
every answer is read with the game's vocabulary (Italian for two, English for one).
Nobody ever reads another player's face-down cards in any mail."""
from __future__ import annotations

import re
from email.message import EmailMessage
from email.utils import make_msgid

from pbm.db import transaction
from pbm.mail.sources import open_source
from pbm.models import ActionRow, Game, OutboxRow, User
from pbm.worker import Worker

from pbm import operations, render

from tests.support.helpers import make_master

NAMES = {"Anna": "it", "Bruno": "en", "Carla": "it"}


def start_game(app, factory, now) -> int:
    master_id = make_master(factory)
    with transaction(factory) as s:
        master = s.get(User, master_id)
        game = operations.create_game(s, name="Complotto per posta", ruleset="complots",
                                      master=master, now=now)
        for name, lang in NAMES.items():
            operations.add_player(s, app.config, game, name=name, lang=lang,
                                  email=f"{name.lower()}@players.test", now=now, by=master)
        operations.prepare_game(s, game, now=now, options={"variant": "ambasciatore"}, by=master)
        operations.start_game(s, app.config, game, now=now, by=master)
        game.seed = game.seed  # the draw is the game's own
        return game.id


def answer_lines(body: str) -> list[str]:
    """The lines the mail offers as answers (indented under the 'answer with' line)."""
    marker = "righe:" if "righe:" in body else "lines:"
    if marker not in body:
        return []
    tail = body.split(marker, 1)[1].splitlines()[1:]
    out = []
    for line in tail:
        if not line.startswith("  "):
            break
        out.append(line.strip())
    return out


def bot_line(lines: list[str], turn_no: int) -> str:
    """A simple player: coup when it can, else alternate Duchessa and income; pass on
    answers, challenge one claim in five; lose or keep the first cards offered."""
    words = {ln.split()[0].upper(): ln for ln in lines}

    def first_choice(line: str) -> str:
        word, _, rest = line.partition(" ")
        return f"{word} {rest.split(' | ')[0].strip()}"
    for coup in ("COLPO", "COUP"):
        if coup in words:
            return first_choice(words[coup])
    if "SFIDO" in words or "CHALLENGE" in words:
        if turn_no % 5 == 0:
            return "SFIDO" if "SFIDO" in words else "CHALLENGE"
        return "PASSO" if "PASSO" in words else "PASS"
    if "PASSO" in words or "PASS" in words:
        return "PASSO" if "PASSO" in words else "PASS"
    for tax in ("TASSA", "TAX", "REDDITO", "INCOME"):
        if tax in words and (turn_no % 2 == 0 or tax in ("REDDITO", "INCOME")):
            return tax
    for keep in ("TENGO", "KEEP"):
        if keep in words:
            count, cards = re.search(r"\((\d+): (.*)\)", words[keep]).groups()
            return f"{keep} {' '.join(cards.split(', ')[:int(count)])}"
    return first_choice(lines[0])


def reply(original, name: str, text: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{name} <{name.lower()}@players.test>"
    msg["To"] = original.message["Reply-To"]
    msg["Subject"] = "Re: " + str(original.message["Subject"])
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg["In-Reply-To"] = original.message["Message-ID"]
    msg["References"] = original.message["Message-ID"]
    msg.set_content(f"{text}\n\n> quoted: REDDITO\n")
    return bytes(msg)


def test_a_three_player_game_by_mail(make_app, clock, smtp_server, imap_account):
    app = make_app(MAIL_PORT=smtp_server.port, MAIL_SOURCE=imap_account.source_config(),
                   MASTER_ADDRESS="lupus@lupus.test")
    factory = app.extensions["pbm_sessions"]
    gid = start_game(app, factory, clock.now())
    worker = Worker(app, clock)
    source = open_source(app.config["MAIL_SOURCE"])
    answered: set[str] = set()  # Message-IDs of the mails already answered
    stale = None
    try:
        for step in range(400):
            worker.outbox()
            with factory() as s:
                if s.get(Game, gid).status == "over":
                    break
            fresh = [m for m in smtp_server.messages
                     if m.message["Message-ID"] not in answered and answer_lines(
                         m.message.get_body(("plain",)).get_content())]
            assert fresh, f"step {step}: nobody was asked anything"
            for m in fresh:
                answered.add(m.message["Message-ID"])
                name = next(n for n in NAMES if m.rcpt_tos[0].startswith(n.lower()))
                body = m.message.get_body(("plain",)).get_content()
                line = bot_line(answer_lines(body), step)
                if stale is None and line in ("PASSO", "PASS"):
                    stale = (m, name)  # answered now; replied to again later, too late
                imap_account.deliver(reply(m, name, line))
            worker.mail_once(source)
        else:
            raise AssertionError("the game did not end in 400 rounds of mail")
        # A second answer to a window long closed: refused, never applied.
        before = _actions(factory, gid)
        imap_account.deliver(reply(stale[0], stale[1], "SFIDO"))
        worker.mail_once(source)
        assert _actions(factory, gid) == before
    finally:
        source.close()
    worker.outbox()
    with factory() as s:
        game = s.get(Game, gid)
        assert game.status == "over" and game.state["winner"] in NAMES
        sources = {r.source for r in s.query(ActionRow).filter_by(game_id=gid)}
        assert sources == {"mail"}
    receipts = [m for m in smtp_server.messages if m.rcpt_tos[0] == f"{stale[1].lower()}@players.test"
                and "Auto-Submitted" in m.message]
    last = receipts[-1].message.get_body(("plain",)).get_content()
    assert "Troppo tardi: quel momento è passato" in last or "Too late: that moment has passed" in last
    # Every player was told the end, in their language.
    finals = [m for m in smtp_server.messages if "Partita finita" in str(m.message["Subject"])
              or "Game over" in str(m.message["Subject"])]
    assert sorted(m.rcpt_tos[0] for m in finals) == sorted(f"{n.lower()}@players.test" for n in NAMES)


def _actions(factory, gid) -> int:
    with factory() as s:
        return s.query(ActionRow).filter_by(game_id=gid).count()


def test_more_time_by_mail(make_app, clock, imap_account):
    app = make_app(MAIL_SOURCE=imap_account.source_config(), MASTER_ADDRESS="lupus@lupus.test")
    factory = app.extensions["pbm_sessions"]
    gid = start_game(app, factory, clock.now())
    worker = Worker(app, clock)
    with factory() as s:
        game = s.get(Game, gid)
        first = game.state["data"]["turn_of"]
        phase = operations.current_phase(s, game)
        asked = (s.query(OutboxRow).filter_by(to_addr=f"{first.lower()}@players.test", kind="window")
                 .order_by(OutboxRow.id.desc()).first())
        assert ("PIÙ TEMPO" if NAMES[first] == "it" else "MORE TIME") in asked.body
    msg = EmailMessage()
    msg["From"] = f"{first.lower()}@players.test"
    msg["To"] = asked.reply_to
    msg["Subject"] = "Re: " + asked.subject
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg["In-Reply-To"] = asked.message_id
    msg.set_content("più tempo" if NAMES[first] == "it" else "more time")
    imap_account.deliver(bytes(msg))
    source = open_source(app.config["MAIL_SOURCE"])
    try:
        worker.mail_once(source)
    finally:
        source.close()
    with factory() as s:
        game = s.get(Game, gid)
        assert operations.current_phase(s, game).ends_at == phase.ends_at + operations.timing.answer_window(game)
        assert game.seat_by_name(first).extensions_used == 1


# --------------------------------------------------------------------------- standing answers

def _reply_to_last(factory, imap_account, name: str, text: str) -> None:
    """``name`` replies, from their own address, to the last mail the game sent them."""
    with factory() as s:
        last = (s.query(OutboxRow).filter_by(to_addr=f"{name.lower()}@players.test")
                .filter(OutboxRow.kind != "receipt").order_by(OutboxRow.id.desc()).first())
        msg = EmailMessage()
        msg["From"] = f"{name} <{name.lower()}@players.test>"
        msg["To"] = last.reply_to
        msg["Subject"] = "Re: " + last.subject
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg["In-Reply-To"] = last.message_id
        msg.set_content(f"{text}\n\nInviato dal mio telefono\n")
    imap_account.deliver(bytes(msg))


def _receipt(factory, name: str) -> str:
    with factory() as s:
        row = (s.query(OutboxRow).filter_by(to_addr=f"{name.lower()}@players.test")
               .filter(OutboxRow.kind.in_(("receipt", "receipt_error")))
               .order_by(OutboxRow.id.desc()).first())
        return row.body


def _standing(factory, gid: int, name: str) -> list[str]:
    with factory() as s:
        return list(s.get(Game, gid).seat_by_name(name).standing)


def test_standing_answers_by_mail_in_both_languages(make_app, clock, imap_account):
    """Standing answers set and taken back by replying to the Master's mail, through a
    real Dovecot, in the words of the player's language; they answer for the player as
    the next window opens, as those saved on the game page do; a line not understood
    gets a receipt saying so, in the player's language, and changes nothing."""
    app = make_app(MAIL_SOURCE=imap_account.source_config(), MASTER_ADDRESS="lupus@lupus.test")
    factory = app.extensions["pbm_sessions"]
    gid = start_game(app, factory, clock.now())
    worker = Worker(app, clock)
    source = open_source(app.config["MAIL_SOURCE"])
    with factory() as s:
        first = s.get(Game, gid).state["data"]["turn_of"]
    # An Italian player who is not in turn, and Bruno, who reads English.
    italian = next(n for n, lang in NAMES.items() if lang == "it" and n != first)
    try:
        _reply_to_last(factory, imap_account, italian, "SEMPRE SFIDO la Duchessa\npasso sempre")
        _reply_to_last(factory, imap_account, "Bruno", "always challenge the Duke\nALWAYS CHALLENGE Captain")
        worker.mail_once(source)
        # Kept in the ruleset's order, whatever the order written.
        assert _standing(factory, gid, italian) == ["pass_not_me", "challenge:Duchessa"]
        assert _standing(factory, gid, "Bruno") == ["challenge:Duchessa", "challenge:Capitano"]
        receipt = _receipt(factory, italian)
        assert "Risposte permanenti: Passo su tutto ciò che non mi prende di mira; " \
               "Sfido sempre chi dichiara la Duchessa." in receipt
        assert receipt.count("Risposte permanenti:") == 1  # what stands, once, not each step
        assert "Always challenge a Captain" in _receipt(factory, "Bruno")

        # Not understood: said in the player's own language, nothing changed.
        _reply_to_last(factory, imap_account, italian, "SEMPRE SFIDO Pippo")
        _reply_to_last(factory, imap_account, "Bruno", "ALWAYS CHALLENGE")
        worker.mail_once(source)
        receipt = _receipt(factory, italian)
        assert "Non conosco il personaggio “Pippo”" in receipt and "Contessa" in receipt
        receipt = _receipt(factory, "Bruno")
        assert "Which standing answer?" in receipt and "ALWAYS CHALLENGE Duchess" in receipt
        assert _standing(factory, gid, italian) == ["pass_not_me", "challenge:Duchessa"]
        assert _standing(factory, gid, "Bruno") == ["challenge:Duchessa", "challenge:Capitano"]

        # The player in turn claims the Duchessa: the standing challenge answers at
        # once (the Italian player's, or Bruno's when Bruno is not in turn).
        _reply_to_last(factory, imap_account, first, "TASSA" if NAMES[first] == "it" else "TAX")
        worker.mail_once(source)
        with factory() as s:
            standing = [(r.seat.name, r.args) for r in s.query(ActionRow).filter_by(
                game_id=gid, source="standing")]
        assert standing and all(args["answer"] == "challenge" for _n, args in standing), standing
        assert {n for n, _a in standing} <= {italian, "Bruno"} - {first}

        # Taken back one by one, or all at once.
        _reply_to_last(factory, imap_account, "Bruno", "NO LONGER CHALLENGE the Duke")
        _reply_to_last(factory, imap_account, italian, "NESSUNA RISPOSTA PERMANENTE")
        worker.mail_once(source)
        assert _standing(factory, gid, "Bruno") == ["challenge:Capitano"]
        assert _standing(factory, gid, italian) == []
        assert "Risposte permanenti: nessuna." in _receipt(factory, italian)

        # Listed in English too (Italian above), changing nothing.
        _reply_to_last(factory, imap_account, "Bruno", "My standing answers")
        worker.mail_once(source)
        assert "Standing answers: Always challenge a Captain." in _receipt(factory, "Bruno")
        assert _standing(factory, gid, "Bruno") == ["challenge:Capitano"]
    finally:
        source.close()


def test_the_window_mail_says_how_to_leave_answers_standing(make_app, clock, imap_account):
    app = make_app(MAIL_SOURCE=imap_account.source_config(), MASTER_ADDRESS="lupus@lupus.test")
    factory = app.extensions["pbm_sessions"]
    start_game(app, factory, clock.now())
    with factory() as s:
        for name, lang in NAMES.items():
            body = (s.query(OutboxRow).filter_by(to_addr=f"{name.lower()}@players.test", kind="window")
                    .first().body)
            if lang == "it":
                assert "Risposte permanenti per posta" in body and "SEMPRE SFIDO Duchessa" in body
            else:
                assert "Standing answers by mail" in body and "ALWAYS CHALLENGE Duchess" in body


# --------------------------------------------------------------------------- the book's words by mail

def _reply_to(imap_account, row, name: str, text: str) -> None:
    msg = EmailMessage()
    msg["From"] = f"{name} <{name.lower()}@players.test>"
    msg["To"] = row.reply_to
    msg["Subject"] = "Re: " + row.subject
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg["In-Reply-To"] = row.message_id
    msg.set_content(f"{text}\n\n> {row.body.splitlines()[0]}\n> ASSASSINIO Carla\n")
    imap_account.deliver(bytes(msg))


def test_the_book_s_words_by_mail_and_receipts_that_say_where_the_game_is(make_app, clock, imap_account):
    """ASSASSINIO without 7 coins is told the cost and the Assassino; RISPOSTE PERMANENTI
    lists what stands; a standing challenge of a character not in the game is refused;
    the answer that closes a window is told so, not given a deadline that is now; and
    a reply to a window long closed is refused with the window open now and its deadline."""
    app = make_app(MAIL_SOURCE=imap_account.source_config(), MASTER_ADDRESS="lupus@lupus.test")
    factory = app.extensions["pbm_sessions"]
    gid = start_game(app, factory, clock.now())
    worker = Worker(app, clock)
    source = open_source(app.config["MAIL_SOURCE"])
    with factory() as s:
        game = s.get(Game, gid)
        first = game.state["data"]["turn_of"]
        other = next(n for n in NAMES if n != first)
        italian = next(n for n, lang in NAMES.items() if lang == "it" and n != first)
        asked = (s.query(OutboxRow).filter_by(to_addr=f"{first.lower()}@players.test", kind="window")
                 .order_by(OutboxRow.id.desc()).first())
        s.expunge(asked)
    it = NAMES[first] == "it"
    try:
        _reply_to(imap_account, asked, first, f"ASSASSINIO {other}" if it else f"ASSASSINATION {other}")
        _reply_to_last(factory, imap_account, italian,
                       "SEMPRE PASSO\nSEMPRE SFIDO l'Inquisitore\nLe mie risposte permanenti")
        worker.mail_once(source)
        refused = _receipt(factory, first)
        # With 2 coins the Assassino (3) is out of reach too: never offered (issue 31); what
        # can be done now is, as lines to copy.
        if it:
            assert "L'Assassinio costa 7 monete e ne hai 2" in refused and "ASSASSINO" not in refused
            assert "REDDITO" in refused
        else:
            assert "The Assassination costs 7 coins and you hold 2" in refused and "ASSASSIN " not in refused
            assert "INCOME" in refused
        standing = _receipt(factory, italian)
        assert "Risposta permanente sconosciuta" in standing
        assert "Risposte permanenti: Passo su tutto ciò che non mi prende di mira." in standing
        assert _standing(factory, gid, italian) == ["pass_not_me"]

        # Income closes the turn's window at once: the receipt says so.
        _reply_to(imap_account, asked, first, "prendo il reddito" if it else "take income")
        worker.mail_once(source)
        closing = _receipt(factory, first)
        assert ("il momento si è chiuso" in closing) if it else ("the moment has closed" in closing)
        # Too late for that window: refused, and the window open now is named with its deadline.
        _reply_to(imap_account, asked, first, "TASSA" if it else "TAX")
        worker.mail_once(source)
        with factory() as s:
            game = s.get(Game, gid)
            now_open = operations.current_phase(s, game)
            label = render.phase_label(now_open, NAMES[first], operations.game_tz(game))
            deadline = render.deadline_text(now_open.ends_at, NAMES[first], operations.game_tz(game))
        late = _receipt(factory, first)
        assert ("Troppo tardi" in late) if it else ("Too late" in late)
        assert (f"Ora è aperto: {label}, fino al {deadline}." in late) if it else \
            (f"Open now: {label}, until {deadline}." in late)
    finally:
        source.close()
