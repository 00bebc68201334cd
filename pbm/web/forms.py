"""Forms with CSRF protection (Flask-WTF); labels are translated lazily."""
from __future__ import annotations

import re
from functools import lru_cache

from babel.support import Translations
from flask import current_app
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms.i18n import messages_path
from wtforms import (
    BooleanField, EmailField, IntegerField, PasswordField, SelectField, StringField, TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional, ValidationError


# Whitespace (CR and LF above all: 'anna@x.it\r\nBcc: ...' would add a header to
# every mail to her), control characters, and what separates or quotes addresses.
_NOT_IN_AN_ADDRESS = re.compile(r'[\s\x00-\x1f\x7f<>(),;:"\[\]\\]')


def address(_form: FlaskForm, field: EmailField) -> None:
    """One plain address. Not email_validator: it refuses the special-use
    domains (.localhost, .test) that the embedded set-up and tests rely on."""
    value = (field.data or "").strip()
    local, _, domain = value.rpartition("@")
    if (not local or not domain or _NOT_IN_AN_ADDRESS.search(value) or value.count("@") != 1
            or domain.startswith(".")):
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
    extensions = IntegerField(
        _l("Times each player may ask for one more answer window in the game (0 to 10)"),
        default=2, validators=[Optional(), NumberRange(min=0, max=10, message=_l("From 0 to 10."))])


class AddPlayerForm(FlaskForm):
    name = StringField(_l("Name in the game"), validators=[DataRequired(), Length(max=80)])
    email = EmailField(_l("Email"), validators=[
        DataRequired(), address, Length(max=254, message=_l("This is not a valid email address."))])
    lang = SelectField(_l("Language"), choices=options([("it", "Italiano"), ("en", "English")]))


class StartGameForm(FlaskForm):
    """Draw and start: the composition and the ruleset's set-up options are read
    from the request (their fields depend on the ruleset); this checks the token."""


class PublishForm(FlaskForm):
    pass


class OnBehalfForm(FlaskForm):
    player = SelectField(_l("Player"), choices=[])
    commands = TextAreaField(_l("Commands, one per line (as in a mail)"), validators=[DataRequired()])
    source = SelectField(_l("Source"), choices=options([
        ("sms", "SMS"), ("phone", _l("Phone")), ("in person", _l("In person")), ("email", _l("Email"))]))


@lru_cache(maxsize=None)
def _wtforms_catalog(locale: str) -> Translations:
    return Translations.load(messages_path(), [locale], domain="wtforms")


class ActionFormBase(FlaskForm):
    """Fields are added per request from the engine's ActionForm (legal choices only)."""

    class Meta:
        def get_translations(self, form):  # noqa: ANN001, ANN202
            # WTForms' own messages in the reader's language, as Flask-WTF gives them,
            # but read from disk once per language: Flask-WTF loads the catalogue anew
            # for every request, a good part of a vote's time.
            if not current_app.config.get("WTF_I18N_ENABLED", True):
                return super().get_translations(form)
            return _wtforms_catalog(str(get_locale() or "it"))


__all__ = ["LoginForm", "NewGameForm", "AddPlayerForm", "StartGameForm", "PublishForm",
           "OnBehalfForm", "ActionFormBase", "IntegerField", "StringField", "SelectField",
           "TextAreaField"]
