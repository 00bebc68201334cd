"""Accounts: creating users, set-password and reset links, throttling.

No password ever travels by mail: a new account gets a link to choose one
(signed, expiring, and working once, since it carries a fingerprint of the
password it replaces). Like the operations, these functions take a session and
the time from their caller and never commit.
"""
from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from . import tokens
from .. import addresses
from ..mail import outbound as mailer
from ..models import AuthAttempt, Game, OutboxRow, User

PASSWORD_MIN = 8
PASSWORD_MAX = 200

# Defaults of the throttles; each can be set in the configuration.
THROTTLE_DEFAULTS = {
    "LOGIN_WINDOW_MINUTES": 15,
    "LOGIN_FAILURES_PER_ACCOUNT": 10,
    "LOGIN_FAILURES_PER_CLIENT": 30,
    # Mail anyone may ask the service to send (reset, sign-up confirmation), per hour.
    "MAIL_REQUESTS_PER_ADDRESS": 3,
    "MAIL_REQUESTS_PER_CLIENT": 20,
}


class AccountError(Exception):
    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


def _setting(config: dict[str, Any], key: str) -> int:
    return int(config.get(key, THROTTLE_DEFAULTS[key]))


def address_problem(config: dict[str, Any], value: str) -> str | None:
    """The one address check of the service (every form, the sign-ups, the command
    line): why this typed address is refused (a code of ``addresses.PROBLEMS``,
    worded by pbm/errors.py), or None. Letters outside ASCII before the @ pass only
    where the relay offers SMTPUTF8 (MAIL_SMTPUTF8)."""
    return addresses.problem(value, bool(config.get("MAIL_SMTPUTF8")))


def normalize_email(email: str) -> str:
    return (email or "").strip().lower()


def find_user(session: Session, email: str) -> User | None:
    return session.scalar(select(User).where(User.email == normalize_email(email)))


def create_user(session: Session, *, email: str, name: str, lang: str = "it",
                admin: bool = False) -> tuple[User, bool]:
    """The user with this address (created, without a password, if new) and
    whether it was created."""
    user = find_user(session, email)
    created = user is None
    if user is None:
        user = User(email=normalize_email(email), name=name.strip() or email, lang=lang)
        session.add(user)
    if admin:
        user.is_admin = True
    session.flush()
    return user, created


def check_new_password(email: str, password: str, confirm: str) -> None:
    if password != confirm:
        raise AccountError("password_mismatch")
    if len(password) < PASSWORD_MIN:
        raise AccountError("password_short", min=PASSWORD_MIN)
    if len(password) > PASSWORD_MAX:
        raise AccountError("password_long", max=PASSWORD_MAX)
    if password.strip().lower() == normalize_email(email):
        raise AccountError("password_is_email")


# Set-password and reset links ------------------------------------------------

def password_link(config: dict[str, Any], user: User, now: datetime, purpose: str = "set") -> str:
    """A link that lets the owner of the address choose a password, once."""
    token = tokens.make(config, purpose, {"u": user.id, "f": user.password_fingerprint()}, now)
    return f"{config['BASE_URL'].rstrip('/')}/password-reset/{token}"


def user_for_password_token(session: Session, config: dict[str, Any], token: str,
                            now: datetime) -> User:
    """The user a set-password or reset link is for; TokenError when it has
    expired, is forged, or was used already (the password changed since)."""
    payload = None
    for purpose in ("reset", "set"):
        try:
            payload = tokens.read(config, purpose, token, now)
            break
        except tokens.TokenError as exc:
            if exc.code == "expired":
                raise
    if payload is None:
        raise tokens.TokenError("invalid")
    user = session.get(User, int(payload.get("u", 0)))
    if user is None or payload.get("f") != user.password_fingerprint():
        raise tokens.TokenError("used")
    return user


def choose_password(session: Session, user: User, password: str, confirm: str) -> None:
    """Set a password chosen through a link: the link dies, every session ends,
    and the account's login throttle is lifted (the owner proved the address)."""
    check_new_password(user.email, password, confirm)
    user.set_password(password)
    forget_failures(session, user.email)


def request_reset(session: Session, config: dict[str, Any], email: str, client: str,
                  now: datetime, lang: str) -> None:
    """Mail a reset link to an address that has an account; to one that has none,
    nothing (a request anyone can make must not make the service mail strangers).
    The page is the same either way, and so is the work: the mail is composed
    either way, so neither the page nor its timing tells which.
    AccountError("throttled_client") when this client asked too often,
    ("throttled_service") when everyone together did (MAIL_ANONYMOUS_PER_DAY)."""
    email = normalize_email(email)
    if not mail_request_allowed(session, config, "reset", email, client, now):
        return
    user = find_user(session, email)
    stand_in = user or User(email=email, name=email.split("@")[0], lang=lang)
    message = mailer.compose(config, to=stand_in.email, template="password_reset", lang=stand_in.lang, now=now,
                             kind="password_reset",
                             context={"user": stand_in, "link": password_link(config, stand_in, now, "reset")
                                      if user is not None else config["BASE_URL"],
                                      "hours": tokens.MAX_AGE["reset"] // 3600})
    if user is not None:
        mailer.queue_all(session, [message])


def send_set_password(session: Session, config: dict[str, Any], user: User, now: datetime,
                      game: Game | None = None, role: str = "account") -> str:
    """Mail a new account its set-password link; returns the link."""
    link = password_link(config, user, now, "set")
    mailer.queue(session, config, to=user.email, template="set_password", lang=user.lang, now=now,
                 kind="set_password",
                 context={"user": user, "link": link, "days": tokens.MAX_AGE["set"] // 86400,
                          "master_of": game, "role": role})
    return link


# Throttling ------------------------------------------------------------------

def record(session: Session, kind: str, email: str, client: str, now: datetime) -> None:
    session.execute(delete(AuthAttempt).where(AuthAttempt.at < now - timedelta(days=1)))
    session.add(AuthAttempt(at=now, kind=kind, email=normalize_email(email)[:254], client=client[:64]))


def forget_failures(session: Session, email: str) -> None:
    """The account's wrong passwords (not its client's) stop counting."""
    session.execute(delete(AuthAttempt).where(AuthAttempt.kind == "login",
                                              AuthAttempt.email == normalize_email(email)))


def _blocked_until(times: list[datetime], limit: int, window: timedelta) -> datetime | None:
    """With ``limit`` or more in the window, when enough of them age out."""
    if len(times) < limit:
        return None
    times = sorted(times)
    return times[len(times) - limit] + window


def login_blocked_until(session: Session, config: dict[str, Any], email: str, client: str,
                        now: datetime) -> datetime | None:
    """When this account (or this client) may try again, if too many wrong
    passwords came lately; None when it may try now."""
    window = timedelta(minutes=_setting(config, "LOGIN_WINDOW_MINUTES"))
    since = now - window
    base = select(AuthAttempt.at).where(AuthAttempt.kind == "login", AuthAttempt.at > since)
    by_account = session.scalars(base.where(AuthAttempt.email == normalize_email(email))).all()
    by_client = session.scalars(base.where(AuthAttempt.client == client)).all()
    until = [t for t in (
        _blocked_until(list(by_account), _setting(config, "LOGIN_FAILURES_PER_ACCOUNT"), window),
        _blocked_until(list(by_client), _setting(config, "LOGIN_FAILURES_PER_CLIENT"), window),
    ) if t is not None]
    return max(until) if until else None


def check_account_password(session: Session, config: dict[str, Any], user: User, password: str,
                           client: str, now: datetime) -> None:
    """The account's own password, asked where a link alone must not be enough (a
    sign-up's confirmation for an address that already has an account), throttled
    like the login. AccountError("login_blocked", minutes=...) while too many wrong
    passwords came lately, AccountError("wrong_password") for a wrong one."""
    blocked = login_blocked_until(session, config, user.email, client, now)
    if blocked is not None:
        raise AccountError("login_blocked", minutes=max(1, math.ceil((blocked - now).total_seconds() / 60)))
    if not user.check_password(password or ""):
        record(session, "login", user.email, client, now)
        raise AccountError("wrong_password")
    forget_failures(session, user.email)


# The mail anyone may ask for without an account: its kinds, counted together a day.
ANONYMOUS_KINDS = ("signup", "password_reset")


def anonymous_mail_today(session: Session, now: datetime) -> int:
    return session.scalar(select(func.count()).select_from(OutboxRow).where(
        OutboxRow.kind.in_(ANONYMOUS_KINDS), OutboxRow.created_at >= now - timedelta(days=1))) or 0


def mail_request_allowed(session: Session, config: dict[str, Any], kind: str, email: str,
                         client: str, now: datetime) -> bool:
    """Whether to send mail someone asked for. Too many for one client, or for
    everyone together in a day (MAIL_ANONYMOUS_PER_DAY: every client at its limit
    would spend the relay's quota), is AccountError (they are told: neither says
    anything of the address); too many for one address is a silent no (telling
    would say the address was asked for)."""
    since = now - timedelta(hours=1)
    base = select(AuthAttempt.id).where(AuthAttempt.kind == kind, AuthAttempt.at > since)
    if len(session.scalars(base.where(AuthAttempt.client == client)).all()) >= _setting(
            config, "MAIL_REQUESTS_PER_CLIENT"):
        raise AccountError("throttled_client")
    if anonymous_mail_today(session, now) >= int(config.get("MAIL_ANONYMOUS_PER_DAY", 100)):
        raise AccountError("throttled_service")
    per_address = len(session.scalars(base.where(AuthAttempt.email == normalize_email(email))).all())
    record(session, kind, email, client, now)
    return per_address < _setting(config, "MAIL_REQUESTS_PER_ADDRESS")
