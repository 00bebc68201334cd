"""Every word the service prints to name an action is understood back (issue 22), and the
natural forms documented in docs/mail-commands.md read as documented.

The printed words are taken from where the service prints them, not copied: the
receipts' and desk's names of a submission's keys (engine/lupus_common/texts.KEYS), the reminders'
names of an action (engine/lupus_common/texts.ACTIONS), and the web page's form titles and field
labels (the two Lupus games' forms, engine/lupus_common/texts.FORM_TITLES and FIELD_LABELS). A word
added there and not to a ruleset's vocabulary fails here."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.lupus_common import texts
from engine.core import ActionForm
from engine.registry import get_ruleset
from pbm.mail.reading.commands import parse_commands

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
LUPUS = ("lupus-live-12", "tempo-reale-7")
# The keys each Lupus ruleset takes, and a value of each as a player would write it.
VALUES = {
    "vote": ("Carla", {"vote": "Carla"}),
    "target": ("Bruno", {"target": "Bruno"}),
    "ritual": ("Omicidio con Anna su Bruno", {"ritual": "Omicidio", "with": ["Anna"], "target": "Bruno"}),
    "appoint": ("Carla", {"appoint": "Carla"}),
    "elect": ("Carla", {"elect": "Carla"}),
    "become": ("Veggente", {"become": "Veggente"}),
    "question": ("Bruno è un lupo?", {"question": "Bruno è un lupo?"}),
    "shout": ("Al lupo!", {"shout": "Al lupo!"}),
    "notes": ("sospetto di Bruno", {"notes": "sospetto di Bruno"}),
}
TAKES = {"lupus-live-12": {"vote", "target", "ritual", "appoint", "become", "question", "shout", "notes"},
         "tempo-reale-7": {"vote", "target", "appoint", "elect"}}
# An action kind and the submission key it fills.
KIND_KEY = {"vote": "vote", "power": "target", "ritual": "ritual", "elect": "elect", "appoint": "appoint",
            "become": "become", "question": "question", "shout": "shout", "notes": "notes"}


def printed_words(ruleset: str) -> list[tuple[str, str]]:
    """(key, word) for every word the service prints to name one of the ruleset's actions."""
    takes = TAKES[ruleset]
    out = []
    for lang in ("it", "en"):
        out += [(key, names[lang]) for key, names in texts.KEYS.items() if key in takes]
        out += [(KIND_KEY[kind], names[lang]) for kind, names in texts.ACTIONS.items() if KIND_KEY[kind] in takes]
        out += [(KIND_KEY[kind], names[lang]) for kind, names in texts.FORM_TITLES.items()
                if KIND_KEY.get(kind) in takes]
        out += [(key, names[lang]) for key, names in texts.FIELD_LABELS.items() if key in takes]
    return sorted(set(out))


@pytest.mark.parametrize("ruleset", LUPUS)
def test_the_printed_words_are_found_where_the_service_prints_them(ruleset):
    """The tables read above are what the ruleset titles and labels its web forms with."""
    for lang in ("it", "en"):
        for kind in {"vote", "power", "become", "question", "shout", "notes"} & set(texts.FORM_TITLES):
            if KIND_KEY[kind] in TAKES[ruleset]:
                form = ActionForm(kind, [], f"form.{kind}")
                assert get_ruleset(ruleset).form_title(form, lang) == texts.FORM_TITLES[kind][lang], kind
        for key in TAKES[ruleset] & set(texts.FIELD_LABELS):
            kind = next(kind for kind, filled in KIND_KEY.items() if filled == key)
            form = ActionForm(kind, [], f"form.{kind}")
            assert get_ruleset(ruleset).field_label(form, key, lang) == texts.FIELD_LABELS[key][lang], key
    assert len(printed_words("lupus-live-12")) >= 30


@pytest.mark.parametrize("ruleset", LUPUS)
@pytest.mark.parametrize("shape", ["{word}: {value}", "{word} {value}", "{word} - {value}"])
def test_every_word_the_service_prints_for_an_action_is_understood_back(ruleset, shape):
    wrong = []
    for key, word in printed_words(ruleset):
        value, expected = VALUES[key]
        line = shape.format(word=word, value=value)
        commands, errors, ignored = parse_commands(line, PLAYERS, ruleset)
        if commands != [expected] or errors:
            wrong.append((line, commands, errors))
    assert wrong == []


def documented_natural_forms() -> list[tuple[str, str, str]]:
    """The natural forms docs/mail-commands.md shows players, each with the keyword form it
    stands for: the two-column rows '| `form`, `form` | `KEYWORD ...` |' under a Lupus
    ruleset's "how to write" heading."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "mail-commands.md").read_text()
    out = []
    ruleset = None
    for line in doc.splitlines():
        heading = re.search(r"\(`(lupus-live-12|tempo-reale-7)`\)", line)
        if heading:
            ruleset = heading.group(1)
            continue
        if line.startswith(("#", "**", "The keywords", "Le parole chiave")):
            ruleset = None
        cells = line.split("|")
        if ruleset and len(cells) == 4 and cells[2].strip().startswith("`"):
            keyword_form = cells[2].strip().strip("`")
            out += [(ruleset, form, keyword_form) for form in re.findall(r"`([^`]+)`", cells[1])]
    return out


def test_the_documented_natural_forms_read_as_their_keyword_forms():
    forms = documented_natural_forms()
    assert len(forms) >= 30, forms
    for ruleset, natural, keyword_form in forms:
        meant = parse_commands(keyword_form, PLAYERS, ruleset)
        said = parse_commands(natural, PLAYERS, ruleset)
        assert said[1] == [] and said[0] == meant[0] and meant[0], (ruleset, natural, keyword_form, said)


def _doc() -> str:
    return (Path(__file__).resolve().parents[2] / "docs" / "mail-commands.md").read_text()


def documented_complots_forms() -> list[tuple[str, str]]:
    """(language, form) for every natural form docs/mail-commands.md shows Complots players:
    the Italian table's first column before "Le parole chiave", the English paragraph
    "Write as you would speak..." before "The keywords"."""
    doc = _doc()
    italian = doc[doc.index("**Complots** (`complots`)"):doc.index("Le parole chiave, per chi le preferisce")]
    english = doc[doc.index("Write as you would speak at the table"):doc.index("The keywords, for those who prefer")]
    out = [("it", form) for line in italian.splitlines() if line.startswith("| `")
           for form in re.findall(r"`([^`]+)`", line.split("|")[1])]
    out += [("en", " ".join(form.split())) for form in re.findall(r"`([^`]+)`", english)]
    return out


def test_every_documented_complots_form_reads_as_one_command():
    forms = documented_complots_forms()
    assert len([f for f in forms if f[0] == "it"]) >= 25 and len([f for f in forms if f[0] == "en"]) >= 25
    wrong = []
    for lang, form in forms:
        commands, errors, ignored = parse_commands(form, PLAYERS, "complots")
        if len(commands) != 1 or errors or ignored:
            wrong.append((lang, form, commands, errors, ignored))
    assert wrong == []


@pytest.mark.parametrize("natural, keywords", [
    ("**Lupus LIVE! 12ª edizione** (`lupus-live-12`): come si scrive", "Le parole chiave, che valgono sempre"),
    ("**Lupus in tempo reale, 7ª edizione** (`tempo-reale-7`): come si scrive", "Le parole chiave, che valgono sempre"),
    ("Scrivi come parleresti al tavolo", "Le parole chiave, per chi le preferisce"),
    ("**Lupus LIVE! 12th edition** (`lupus-live-12`): how to write", "The keywords, which always work"),
    ("**Lupus in tempo reale, 7th edition** (`tempo-reale-7`): how to write", "The keywords, which always work"),
    ("Write as you would speak at the table", "The keywords, for those who prefer them"),
])
def test_the_docs_show_the_natural_forms_first_and_the_keywords_second(natural, keywords):
    doc = _doc()
    assert doc.index(natural) < doc.index(keywords, doc.index(natural))
    # ... and nothing else of that game's keywords sits between them.
    assert "| comando |" not in doc[doc.index(natural):doc.index(keywords, doc.index(natural))]


def _section(title: str) -> str:
    doc = _doc()
    start = doc.index(title)
    return doc[start:doc.index("\n### ", start + 1) if "\n### " in doc[start + 1:] else len(doc)]


SURNAMED = ["Alessandro Bianchi", "Alessia De Luca", "Carla Rossi", "Nicolò Verdi"]


def test_the_documented_names_and_corrections_read_as_documented():
    """docs/mail-commands.md, "Nomi, lettere sbagliate, correzioni": each row's forms (the
    left column; "e sotto" joins two lines) read as the keyword forms on its right, in order."""
    rows = [ln for ln in _section("### Nomi, lettere sbagliate, correzioni").splitlines()
            if ln.startswith("| `")]
    assert len(rows) >= 6
    for row in rows:
        left, right = row.split("|")[1:3]
        meant = [parse_commands(form, SURNAMED, "tempo-reale-7")[0] for form in re.findall(r"`([^`]+)`", right)]
        written = re.findall(r"`([^`]+)`(?: \(|,|$| e sotto)", left)
        if " e sotto " in left:
            first, second = re.findall(r"`([^`]+)` e sotto `([^`]+)`", left)[0]
            written = [w for w in written if w not in (first, second)] + [first + "\n" + second]
        for i, form in enumerate(written):
            said = parse_commands(form, SURNAMED, "tempo-reale-7")
            expected = meant[min(i, len(meant) - 1)] if len(meant) > 1 and "(" in left else meant[0]
            assert said[0] == expected and said[1] == [], (form, said, expected)


def test_what_the_docs_say_records_nothing_records_nothing():
    """docs/mail-commands.md, "Quando non registro nulla": every form in the table, and the
    lines said not to be commands, record nothing."""
    section = _section("### Quando non registro nulla")
    forms = re.findall(r"`([^`]+)`", section.split("- **Inoltrare")[0])
    assert len(forms) >= 15
    for form in forms:
        commands, errors, _ = parse_commands(form, ["Anna", "Bruno", "Carla", "Lucia", "Alessandro Bianchi",
                                                    "Alessia De Luca"], "lupus-live-12")
        assert commands == [], (form, commands)
