"""The Complots window state machine: timing, complete, forms, validate, silence."""
from __future__ import annotations

import pytest

from engine.complots.cards import BOX_COINS
from engine.core import Action, Rejected, phase_rng, setup_rng
from engine.interface import WINDOW, Viewer
from engine.registry import get_ruleset

R = get_ruleset("complots")


def deal(hands, coins=None, court=None, variant="ambasciatore", seed=0):
    state, _ = R.setup([(n, "") for n in hands], setup_rng(seed),
                       {"hands": hands, "coins": coins or {}, "court": court or [],
                        "variant": variant})
    return state


def step(state, *actions, seed=0):
    valid = [R.validate(state, a) for a in actions]
    return R.resolve(state, valid, phase_rng(seed, state.phase))


THREE = {"Anna": ["Capitano", "Duchessa"], "Bruno": ["Contessa", "Assassino"],
         "Carla": ["Ambasciatore", "Duchessa"]}


def test_the_turn_window_waits_for_the_player_in_turn_only():
    state = deal(THREE)
    assert R.timing(state).kind == WINDOW
    assert R.timing(state).answerers == ("Anna",)
    assert [f.kind for f in R.forms(state, "Anna")] == ["turn"]
    assert R.forms(state, "Bruno") == []
    with pytest.raises(Rejected) as exc:
        R.validate(state, Action("Bruno", "turn", {"action": "income"}))
    assert exc.value.code == "not_your_moment"
    assert not R.complete(state, [])
    assert R.complete(state, [Action("Anna", "turn", {"action": "income"})])


def test_turn_form_offers_only_legal_actions():
    state = deal(THREE, coins={"Anna": 2})
    actions = R.forms(state, "Anna")[0].fields[0].choices
    assert "income" in actions and "steal" in actions
    assert "coup" not in actions and "assassinate" not in actions and "examine" not in actions
    rich = deal(THREE, coins={"Anna": 10})
    assert R.forms(rich, "Anna")[0].fields[0].choices == ["coup"]
    with pytest.raises(Rejected) as exc:
        R.validate(rich, Action("Anna", "turn", {"action": "tax"}))
    assert exc.value.code == "must_coup"
    inq = deal({"Anna": ["Inquisitore", "Duchessa"], "Bruno": ["Contessa", "Assassino"],
                "Carla": ["Inquisitore", "Duchessa"]}, variant="inquisitore")
    assert "examine" in R.forms(inq, "Anna")[0].fields[0].choices


def test_claim_window_answerers_and_answers():
    state = step(deal(THREE), Action("Anna", "turn", {"action": "steal", "target": "Bruno"})).state
    assert state.phase.kind == "answer"
    assert set(R.timing(state).answerers) == {"Bruno", "Carla"}
    bruno = R.forms(state, "Bruno")[0]
    assert bruno.fields[0].choices == ["pass", "challenge", "block"]
    assert bruno.fields[1].choices == ["Capitano", "Ambasciatore"]
    carla = R.forms(state, "Carla")[0]
    assert carla.fields[0].choices == ["pass", "challenge"]  # only the target blocks the Capitano
    with pytest.raises(Rejected) as exc:
        R.validate(state, Action("Carla", "answer", {"answer": "block", "as": "Capitano"}))
    assert exc.value.code == "cannot_block"
    with pytest.raises(Rejected) as exc:
        R.validate(state, Action("Bruno", "answer", {"answer": "block", "as": "Contessa"}))
    assert exc.value.code == "cannot_block_as"
    with pytest.raises(Rejected) as exc:  # two characters block the Capitano: say which
        R.validate(state, Action("Bruno", "answer", {"answer": "block"}))
    assert exc.value.code == "block_needs_character"
    # complete: all answered, or a first challenge
    assert not R.complete(state, [Action("Bruno", "answer", {"answer": "pass"})])
    assert R.complete(state, [Action("Bruno", "answer", {"answer": "pass"}),
                              Action("Carla", "answer", {"answer": "pass"})])
    assert R.complete(state, [Action("Carla", "answer", {"answer": "challenge"})])
    # an invalid answer does not count towards completion
    assert not R.complete(state, [Action("Carla", "answer", {"answer": "block", "as": "Capitano"}),
                                  Action("Bruno", "answer", {"answer": "pass"})])


def test_silence_is_a_pass_and_the_power_applies():
    state = step(deal(THREE), Action("Anna", "turn", {"action": "steal", "target": "Bruno"})).state
    res = step(state)
    assert res.state.player("Anna").data["coins"] == 4
    assert res.state.player("Bruno").data["coins"] == 0
    assert res.state.phase.kind == "turn" and R.timing(res.state).answerers == ("Bruno",)


def test_a_turn_not_taken_is_income_or_a_forced_coup():
    state = deal(THREE)
    res = step(state)
    assert res.state.player("Anna").data["coins"] == 3
    assert any(e.kind == "turn_not_taken" and e.data["action"] == "income" for e in res.events)
    rich = deal(THREE, coins={"Anna": 11})
    res = step(rich)
    assert res.state.player("Anna").data["coins"] == 4
    (ev,) = [e for e in res.events if e.kind == "turn_not_taken"]
    assert ev.data["action"] == "coup" and ev.data["target"] in ("Bruno", "Carla")
    dry = deal(THREE, coins={"Anna": 7})
    dry.data["treasury"] = 0
    (ev,) = [e for e in step(dry).events if e.kind == "turn_not_taken"]
    assert ev.data["action"] == "coup"
    dry.player("Anna").data["coins"] = 6
    (ev,) = [e for e in step(dry).events if e.kind == "turn_not_taken"]
    assert ev.data["action"] == "income"


def test_a_late_answer_aimed_at_a_closed_window_is_refused():
    state = step(deal(THREE), Action("Anna", "turn", {"action": "tax"})).state
    window = state.phase.number
    assert R.validate(state, Action("Bruno", "answer", {"answer": "pass", "moment": window}))
    after = step(state).state  # the window closes in silence; Bruno's turn opens
    for late in (Action("Carla", "answer", {"answer": "challenge", "moment": window}),
                 Action("Carla", "answer", {"answer": "challenge"})):
        with pytest.raises(Rejected) as exc:
            R.validate(after, late)
        assert exc.value.code == "not_your_moment"
    # Even in a new claim window, an answer naming the old one does not land there.
    claim = step(after, Action("Bruno", "turn", {"action": "tax"})).state
    with pytest.raises(Rejected) as exc:
        R.validate(claim, Action("Carla", "answer", {"answer": "challenge", "moment": window}))
    assert exc.value.code == "not_your_moment"
    assert R.validate(claim, Action("Carla", "answer", {"answer": "challenge",
                                                        "moment": claim.phase.number}))


def test_first_challenger_in_submission_order_wins():
    state = step(deal({**THREE, "Dario": ["Contessa", "Capitano"]}),
                 Action("Anna", "turn", {"action": "tax"})).state
    res = step(state, Action("Dario", "answer", {"answer": "challenge"}),
               Action("Carla", "answer", {"answer": "challenge"}))
    (ch,) = [e for e in res.events if e.kind == "challenge"]
    assert ch.data["player"] == "Dario"
    assert res.state.phase.kind == "lose" and R.timing(res.state).answerers == ("Dario",)


def test_a_loser_who_never_chooses_loses_a_random_card_publicly():
    state = step(deal(THREE), Action("Anna", "turn", {"action": "steal", "target": "Bruno"})).state
    state = step(state, Action("Bruno", "answer", {"answer": "challenge"})).state
    assert state.phase.kind == "lose"
    assert [f.kind for f in R.forms(state, "Bruno")] == ["lose"]
    assert R.forms(state, "Bruno")[0].fields[0].choices == ["Assassino", "Contessa"]
    with pytest.raises(Rejected) as exc:
        R.validate(state, Action("Bruno", "lose", {"card": "Duchessa"}))
    assert exc.value.code == "not_in_hand"
    lost = set()
    for seed in range(20):
        res = step(state, seed=seed)
        (ev,) = [e for e in res.events if e.kind == "lost_card_at_random"]
        assert ev.visibility == "public" and ev.data["player"] == "Bruno"
        assert res.state.player("Bruno").data["revealed"] == [ev.data["card"]]
        lost.add(ev.data["card"])
    assert lost == {"Contessa", "Assassino"}


def test_a_chosen_card_is_lost_and_named():
    state = step(deal(THREE), Action("Anna", "turn", {"action": "steal", "target": "Bruno"})).state
    state = step(state, Action("Bruno", "answer", {"answer": "challenge"})).state
    res = step(state, Action("Bruno", "lose", {"card": "Assassin"}))  # English spelling
    assert res.state.player("Bruno").data["revealed"] == ["Assassino"]
    assert [e.kind for e in res.events if e.kind.startswith("lost_card")] == ["lost_card"]


def test_a_block_cannot_be_blocked_and_the_blocker_cannot_challenge_itself():
    state = step(deal(THREE), Action("Anna", "turn", {"action": "foreign_aid"})).state
    assert set(R.timing(state).answerers) == {"Bruno", "Carla"}
    assert R.forms(state, "Bruno")[0].fields[0].choices == ["pass", "block"]
    # Only the Duchessa blocks foreign aid: a bare BLOCCO means her.
    assert R.validate(state, Action("Bruno", "answer", {"answer": "block"})).args == \
        {"answer": "block", "as": "Duchessa"}
    state = step(state, Action("Bruno", "answer", {"answer": "block", "as": "Duchessa"})).state
    assert state.phase.kind == "block_challenge"
    assert set(R.timing(state).answerers) == {"Anna", "Carla"}
    with pytest.raises(Rejected) as exc:
        R.validate(state, Action("Carla", "answer", {"answer": "block", "as": "Duchessa"}))
    assert exc.value.code == "cannot_block"
    with pytest.raises(Rejected) as exc:
        R.validate(state, Action("Bruno", "answer", {"answer": "challenge"}))
    assert exc.value.code == "not_your_moment"
    res = step(state)  # nobody challenges the block: it stands
    assert res.state.player("Anna").data["coins"] == 2
    assert any(e.kind == "blocked" for e in res.events)


def test_foreign_aid_window_closes_at_the_first_block():
    state = step(deal({**THREE, "Dario": ["Contessa", "Capitano"]}),
                 Action("Anna", "turn", {"action": "foreign_aid"})).state
    assert R.complete(state, [Action("Carla", "answer", {"answer": "block", "as": "Duchessa"})])


def test_exchange_window_keeps_the_old_hand_in_silence():
    state = deal(THREE, court=["Contessa", "Assassino"])
    state = step(state, Action("Anna", "turn", {"action": "exchange"})).state
    state = step(state).state  # nobody challenges
    assert state.phase.kind == "exchange"
    form = R.forms(state, "Anna")[0]
    assert form.kind == "keep" and form.fields[0].min == form.fields[0].max == 2
    assert sorted(form.fields[0].choices) == ["Assassino", "Capitano", "Contessa", "Duchessa"]
    with pytest.raises(Rejected) as exc:
        R.validate(state, Action("Anna", "keep", {"cards": ["Contessa", "Contessa"]}))
    assert exc.value.code == "not_in_hand"
    res = step(state)
    assert sorted(res.state.player("Anna").data["hand"]) == ["Capitano", "Duchessa"]
    assert len(res.state.data["court"]) == 9
    assert any(e.kind == "exchange_not_chosen" for e in res.events)


def test_examine_show_then_discard_windows():
    hands = {"Anna": ["Inquisitore", "Duchessa"], "Bruno": ["Contessa", "Assassino"],
             "Carla": ["Inquisitore", "Duchessa"]}
    state = deal(hands, variant="inquisitore")
    state = step(state, Action("Anna", "turn", {"action": "examine", "target": "Bruno"})).state
    assert set(R.timing(state).answerers) == {"Bruno", "Carla"}
    assert R.forms(state, "Bruno")[0].fields[0].choices == ["pass", "challenge"]
    state = step(state).state
    assert state.phase.kind == "show" and R.timing(state).answerers == ("Bruno",)
    res = step(state, Action("Bruno", "show", {"card": "Contessa"}))
    state = res.state
    assert state.phase.kind == "inspect" and R.timing(state).answerers == ("Anna",)
    saw = [e for e in res.events if e.kind == "saw"]
    assert saw[0].to == ["Anna"] and saw[0].data["saw"] == "Contessa"
    assert all("Contessa" not in str(e.data) for e in res.events if e.visibility == "public")
    res = step(state, Action("Anna", "discard", {"discard": "discard"}))
    assert res.state.phase.kind == "turn"
    bruno = res.state.player("Bruno").data["hand"]
    assert len(bruno) == 2 and "Assassino" in bruno
    assert any(e.kind == "discarded" for e in res.events)
    assert len(res.state.data["court"]) == 9


def test_two_player_random_setup_opens_the_choice_of_a_card():
    state, events = R.setup([("Anna", ""), ("Bruno", "")], setup_rng(3), {})
    assert state.phase.kind == "choose"
    assert set(R.timing(state).answerers) == {"Anna", "Bruno"}
    assert state.player("Anna").data["coins"] == 1 and state.player("Bruno").data["coins"] == 2
    assert len(state.data["court"]) == 3
    bundle = [e for e in events if e.kind == "bundle" and e.to == ["Anna"]][0]
    assert sorted(bundle.data["cards"]) == sorted(["Duchessa", "Assassino", "Contessa", "Capitano",
                                                   "Ambasciatore"])
    res = step(state, Action("Anna", "choose", {"card": "Contessa"}))
    anna = res.state.player("Anna").data["hand"]
    assert len(anna) == 2 and anna[1] == "Contessa"
    assert len(res.state.player("Bruno").data["hand"]) == 2  # chose at random in silence
    assert any(e.kind == "chose_at_random" and e.data["player"] == "Bruno" for e in res.events)
    assert len(res.state.data["out_of_play"]) == 8
    assert R.timing(res.state).answerers == ("Anna",)


@pytest.mark.parametrize("players,court", [(3, 9), (6, 3), (7, 6), (8, 4)])
def test_random_deal_sizes(players, court):
    names = ["A", "B", "C", "D", "E", "F", "G", "H"][:players]
    state, _ = R.setup([(n, "") for n in names], setup_rng(1), {})
    assert len(state.data["court"]) == court
    assert state.data["treasury"] == BOX_COINS - 2 * players


def test_public_table_shows_only_the_viewers_hand():
    state = deal(THREE)
    anna = R.public_table(state, Viewer(player="Anna"), "en")
    public = R.public_table(state, Viewer(), "it")
    assert len(anna) == 2 and "Captain" in anna[1].lines[0] and "Duchess" in anna[1].lines[0]
    assert len(public) == 1
    text = " ".join(public[0].lines)
    for card in ("Capitano", "Duchessa", "Contessa", "Assassino", "Ambasciatore"):
        assert card not in text
    assert "Anna: 2 monete" in text


def test_words_in_both_languages():
    state = deal(THREE)
    res = step(state, Action("Anna", "turn", {"action": "steal", "target": "Bruno"}))
    (ev,) = [e for e in res.events if e.kind == "action"]
    assert R.describe(ev, "it", Viewer()) == "Anna annuncia: Furto (Capitano) su Bruno."
    assert R.describe(ev, "en", Viewer()) == "Anna declares: Steal (Captain) on Bruno."
    (gain,) = [e for e in step(state).events if e.kind == "gained"]  # a turn not taken: income
    assert R.describe(gain, "en", Viewer()) == "Anna takes 1 coin from the treasury (now 3)."
    assert R.describe(gain, "it", Viewer()) == "Anna prende 1 moneta dal Tesoro (ora 3)."
    assert R.describe_choice("answer", "challenge", "it") == "Sfido"
    assert R.describe_choice("as", "Contessa", "en") == "Countess"
    assert R.describe_choice("action", "foreign_aid", "it") == "Aiuti stranieri"
    assert R.describe_rejection("must_coup", {"coins": 10}, "en").startswith(
        "You hold 10 coins: you must make an Assassination")


def test_every_rejection_code_is_worded():
    """(Event kinds are checked over random games in test_complots_fuzz.py.)"""
    import re
    source = open("engine/complots/game.py", encoding="utf-8").read() + \
        open("engine/complots/ruleset.py", encoding="utf-8").read()
    codes = set(re.findall(r'Rejected\("(\w+)"', source))
    assert {"not_your_moment", "must_coup", "not_in_hand"} <= codes
    for code in codes | {"game_over", "not_a_player"}:
        assert code in R.REJECTIONS, code
    for table in (R.EVENTS, R.REJECTIONS):
        for code, entry in table.items():
            assert entry.get("it") and entry.get("en"), code


def test_vocabulary_has_every_mail_word():
    vocab = R.vocabulary()
    words = {w for k in vocab.keywords for w in k.it + k.en}
    for w in ("SFIDO", "CHALLENGE", "BLOCCO", "BLOCK", "PASSO", "PASS", "REDDITO", "INCOME",
              "AIUTI", "FOREIGN AID", "COLPO", "COUP", "TASSA", "DUCHESSA", "TAX", "ASSASSINO",
              "ASSASSINIO", "ASSASSIN", "ASSASSINATION", "CAPITANO", "STEAL", "SCAMBIO", "EXCHANGE", "ESAMINO", "EXAMINE",
              "PERDO", "LOSE", "TENGO", "KEEP", "MOSTRO", "SHOW", "SCARTO", "DISCARD",
              "RESTITUISCO", "RETURN"):
        assert w in words, w
    cards = vocab.aliases("card")  # the names in both languages and the other spellings
    for alias in ("Duchess", "Assassin", "Countess", "Captain", "Ambassador", "Inquisitor",
                  "Contessa"):
        assert alias in cards
    # Each word assembles into a submission the engine accepts in its window.
    state = step(deal(THREE), Action("Anna", "turn", {"action": "steal", "target": "Bruno"})).state
    block = next(k for k in vocab.keywords if "BLOCCO" in k.it)
    action = R.submission_action("Bruno", {**block.fixed, block.key: cards["Captain"]})
    assert R.validate(state, action).args == {"answer": "block", "as": "Capitano"}
    sfido = next(k for k in vocab.keywords if "SFIDO" in k.it)
    assert R.validate(state, R.submission_action("Carla", dict(sfido.fixed))).args == \
        {"answer": "challenge"}


def test_game_over_refuses_everything_and_times_nothing():
    state = deal({"Anna": ["Duchessa", "Capitano"], "Bruno": ["Contessa", "Assassino"]},
                 coins={"Anna": 7})
    state = step(state, Action("Anna", "turn", {"action": "coup", "target": "Bruno"})).state
    state = step(state, Action("Bruno", "lose", {"card": "Contessa"})).state
    state = step(state, Action("Bruno", "turn", {"action": "steal", "target": "Anna"})).state
    res = step(state, Action("Anna", "answer", {"answer": "challenge"}))  # Bruno bluffed
    state = res.state
    assert state.winner == "Anna" and state.phase.kind == "end"
    assert [e.data for e in res.events if e.kind == "game_over"] == [{"winner": "Anna"}]
    assert [e.data["player"] for e in res.events if e.kind == "eliminated"] == ["Bruno"]
    assert R.timing(state).answerers == ()
    assert R.forms(state, "Anna") == [] and R.complete(state, [])
    with pytest.raises(Rejected) as exc:
        R.validate(state, Action("Anna", "turn", {"action": "income"}))
    assert exc.value.code == "game_over"


def test_masters_panel_shows_every_hand_and_the_court():
    state = deal(THREE, court=["Contessa", "Assassino"])
    (panel,) = R.panels(state, [], "it")
    assert "Anna: Capitano, Duchessa" in panel.lines
    assert panel.lines[-1].startswith("Corte (dalla cima): Contessa, Assassino")


def test_resolve_ignores_what_is_no_longer_valid_and_tells_the_sender():
    state = step(deal(THREE), Action("Anna", "turn", {"action": "tax"})).state
    res = R.resolve(state, [Action("Anna", "answer", {"answer": "challenge"}),  # the actor
                            Action("Carla", "lose", {"card": "Duchessa"})],      # wrong window
                    phase_rng(0, state.phase))
    refused = [e for e in res.events if e.kind == "rejected_at_resolution"]
    assert sorted(e.to[0] for e in refused) == ["Anna", "Carla"]
    assert all(e.visibility == "private" for e in refused)
    assert res.state.player("Anna").data["coins"] == 5  # nobody challenged: the tax is taken


def test_a_changed_answer_counts_once_in_its_last_place():
    state = step(deal({**THREE, "Dario": ["Contessa", "Capitano"]}),
                 Action("Anna", "turn", {"action": "tax"})).state
    answers = [Action("Carla", "answer", {"answer": "challenge"}),
               Action("Dario", "answer", {"answer": "challenge"}),
               Action("Carla", "answer", {"answer": "pass"})]
    res = R.resolve(state, answers, phase_rng(0, state.phase))
    (ch,) = [e for e in res.events if e.kind == "challenge"]
    assert ch.data["player"] == "Dario"
    assert not R.complete(state, [Action("Carla", "answer", {"answer": "challenge"}),
                                  Action("Carla", "answer", {"answer": "pass"})])
