"""Forms of accounts: settings, passwords, sign-ups, co-Masters (Flask-WTF, CSRF)."""
from __future__ import annotations

from functools import lru_cache
from zoneinfo import available_timezones

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField, DateTimeLocalField, IntegerField, PasswordField, SelectField, StringField,
)
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..accounts import PASSWORD_MAX
from .forms import address_field, options

LANGUAGES = [("it", "Italiano"), ("en", "English")]


@lru_cache(maxsize=1)
def time_zones() -> list[str]:
    return sorted(z for z in available_timezones() if "/" in z and not z.startswith(("Etc/", "SystemV/")))


def tz_choices():
    # "America/New York", not the database's "America/New_York".
    return options([("", _l("The game's own"))] + [(z, z.replace("_", " ")) for z in time_zones()])


def _password(label):
    return PasswordField(label, validators=[DataRequired(), Length(max=PASSWORD_MAX)])


BULLETINS = [("each", _l("Each phase's bulletin, as it comes out")),
             ("digest", _l("One digest of the bulletins a day")),
             ("web", _l("None by mail: I read them on the site"))]


class AccountForm(FlaskForm):
    reminders = BooleanField(_l("Mail me a reminder before a deadline when I have not played yet"))
    # pbm/mail/outbound/digests.py; results that concern the player alone always come by mail.
    bulletins = SelectField(_l("Bulletins by mail"), choices=options(BULLETINS), validate_choice=True)
    lang = SelectField(_l("Language"), choices=options(LANGUAGES))
    tz = SelectField(_l("Time zone of the times in my mail"), choices=[], validate_choice=True)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tz.choices = tz_choices()


class ChangePasswordForm(FlaskForm):
    current = _password(_l("Current password"))
    password = _password(_l("New password"))
    confirm = _password(_l("New password again"))


class ChoosePasswordForm(FlaskForm):
    password = _password(_l("New password"))
    confirm = _password(_l("New password again"))


class ResetRequestForm(FlaskForm):
    email = address_field()


class JoinForm(FlaskForm):
    name = StringField(_l("Name in the game"), validators=[DataRequired(), Length(max=80)])
    email = address_field()
    lang = SelectField(_l("Language"), choices=options(LANGUAGES))


class TakeSeatForm(FlaskForm):
    """Confirming a sign-up: a new password for an account without one, the
    account's own password for one that has it (unless its owner is logged in)."""
    password = PasswordField(_l("Choose a password"), validators=[Optional(), Length(max=PASSWORD_MAX)])
    confirm = PasswordField(_l("The password again"), validators=[Optional(), Length(max=PASSWORD_MAX)])
    current = PasswordField(_l("Your account's password"), validators=[Optional(), Length(max=PASSWORD_MAX)])


class SignupForm(FlaskForm):
    closes_at = DateTimeLocalField(_l("Closing date"), validators=[DataRequired()])
    max_players = IntegerField(_l("Most players in the game"),
                               validators=[DataRequired(), NumberRange(min=3, max=200)])


class CoMasterForm(FlaskForm):
    email = address_field()
    name = StringField(_l("Name"), validators=[Optional(), Length(max=120)])
    lang = SelectField(_l("Language"), choices=options(LANGUAGES))
