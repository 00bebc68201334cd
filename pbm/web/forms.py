"""Forms with CSRF protection (Flask-WTF); labels are translated lazily."""
from __future__ import annotations

from functools import lru_cache

from babel.support import NullTranslations, Translations
from flask import current_app
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms.i18n import messages_path
from wtforms import (
    BooleanField, EmailField, IntegerField, PasswordField, SelectField, StringField, TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.widgets import HiddenInput
from wtforms.validators import DataRequired, Length, NumberRange, Optional, ValidationError

from .. import addresses, errors
from ..accounts import address_problem
from ..i18n import request_lang


# The one message of every form that takes an address, saying what is wanted.
ADDRESS_MESSAGE = _l("Write one email address only, like anna@example.org: no name, no spaces, "
                     "no commas, no line breaks.")


def address(_form: FlaskForm, field: EmailField) -> None:
    """The WTForms validator of every field that takes an address (log-in, reset,
    sign-up, a player, a co-Master, a substitute), on the service's one check,
    ``accounts.address_problem``; spaces around are tidied first (``tidy``)."""
    problem = address_problem(current_app.config, field.data or "")
    if problem == addresses.NOT_PLAIN:
        raise ValidationError(ADDRESS_MESSAGE)
    if problem is not None:
        raise ValidationError(errors.say(problem, {}, request_lang()))


def tidy(value: str | None) -> str | None:
    return value.strip() if isinstance(value, str) else value


def address_field(label: str = _l("Email"), required: bool = True) -> EmailField:
    """An address field: one plain address, or (``required=False``) nothing."""
    first = DataRequired(message=ADDRESS_MESSAGE) if required else Optional()
    return EmailField(label, filters=[tidy], validators=[first, address])


def options(pairs) -> list[SelectChoice]:
    """(value, label) pairs as WTForms 3.3 wants them."""
    return [SelectChoice(value, label) for value, label in pairs]


class LoginForm(FlaskForm):
    email = address_field()
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
    listing = SelectField(_l("Who can read the game's pages"), default="public", choices=options([
        ("public", _l("Everyone: listed on the home page")),
        ("unlisted", _l("Whoever has its link: not listed")),
        ("private", _l("Only its players and Masters"))]))
    # A season of a group the Master runs (issue 34): its statistics count the game when
    # it ends; also chosen on the desk while the game is in set-up.
    season = SelectField(_l("Season"), default="", choices=[])
    fair_deal = BooleanField(_l("Fair dealing: remember the group's history when the roles are drawn"))


class AddPlayerForm(FlaskForm):
    name = StringField(_l("Name in the game"), validators=[DataRequired(), Length(max=80)])
    email = address_field()
    lang = SelectField(_l("Language"), choices=options([("it", "Italiano"), ("en", "English")]))


class SubstituteForm(FlaskForm):
    """Who takes a seat over: a volunteer of the list, or an address typed in (the
    seat, the name and the extension are read by the view)."""
    volunteer = address_field(_l("A volunteer"), required=False)
    email = address_field(_l("Or the newcomer's address"), required=False)


class CsrfForm(FlaskForm):
    """The one form of buttons whose fields the view reads itself (the desk's controls,
    a draw's composition and set-up options, a player's answer, more time): it carries
    and checks the CSRF token only."""


class OnBehalfForm(FlaskForm):
    player = SelectField(_l("Player"), choices=[])
    commands = TextAreaField(_l("Commands, one per line (as in a mail)"), validators=[DataRequired()])
    source = SelectField(_l("Source"), choices=options([
        ("sms", "SMS"), ("phone", _l("Phone")), ("in person", _l("In person")), ("email", _l("Email"))]))


@lru_cache(maxsize=None)
def _wtforms_catalog(locale: str) -> NullTranslations:
    return Translations.load(messages_path(), [locale], domain="wtforms")


class ActionFormBase(FlaskForm):
    """Fields are added per request from the engine's ActionForm (legal choices only)."""

    class Meta:
        def get_translations(self, form):
            # WTForms' own messages in the reader's language, as Flask-WTF gives them,
            # but read from disk once per language: Flask-WTF loads the catalogue anew
            # for every request, a good part of a vote's time.
            if not current_app.config.get("WTF_I18N_ENABLED", True):
                return super().get_translations(form)
            return _wtforms_catalog(request_lang())

    def hidden_tag(self, *fields: object) -> Markup:
        """Flask-WTF's hidden fields, each plain one (no attributes of its own, not
        disabled) written in one formatting step: the same HTML as WTForms' general
        attribute writer, which cost a good part of the reserved page's form (issue 33)."""
        if fields:
            return super().hidden_tag(*fields)
        out = []
        for f in self:
            if not isinstance(f.widget, HiddenInput):
                continue
            if f.render_kw or getattr(f.flags, "disabled", False):
                out.append(str(f))
            else:
                out.append(f'<input id="{escape(f.id)}" name="{escape(f.name)}" type="hidden" '
                           f'value="{escape(f._value())}">')
        return Markup("\n".join(out))


__all__ = ["LoginForm", "NewGameForm", "AddPlayerForm", "SubstituteForm", "address", "address_field", "CsrfForm",
           "OnBehalfForm", "ActionFormBase", "IntegerField", "StringField", "SelectField",
           "TextAreaField"]
