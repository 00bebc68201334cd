"""Replies shaped like the real clients': new commands above (or below) a quoted bulletin
that itself contains commands. Only the new ones may count."""
import base64

import pytest

from pbm.mail.reading.parse import header_token, parse_message
from pbm.mail.reading.parse_body import parse_bytes

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Nicolò", "Maria Luisa"]


def mail(body: str | bytes, ctype="text/plain", charset="utf-8", headers: dict | None = None,
         cte: str | None = None) -> bytes:
    head = {"From": "Anna Rossi <anna@example.it>", "To": "master@lupus.example",
            "Subject": "Re: Giorno 2", "Message-ID": "<r1@example.it>",
            "Date": "Mon, 03 Mar 2025 10:12:00 +0100", "MIME-Version": "1.0"}
    head.update(headers or {})
    head["Content-Type"] = f"{ctype}; charset={charset}" if charset else ctype
    if cte:
        head["Content-Transfer-Encoding"] = cte
    lines = "".join(f"{k}: {v}\n" for k, v in head.items() if v is not None)
    data = body if isinstance(body, bytes) else body.encode(charset if charset and charset.startswith("utf") else "utf-8")
    return lines.encode("ascii") + b"\n" + data


BULLETIN_IT = "È iniziato il giorno 2.\nVOTO Anna\nPOTERE Bruno\nVICE Dario\n"
BULLETIN_EN = "Day 2 has begun.\nVOTE Anna\nPOWER Bruno\nAPPOINT Dario\n"


def quoted(text: str, prefix="> ") -> str:
    return "".join(prefix + line + "\n" for line in text.splitlines())


PLAIN_SHAPES = {
    "gmail_it": "VOTO Carla\n\nIl giorno lun 3 mar 2025 alle ore 08:00 Master Lupus <\n"
                "master@lupus.example> ha scritto:\n\n" + quoted(BULLETIN_IT),
    "gmail_en": "VOTE Carla\n\nOn Mon, 3 Mar 2025 at 08:00, Master Lupus <master@lupus.example> wrote:\n\n"
                + quoted(BULLETIN_EN),
    "outlook_it": "VOTO Carla\n\n________________________________\nDa: Master Lupus <master@lupus.example>\n"
                  "Inviato: lunedì 3 marzo 2025 08:00\nA: Anna Rossi <anna@example.it>\nOggetto: Giorno 2\n\n"
                  + BULLETIN_IT,
    "outlook_it_original": "VOTO Carla\n\n-----Messaggio originale-----\nDa: Master Lupus [mailto:master@lupus.example]\n"
                           "Inviato: lunedì 3 marzo 2025 08:00\nA: Anna\nOggetto: Giorno 2\n\n" + BULLETIN_IT,
    "outlook_en": "VOTE Carla\n\n-----Original Message-----\nFrom: Master Lupus <master@lupus.example>\n"
                  "Sent: Monday, March 3, 2025 8:00 AM\nTo: Anna Rossi\nSubject: Day 2\n\n" + BULLETIN_EN,
    "apple_it": "VOTO Carla\n\nInviato da iPhone\n\n> Il giorno 3 mar 2025, alle ore 08:00, Master Lupus "
                "<master@lupus.example> ha scritto:\n> \n" + quoted(BULLETIN_IT),
    "apple_en": "VOTE Carla\n\nSent from my iPhone\n\n> On 3 Mar 2025, at 08:00, Master Lupus "
                "<master@lupus.example> wrote:\n> \n" + quoted(BULLETIN_EN),
    "thunderbird_it": "VOTO Carla\n\nIl 03/03/25 08:00, Master Lupus ha scritto:\n" + quoted(BULLETIN_IT),
    "thunderbird_en_bottom": "On 03/03/2025 08:00, Master Lupus wrote:\n" + quoted(BULLETIN_EN) + "\nVOTE Carla\n",
    "android_in_data": "VOTO Carla\n\nIn data 3 marzo 2025 08:00:00 \"Master Lupus\" <master@lupus.example> "
                       "ha scritto:\n\n" + quoted(BULLETIN_IT),
    "interleaved": quoted("È iniziato il giorno 2.") + "VOTO Carla\n" + quoted("VOTO Anna\nPOTERE Bruno"),
    "no_attribution_quote": "VOTO Carla\n\n" + quoted(BULLETIN_IT),
    "nested_quotes": "VOTO Carla\n\n" + quoted(quoted(BULLETIN_IT), prefix=">"),
}

HTML_SHAPES = {
    "gmail_html_it": '<div dir="ltr">VOTO Carla</div><br><div class="gmail_quote"><div dir="ltr" '
                     'class="gmail_attr">Il giorno lun 3 mar 2025 alle ore 08:00 Master Lupus &lt;<a '
                     'href="mailto:master@lupus.example">master@lupus.example</a>&gt; ha scritto:<br></div>'
                     '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">'
                     "È iniziato il giorno 2.<br>VOTO Anna<br>POTERE Bruno<br></blockquote></div>",
    "outlook_html_en": '<html><body><div>VOTE Carla</div><div><br></div><hr style="display:inline-block;width:98%">'
                       '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri"><b>From:</b> Master Lupus '
                       "&lt;master@lupus.example&gt;<br><b>Sent:</b> Monday, March 3, 2025 8:00 AM<br>"
                       "<b>To:</b> Anna Rossi<br><b>Subject:</b> Day 2</font><div>&nbsp;</div></div>"
                       "<div>Day 2 has begun.<br>VOTE Anna<br>POWER Bruno</div></body></html>",
    "outlook_html_it": "<html><body><p>VOTO Carla</p><div style=\"border:none;border-top:solid #E1E1E1 1.0pt\">"
                       "<p><b>Da:</b> Master Lupus &lt;master@lupus.example&gt;<br><b>Inviato:</b> lunedì 3 "
                       "marzo 2025 08:00<br><b>A:</b> Anna Rossi<br><b>Oggetto:</b> Giorno 2</p></div>"
                       "<p>VOTO Anna</p></body></html>",
    "apple_html_en": '<html><body><div>VOTE Carla</div><div><br><blockquote type="cite"><div>On 3 Mar 2025, '
                     "at 08:00, Master Lupus &lt;master@lupus.example&gt; wrote:</div><br><div>Day 2 has "
                     "begun.<br>VOTE Anna</div></blockquote></div></body></html>",
    "thunderbird_html_it": '<html><body><p>VOTO Carla<br></p><div class="moz-cite-prefix">Il 03/03/25 08:00, '
                           'Master Lupus ha scritto:<br></div><blockquote type="cite">VOTO Anna<br>'
                           "POTERE Bruno</blockquote></body></html>",
}


@pytest.mark.parametrize("shape", sorted(PLAIN_SHAPES))
def test_only_new_commands_count_plain(shape):
    result = parse_message(mail(PLAIN_SHAPES[shape]), PLAYERS)
    assert result.ignored is None
    assert result.commands == [{"vote": "Carla"}], result.reply_text
    assert result.errors == []


@pytest.mark.parametrize("shape", sorted(HTML_SHAPES))
def test_only_new_commands_count_html_only(shape):
    result = parse_message(mail(HTML_SHAPES[shape], ctype="text/html"), PLAYERS)
    assert result.body_format == "html"
    assert result.commands == [{"vote": "Carla"}], result.reply_text


def test_plain_part_is_preferred_over_html():
    boundary = "b0undary"
    body = (f"--{boundary}\nContent-Type: text/plain; charset=utf-8\n\nVOTO Carla\n"
            f"--{boundary}\nContent-Type: text/html; charset=utf-8\n\n<div>VOTO Bruno</div>\n--{boundary}--\n")
    raw = mail(body, ctype=f'multipart/alternative; boundary="{boundary}"', charset=None)
    result = parse_message(raw, PLAYERS)
    assert result.body_format == "plain" and result.commands == [{"vote": "Carla"}]


def test_signature_below_the_delimiter_does_not_count():
    body = "VOTO Carla\n\n-- \nAnna Rossi\nNOTE questa è la mia firma\n"
    result = parse_message(mail(body), PLAYERS)
    assert result.commands == [{"vote": "Carla"}]


def test_italian_disclaimer_and_phone_footer_are_not_ignored_lines():
    body = "VOTO Carla\nInviato dal mio Samsung Galaxy\n"
    result = parse_message(mail(body), PLAYERS)
    assert result.commands == [{"vote": "Carla"}]
    assert result.ignored_lines == []


def test_hyphen_list_of_commands_survives_the_signature_rule():
    body = "Ecco:\n- VOTO Carla\n- VICE Dario\n"
    result = parse_message(mail(body), PLAYERS)
    assert result.commands == [{"vote": "Carla"}, {"appoint": "Dario"}]


# --- text below a quote is the player's: a quoted signature is not theirs ----------------------

# The service's bulletins end with a '-- ' footer; any bulletin quoted in full carries it.
BULLETIN_WITH_FOOTER = ("Ciao Dario,\n\nBOLLETTINO\n- Nessun evento.\n\n-- \n"
                        "Test game - http://lupus.test/g/test-game/\nPer giocare via mail rispondi.\n\nVOTO Carla\n")
QUOTED_SIGNATURES = ["-- \nMaster Lupus", "--\nMaster Lupus", "Inviato da iPhone", "Sent from my iPhone",
                     "Cordiali saluti\nMaster", "Best regards,\nMaster", "Thanks,\nMaster",
                     "Sent with Proton Mail secure email.", "Get Outlook for Android"]
ATTRIBUTIONS = ["", "Il 24/11/26 09:30, Lupus ha scritto:\n",
                "On Tue, 24 Nov 2026 at 09:30, Lupus <lupus@lupus.example> wrote:\n\n"]


@pytest.mark.parametrize("attribution", ATTRIBUTIONS)
@pytest.mark.parametrize("quote", ["> ", ">"])
def test_bottom_posted_reply_below_a_quoted_bulletin_with_its_footer(attribution, quote):
    body = attribution + quoted(BULLETIN_WITH_FOOTER, prefix=quote) + "\nVOTO Anna\nVICE Bruno\n"
    result = parse_message(mail(body), PLAYERS)
    assert result.commands == [{"vote": "Anna"}, {"appoint": "Bruno"}], result.reply_text
    assert result.errors == [] and result.ignored_lines == []


@pytest.mark.parametrize("signature", QUOTED_SIGNATURES)
def test_no_quoted_signature_hides_the_text_below_it(signature):
    body = ("Il 24/11/26 09:30, Lupus ha scritto:\n" + quoted("Giorno 2.\n" + signature + "\nVOTO Carla")
            + "\nVOTO Anna\n")
    result = parse_message(mail(body), PLAYERS)
    assert result.commands == [{"vote": "Anna"}], result.reply_text


def test_interleaved_reply_keeps_every_unquoted_part():
    body = ("VOTO Anna\n\n" + quoted("Chi voti?\n-- \nMaster") + "\nVICE Bruno\n\n"
            + quoted("E il sindaco?\nInviato da iPhone") + "\nELEGGO Carla\n")
    result = parse_message(mail(body), PLAYERS)
    assert result.commands == [{"vote": "Anna"}, {"appoint": "Bruno"}, {"elect": "Carla"}], result.reply_text


@pytest.mark.parametrize("signature", ["-- \nDario Neri\nNOTE la mia firma", "Inviato da iPhone",
                                       "Sent with Proton Mail secure email.", "Cordiali saluti\nDario"])
def test_own_signature_below_the_quote_still_goes(signature):
    body = ("Il 24/11/26 09:30, Lupus ha scritto:\n" + quoted(BULLETIN_WITH_FOOTER)
            + "\nVOTO Anna\n\n" + signature + "\n")
    result = parse_message(mail(body), PLAYERS)
    assert result.commands == [{"vote": "Anna"}], result.reply_text
    assert result.ignored_lines == []


def test_own_signature_ends_where_quoted_text_starts():
    # The signature above the quote goes; what the player wrote below the quote stays.
    body = "VOTO Carla\n-- \nAnna Rossi\n\n" + quoted("VOTO Bruno") + "\nVICE Dario\n"
    result = parse_message(mail(body), PLAYERS)
    assert result.commands == [{"vote": "Carla"}, {"appoint": "Dario"}]
    assert result.ignored_lines == []


@pytest.mark.parametrize("older", [
    "On Mon, 23 Nov 2026, Dario <d@example.it> wrote:\n> VOTO Carla",
    "-----Original Message-----\nFrom: Lupus\nSent: Monday\nTo: Dario\nSubject: Giorno 1\n\nVOTO Carla",
    "Da: Lupus\nInviato: lunedì\nA: Dario\nOggetto: Giorno 1\n\nVOTO Carla",
])
def test_history_inside_the_quote_does_not_hide_the_text_below_it(older):
    body = ("Il 24/11/26 09:30, Lupus ha scritto:\n" + quoted("Giorno 2.\n" + older) + "\nVOTO Anna\n")
    result = parse_message(mail(body), PLAYERS)
    assert result.commands == [{"vote": "Anna"}], result.reply_text


def test_html_nested_quote_keeps_its_depth_after_a_line_break():
    # html2text gave the line after a <br> inside nested blockquotes a single '>'.
    from pbm.mail.reading.parse_body import html_to_text
    text = html_to_text("<blockquote>A<blockquote><div>Giorno 2.<br>VOTO Carla</div></blockquote></blockquote>")
    assert [ln for ln in text.splitlines() if "VOTO" in ln] == [">> VOTO Carla"]


# --- charsets ---------------------------------------------------------------------------------

@pytest.mark.parametrize("charset, data", [
    ("iso-8859-1", "VOTO Nicolò\nciò che è giusto\n".encode("latin-1")),
    ("x-bogus-charset", "VOTO Nicolò\nciò che è giusto\n".encode("latin-1")),
    ("utf-8", "VOTO Nicolò\nciò che è giusto\n".encode("latin-1")),   # a lying header
    ("3D,ascii", "VOTO Nicolò\nciò che è giusto\n".encode("utf-8")),
    ("unicode-1-1-utf-7", "VOTO Nicolò\nciò che è giusto\n".encode("utf-8")),
    ("undefined", "VOTO Nicolò\nciò che è giusto\n".encode("utf-8")),     # a codec that always fails
    ("base64", "VOTO Nicolò\nciò che è giusto\n".encode("latin-1")),      # not a text encoding
    ("windows-1252", "VOTO Nicolò\n\u201cciò\u201d che è giusto\n".encode("cp1252")),
])
def test_declared_and_bogus_charsets(charset, data):
    result = parse_message(mail(data, charset=charset), PLAYERS)
    assert result.commands == [{"vote": "Nicolò"}]
    assert "ciò" in result.ignored_lines[0] and "che è giusto" in result.ignored_lines[0]


def test_base64_and_encoded_headers():
    body = base64.b64encode("VOTO Maria Luisa\n".encode("utf-8")).decode()
    raw = mail(body, cte="base64", headers={"Subject": "=?utf-8?q?Re:_Giorno_2_=E2=80=94_citt=C3=A0?=",
                                            "From": "=?iso-8859-1?q?Nicol=F2?= <nico@example.it>"})
    result = parse_message(raw, PLAYERS)
    assert result.commands == [{"vote": "Maria Luisa"}]
    assert result.subject == "Re: Giorno 2 — città"
    assert result.from_name == "Nicolò" and result.from_address == "nico@example.it"


# --- reply token, threading -----------------------------------------------------------------

@pytest.mark.parametrize("headers, token", [
    ({"To": "Lupus <master+Ab_c-123@lupus.example>"}, "Ab_c-123"),
    ({"To": "master@lupus.example", "Cc": "x@y.z, master+tok987654@lupus.example"}, "tok987654"),
    ({"To": "undisclosed-recipients:;", "Delivered-To": "master+deliv0123@lupus.example"}, "deliv0123"),
    ({"X-Original-To": "master+origin0123@lupus.example"}, "origin0123"),
    ({"Subject": "Re: [lupus:SubjTok42] Notte 2"}, "SubjTok42"),
    ({"To": "master+short@lupus.example"}, None),            # under 6 characters
    ({"To": "master+bad!token@lupus.example"}, None),
    ({"Subject": "Re: [lupus:a b] Notte"}, None),
])
def test_reply_token(headers, token):
    assert parse_message(mail("VOTO Carla", headers=headers), PLAYERS).token == token


@pytest.mark.parametrize("subject, token", [
    ("=?utf-8?q?Re=3A_=5Blupus=3AEncTok42=5D_Giorno_2?=", "EncTok42"),      # the tag encoded
    ("=?utf-8?q?Re=3A_citt=C3=A0?= [lupus:MixTok42]", "MixTok42"),           # an encoded word beside it
    ("=?utf-8?q?broken [lupus:BrokTok42]", "BrokTok42"),                     # a broken encoded word
    ("=?x-no-such-charset?q?Re?= [lupus:OddTok42]", "OddTok42"),
])
def test_header_token_reads_as_the_parse(subject, token):
    """The inbox finds the game from the headers before the parse, then hands the
    parse the token and the message already read: both readings must be one."""
    raw = mail("VOTO Carla", headers={"Subject": subject})
    msg = parse_bytes(raw)
    assert header_token(msg, "master") == token
    assert parse_message(raw, PLAYERS, reply_localpart="master").token == token
    assert (parse_message(msg, PLAYERS, reply_localpart="master", token=header_token(msg, "master"))
            == parse_message(raw, PLAYERS, reply_localpart="master"))


def test_reply_token_only_for_our_local_part():
    raw = mail("VOTO Carla", headers={"To": "list+abcdefgh@x.org, master+mytoken1@lupus.example"})
    assert parse_message(raw, PLAYERS, reply_localpart="master").token == "mytoken1"


def test_threading_fields():
    raw = mail("VOTO Carla", headers={"Message-ID": "<abc@x>", "In-Reply-To": "<bulletin-7@lupus.example>",
                                      "References": "<b-1@lupus.example>\n <bulletin-7@lupus.example>"})
    result = parse_message(raw, PLAYERS)
    assert result.message_id == "<abc@x>"
    assert result.in_reply_to == "<bulletin-7@lupus.example>"
    assert result.references == ["<b-1@lupus.example>", "<bulletin-7@lupus.example>"]
    assert result.date == "2025-03-03T10:12:00+01:00"


# --- mail that must never be answered, built here ---------------------------------------------

@pytest.mark.parametrize("headers, reason", [
    ({"Subject": "Risposta automatica: Giorno 2"}, "auto-reply"),
    ({"Subject": "Automatic reply: Day 2"}, "auto-reply"),
    ({"Subject": "Fuori sede fino al 10 marzo"}, "auto-reply"),
    ({"Subject": "Out of Office: Day 2"}, "auto-reply"),
    ({"Subject": "Auto: Giorno 2"}, "auto-reply"),
    ({"Auto-Submitted": "auto-replied"}, "auto-reply"),
    ({"Auto-Submitted": "auto-generated"}, "auto-reply"),
    ({"Precedence": "bulk"}, "auto-reply"),
    ({"Precedence": "junk"}, "auto-reply"),
    ({"X-Autoreply": "yes"}, "auto-reply"),
    ({"X-Autorespond": "Vacation"}, "auto-reply"),
    ({"X-Auto-Response-Suppress": "OOF"}, "auto-reply"),
    ({"X-Auto-Response-Suppress": "All"}, "auto-reply"),
    ({"List-Id": "Lupus fans <lupus.lists.example>"}, "list"),
    ({"Return-Path": "<>"}, "bounce"),
    ({"From": "MAILER-DAEMON@mx.example.com"}, "bounce"),
    ({"From": "Mail Delivery System <postmaster@example.it>"}, "bounce"),
    ({"Auto-Submitted": "no"}, None),
    ({"Precedence": "first-class"}, None),
    # found by the independent audit
    ({"Subject": "Autorisposta: Re: Giorno 2"}, "auto-reply"),
    ({"X-Autoresponder": "true"}, "auto-reply"),
    ({"X-Precedence": "auto_reply"}, "auto-reply"),
    ({"X-Mailer": "vacation 1.2.7"}, "auto-reply"),
    ({"Subject": "Letto: [Lupus] Giorno 2"}, "auto-reply"),
    ({"Subject": "Read: [Lupus] Day 2"}, "auto-reply"),
    ({"Subject": "ACCETTAZIONE: [Lupus] Giorno 2", "X-Ricevuta": "accettazione"}, "auto-reply"),
    ({"Subject": "AVVISO DI MANCATA CONSEGNA: Giorno 2", "X-Ricevuta": "errore-consegna"}, "bounce"),
    ({"From": "Servizio Mail <noreply@libero.example>", "Subject": "Messaggio non recapitabile: Giorno 2"}, "bounce"),
    ({"Subject": "Re: assenza di Bruno, Letto: il bollettino"}, None),
])
def test_never_answered(headers, reason):
    result = parse_message(mail("VOTO Carla", headers=headers), PLAYERS)
    assert result.ignored == reason
    assert result.commands == ([] if reason else [{"vote": "Carla"}])


def test_built_delivery_status_report_names_the_recipient():
    body = ("--rep\nContent-Type: text/plain\n\nYour message could not be delivered.\n"
            "--rep\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example\n\n"
            "Final-Recipient: rfc822; gone@example.it\nAction: failed\nStatus: 5.1.1\n\n"
            "Final-Recipient: rfc822; later@example.it\nAction: delayed\nStatus: 4.0.0\n"
            "--rep--\n")
    raw = mail(body, ctype='multipart/report; report-type=delivery-status; boundary="rep"', charset=None,
               headers={"From": "Mail System <robot@mx.example>"})
    result = parse_message(raw, PLAYERS)
    assert result.ignored == "bounce"
    assert result.bounced_recipients == ["gone@example.it"]


def _dsn(blocks: str) -> bytes:
    body = ("--rep\nContent-Type: text/plain\n\nYour message could not be delivered.\n"
            "--rep\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example\n\n"
            + blocks + "--rep--\n")
    return mail(body, ctype='multipart/report; report-type=delivery-status; boundary="rep"', charset=None,
                headers={"From": "Mail System <robot@mx.example>"})


@pytest.mark.parametrize("order", ["final_first", "original_first"])
def test_bounce_after_alias_expansion_names_the_address_we_sent_to(order):
    # We sent to anna@example.it; her server expanded the alias to a local mailbox, which failed.
    fields = ["Final-Recipient: rfc822; anna.local@mx.example.it",
              "Original-Recipient: rfc822;anna@example.it"]
    if order == "original_first":
        fields.reverse()
    result = parse_message(_dsn("\n".join(fields) + "\nAction: failed\nStatus: 5.1.1\n"), PLAYERS)
    assert result.bounced_recipients == ["anna@example.it"]


@pytest.mark.parametrize("original", ["", "rfc822;", "unknown; x400-gibberish"])
def test_unusable_original_recipient_falls_back_to_final(original):
    blocks = f"Original-Recipient: {original}\nFinal-Recipient: rfc822; <gone@example.it>\nAction: failed\n"
    assert parse_message(_dsn(blocks), PLAYERS).bounced_recipients == ["gone@example.it"]


def test_unparsed_delivery_status_text_prefers_original_recipient():
    # A delivery-status part the email package left as text (broken MIME) is read line by line.
    from email.message import Message

    from pbm.mail.reading.parse_classify import _delivery_status_recipients
    part = Message()
    part["Content-Type"] = "message/delivery-status"
    part.set_payload("Reporting-MTA: dns; mx.example\n\n"
                     "Final-Recipient: rfc822; r@mx.example\nOriginal-Recipient: rfc822;anna@example.it\n"
                     "Action: failed\n\n"
                     "Final-Recipient: rfc822; bruno@example.it\nAction: failed\n")
    assert _delivery_status_recipients(part) == (True, ["anna@example.it", "bruno@example.it"])


def test_html_lists_and_markdown_escapes_do_not_hide_commands():
    html = ("<div>- VOTO Carla</div><ol><li>VICE Dario</li></ol><ul><li>POTERE Bruno</li></ul>"
            "<div>1. URLO Al lupo!</div><div>RITUALE \\end{story} 2 CON Anna</div>")
    result = parse_message(mail(html, ctype="text/html"), PLAYERS)
    assert result.commands == [{"vote": "Carla"}, {"appoint": "Dario"}, {"target": "Bruno"},
                               {"shout": "Al lupo!"}, {"ritual": "\\end{story}", "with": ["Anna"], "n": 2}]


def test_text_cut_around_an_inline_picture_is_read_whole_but_a_text_attachment_is_not():
    # Apple Mail: multipart/mixed of text, inline image, text; an attached .txt is not the body.
    raw = (b"From: Anna <anna@example.it>\nSubject: Re: Notte 2\nMIME-Version: 1.0\n"
           b'Content-Type: multipart/mixed; boundary="b"\n\n'
           b"--b\nContent-Type: text/plain; charset=utf-8\nContent-Disposition: inline\n\nPOTERE Carla\n"
           b'--b\nContent-Type: image/jpeg\nContent-Disposition: inline; filename="x.jpg"\n'
           b"Content-Transfer-Encoding: base64\n\n/9j/\n"
           b"--b\nContent-Type: text/plain; charset=utf-8\nContent-Disposition: inline\n\nURLO Al lupo!\n"
           b'--b\nContent-Type: text/plain; name="vecchi.txt"\nContent-Disposition: attachment; filename="vecchi.txt"\n\n'
           b"VOTO Bruno\n--b--\n")
    result = parse_message(raw, PLAYERS)
    assert result.commands == [{"target": "Carla"}, {"shout": "Al lupo!"}]
    assert result.errors == []
