"""Sign-ups: a Master opens a game in set-up to whoever has its link.

Someone asks for a seat (name, address, language); the service mails a signed
link to that address; opening it (and choosing a password, for a new
account) takes the seat. Nothing is stored before the address is confirmed:
the request travels inside the signed link. Functions never commit.
"""
from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import accounts
from ..accounts import tokens
from ..mail import outbound as mailer
from ..models import Game, Seat, Signup, User
from .base import OperationError, check_typed_name, log
from .games import add_player

NAME_MAX = 80


def for_game(session: Session, game: Game) -> Signup | None:
    return session.scalar(select(Signup).where(Signup.game_id == game.id))


def by_token(session: Session, token: str) -> Signup | None:
    return session.scalar(select(Signup).where(Signup.token == token))


def open_signups(session: Session, game: Game, *, closes_at: datetime, max_players: int,
                 by: User, now: datetime) -> Signup:
    """Open (or change) the game's sign-ups; the link stays the same."""
    if game.status != "setup":
        raise OperationError("game_started")
    if closes_at <= now:
        raise OperationError("closing_in_past")
    if max_players < max(3, len(game.seats)):
        raise OperationError("max_too_small", min=max(3, len(game.seats)))
    signup = for_game(session, game)
    if signup is None:
        signup = Signup(game_id=game.id, token=secrets.token_urlsafe(12))
        session.add(signup)
    signup.is_open, signup.closes_at, signup.max_players = True, closes_at, max_players
    log(session, game, by, "open_signups", now, closes_at=closes_at.isoformat(), max_players=max_players)
    session.flush()
    return signup


def close_signups(session: Session, game: Game, *, by: User, now: datetime) -> None:
    signup = for_game(session, game)
    if signup is not None and signup.is_open:
        signup.is_open = False
        log(session, game, by, "close_signups", now)


def new_link(session: Session, game: Game, *, by: User, now: datetime) -> Signup:
    """A new link (the old one, shared too widely, stops working)."""
    signup = for_game(session, game)
    if signup is None:
        raise OperationError("signups_not_open")
    signup.token = secrets.token_urlsafe(12)
    log(session, game, by, "new_signup_link", now)
    return signup


def why_closed(signup: Signup, now: datetime) -> str | None:
    """Why no one can sign up now (a code), or None when they can."""
    game = signup.game
    if game.status != "setup":
        return "game_started"
    if not signup.is_open:
        return "closed"
    if now >= signup.closes_at:
        return "past_closing"
    if len(game.seats) >= signup.max_players:
        return "full"
    return None


def _check_name(game: Game, name: str) -> str:
    check_typed_name(name)
    name = " ".join((name or "").split())
    if not name:
        raise OperationError("name_required")
    if len(name) > NAME_MAX:
        raise OperationError("name_too_long", max=NAME_MAX)
    if any(s.name.casefold() == name.casefold() for s in game.seats):
        raise OperationError("name_taken", name=name)
    return name


def request_seat(session: Session, config: dict[str, Any], signup: Signup, *, name: str,
                 email: str, lang: str, client: str, now: datetime) -> None:
    """Mail the address a link that confirms it and takes the seat. The page
    says the same whatever the address: an address already in the game gets
    a mail saying so instead."""
    closed = why_closed(signup, now)
    if closed:
        raise OperationError(closed)
    game = signup.game
    name = _check_name(game, name)
    email = accounts.normalize_email(email)
    problem = accounts.address_problem(config, email)
    if problem is not None:
        raise OperationError(problem)
    if not accounts.mail_request_allowed(session, config, "signup", email, client, now):
        return
    if any(s.user.email == email for s in game.seats) or any(m.user.email == email for m in game.masters):
        mailer.queue(session, config, to=email, template="signup_already", lang=lang, now=now,
                     game=game, kind="signup", context={"email": email})
        return
    token = tokens.make(config, "join", {"g": game.id, "s": signup.token, "n": name, "e": email,
                                         "l": lang}, now)
    link = f"{config['BASE_URL'].rstrip('/')}/join/{signup.token}/confirm/{token}"
    mailer.queue(session, config, to=email, template="signup_confirm", lang=lang, now=now, game=game,
                 kind="signup", context={"player_name": name, "email": email, "link": link,
                                         "hours": tokens.MAX_AGE["join"] // 3600})


def read_request(session: Session, config: dict[str, Any], signup: Signup, token: str,
                 now: datetime) -> dict[str, Any]:
    """What a confirmation link asks for: {"name", "email", "lang", "user"}.
    TokenError if expired or forged, or made for another game or an older link."""
    payload = tokens.read(config, "join", token, now)
    if payload.get("g") != signup.game_id or payload.get("s") != signup.token:
        raise tokens.TokenError("invalid")
    return {"name": payload["n"], "email": payload["e"], "lang": payload.get("l", "it"),
            "user": accounts.find_user(session, payload["e"])}


def take_seat(session: Session, config: dict[str, Any], signup: Signup, request: dict[str, Any], *,
              password: str | None, confirm: str | None, now: datetime,
              proven: User | None = None) -> tuple[User, Seat]:
    """Confirm the address and seat it (the caller holds the game's lock). A
    new account, or one that never chose a password, sets it here. An account
    that has a password must be ``proven``: its owner logged in, or its password
    given (``accounts.check_account_password``). The link alone proves only that
    someone read a mail, and a mail can be read by others than its addressee;
    taking the seat logs the visitor in, so it must not make them the owner of an
    account they could not log in to (AccountError "password_needed")."""
    game = signup.game
    if any(s.user.email == request["email"] for s in game.seats):
        raise OperationError("already_seated")
    closed = why_closed(signup, now)
    if closed:
        raise OperationError(closed)
    name = _check_name(game, request["name"])
    user = accounts.find_user(session, request["email"])
    if user is not None and user.password_hash and (proven is None or proven.id != user.id):
        raise accounts.AccountError("password_needed")
    if user is None or not user.password_hash:
        accounts.check_new_password(request["email"], password or "", confirm or "")
    user, _created = accounts.create_user(session, email=request["email"], name=name, lang=request["lang"])
    if not user.password_hash:
        user.set_password(password or "")
    seat = add_player(session, config, game, name=name, email=user.email, lang=user.lang, now=now,
                      by=user)
    return user, seat
