"""Complots as people read and write it: the rulebook's names ("A. Diverse azioni":
the Assassinio is the 7-coin action, the Assassino's power costs 3), each answer worded
as the answer it is, and every line the service prints to name an action or an answer
accepted back by mail as that same action or answer."""
from __future__ import annotations

import itertools

import pytest

from engine.complots.cards import CHARACTERS
from engine.core import Action, Rejected, phase_rng, public, setup_rng
from engine.interface import Viewer
from engine.registry import get_ruleset
from pbm.mail.reading.commands import parse_commands

R = get_ruleset("complots")
NAMES = ["Anna", "Bruno", "Carla", "Dario"]
HANDS = {"Anna": ["Capitano", "Assassino"], "Bruno": ["Contessa", "Duchessa"],
         "Carla": ["Ambasciatore", "Duchessa"], "Dario": ["Contessa", "Capitano"]}


def deal(hands=HANDS, coins=None, variant="ambasciatore"):
    state, _ = R.setup([(n, "") for n in hands], setup_rng(1),
                       {"hands": hands, "coins": coins or {}, "variant": variant})
    return state


def step(state, *actions):
    return R.resolve(state, [R.validate(state, a) for a in actions], phase_rng(1, state.phase)).state


def parsed(line: str) -> dict:
    commands, errors, _ignored = parse_commands(line, NAMES, "complots")
    assert not errors and len(commands) == 1, (line, commands, errors)
    return commands[0]


# --------------------------------------------------------------------------- the book's names

def test_the_seven_coin_action_is_the_assassinio_and_the_assassino_pays_three():
    assert R.describe_choice("action", "coup", "it") == "Assassinio"
    assert R.describe_choice("action", "coup", "en") == "Assassination"
    assert R.describe_choice("action", "assassinate", "it") == \
        "Assassino: paga 3 monete e uccide un personaggio"
    assert R.describe_choice("action", "assassinate", "en") == \
        "the Assassin: pay 3 coins and kill a character"
    for lang in ("it", "en"):  # no page calls either of them a coup any more
        for action in ("coup", "assassinate"):
            assert "colpo" not in R.describe_choice("action", action, lang).lower()
            assert "coup" not in R.describe_choice("action", action, lang).lower()


@pytest.mark.parametrize("line, action", [
    ("ASSASSINIO Bruno", "coup"), ("OMICIDIO Bruno", "coup"), ("Colpo di stato su Bruno", "coup"),
    ("assassinio di Bruno", "coup"), ("ASSASSINATION Bruno", "coup"), ("COUP Bruno", "coup"),
    ("ASSASSINO Bruno", "assassinate"), ("Uccido Bruno", "assassinate"),
    ("ASSASSIN Bruno", "assassinate"), ("kill Bruno", "assassinate"), ("ASSASSINATE Bruno", "assassinate"),
])
def test_the_mail_words_of_the_two_killing_actions(line, action):
    assert parsed(line) == {"kind": "turn", "action": action, "target": "Bruno"}


def test_an_assassinio_without_seven_coins_is_told_the_cost_and_the_assassino():
    state = deal(coins={"Anna": 4})
    with pytest.raises(Rejected) as exc:
        R.validate(state, R.submission_action("Anna", parsed("ASSASSINIO Bruno")))
    it = R.describe_rejection(exc.value.code, exc.value.params, "it")
    en = R.describe_rejection(exc.value.code, exc.value.params, "en")
    assert "7 monete" in it and "ne hai 4" in it and "ASSASSINO" in it and "3 monete" in it
    assert "7 coins" in en and "hold 4" in en and "ASSASSIN " in en and "3 coins" in en
    # ... and the line it suggests is the Assassino's power, which 4 coins pay for.
    assert R.validate(state, R.submission_action("Anna", parsed("ASSASSINO Bruno"))).args == \
        {"action": "assassinate", "target": "Bruno"}


# --------------------------------------------------------------------------- natural forms

@pytest.mark.parametrize("line, command", [
    ("Rubo a Carla", {"kind": "turn", "action": "steal", "target": "Carla"}),
    ("Furto a Carla", {"kind": "turn", "action": "steal", "target": "Carla"}),
    ("Assassino Dario", {"kind": "turn", "action": "assassinate", "target": "Dario"}),
    ("Blocco con la Contessa", {"kind": "answer", "answer": "block", "as": "Contessa"}),
    ("blocco col Capitano", {"kind": "answer", "answer": "block", "as": "Capitano"}),
    ("prendo il reddito", {"kind": "turn", "action": "income"}),
    ("Ti sfido!", {"kind": "answer", "answer": "challenge"}),
    ("ok per me", {"kind": "answer", "answer": "pass"}),
    ("nessuna obiezione", {"kind": "answer", "answer": "pass"}),
    ("no objection", {"kind": "answer", "answer": "pass"}),
    ("perdo il Duca", {"kind": "lose", "card": "Duchessa"}),
    ("I lose the Duke", {"kind": "lose", "card": "Duchessa"}),
    ("tengo Duca e Contessa", {"kind": "keep", "cards": ["Duchessa", "Contessa"]}),
    ("keep Duke and Countess", {"kind": "keep", "cards": ["Duchessa", "Contessa"]}),
    ("SEMPRE PASSO", {"kind": "standing", "on": True, "standing": "pass_not_me"}),
    ("risposte permanenti", {"kind": "standing", "on": True, "standing": None, "list": True}),
])
def test_natural_forms(line, command):
    assert parsed(line) == command


@pytest.mark.parametrize("ruleset", ["lupus-live-12", "tempo-reale-7"])
@pytest.mark.parametrize("line", ["Ok per me, ci sentiamo domani", "Fine by me, see you tomorrow",
                                  "Nessun dubbio: è lui", "Ti sfido a trovarlo", "Esame di maturità domani",
                                  "Omicidio con Anna su Carla? Non so"])
def test_the_natural_forms_are_no_commands_in_other_games(ruleset, line):
    """They are Complots verbs: prose in another game's mail is not told it wrote a
    Complots command."""
    commands, errors, _ignored = parse_commands(line, NAMES, ruleset)
    assert commands == [] and errors == [], (commands, errors)


# --------------------------------------------------------------------------- printed, read back

def _combos(form):
    """Every legal answer of a form, its dependent fields narrowed as the page narrows
    them (a value a field does not list for the first field's value: nothing)."""
    first, rest = form.fields[0], form.fields[1:]
    for value in first.choices:
        options = []
        for f in rest:
            narrowed = (list((f.depends.get(first.name) or {}).get(value) or [])
                        if f.depends and first.name in f.depends else list(f.choices))
            options.append([(f.name, c) for c in narrowed] or [(f.name, None)])
        for picked in itertools.product(*options):
            yield {first.name: value, **{k: v for k, v in picked if v is not None}}


def _moments():
    """A state of each kind of window, and the player asked in it."""
    rich = deal(coins={"Anna": 7})
    yield rich, "Anna"                                                          # turn, 7 coins
    steal = step(deal(), Action("Anna", "turn", {"action": "steal", "target": "Carla"}))
    yield steal, "Carla"                                                        # answer: block too
    yield steal, "Bruno"                                                        # answer: no block
    kill = step(deal(coins={"Anna": 3}), Action("Anna", "turn", {"action": "assassinate", "target": "Dario"}))
    yield kill, "Dario"
    aid = step(deal(), Action("Anna", "turn", {"action": "foreign_aid"}))
    blocked = step(aid, Action("Bruno", "answer", {"answer": "block", "as": "Duchessa"}))
    assert blocked.phase.kind == "block_challenge"
    yield blocked, "Carla"                                                      # challenge the block
    proved = step(deal(), Action("Anna", "turn", {"action": "steal", "target": "Carla"}))
    proved = step(proved, Action("Bruno", "answer", {"answer": "challenge"}))  # Anna has it
    assert proved.phase.kind == "lose"
    yield proved, "Bruno"                                                       # a card to reveal
    exchange = step(deal(), Action("Anna", "turn", {"action": "income"}))
    exchange = step(exchange, Action("Bruno", "turn", {"action": "income"}))
    exchange = step(exchange, Action("Carla", "turn", {"action": "exchange"}))
    exchange = step(exchange, *[Action(n, "answer", {"answer": "pass"}) for n in ("Anna", "Bruno", "Dario")])
    assert exchange.phase.kind == "exchange"
    yield exchange, "Carla"
    inq_hands = {"Anna": ["Inquisitore", "Duchessa"], "Bruno": ["Contessa", "Assassino"],
                 "Carla": ["Inquisitore", "Capitano"]}
    examine = step(deal(inq_hands, variant="inquisitore"),
                   Action("Anna", "turn", {"action": "examine", "target": "Bruno"}))
    examine = step(examine, *[Action(n, "answer", {"answer": "pass"}) for n in ("Bruno", "Carla")])
    assert examine.phase.kind == "show"
    yield examine, "Bruno"
    inspect = step(examine, Action("Bruno", "show", {"card": "Contessa"}))
    assert inspect.phase.kind == "inspect"
    yield inspect, "Anna"


def test_every_answer_is_worded_as_itself_and_reads_back_by_mail():
    seen = set()
    for state, player in _moments():
        for form in R.forms(state, player):
            combos = list(_combos(form)) if form.kind != "keep" else [
                {"cards": form.fields[0].choices[:form.fields[0].min]}]
            for combo in combos:
                submission = R.form_submission(form, combo)
                wanted = R.validate(state, R.submission_action(player, submission)).args
                for lang in ("it", "en"):
                    for given in (state, None):  # the page knows the moment; a receipt may not
                        (line,) = R.describe_submission(submission, lang, given)
                        assert "answer" not in line and "as:" not in line, line
                        back = R.submission_action(player, parsed(line))
                        assert R.validate(state, back).args == wanted, (line, wanted)
                        seen.add(form.kind)
    assert seen == {"turn", "answer", "lose", "keep", "show", "discard"}


def test_a_challenge_names_the_claim_and_only_a_block_names_a_card():
    steal = step(deal(), Action("Anna", "turn", {"action": "steal", "target": "Carla"}))
    (form,) = R.forms(steal, "Carla")
    words = {R.describe_submission(R.form_submission(form, c), "it", steal)[0] for c in _combos(form)}
    assert words == {"Passo", "Sfido il Capitano di Anna", "Blocco con il Capitano",
                     "Blocco con l'Ambasciatore"}
    kill = step(deal(coins={"Anna": 3}), Action("Anna", "turn", {"action": "assassinate", "target": "Dario"}))
    (form,) = R.forms(kill, "Dario")
    words = {R.describe_submission(R.form_submission(form, c), "en", kill)[0] for c in _combos(form)}
    assert words == {"Pass", "Challenge Anna's Assassin", "Block with the Countess"}


def test_every_action_name_the_pages_print_is_accepted_back():
    vocab = R.vocabulary()
    for action, names in vocab.names["action"].items():
        for lang, name in names.items():
            line = f"{name} su Bruno" if lang == "it" else f"{name} on Bruno"
            command = parsed(line)
            assert command["action"] == action, line
    for lang in ("it", "en"):  # and the answers' names
        for answer in ("pass", "challenge", "block"):
            assert parsed(R.describe_choice("answer", answer, lang)).get("answer") == answer


# --------------------------------------------------------------------------- the table and events

def test_counts_are_singular_when_one():
    state = deal({"Anna": ["Capitano", "Assassino"], "Bruno": ["Contessa", "Duchessa"]})
    assert state.player("Anna").data["coins"] == 1  # the first of two players starts with one
    for lang, one, many in (("it", "Anna: 1 moneta,", "Bruno: 2 monete,"), ("en", "Anna: 1 coin,", "Bruno: 2 coins,")):
        lines = R.public_table(state, Viewer(), lang)[0].lines
        assert lines[0].startswith(one) and lines[1].startswith(many), lines
    out = R.describe(public("eliminated", player="Anna", coins=1), "it", Viewer())
    assert out == "Anna esce dal gioco: la sua moneta torna al Tesoro."


def test_the_table_leaves_who_is_awaited_to_the_service():
    state = step(deal(), Action("Anna", "turn", {"action": "steal", "target": "Carla"}))
    for lang in ("it", "en"):
        text = " ".join(" ".join(p.lines) for p in R.public_table(state, Viewer(player="Bruno"), lang))
        assert "attende" not in text and "aiting" not in text


def test_standing_answers_offer_only_the_games_characters():
    offered = dict(R.standing_answers(deal()))
    assert "challenge:Ambasciatore" in offered and "challenge:Inquisitore" not in offered
    inq = deal({"Anna": ["Inquisitore", "Duchessa"], "Bruno": ["Contessa", "Assassino"]},
               variant="inquisitore")
    offered = dict(R.standing_answers(inq))
    assert "challenge:Inquisitore" in offered and "challenge:Ambasciatore" not in offered
    assert {k for k, _ in R.standing_answers()} >= {f"challenge:{c}" for c in CHARACTERS}


def test_the_heading_names_the_turn():
    state = deal()
    assert R.moment_heading(state, "it") == "Turno 1: tocca ad Anna"
    assert R.moment_heading(state, "en") == "Turn 1: Anna to play"


@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_player_who_lost_the_last_card_reads_a_sentence_not_a_dash(lang):
    """The last card lost: the private note and the hand panel say there are none left."""
    from engine.core import private

    state = deal()
    out = state.player("Anna")
    out.data["hand"], out.alive = [], False
    note = R.describe(private("Anna", "hand", cards=[]), lang, Viewer(player="Anna"))
    hand = [p for p in R.public_table(state, Viewer(player="Anna"), lang) if len(p.lines) == 1][-1]
    for text in (note, hand.lines[0]):
        assert text and "—" not in text and ":  " not in text, text
    assert note != R.describe(private("Anna", "hand", cards=["Duchessa"]), lang, Viewer(player="Anna"))


def test_two_cards_alike_are_kept_as_players_write_them():
    """Issue 31: "Tengo le due Duchesse" gave three errors, one per word."""
    from pbm.mail.reading.commands import parse_commands
    for line in ("Tengo le due Duchesse", "TENGO entrambe le Duchesse", "KEEP both Duchesses",
                 "keep two Dukes"):
        commands, errors, _ = parse_commands(line, ["Anna", "Bruno"], "complots")
        assert commands == [{"kind": "keep", "cards": ["Duchessa", "Duchessa"]}] and not errors, line
    _, errors, _ = parse_commands("Tengo Pippo Pluto Duchessa", ["Anna"], "complots")
    assert len(errors) == 1  # one line, one refusal


def test_two_cards_alike_are_named_once_with_their_count_and_a_question_asks_what_may_be_answered():
    """Issue 31: "Assassino ed Assassino"; "Dubiti, blocchi o passi?" when nobody may block."""
    import random
    from engine.interface import Viewer
    from engine.registry import get_ruleset
    rules = get_ruleset("complots")
    hands = {"Anna": ["Duchessa", "Capitano"], "Bruno": ["Assassino", "Assassino"], "Carla": ["Contessa", "Duchessa"]}
    state, _ = rules.setup([(n, "") for n in hands], random.Random(1), {"hands": hands})
    table = rules.public_table(state, Viewer(player="Bruno"), "it")
    assert "due Assassini" in " ".join(line for p in table for line in p.lines)
    assert "Assassino ed Assassino" not in " ".join(line for p in table for line in p.lines)
    from engine.core import Action
    tax = rules.resolve(state, [Action("Anna", "turn", {"action": "tax"})], random.Random(2)).state
    (form,) = rules.forms(tax, "Bruno")
    assert rules.form_title(form, "it") == "Dubiti o passi?"  # the Duchessa's tax cannot be blocked
