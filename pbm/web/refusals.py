"""How a page tells a refusal: ``attempt`` (and ``attempted``) runs one change of a form
in the request's transaction, ``refusal`` words one in the reader's language.

Every refusal goes through the one catalogue, ``pbm.errors``: a code it does not word
reaches no page (the reader gets a general sentence, the log gets the code).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generic, TypeVar

from flask import flash, redirect
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from engine.core import Rejected

from ..i18n import request_lang
from .. import errors, operations
from ..accounts import AccountError
from ..models import Game
from . import db

# What a change may be refused with: the service's refusals and the rules'.
REFUSALS = (operations.OperationError, AccountError, Rejected)
T = TypeVar("T")


def refusal(exc: Exception, *, game: Game | None = None, page: str = "") -> str:
    """``exc`` (a refusal of the service, the rules or a link) in the reader's language;
    ``game``: whose ruleset words the rules' codes; ``page``: the page that says it
    (``pbm.errors.PAGES``)."""
    return errors.refusal(exc, request_lang(), ruleset=game.ruleset if game is not None else None,
                          page=page)


@dataclass
class Attempt(Generic[T]):
    """How a change went: what it returned, once committed, or its refusal (rolled back)."""

    done: T | None = None
    refused: Exception | None = None
    said: str = ""  # the refusal in the reader's words


def attempted(game: Game | None, change: Callable[[], T], *,
              success: str | Callable[[T], str] | None = None, page: str = "", lock: bool = True,
              refused: Callable[[str], str] | None = None, tell: bool = True) -> Attempt[T]:
    """Run one change in the request's transaction: committed and ``success`` said (if
    any; a callable words what the change returned, such as the submission a receipt
    names), or rolled back and the refusal said (through ``refused``, which frames it:
    "Not recorded: ..."). ``lock``: hold the game's row first (``operations.lock_game``),
    so two Masters' clicks act one after the other; a change that holds what it needs
    itself (a player's submission, which holds its phase; the narrator's taps) goes
    without. For a page that shows itself again after the change (a sign-up, a
    password); the others go back with ``attempt``. ``tell=False``: no flash of the
    refusal, for a page that shows it in place (a post refused stays in the composer)."""
    try:
        if lock and game is not None:
            operations.lock_game(db(), game)
        done = change()
        db().commit()
    except REFUSALS as exc:
        db().rollback()
        said = refusal(exc, game=game, page=page)
        if tell:
            flash(refused(said) if refused is not None else said, "error")
        return Attempt(refused=exc, said=said)
    told = success(done) if callable(success) else success
    if told:
        flash(told, "receipt")
    return Attempt(done=done)


def attempt(game: Game | None, change: Callable[[], T], *, back: str,
            success: str | Callable[[T], str] | None = None, page: str = "", lock: bool = True,
            refused: Callable[[str], str] | None = None) -> Response:
    """``attempted``, then back to ``back``: every POST of a page that changes a game
    comes here (or through ``attempted``), so a refusal reads the same wherever it is met."""
    attempted(game, change, success=success, page=page, lock=lock, refused=refused)
    return redirect(back)


def not_recorded(why: str) -> str:
    """A player's submission refused, as the page frames it."""
    return _("Not recorded: %(why)s", why=why)
