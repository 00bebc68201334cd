"""Command lines and player names, without any mail around them."""
import pytest

from engine.lupus_live_12.rituals import RITUALS
from engine.registry import available, get_ruleset
from engine.tempo_reale_7.roles import POWERS as SPECTRE_POWERS
from pbm.mail.reading.commands import parse_commands
from pbm.mail.reading.grammar import grammar
from pbm.mail.reading.names import resolve_name
from pbm.mail.reading.wording import describe_error

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Maria Luisa", "Maria", "Mario",
           "Élodie", "Nicolò"]


def one(line, players=PLAYERS):
    commands, errors, ignored = parse_commands(line, players)
    assert not ignored, f"{line!r} was not read as a command"
    return commands, errors


@pytest.mark.parametrize("line, expected", [
    ("VOTO Carla", {"vote": "Carla"}),
    ("vote carla", {"vote": "Carla"}),
    ("Voto: CARLA", {"vote": "Carla"}),
    ("  **VOTO Carla**", {"vote": "Carla"}),
    ("- VOTE Carla", {"vote": "Carla"}),
    ("POTERE Bruno", {"target": "Bruno"}),
    ("POWER Bruno", {"target": "Bruno"}),
    ("BERSAGLIO Bruno", {"target": "Bruno"}),
    ("target bruno", {"target": "Bruno"}),
    ("POTERE Bruno, Carla", {"target": "Bruno", "target2": "Carla"}),
    ("POTERE Bruno E Carla", {"target": "Bruno", "target2": "Carla"}),
    ("POWER Bruno and Carla", {"target": "Bruno", "target2": "Carla"}),
    ("POTERE Bruno SPETTRO Amnesia", {"target": "Bruno", "power": "Amnesia"}),
    ("POWER Bruno SPECTRE occultamento", {"target": "Bruno", "power": "Occultamento"}),
    ("POTERE Bruno spettro dell'OCCULTAMENTO", {"target": "Bruno", "power": "Occultamento"}),
    ("RITUALE Voto diretto CON Anna SU Bruno", {"ritual": "Voto diretto", "with": ["Anna"], "target": "Bruno"}),
    ("RITUALE Omicidio CON Anna, Bruno, Carla, Dario SU Elena",
     {"ritual": "Omicidio", "with": ["Anna", "Bruno", "Carla", "Dario"], "target": "Elena"}),
    ("RITUAL omicidio WITH Anna, Bruno and Carla ON Elena",
     {"ritual": "Omicidio", "with": ["Anna", "Bruno", "Carla"], "target": "Elena"}),
    ("RITUALE Voto diretto 3 CON Anna, Bruno, Carla SU Dario",
     {"ritual": "Voto diretto", "with": ["Anna", "Bruno", "Carla"], "target": "Dario", "n": 3}),
    ("RITUALE Voto diretto N=3 CON Anna SU Dario",
     {"ritual": "Voto diretto", "with": ["Anna"], "target": "Dario", "n": 3}),
    ("RITUALE meno voto del 2 CON Anna, Bruno SU Dario",
     {"ritual": "Meno voto delegato", "with": ["Anna", "Bruno"], "target": "Dario", "n": 2}),
    ("RITUALE \\end{story} 1 CON Anna, Bruno, Carla, Dario, Elena",
     {"ritual": "\\end{story}", "with": ["Anna", "Bruno", "Carla", "Dario", "Elena"], "n": 1}),
    ("RITUALE end story 2 CON Anna", {"ritual": "\\end{story}", "with": ["Anna"], "n": 2}),
    ("RITUALE endstory n=2 CON Anna", {"ritual": "\\end{story}", "with": ["Anna"], "n": 2}),
    ("RITUALE fine storia 2 CON Anna", {"ritual": "\\end{story}", "with": ["Anna"], "n": 2}),
    ("RITUALE Resurrézione CON Anna SU Bruno",
     {"ritual": "Resurrezione", "with": ["Anna"], "target": "Bruno"}),
    ("RITUALE spio CON Anna SU Bruno", {"ritual": "Spionaggio", "with": ["Anna"], "target": "Bruno"}),
    ("VICE Carla", {"appoint": "Carla"}),
    ("VICESINDACO Carla", {"appoint": "Carla"}),
    ("APPOINT Carla", {"appoint": "Carla"}),
    ("SUCCESSORE Carla", {"appoint": "Carla"}),
    ("successor carla", {"appoint": "Carla"}),
    ("ELEGGO Carla", {"elect": "Carla"}),
    ("SINDACO Carla", {"elect": "Carla"}),
    ("ELECT Carla", {"elect": "Carla"}),
    ("DIVENTO Veggente", {"become": "Veggente"}),
    ("BECOME Veggente", {"become": "Veggente"}),
    ("DOMANDA Bruno è un lupo?", {"question": "Bruno è un lupo?"}),
    ("QUESTION Is Bruno a wolf?", {"question": "Is Bruno a wolf?"}),
    ("URLO Al lupo!", {"shout": "Al lupo!"}),
    ("SHOUT Wolf!", {"shout": "Wolf!"}),
    ("NOTE sospetto di Bruno", {"notes": "sospetto di Bruno"}),
    ("NOTES suspect Bruno", {"notes": "suspect Bruno"}),
])
def test_vocabulary(line, expected):
    commands, errors = one(line)
    assert errors == []
    assert commands == [expected]


def test_every_keyword_of_every_game_is_recognised():
    for word, keyword in grammar(None).keywords.items():
        commands, errors, ignored = parse_commands(f"{word.lower()} x", ["Xavier"])
        if keyword.verb:  # a verb with no name after it is prose, not a command
            continue
        assert not ignored, word
        if commands:
            assert keyword.key in commands[0]
        else:  # a ritual or a role called 'x' does not exist
            assert keyword.value in ("choice", "choices") and errors[0]["code"] == "unknown_choice", word


def test_all_rituals_and_powers_resolve_to_themselves():
    for ritual in RITUALS.values():
        line = f"RITUALE {ritual.name.upper()}" + (" 2" if ritual.parametric else "") + " CON Anna" + (
            " SU Bruno" if ritual.target else "")
        commands, errors = one(line)
        assert errors == [] and commands[0]["ritual"] == ritual.name, line
    for power in SPECTRE_POWERS:
        commands, errors = one(f"POTERE Bruno SPETTRO {power.lower()}")
        assert commands == [{"target": "Bruno", "power": power}]


@pytest.mark.parametrize("typed, expected", [
    ("elodie", "Élodie"), ("ÉLODIE", "Élodie"), ("Elo", "Élodie"), ("nicolo", "Nicolò"),
    ("maria luisa", "Maria Luisa"), ("Maria Lu", "Maria Luisa"), ("maria", "Maria"),
    ("MARIO", "Mario"), ("da", "Dario"), ("  Bruno!  ", "Bruno"),
])
def test_names_match_by_case_accent_and_prefix(typed, expected):
    assert resolve_name(typed, PLAYERS) == (expected, None)


def test_exact_full_name_beats_prefix():
    # "Maria" is a prefix of "Maria Luisa" too, but it is someone's full name.
    assert resolve_name("Maria", PLAYERS)[0] == "Maria"


def test_ambiguous_prefix_lists_the_matching_names():
    name, error = resolve_name("mar", PLAYERS)
    assert name is None
    assert error["code"] == "ambiguous_name"
    assert sorted(error["candidates"]) == ["Maria", "Maria Luisa", "Mario"]


def test_unknown_name_lists_every_valid_name():
    commands, errors = one("VOTO Zorro")
    assert commands == []
    assert errors == [{"code": "unknown_name", "name": "Zorro", "candidates": PLAYERS,
                       "line": "VOTO Zorro", "command": "vote"}]


def test_trailing_words_after_a_full_name_are_tolerated():
    assert one("VOTO Carla perché mente")[0] == [{"vote": "Carla"}]


@pytest.mark.parametrize("line, code, extra", [
    ("VOTO", "missing_argument", {"argument": "name"}),
    ("POTERE", "missing_argument", {"argument": "target"}),
    ("BERSAGLIO ,", "missing_argument", {"argument": "target"}),
    ("URLO", "missing_argument", {"argument": "text"}),
    ("RITUALE", "missing_argument", {"argument": "ritual"}),
    ("POTERE Bruno spettro DUPLICAZIONE", "unknown_choice", {"argument": "power", "value": "DUPLICAZIONE"}),
    ("RITUALE Omicidio CON Anna", "missing_argument", {"argument": "target"}),
    ("RITUALE Omicidio 3 CON Anna SU Bruno", "bad_parameter", {"argument": "n"}),
    ("RITUALE Voto diretto 0 CON Anna SU Bruno", "bad_parameter", {"argument": "n"}),
    ("RITUALE \\end{story} 2 CON Anna SU Bruno", "bad_parameter", {"argument": "target"}),
    ("RITUALE Sacrificio CON Anna SU Bruno", "unknown_choice", {"argument": "ritual", "value": "Sacrificio"}),
    ("RITUALE voto d 2 CON Anna SU Bruno", "unknown_choice", {"candidates": ["Voto delegato", "Voto diretto"]}),
    ("POTERE Bruno SPETTRO Fulmine", "unknown_choice", {"argument": "power", "value": "Fulmine"}),
    ("POTERE Anna, Bruno, Carla", "bad_parameter", {"argument": "target"}),
    ("POTERE Bruno e Zorro", "unknown_name", {"name": "Zorro"}),
])
def test_errors_are_structured(line, code, extra):
    commands, errors = one(line)
    assert commands == []
    assert errors and errors[0]["code"] == code and errors[0]["line"] == line
    for key, value in extra.items():
        assert errors[0][key] == value


def test_non_command_lines_are_collected_in_order():
    text = "Ciao Master,\n\nVOTO Carla\nbuona serata\n   \nNon so chi votare"
    commands, errors, ignored = parse_commands(text, PLAYERS)
    assert commands == [{"vote": "Carla"}]
    assert ignored == ["Ciao Master,", "buona serata", "Non so chi votare"]


def test_keyword_must_be_a_whole_word_at_line_start():
    commands, errors, ignored = parse_commands("Votone Carla\nIo VOTOne Carla\nnoted", PLAYERS)
    assert commands == [] and errors == []
    assert len(ignored) == 3


@pytest.mark.parametrize("error", [
    {"code": "unknown_name", "name": "Zorro", "candidates": ["Anna", "Bruno"], "line": "VOTO Zorro"},
    {"code": "ambiguous_name", "name": "mar", "candidates": ["Maria", "Mario"]},
    {"code": "missing_argument", "argument": "n"},
    {"code": "unknown_choice", "argument": "ritual", "value": "X", "candidates": ["Omicidio"]},
    {"code": "unknown_choice", "argument": "power", "value": "X", "candidates": ["Morte"]},
    {"code": "no_command"},
    {"code": "not_in_game", "value": "SINDACO", "line": "SINDACO Carla"},
    {"code": "bad_parameter", "argument": "n", "value": "0"},
    {"code": "unknown_sender", "name": "x@y", "candidates": ["Anna"]},
    {"code": "command_outside_behalf", "line": "VOTO Anna"},
    {"code": "multiple_behalf", "line": "PER: Anna"},
    {"code": "something_new"},
])
def test_describe_error_in_both_languages(error):
    italian = describe_error(error)
    english = describe_error(error, "en")
    assert italian and english and italian != english
    assert "{" not in italian and "{" not in english
    for value in error.get("candidates", []):
        assert value in italian and value in english
    if "name" in error:
        assert error["name"] in italian and error["name"] in english


@pytest.mark.parametrize("ruleset", available())
def test_every_example_of_a_game_reads_in_that_game(ruleset):
    for keyword in get_ruleset(ruleset).vocabulary().keywords:
        for example in (keyword.example_it, keyword.example_en):
            assert example, (ruleset, keyword.it)
            commands, errors, _ = parse_commands(example, ["Anna", "Bruno", "Carla", "Dario", "Elena"],
                                                 ruleset)
            assert errors == [] and keyword.key in commands[0], (ruleset, example)


def test_a_keyword_of_another_game_is_refused_aloud():
    commands, errors, ignored = parse_commands("SINDACO Carla\nRITUALE Omicidio CON Anna SU Bruno",
                                               PLAYERS, "tempo-reale-7")
    assert commands == [{"elect": "Carla"}]
    assert [e["code"] for e in errors] == ["not_in_game"]
    assert errors[0]["value"] == "RITUALE" and ignored == []
    commands, errors, _ = parse_commands("SINDACO Carla", PLAYERS, "lupus-live-12")
    assert commands == [] and errors[0]["code"] == "not_in_game"
    assert "SINDACO" in describe_error(errors[0], "it", "lupus-live-12")


def test_each_game_reads_only_its_own_grammar():
    # Two targets are a tempo-reale-7 power's; a lupus-live-12 power has one.
    assert parse_commands("POTERE Anna, Bruno", PLAYERS, "tempo-reale-7")[0] == [
        {"target": "Anna", "target2": "Bruno"}]
    commands, errors, _ = parse_commands("POTERE Anna, Bruno", PLAYERS, "lupus-live-12")
    assert commands == [] and errors[0]["code"] == "bad_parameter"


@pytest.mark.parametrize("ruleset, line, expected", [
    ("lupus-live-12", "SBRANO Anna", {"target": "Anna"}),
    ("lupus-live-12", "proteggo bruno", {"target": "Bruno"}),
    ("lupus-live-12", "INDAGO Carla", {"target": "Carla"}),
    ("lupus-live-12", "MAUL Anna", {"target": "Anna"}),
    ("lupus-live-12", "Investigate: Carla", {"target": "Carla"}),
    ("tempo-reale-7", "UCCIDO Dario", {"target": "Dario"}),
    ("tempo-reale-7", "GUARDO Elena", {"target": "Elena"}),
    ("tempo-reale-7", "WATCH Elena", {"target": "Elena"}),
    ("tempo-reale-7", "KILL Bruno SPECTRE Death", {"target": "Bruno", "power": "Morte"}),
])
def test_the_verbs_players_write_are_the_power_command(ruleset, line, expected):
    assert parse_commands(line, PLAYERS, ruleset) == ([expected], [], [])


def test_a_line_of_prose_that_starts_with_a_verb_is_just_a_line():
    commands, errors, ignored = parse_commands("Guardo la partita da lontano\nVOTO Carla", PLAYERS,
                                               "lupus-live-12")
    assert commands == [{"vote": "Carla"}] and errors == []
    assert ignored == ["Guardo la partita da lontano"]


@pytest.mark.parametrize("line, expected", [
    ("Voto per Carla", {"vote": "Carla"}),
    ("vote for bruno", {"vote": "Bruno"}),
    ("VOTO contro Dario", {"vote": "Dario"}),
    ("POTERE su Elena", {"target": "Elena"}),
])
def test_a_preposition_before_the_name_is_tolerated(line, expected):
    assert one(line) == ([expected], [])


def test_a_preposition_before_an_ambiguous_prefix_still_lists_the_candidates():
    commands, errors = one("VOTO per mar")
    assert commands == [] and errors[0]["code"] == "ambiguous_name"
    assert set(errors[0]["candidates"]) == {"Maria", "Maria Luisa", "Mario"}


@pytest.mark.parametrize("line, expected", [
    ("VOTO Nicolo\u2019", {"vote": "Nicolò"}),          # an iPhone's curly apostrophe for the accent
    ("VOTO Gian Maria D\u2019Angelo", {"vote": "Gian Maria D'Angelo"}),
    ("VOTO - Carla", {"vote": "Carla"}),
    ("VOTO -> Carla", {"vote": "Carla"}),
    ("VOTO \u2192 Carla", {"vote": "Carla"}),
    ("URLO \u2013 attenti", {"shout": "attenti"}),
])
def test_phone_punctuation_around_names(line, expected):
    assert one(line, PLAYERS + ["Gian Maria D'Angelo"]) == ([expected], [])


def test_a_hard_wrapped_shout_is_joined_but_a_short_one_keeps_the_next_line_apart():
    # Gmail wraps plain text at 78 columns, Outlook at 76: the shout continues on the next line.
    wrapped = ("URLO Questa notte i lupi hanno fame e io so benissimo chi di voi sta mentendo\n"
               "da giorni, preparatevi\nVOTO Carla\n")
    commands, errors, ignored = parse_commands(wrapped, PLAYERS)
    assert commands == [{"shout": "Questa notte i lupi hanno fame e io so benissimo chi di voi sta "
                                  "mentendo da giorni, preparatevi"}, {"vote": "Carla"}]
    assert (errors, ignored) == ([], [])
    commands, _, ignored = parse_commands("URLO Al lupo!\nCiao a tutti\n", PLAYERS)
    assert commands == [{"shout": "Al lupo!"}] and ignored == ["Ciao a tutti"]


@pytest.mark.parametrize("line, expected", [
    # names written without commas are never cut down to the first one
    ("RITUALE Omicidio con Anna Bruno Carla Dario su Elena",
     {"ritual": "Omicidio", "with": ["Anna", "Bruno", "Carla", "Dario"], "target": "Elena"}),
    ("RITUALE Omicidio CON Anna, Bruno Carla e Maria Luisa SU Elena",
     {"ritual": "Omicidio", "with": ["Anna", "Bruno", "Carla", "Maria Luisa"], "target": "Elena"}),
    ("POTERE Anna Dario", {"target": "Anna", "target2": "Dario"}),
    ("POTERE Maria Luisa Anna", {"target": "Maria Luisa", "target2": "Anna"}),
    ("POTERE Maria Luisa", {"target": "Maria Luisa"}),
    ("POTERE Carla Gialli", {"target": "Carla"}),   # a surname is not a second player
    # a role as the rulebook writes it
    ("divento veggente", {"become": "Veggente"}),
    ("DIVENTO lupo mannaro", {"become": "Lupo Mannaro"}),
])
def test_names_without_commas_and_roles_in_any_case(line, expected):
    assert one(line) == ([expected], [])


@pytest.mark.parametrize("line, expected", [
    ("RITUALE Omicidio con Anna, Bruno, Carla, Dario contro Elena",
     {"ritual": "Omicidio", "with": ["Anna", "Bruno", "Carla", "Dario"], "target": "Elena"}),
    ("RITUALE omicidio insieme a Anna, Bruno, Carla, Dario bersaglio Elena",
     {"ritual": "Omicidio", "with": ["Anna", "Bruno", "Carla", "Dario"], "target": "Elena"}),
    ("RITUAL Murder WITH Anna, Bruno, Carla, Dario AGAINST Elena",
     {"ritual": "Omicidio", "with": ["Anna", "Bruno", "Carla", "Dario"], "target": "Elena"}),
    ("RITUAL direct vote 2 WITH Anna, Bruno ON Dario",
     {"ritual": "Voto diretto", "with": ["Anna", "Bruno"], "target": "Dario", "n": 2}),
])
def test_ritual_words_players_also_use(line, expected):
    assert one(line) == ([expected], [])


def test_a_hyphenated_name_typed_with_a_space_is_not_cut_to_its_first_part():
    players = ["Anna", "Anna-Maria", "Jean-Luc"]
    assert one("VOTO anna maria", players) == ([{"vote": "Anna-Maria"}], [])
    assert one("VOTO jean luc", players) == ([{"vote": "Jean-Luc"}], [])
    assert one("VOTO anna", players) == ([{"vote": "Anna"}], [])


def test_a_line_longer_than_any_wrap_width_does_not_swallow_the_signature():
    text = ("URLO Questa notte i lupi hanno fame e io so benissimo chi di voi sta mentendo e urlo forte\n"
            "Anna\n")
    commands, _, ignored = parse_commands(text, PLAYERS)
    assert commands == [{"shout": "Questa notte i lupi hanno fame e io so benissimo chi di voi sta "
                                  "mentendo e urlo forte"}]
    assert ignored == ["Anna"]


@pytest.mark.parametrize("ruleset, line, expected", [
    ("lupus-live-12", "Scelgo Carla come vice", {"appoint": "Carla"}),
    ("lupus-live-12", "Carla è il mio vice", {"appoint": "Carla"}),
    ("lupus-live-12", "Il bersaglio è Dario", {"target": "Dario"}),
    ("lupus-live-12", "Voto per mandare al rogo Carla", {"vote": "Carla"}),
    ("lupus-live-12", "Stanotte i lupi sbranano Dario", {"target": "Dario"}),
    ("lupus-live-12", "I choose Carla as deputy", {"appoint": "Carla"}),
    ("tempo-reale-7", "My successor is Carla", {"appoint": "Carla"}),
    ("tempo-reale-7", "Il mio voto per il sindaco va a Carla", {"elect": "Carla"}),
    ("tempo-reale-7", "I use my power on Bruno and Carla", {"target": "Bruno", "target2": "Carla"}),
])
def test_natural_forms_players_write(ruleset, line, expected):
    assert parse_commands(line, PLAYERS, ruleset) == ([expected], [], [])


@pytest.mark.parametrize("ruleset", ["lupus-live-12", "lupus-noctis", "tempo-reale-7"])
@pytest.mark.parametrize("line", ["I lupi: SBRANO Dario", "lupi SBRANO Dario", "noi lupi SBRANO Dario",
                                  "We wolves MAUL Dario", "The wolves: KILL Dario"])
def test_a_side_named_before_a_command_is_read_past_in_the_games_that_have_it(ruleset, line):
    assert parse_commands(line, PLAYERS, ruleset) == ([{"target": "Dario"}], [], [])


def test_the_words_naming_a_side_are_the_rulesets_not_the_services():
    # Complots has a KILL but no wolves: "the wolves" is prose there, and so is the line.
    assert parse_commands("The wolves: KILL Dario", PLAYERS, "complots") == ([], [], ["The wolves: KILL Dario"])
    assert parse_commands("The wolves: KILL Dario", PLAYERS, "lupus-noctis") == ([{"target": "Dario"}], [], [])


@pytest.mark.parametrize("line", ["Il voto di ieri era sbagliato", "Carla mi sembra sospetta",
                                  "Guardo la partita da lontano", "Io non voto oggi"])
def test_prose_that_only_starts_like_a_natural_form_is_a_line(line):
    assert parse_commands(line, PLAYERS, "lupus-live-12") == ([], [], [line])

