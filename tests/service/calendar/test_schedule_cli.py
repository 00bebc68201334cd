"""`pbm calendar`, run through the real `pbm` entry point."""
from __future__ import annotations

import json

import pytest

from pbm import cli


def run(capsys, *argv):
    code = cli.main(["calendar", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_lupus_live_12_from_thursday_evening(capsys):
    code, out, _ = run(capsys, "--ruleset", "lupus-live-12", "--from", "2026-03-26T20:00",
                       "--count", "4")
    assert code == 0
    assert out.splitlines() == [
        "day 2026-03-26T09:00:00+01:00 2026-03-26T21:00:00+01:00",
        "night 2026-03-26T21:00:00+01:00 2026-03-27T09:00:00+01:00",
        "day 2026-03-27T09:00:00+01:00 2026-03-29T21:00:00+02:00",
        "night 2026-03-29T21:00:00+02:00 2026-03-30T09:00:00+02:00",
    ]


def test_tempo_reale_7_with_explicit_offset_and_labels(capsys):
    # 20:00Z on Thursday 22 October 2026 is 22:00 CEST: the night has just begun.
    code, out, _ = run(capsys, "--ruleset", "tempo-reale-7", "--from", "2026-10-22T20:00+00:00",
                       "--count", "3", "--label", "it")
    assert code == 0
    assert out.splitlines() == [
        "night 2026-10-22T22:00:00+02:00 2026-10-23T08:00:00+02:00 notte di venerdì 23 ottobre",
        "day 2026-10-23T08:00:00+02:00 2026-10-25T22:00:00+01:00 giorno lungo di domenica 25 ottobre",
        "night 2026-10-25T22:00:00+01:00 2026-10-26T08:00:00+01:00 notte di lunedì 26 ottobre",
    ]


def test_custom_schedule_and_zone(capsys):
    spec = json.dumps({"day_start": "10:00", "day_end": "22:00", "days": "all"})
    code, out, _ = run(capsys, "--schedule", spec, "--tz", "America/New_York",
                       "--from", "2026-03-07T23:00", "--count", "2")
    assert code == 0
    # 8 March 2026: US clocks go 02:00 EST -> 03:00 EDT, so this night is 11 hours.
    assert out.splitlines() == [
        "night 2026-03-07T22:00:00-05:00 2026-03-08T10:00:00-04:00",
        "day 2026-03-08T10:00:00-04:00 2026-03-08T22:00:00-04:00",
    ]


def test_other_rulesets_have_defaults(capsys):
    for ruleset in ("lupus-noctis", "complots"):
        code, out, _ = run(capsys, "--ruleset", ruleset, "--from", "2026-01-14T12:00", "--count", "1")
        assert code == 0 and len(out.splitlines()) == 1
    _, out, _ = run(capsys, "--ruleset", "complots", "--from", "2026-01-14T12:00", "--count", "1")
    assert out.strip() == "day 2026-01-13T21:00:00+01:00 2026-01-14T21:00:00+01:00"


@pytest.mark.parametrize("argv", [
    ["--ruleset", "chess", "--from", "2026-01-14T12:00"],
    ["--schedule", "{not json", "--from", "2026-01-14T12:00"],
    ["--ruleset", "lupus-live-12", "--tz", "Nowhere/Land", "--from", "2026-01-14T12:00"],
    ["--ruleset", "lupus-live-12", "--from", "yesterday"],
])
def test_errors_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.startswith("pbm calendar:")


def test_ics_output(capsys):
    code, out, _ = run(capsys, "--ruleset", "lupus-live-12", "--from", "2022-12-01T22:30",
                       "--count", "3", "--ics", "Prova")
    assert code == 0
    assert out.startswith("BEGIN:VCALENDAR\r\n") and out.endswith("END:VCALENDAR\r\n")
    assert out.count("BEGIN:VEVENT") == 3
    assert "DTEND:20221204T200000Z\r\n" in out
