"""The Master acting for a player: forwarded mail (four clients, it/en, attachment) and SMS."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pbm.cli import main as pbm_main
from pbm.mail.reading.parse import parse_message

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Maria Luisa", "Élodie"]


def parse(name, players=PLAYERS, addresses=None):
    return parse_message((FIXTURES / name).read_bytes(), players, addresses)


@pytest.mark.parametrize("name, player, address, commands", [
    ("fwd_gmail_it.eml", "Anna", "anna.rossi@example.it", [{"target": "Bruno"}]),
    ("fwd_gmail_en.eml", "Bruno", "bruno.b@example.com", [{"vote": "Carla"}]),
    ("fwd_outlook_it.eml", "Carla", "carla.verdi@example.it", [{"vote": "Dario"}]),
    ("fwd_outlook_en.eml", "Dario", "dario.neri@example.com", [{"target": "Bruno", "power": "Amnesia"}]),
    ("fwd_thunderbird_it.eml", "Elena", "elena@example.it",
     [{"ritual": "Omicidio", "with": ["Anna", "Bruno", "Carla", "Dario"], "target": "Maria Luisa"}]),
    ("fwd_thunderbird_en.eml", "Maria Luisa", "ml.neri@example.com",
     [{"elect": "Bruno"},
      {"shout": "The wolves are among us, and I know who they are, mark my words tonight."}]),
    ("fwd_apple_it.eml", "Élodie", "elodie@example.fr", [{"become": "Veggente"}]),
    ("fwd_attachment.eml", "Bruno", "bruno.b@example.com", [{"appoint": "Elena"}]),
])
def test_forwarded_mail_acts_for_its_writer(name, player, address, commands):
    result = parse(name)
    assert result.ignored is None
    assert result.source == "forward"
    assert result.on_behalf_of == player
    assert result.forwarded_from_address == address
    # Quote stripping applied to the forwarded mail: the quoted bulletin's command is gone.
    assert result.commands == commands
    assert result.errors == []


def test_apple_html_forward_resolved_by_address():
    # 'Carla Verdi' would resolve by name too; give the address to a different player to prove
    # the address wins.
    players = PLAYERS + ["Carlotta"]
    result = parse("fwd_apple_en.eml", players, {"Carlotta": "carla@example.org"})
    assert result.on_behalf_of == "Carlotta"
    assert result.commands == [{"target": "Dario"}, {"question": "Is Bruno a wolf?"}]
    assert parse("fwd_apple_en.eml").on_behalf_of == "Carla"


def test_master_note_above_a_forward_is_not_a_command():
    result = parse("fwd_gmail_it.eml")
    assert result.ignored_lines == ["Anna mi ha scritto dal telefono della sorella."]
    assert result.token == "Tok3nAnna01"


def test_unknown_forwarded_sender_is_an_error_not_the_master():
    result = parse("fwd_gmail_en.eml", ["Anna", "Carla"])
    assert result.source == "forward" and result.on_behalf_of is None
    assert result.errors[0]["code"] == "unknown_sender"
    assert result.errors[0]["candidates"] == ["Anna", "Carla"]


def test_ambiguous_forwarded_sender():
    # 'Bruno Bianchi' <bruno.b@...> fits both 'Bruno' and 'Brunò' (names fold alike).
    result = parse("fwd_gmail_en.eml", ["Anna", "Carla", "Bruno", "Brunò"])
    assert result.on_behalf_of is None
    assert result.errors[0]["code"] == "ambiguous_name"
    assert result.errors[0]["candidates"] == ["Bruno", "Brunò"]


def test_forwarded_sender_by_local_part():
    assert parse("fwd_gmail_en.eml", ["Anna", "Carla", "Bruno B", "Bruno Bi"]).on_behalf_of == "Bruno B"


@pytest.mark.parametrize("name, player, commands, token", [
    ("sms_per.eml", "Bruno", [{"target": "Carla", "target2": "Dario"}, {"shout": "Auuuuu!"}], "MasterTok9"),
    ("sms_for.eml", "Anna", [{"vote": "Elena"}, {"appoint": "Bruno"}], None),
])
def test_sms_pasted_under_per_line(name, player, commands, token):
    result = parse(name)
    assert result.source == "sms"
    assert result.on_behalf_of == player
    assert result.commands == commands
    assert result.token == token


def test_sms_for_unknown_player_and_commands_above_the_line():
    raw = (b"From: Master <master@lupus.example>\nSubject: sms\nContent-Type: text/plain; charset=utf-8\n\n"
           b"VOTO Anna\nPER: Zorro\nVOTO Carla\n")
    result = parse_message(raw, PLAYERS)
    assert result.source == "sms" and result.on_behalf_of is None
    codes = [e["code"] for e in result.errors]
    assert codes == ["unknown_name", "command_outside_behalf"]
    assert result.errors[0]["line"] == "PER: Zorro"


def test_forward_quoted_inside_a_reply_is_not_a_forward():
    raw = (b"From: Anna <anna@example.it>\nSubject: Re: Fwd: regole\nContent-Type: text/plain; charset=utf-8\n\n"
           b"VOTO Carla\n\nOn Mon, 3 Mar 2025 at 08:00, Master <master@lupus.example> wrote:\n"
           b"> ---------- Forwarded message ---------\n> From: Bruno <bruno.b@example.com>\n"
           b"> Date: Mon, 3 Mar 2025\n> Subject: x\n>\n> VOTO Dario\n")
    result = parse_message(raw, PLAYERS)
    assert result.source is None and result.on_behalf_of is None
    assert result.commands == [{"vote": "Carla"}]


def test_outlook_reply_block_without_forward_subject_is_history():
    raw = (b"From: Anna <anna@example.it>\nSubject: R: Giorno 2\nContent-Type: text/plain; charset=utf-8\n\n"
           b"VOTO Carla\n\nDa: Bruno <bruno.b@example.com>\nInviato: luned\xc3\xac 3 marzo 2025\n"
           b"A: Anna\nOggetto: Giorno 2\n\nVOTO Dario\n")
    result = parse_message(raw, PLAYERS)
    assert result.source is None
    assert result.commands == [{"vote": "Carla"}]


# --- the CLI ----------------------------------------------------------------------------------

def test_cli_prints_the_contract_json(capsys):
    code = pbm_main(["mail", "parse", str(FIXTURES / "fwd_thunderbird_it.eml"),
                     "--players", "Anna,Bruno,Carla,Dario,Elena,Maria Luisa"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"ignored": None, "on_behalf_of": "Elena",
                   "commands": [{"ritual": "Omicidio", "with": ["Anna", "Bruno", "Carla", "Dario"],
                                 "target": "Maria Luisa"}],
                   "errors": []}


def test_cli_addresses_and_full(capsys):
    code = pbm_main(["mail", "parse", str(FIXTURES / "fwd_apple_en.eml"), "--players", "Anna,Carla,Carlotta,Dario,Bruno",
                     "--addresses", "Carlotta=CARLA@example.org, Anna=anna@example.it", "--full"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["on_behalf_of"] == "Carlotta" and out["source"] == "forward"
    assert out["forwarded_from_address"] == "carla@example.org"


def test_cli_subprocess_with_errors_still_exits_zero(tmp_path):
    eml = tmp_path / "reply.eml"
    eml.write_bytes(b"From: a@b.c\nSubject: Re: x\n\nVOTO Zorro\nVOTO carla\n")
    proc = subprocess.run([sys.executable, "-m", "pbm.cli", "mail", "parse", str(eml), "--players", "Anna,Carla"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["commands"] == [{"vote": "Carla"}]
    assert out["errors"][0]["code"] == "unknown_name" and out["errors"][0]["name"] == "Zorro"
    assert set(out) == {"ignored", "on_behalf_of", "commands", "errors"}


def test_second_per_line_never_moves_commands_to_the_first_player():
    raw = (b"From: Master <master@lupus.example>\nSubject: sms\nContent-Type: text/plain; charset=utf-8\n\n"
           b"PER: Bruno\nVOTO Carla\nPER: Anna\nVOTO Dario\n")
    result = parse_message(raw, PLAYERS)
    assert result.on_behalf_of == "Bruno"
    assert result.commands == [{"vote": "Carla"}]
    assert [e["code"] for e in result.errors] == ["multiple_behalf", "command_outside_behalf"]
    assert result.errors[1]["line"] == "VOTO Dario"


# --- a signature above the forwarded block ----------------------------------------------------

FORWARD_HEADS = {
    "apple": "Begin forwarded message:\n\nFrom: Dario Neri <dario@example.it>\nSubject: Re: Giorno 2\n"
             "Date: 24 November 2026 at 10:12:00 CET\nTo: lupus@lupus.example\n\n",
    "gmail": "---------- Forwarded message ---------\nFrom: Dario Neri <dario@example.it>\n"
             "Date: Tue, 24 Nov 2026 at 10:12\nSubject: Re: Giorno 2\nTo: <lupus@lupus.example>\n\n\n",
    "thunderbird": "-------- Messaggio Inoltrato --------\nOggetto: \tRe: Giorno 2\n"
                   "Data: \tTue, 24 Nov 2026 10:12:00 +0100\nMittente: \tDario Neri <dario@example.it>\n"
                   "A: \tlupus@lupus.example\n\n",
}
FORWARDED_TEXT = ("VOTO Anna\n\nIl giorno lun 23 nov 2026 alle ore 21:00 Lupus <lupus@lupus.example> "
                  "ha scritto:\n> VOTO Carla\n")


def from_master(body: str, subject="Fwd: Re: Giorno 2") -> bytes:
    return (f"From: Master Mara <master@example.org>\nSubject: {subject}\n"
            "Content-Type: text/plain; charset=utf-8\n\n" + body).encode()


@pytest.mark.parametrize("head", sorted(FORWARD_HEADS))
@pytest.mark.parametrize("signature", ["Inviato da iPhone", "Sent from my iPhone", "-- \nMara",
                                       "Ecco Dario.\n-- \nMara Rossi\nMaster di Lupus"])
def test_signature_above_the_forwarded_block_keeps_the_forward(head, signature):
    result = parse_message(from_master(signature + "\n\n" + FORWARD_HEADS[head] + FORWARDED_TEXT), PLAYERS)
    assert (result.source, result.on_behalf_of) == ("forward", "Dario")
    assert result.commands == [{"vote": "Anna"}]
    assert result.errors == []


def test_command_in_a_signed_note_above_a_forward_is_still_refused():
    body = "VOTO Bruno\n-- \nMara\n\n" + FORWARD_HEADS["apple"] + FORWARDED_TEXT
    result = parse_message(from_master(body), PLAYERS)
    assert result.on_behalf_of == "Dario" and result.commands == [{"vote": "Anna"}]
    assert [e["code"] for e in result.errors] == ["command_outside_behalf"]


def test_forward_quoted_below_a_signature_is_still_history():
    # The signature is read past, not taken for history; the attribution below it still is.
    body = ("VOTO Carla\n\n-- \nAnna\n\nOn Mon, 3 Mar 2025 at 08:00, Master <master@lupus.example> wrote:\n"
            "> ---------- Forwarded message ---------\n> From: Bruno <bruno.b@example.com>\n"
            "> Date: Mon, 3 Mar 2025\n> Subject: x\n>\n> VOTO Dario\n")
    result = parse_message(from_master(body, subject="Re: Fwd: regole"), PLAYERS)
    assert result.source is None
    assert result.commands == [{"vote": "Carla"}]


def test_iphone_forward_with_quoted_headers_acts_for_the_player():
    # iOS Mail writes the marker plain and the forwarded headers and body '>'-quoted.
    body = ("Inviato da iPhone\n\nInizio messaggio inoltrato:\n\n"
            "> Da: Dario Neri <dario@example.it>\n> Data: 23 novembre 2026 20:40:11 CET\n"
            "> A: Master Mara <master@example.org>\n> Oggetto: voto\n>\n> VOTO Elena\n")
    result = parse_message(from_master(body, "Fwd: voto"), PLAYERS)
    assert (result.source, result.on_behalf_of) == ("forward", "Dario")
    assert result.commands == [{"vote": "Elena"}]
    assert result.errors == []


def test_prose_note_starting_with_a_keyword_above_a_forward_is_not_refused():
    body = ("Voto di Dario arrivato a me per errore.\n\n" + FORWARD_HEADS["gmail"] + FORWARDED_TEXT)
    result = parse_message(from_master(body), PLAYERS)
    assert (result.on_behalf_of, result.commands) == ("Dario", [{"vote": "Anna"}])
    assert result.errors == []
    assert "Voto di Dario arrivato a me per errore." in result.ignored_lines


@pytest.mark.parametrize("sender, player", [
    ("Rossi Anna <a.rossi@azienda.it>", "Anna"),
    ('"Verdi, Dario" <d.verdi@azienda.it>', "Dario"),
    ("Bianchi Maria Luisa <mlb@azienda.it>", "Maria Luisa"),
])
def test_forwarded_sender_written_surname_first(sender, player):
    head = FORWARD_HEADS["gmail"].replace("Dario Neri <dario@example.it>", sender)
    result = parse_message(from_master(head + FORWARDED_TEXT), PLAYERS + ["Maria"])
    assert (result.on_behalf_of, result.commands, result.errors) == (player, [{"vote": "Anna"}], [])


def test_a_second_forwarded_mail_is_refused_aloud_not_dropped():
    second = FORWARD_HEADS["gmail"].replace("Dario Neri <dario@example.it>", "Elena <elena@example.it>")
    body = FORWARD_HEADS["gmail"] + "VOTO Anna\n\n" + second + "VOTO Bruno\n"
    result = parse_message(from_master(body), PLAYERS)
    assert (result.on_behalf_of, result.commands) == ("Dario", [{"vote": "Anna"}])
    assert [e["code"] for e in result.errors] == ["multiple_behalf"]
    assert "elena@example.it" in result.errors[0]["line"]


def test_two_attached_mails_refuse_the_second():
    def attached(sender, line):
        return ('--XYZ\nContent-Type: message/rfc822\nContent-Disposition: attachment\n\n'
                f'From: {sender}\nSubject: voto\nContent-Type: text/plain; charset=utf-8\n\n{line}\n')
    raw = ("From: Master Mara <master@example.org>\nSubject: Fwd: voti\nMIME-Version: 1.0\n"
           'Content-Type: multipart/mixed; boundary="XYZ"\n\n--XYZ\nContent-Type: text/plain\n\nEcco.\n'
           + attached("Dario Neri <dario@example.it>", "VOTO Anna")
           + attached("Elena <elena@example.it>", "VOTO Bruno") + "--XYZ--\n").encode()
    result = parse_message(raw, PLAYERS)
    assert (result.on_behalf_of, result.commands) == ("Dario", [{"vote": "Anna"}])
    assert [e["code"] for e in result.errors] == ["multiple_behalf"]


@pytest.mark.parametrize("line", [
    "[20:58] VOTO Anna",
    "23/11/26, 20:58 - Dario: VOTO Anna",               # WhatsApp on Android
    "[23/11/26, 20:58:12] Dario Neri: voto anna",       # WhatsApp on iPhone
])
def test_pasted_sms_or_chat_keeps_its_time_stamp(line):
    raw = f"From: Master <master@lupus.example>\nSubject: sms\n\nPER: Dario\n{line}\n".encode()
    result = parse_message(raw, PLAYERS)
    assert (result.on_behalf_of, result.commands, result.errors) == ("Dario", [{"vote": "Anna"}], [])


@pytest.mark.parametrize("line", ["Per conto di: Dario", "ON BEHALF OF: dario", "**PER: Dario**"])
def test_behalf_line_spelled_out(line):
    raw = f"From: Master <master@lupus.example>\nSubject: sms\n\n{line}\nVOTO Anna\n".encode()
    result = parse_message(raw, PLAYERS)
    assert (result.source, result.on_behalf_of, result.commands) == ("sms", "Dario", [{"vote": "Anna"}])
