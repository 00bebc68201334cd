"""The vote's select writes its options itself (pbm.web.player.NameSelect), for
speed: its HTML must stay exactly what WTForms' own Select writes, escaping included."""
from __future__ import annotations

import pytest
from flask_wtf import FlaskForm
from wtforms import Form, HiddenField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired

from pbm.web.forms import ActionFormBase, options
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


@pytest.mark.parametrize("chosen", ["", "Anna", '<b>&"Zoë\'', "nobody"])
def test_a_plain_select_is_wtforms_own(chosen: str) -> None:
    """No attributes of its own: the select itself is written in one step too."""
    class Both(Form):
        theirs = SelectField("Voto", choices=CHOICES, validate_choice=False)
        ours = SelectField("Voto", choices=CHOICES, validate_choice=False, widget=NameSelect())

    form = Both(data={"theirs": chosen, "ours": chosen})
    assert str(form.ours()).replace('id="ours" name="ours"', 'id="theirs" name="theirs"') == str(form.theirs())


def test_a_required_or_grouped_select_goes_wtforms_way() -> None:
    class Both(Form):
        theirs = SelectField("Voto", choices=CHOICES, validate_choice=False, validators=[DataRequired()])
        ours = SelectField("Voto", choices=CHOICES, validate_choice=False, widget=NameSelect(),
                           validators=[DataRequired()])
        grouped = SelectField("Voto", choices=[SelectChoice("Anna", "Anna", optgroup="Vivi")], widget=NameSelect())

    form = Both(data={"theirs": "Anna", "ours": "Anna"})
    assert str(form.ours()).replace("ours", "theirs") == str(form.theirs())
    assert "required" in str(form.ours())
    assert '<optgroup label="Vivi">' in str(form.grouped())


def test_the_hidden_fields_are_flask_wtfs_own(app) -> None:
    """ActionFormBase writes its hidden fields itself (issue 33): the same HTML as
    Flask-WTF's hidden_tag, escaping included; one with attributes of its own goes the
    general way."""
    class Action(ActionFormBase):
        kind = HiddenField(default='vote<&"\'>')
        note = HiddenField(default="x", render_kw={"data-x": "1"})
        seen = StringField("Visibile")

    with app.test_request_context():
        form = Action(prefix="vote")
        ours, theirs = str(form.hidden_tag()), str(FlaskForm.hidden_tag(form))
    assert ours == theirs
    assert 'name="vote-csrf_token"' in ours and 'data-x="1"' in ours and "vote-seen" not in ours
    assert "<&" not in ours.replace('<input', '')
