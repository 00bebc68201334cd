"""Messages written by hand, blind to the parser, the way an outside reviewer would: real
clients' replies (Gmail, Outlook, Apple, Thunderbird, Libero/Virgilio/Tiscali, Yahoo),
HTML-only, QP/base64, Latin-1/cp1252/unknown charsets, forwards, SMS, auto-replies, bounces.
Each expectation in expected.json was written before the message was ever parsed.

"*" for `ignored` means any reason; "*" for `commands` means not checked (a forward for
nobody known: the error says so and the service applies nothing)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pbm.mail.reading.parse import parse_message

HERE = Path(__file__).resolve().parent / "fixtures" / "independent"
EXPECTED = json.loads((HERE / "expected.json").read_text(encoding="utf-8"))


def _addresses(text):
    return dict(pair.split("=", 1) for pair in text.split(",")) if text else None


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_independent_message(name):
    want = EXPECTED[name]
    got = parse_message((HERE / f"{name}.eml").read_bytes(), want["players"].split(","),
                        _addresses(want["addresses"])).to_json()
    if want["ignored"] == "*":
        assert got["ignored"]
    else:
        assert got["ignored"] == want["ignored"]
    assert got["on_behalf_of"] == want["on_behalf_of"]
    if want["commands"] != "*":
        assert got["commands"] == want["commands"]
    assert [e["code"] for e in got["errors"]] == [e["code"] for e in want["errors"]], got["errors"]
    for w, g in zip(want["errors"], got["errors"]):
        if "candidates" in w:
            assert set(g["candidates"]) == set(w["candidates"])


def test_the_offline_command_prints_the_same():
    name = "fwd_gmail_it"
    want = EXPECTED[name]
    out = subprocess.run([sys.executable, "-m", "pbm.cli", "mail", "parse", str(HERE / f"{name}.eml"),
                          "--players", want["players"], "--addresses", want["addresses"]],
                         capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    assert (data["on_behalf_of"], data["commands"], data["errors"]) == ("Bruno", [{"vote": "Carla"}], [])


def test_the_offline_command_reads_standard_input():
    raw = (HERE / "iphone_it.eml").read_bytes()
    out = subprocess.run([sys.executable, "-m", "pbm.cli", "mail", "parse", "-", "--players", "Anna,Bruno,Carla"],
                         input=raw, capture_output=True, check=True).stdout
    assert json.loads(out)["commands"] == [{"vote": "Bruno"}]


def _offline(raw: bytes, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pbm.cli", "mail", "parse", "-", "--players",
                           "Anna,Bruno,Carla", *args], input=raw, capture_output=True)


def test_the_offline_command_reads_with_the_games_words():
    raw = b"From: anna@example.it\nSubject: Re: notte\n\nRITUALE Omicidio CON Bruno SU Carla\n"
    everything = json.loads(_offline(raw).stdout)  # without --ruleset: every game's commands
    assert everything["commands"] == [{"ritual": "Omicidio", "with": ["Bruno"], "target": "Carla"}]
    live = json.loads(_offline(raw, "--ruleset", "lupus-live-12").stdout)
    assert live["commands"] == everything["commands"]
    tempo = json.loads(_offline(raw, "--ruleset", "tempo-reale-7").stdout)
    assert tempo["commands"] == [] and [e["code"] for e in tempo["errors"]] == ["not_in_game"]


def test_the_offline_command_reports_a_message_without_commands():
    out = _offline(b"From: anna@example.it\nSubject: ciao\n\nCi vediamo stasera.\n", "--ruleset", "tempo-reale-7")
    assert out.returncode == 0
    data = json.loads(out.stdout)
    assert data["commands"] == [] and data["errors"] == [{"code": "no_command"}]


def test_the_offline_command_refuses_an_unknown_ruleset():
    out = _offline(b"From: a@b.it\n\nVOTO Anna\n", "--ruleset", "scopa")
    assert out.returncode == 2 and b"scopa" in out.stderr
