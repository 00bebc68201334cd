"""The vote's select writes its options itself (pbm.web.player.NameSelect), for
speed: its HTML must stay exactly what WTForms' own Select writes, escaping included."""
from __future__ import annotations

import pytest
from wtforms import Form, SelectField
from wtforms.fields.choices import SelectChoice

from pbm.web.forms import options
from pbm.web.player import NameSelect

CHOICES = options([("", "—"), ("Anna", "Anna"), ('<b>&"Zoë\'', '<b>&"Zoë\' l\'àncora'), ("Bruno", ""),
           ("Carla", None), ("Dario", "Dario (Sindaco)")])


@pytest.mark.parametrize("chosen", ["", "Anna", '<b>&"Zoë\'', "Bruno", "Carla", "nobody"])
def test_the_options_are_wtforms_own(chosen: str) -> None:
    class Both(Form):
        theirs = SelectField("Voto", choices=CHOICES, validate_choice=False)
        ours = SelectField("Voto", choices=CHOICES, validate_choice=False, widget=NameSelect())

    form = Both(data={"theirs": chosen, "ours": chosen})
    ours = str(form.ours(**{"data-x": "1"})).replace('id="ours" name="ours"', 'id="theirs" name="theirs"')
    assert ours == str(form.theirs(**{"data-x": "1"}))
    assert "<b>" not in ours  # a name is text, never markup


def test_an_option_with_attributes_of_its_own_goes_wtforms_way() -> None:
    choices = [SelectChoice("Anna", "Anna", render_kw={"disabled": True}), SelectChoice("Bruno", "Bruno")]

    class Both(Form):
        theirs = SelectField("Voto", choices=choices, validate_choice=False)
        ours = SelectField("Voto", choices=choices, validate_choice=False, widget=NameSelect())

    form = Both(data={"theirs": "Bruno", "ours": "Bruno"})
    assert str(form.ours()).replace("ours", "theirs") == str(form.theirs())
    assert "disabled" in str(form.ours())
