"""Commands typed in the subject, the body left empty (what a phone makes
easy): read only when the body has none, never free-text ones."""
import pytest

from pbm.mail.reading.parse import parse_message, without_reply_prefix

from tests.mail.test_parse_replies import PLAYERS, mail, quoted

BULLETIN = "È iniziato il giorno 2.\nVOTO Anna\n"


@pytest.mark.parametrize("subject", [
    "VOTO Carla",
    "voto carla",
    "R: VOTO Carla",
    "RE: R: voto Carla",
    "I: VOTE Carla",
])
def test_a_command_in_the_subject_counts_when_the_body_has_none(subject):
    parsed = parse_message(mail("", headers={"Subject": subject}), PLAYERS)
    assert parsed.commands == [{"vote": "Carla"}]
    assert parsed.errors == []


def test_a_subject_command_over_a_quoted_bulletin_counts_and_the_quoted_vote_does_not():
    body = "\nOn Mon, 3 Mar 2025 at 08:00, Master Lupus <master@lupus.example> wrote:\n\n" + quoted(BULLETIN)
    parsed = parse_message(mail(body, headers={"Subject": "VOTO Bruno"}), PLAYERS)
    assert parsed.commands == [{"vote": "Bruno"}]


def test_the_body_wins_over_the_subject():
    parsed = parse_message(mail("VOTO Dario\n", headers={"Subject": "VOTO Carla"}), PLAYERS)
    assert parsed.commands == [{"vote": "Dario"}]


@pytest.mark.parametrize("subject", ["Domanda sul regolamento", "Note", "URLO di notte", "NOTE per il master"])
def test_free_text_commands_are_never_taken_from_the_subject(subject):
    parsed = parse_message(mail("Posso votare due volte?\n", headers={"Subject": subject}), PLAYERS)
    assert parsed.commands == [] and parsed.errors == [{"code": "no_command"}]


def test_a_subject_that_only_looks_like_a_command_is_left_alone_when_the_body_speaks():
    parsed = parse_message(mail("Ciao, stasera non ci sono.\n", headers={"Subject": "Voto di oggi"}), PLAYERS)
    assert parsed.commands == [] and parsed.errors == [{"code": "no_command"}]


def test_a_wrong_name_in_a_subject_with_an_empty_body_is_an_error_listing_the_players():
    parsed = parse_message(mail("", headers={"Subject": "VOTO Zeno"}), PLAYERS)
    assert parsed.commands == []
    assert [(e["code"], e["name"]) for e in parsed.errors] == [("unknown_name", "Zeno")]
    assert set(parsed.errors[0]["candidates"]) == set(PLAYERS)


@pytest.mark.parametrize("subject, answered", [
    ("Re: Re: [Villaggio] Bollettino", "[Villaggio] Bollettino"),
    ("RE[2]: Giorno 2", "Giorno 2"),
    ("R: RIF: voto", "voto"),
    ("Reminder", "Reminder"),
])
def test_a_receipt_answers_the_subject_without_piling_up_reply_prefixes(subject, answered):
    assert without_reply_prefix(subject) == answered


# --- issue 22: our own subjects and questions are never read as commands -------------------

@pytest.mark.parametrize("subject", [
    "Re: [Tavolo 3] Challenge, block or pass? [lupus:abcdef123456]",
    "RE: [Tavolo 3] Challenge, block or pass? [lupus:abcdef123456]",
    "R: [Tavolo 3] Sfidi, blocchi o passi? [lupus:abcdef123456]",
    "AW: [Tavolo 3] Challenge, block or pass?",
    "Fwd: [Villaggio] Bollettino: Giorno 2 [lupus:abcdef123456]",
    "I: [Villaggio] Il tuo ruolo [lupus:abcdef123456]",
    "[Villaggio] Voto per il rogo [lupus:abcdef123456]",
    "Re: Lupus PBM: scegli la tua password",
    "Re: VOTO Carla [lupus:abcdef123456]",
])
def test_a_subject_the_service_wrote_is_never_a_command(subject):
    parsed = parse_message(mail("", headers={"Subject": subject}), PLAYERS, vocabulary=None)
    assert parsed.commands == []
    assert parsed.errors == [{"code": "no_command", "empty": True}]


@pytest.mark.parametrize("subject", ["Sfido o passo?", "Voto Carla?", "VOTE Carla ??"])
def test_a_subject_that_asks_is_never_a_command(subject):
    parsed = parse_message(mail("", headers={"Subject": subject}), PLAYERS)
    assert parsed.commands == []
