"""Forms with CSRF protection (Flask-WTF); labels are translated lazily."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField, EmailField, IntegerField, PasswordField, SelectField, StringField, TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional, ValidationError


def address(_form: FlaskForm, field: EmailField) -> None:
    """One plain address. Not email_validator: it refuses the special-use
    domains (.localhost, .test) that the embedded set-up and tests rely on."""
    value = (field.data or "").strip()
    local, _, domain = value.rpartition("@")
    if not local or not domain or " " in value or value.count("@") != 1 or domain.startswith("."):
        raise ValidationError(_l("This is not a valid email address."))


def options(pairs) -> list[SelectChoice]:
    """(value, label) pairs as WTForms 3.3 wants them."""
    return [SelectChoice(value, label) for value, label in pairs]


class LoginForm(FlaskForm):
    email = EmailField(_l("Email"), validators=[DataRequired()])
    password = PasswordField(_l("Password"), validators=[DataRequired()])


class NewGameForm(FlaskForm):
    name = StringField(_l("Game name"), validators=[DataRequired(), Length(max=120)])
    ruleset = SelectField(_l("Ruleset"), choices=[])
    auto_publish = BooleanField(_l("Publish results automatically when nothing needs the Masters"),
                                default=True)
    review_contradictions = BooleanField(
        _l("Hold the results for us when the rules settle a contradiction at random"), default=False)
    # For games whose moments end by an answer window (operations.timing.WINDOW).
    answer_window = IntegerField(
        _l("Time to answer, in minutes, for games played in turns (1 to 2880)"),
        validators=[Optional(), NumberRange(min=1, max=2880, message=_l("From 1 to 2880 minutes (two days)."))])


class AddPlayerForm(FlaskForm):
    name = StringField(_l("Name in the game"), validators=[DataRequired(), Length(max=80)])
    email = EmailField(_l("Email"), validators=[
        DataRequired(), address, Length(max=254, message=_l("This is not a valid email address."))])
    lang = SelectField(_l("Language"), choices=options([("it", "Italiano"), ("en", "English")]))


class StartGameForm(FlaskForm):
    mayor = SelectField(_l("Mayor"), choices=[], validators=[Optional()])


class PublishForm(FlaskForm):
    pass


class OnBehalfForm(FlaskForm):
    player = SelectField(_l("Player"), choices=[])
    commands = TextAreaField(_l("Commands, one per line (as in a mail)"), validators=[DataRequired()])
    source = SelectField(_l("Source"), choices=options([
        ("sms", "SMS"), ("phone", _l("Phone")), ("in person", _l("In person")), ("email", _l("Email"))]))


class ActionFormBase(FlaskForm):
    """Fields are added per request from the engine's ActionForm (legal choices only)."""


__all__ = ["LoginForm", "NewGameForm", "AddPlayerForm", "StartGameForm", "PublishForm",
           "OnBehalfForm", "ActionFormBase", "IntegerField", "StringField", "SelectField",
           "TextAreaField"]
