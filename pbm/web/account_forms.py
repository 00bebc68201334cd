"""Forms of accounts: settings, passwords, sign-ups, co-Masters (Flask-WTF, CSRF)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from zoneinfo import TZPATH, available_timezones

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
def known_zones() -> frozenset[str]:
    """Every zone of the tz database. ``available_timezones`` opens each of its 600
    files at every call: asked once per zone listed, the first account page of a
    process took seconds (15 s for four at once, behind a busy worker)."""
    return frozenset(available_timezones())


@lru_cache(maxsize=1)
def time_zones() -> list[str]:
    """The zones a person picks from: the tz database's own list of one zone per region
    (``zone1970.tab``: about 300), without its aliases ("US/Eastern", "Europe/Vatican"
    beside "Europe/Rome": 600 in all, issue 31); every zone when that list is missing."""
    known = known_zones()
    for base in TZPATH:
        table = Path(base) / "zone1970.tab"
        if table.is_file():
            listed = {line.split("\t")[2] for line in table.read_text(encoding="utf-8").splitlines()
                      if line and not line.startswith("#") and line.count("\t") >= 2}
            return sorted(listed & known)
    return sorted(z for z in known if "/" in z and not z.startswith(("Etc/", "SystemV/")))


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
        # A zone chosen before the list lost the aliases stays choosable: saving the
        # page must not refuse what the account already has.
        kept = getattr(kwargs.get("obj"), "tz", None)
        if kept and kept not in time_zones() and kept in known_zones():
            self.tz.choices.insert(1, options([(kept, kept.replace("_", " "))])[0])


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
