"""The Master acting for a player: forwarded mail (four clients, it/en, attachment) and SMS."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pbm.cli import main as pbm_main
from pbm.mail.parse import parse_message

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
