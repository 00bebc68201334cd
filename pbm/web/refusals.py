"""How a page tells a refusal: ``attempt`` runs one change of a form in the request's
transaction, ``refusal`` words one in the reader's language.

Every refusal goes through the one catalogue, ``pbm.errors``: a code it does not word
reaches no page (the reader gets a general sentence, the log gets the code).
"""
from __future__ import annotations

from typing import Callable

from flask import flash, redirect
from werkzeug.wrappers import Response
from flask_babel import get_locale

from engine.core import Rejected

from .. import errors, operations
from ..accounts import AccountError
from ..models import Game
from . import db

# What a change may be refused with: the service's refusals and the rules'.
REFUSALS = (operations.OperationError, AccountError, Rejected)


def refusal(exc: Exception, *, game: Game | None = None, page: str = "") -> str:
    """``exc`` (a refusal of the service, the rules or a link) in the reader's language;
    ``game``: whose ruleset words the rules' codes; ``page``: the page that says it
    (``pbm.errors.PAGES``)."""
    return errors.refusal(exc, str(get_locale() or "it"), ruleset=game.ruleset if game is not None else None,
                          page=page)


def attempt(game: Game | None, change: Callable[[], object], *, back: str, success: str | None = None,
            page: str = "", lock: bool = True, after_refusal: str = "",
            refused: Callable[[Exception, str], Response] | None = None) -> Response:
    """Run one change in the request's transaction, then back to ``back``: committed and
    ``success`` said (if any), or rolled back and the refusal said (followed by
    ``after_refusal``). ``lock``: hold the game's row first (``operations.lock_game``),
    so two Masters' clicks act one after the other; a change that holds what it needs
    itself (the narrator's taps) goes without. ``refused``: the answer to a refusal
    instead (given it and its words), for a page that gives back what was sent (a post
    refused stays in the composer)."""
    try:
        if lock and game is not None:
            operations.lock_game(db(), game)
        change()
        db().commit()
    except REFUSALS as exc:
        db().rollback()
        said = refusal(exc, game=game, page=page)
        if refused is not None:
            return refused(exc, said)
        flash(f"{said} {after_refusal}" if after_refusal else said, "error")
    else:
        if success:
            flash(success, "receipt")
    return redirect(back)
