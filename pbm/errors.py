"""Why a request was refused, in the reader's language: the one catalogue of refusals.

A refusal is a code and its params. The service raises its own (``OperationError``,
``AccountError``, a link's ``TokenError``, and the ``Rejected`` codes it raises itself:
a closed phase, a bad form, a text too long); the rules raise theirs (``Rejected``
from the engine), worded by the game's ruleset. ``say`` words any of them:

- a refusal of the rules (``Rejected``) by the ruleset first, then here;
- a refusal of the service here first, then by the ruleset (a remedy's refusal the
  desk passes on as an ``OperationError``);
- a code worded by neither reads as ``GENERAL`` in the reader's language, and the code
  is logged: a user never sees a bare code.

One code may read differently on one page, because of what the user was doing there
(a game already started closes its sign-ups on the join page, its circle on the
narrator's phone): ``PAGES[page]`` holds those, and the page names itself when it asks.

The sentences are the service's, so they are Babel's: English msgids marked with ``N_``
(extracted by scripts/update_translations.py), translated through the same catalogue
as pages and mail (``gettext_in``), their ``%(name)s`` filled from the params by name.
A link's codes (``TokenError``: expired, invalid, used) are read as ``link_<code>``.
The game's words are never here: they are the ruleset's (its ``REJECTIONS``).
"""
from __future__ import annotations

import logging
from typing import Any, Callable, Mapping

from engine.core import Rejected
from engine.registry import get_ruleset

from .i18n import gettext_in
from .accounts.tokens import TokenError

log = logging.getLogger(__name__)


def N_(message: str) -> str:
    """Marks a msgid for extraction; it is translated when said (``say``)."""
    return message


GENERAL = N_("This cannot be done.")

# code -> the English msgid, its %(name)s from the refusal's params.
CATALOGUE: dict[str, str] = {
    # ----------------------------------------------------------- a game and its desk
    "game_started": N_("The game has already started."),
    # ----------------------------------------------------------- groups and seasons (issue 34)
    "group_name_required": N_("Give the group a name."),
    "season_name_required": N_("Give the season a name."),
    "not_group_master": N_("Only the group's owner may do this."),
    "unknown_season": N_("There is no such season."),
    "season_fixed": N_("The game has already started: its season can no longer change."),
    "bad_points": N_("Points are whole numbers from 0 to 100."),
    "post_empty": N_("The message is empty: nothing was posted."),
    "post_too_long": N_("The message is too long (%(length)s characters, at most %(limit)s): it was not "
                        "posted. Split it in two."),
    "room_locked": N_("The Master has closed this room: it can be read, not written."),
    "room_silenced": N_("The Master has muted you in this room for a while: your message was not posted."),
    "whisper_too_many": N_("A private conversation takes at most %(limit)s players."),
    "bad_delivery": N_("Choose every message, a digest or the web only."),
    "digest_hours": N_("Choose at least one hour for the digest."),
    "bad_moderation": N_("Hold, release or remove: nothing else can be done to a message."),
    "bad_archive": N_("The archive keeps all the rooms, only the one everyone shares, or none."),
    "silence_hours": N_("Silence a player for a whole number of hours, from 1 to %(limit)s (0 lets them "
                        "write again)."),
    "no_account": N_("This player has no account."),
    "not_master": N_("Only the game's Masters can do this."),
    "game_over": N_("The game is over."),
    "not_running": N_("The game is not running."),
    "not_paused": N_("The game is not paused."),
    "not_prepared": N_("Draw the roles first."),
    "name_required": N_("Write the player's name."),
    "name_too_long": N_("A name of at most %(limit)s letters, please."),
    "name_taken": N_("That name is already taken in this game."),
    # pbm/typed_text.py: a name read in mail headers, calendars and pages.
    "name_control": N_("A name cannot hold line breaks, tabs, direction marks or invisible characters."),
    "email_taken": N_("That address already plays in this game."),
    "master_plays": N_("A Master of the game cannot also play in it."),
    "already_master": N_("This address is already a Master of this game."),
    "composition_size": N_("The composition has %(roles)s roles for %(players)s players."),
    "too_many_players": N_("At most %(maximum)s players can play this game."),
    "too_few_players": N_("At least %(minimum)s players are needed."),
    "extensions": N_("Each player may have from 0 to 10 extensions."),
    "setup_failed": N_("The rules refuse this set-up: %(reason)s"),
    "answer_window": N_("The answer window must last from one minute to two days."),
    "pending_items": N_("Answer the pending items first."),
    "not_a_draft": N_("This phase is not waiting for the Masters."),
    "no_open_phase": N_("No phase is open now."),
    "deadline_in_past": N_("The new deadline must be in the future."),
    "nothing_to_roll_back": N_("No published phase to roll back."),
    "unknown_player": N_("Unknown player."),
    "unknown_faction": N_("Unknown faction."),
    "unknown_action": N_("Unknown action."),
    "unknown_role": N_("Unknown role."),
    # ----------------------------------------------------------- seats and absences
    "already_playing": N_("You already play in this game."),
    "extension_too_long": N_("The extension may be at most seven days."),
    "absence_order": N_("The absence must end on or after the day it starts."),
    "absence_past": N_("That absence is already over."),
    "absence_too_long": N_("One absence may last at most 60 days and start at most six months ahead."),
    "unknown_absence": N_("Unknown absence."),
    # ----------------------------------------------------------- sign-ups
    "closed": N_("Sign-ups for this game are closed."),
    "past_closing": N_("Sign-ups for this game closed on their closing date."),
    "full": N_("The game is full."),
    "bad_address": N_("This is not a valid email address."),
    # pbm/addresses.py: why a typed address is refused.
    "address_not_plain": N_("Write one email address only, like anna@example.org: no name, no spaces, "
                            "no commas, no line breaks."),
    "address_invisible": N_("The address holds an invisible character (a zero-width space or a "
                            "direction mark, often copied with it): type it again by hand."),
    "address_mixed_scripts": N_("The address mixes letters of different alphabets (such as a Cyrillic "
                                "“а” among Latin letters), as impostors' addresses do: write it with "
                                "the letters of one alphabet."),
    "address_bad_domain": N_("The part after the @ is not a domain name mail can reach."),
    "address_needs_smtputf8": N_("Our mail server cannot send to an address with accented or non-Latin "
                                 "letters before the @: please give another address of yours."),
    "already_seated": N_("This address already has a seat in this game."),
    "closing_in_past": N_("The closing date must be in the future."),
    "max_too_small": N_("The maximum must be at least %(min)s (the players already in, and never "
                        "fewer than three)."),
    "signups_not_open": N_("Open the sign-ups first."),
    # ----------------------------------------------------------- a game at the table
    "not_a_table_game": N_("This game is not played at a table."),
    "photo_too_big": N_("The photo is too large: the player was not added. Try again."),
    "photo_not_an_image": N_("That file is not a photo: the player was not added."),
    "no_standard_composition": N_("There is no standard composition for this many players: "
                                  "choose the roles."),
    "bad_count": N_("Each role needs a whole number of cards."),
    "not_a_night": N_("It is not night any more."),
    "not_a_vote": N_("This is not the time for votes."),
    "stale_call": N_("This page was out of date: here is where the game is now. "
                     "Nothing was recorded twice."),
    "bad_tap": N_("Tap only the faces shown."),
    "unknown_tap": N_("This call cannot be recorded from the phone."),
    "tap_count": N_("Tap %(expected)s faces (you tapped %(got)s)."),
    "tapped_twice": N_("%(player)s was already tapped for another call."),
    "calls_left": N_("Some calls of the night are still to be made."),
    "already_recorded": N_("%(player)s has already voted: a recorded vote cannot be changed."),
    "too_many_taps": N_("Too many taps in one sending (at most %(limit)s): nothing was recorded."),
    # ----------------------------------------------------------- a player's submission
    "phase_closed": N_("The phase is closed: the action was not recorded."),
    # an answer window's answer after it closed (or aimed at an earlier one)
    "moment_passed": N_("Too late: that moment has passed. The answer was not recorded."),
    # ... closed early by another player's answer (a challenge): who, and what (issue 31)
    "moment_closed_by": N_("Too late: %(by)s had already answered (%(what)s), which closed that "
                           "moment. Your answer was not recorded."),
    "extension_not_asked": N_("You can ask for more time only while an answer of yours is awaited."),
    "no_extensions_left": N_("You have used every extension of this game (%(allowed)s)."),
    "unknown_standing": N_("Unknown standing answer: %(keys)s."),
    "standing_missing": N_("Which standing answer? Write it after the command."),
    "disqualified": N_("You have been disqualified: you can no longer act."),
    "empty_submission": N_("You chose nothing."),
    "bad_form": N_("Invalid form: %(errors)s."),
    "bad_submission": N_("Invalid request (%(reason)s)."),
    # pbm/limits.py: a text longer than its limit. The ruleset words its own free-text
    # keys' (``<key>_too_long``); any other reads as this.
    "text_too_long": N_("A text is too long (%(length)s characters, at most %(limit)s): it was not "
                        "recorded."),
    # ----------------------------------------------------------- accounts
    "password_mismatch": N_("The two passwords differ."),
    "password_short": N_("The password needs at least %(min)s characters."),
    "password_long": N_("The password may have at most %(max)s characters."),
    "password_is_email": N_("The password cannot be your email address."),
    "throttled_client": N_("Too many requests from your connection: try again in an hour."),
    # The day's budget of mail anyone may ask for is spent (pbm/accounts, docs/security.md).
    "throttled_service": N_("Too many mails were asked of the service today: try again in a few hours."),
    "wrong_password": N_("Wrong password."),
    "password_needed": N_("This address already has an account: give its password to take the seat."),
    "login_blocked": N_("Too many wrong passwords for this account or from your connection: try again "
                        "in %(minutes)s minutes, or reset your password by mail."),
    # ----------------------------------------------------------- links (TokenError)
    "link_expired": N_("This link has expired: ask for a new one below."),
    "link_used": N_("This link has already been used: ask for a new one below if you need it."),
    "link_invalid": N_("This link is not valid: ask for a new one below."),
}

# What one page says its own way: page -> {code -> msgid}.
PAGES: dict[str, dict[str, str]] = {
    # /join/<token> and the Masters' page of who is in a game.
    "signup": {
        "game_started": N_("The game has already started: sign-ups are over."),
        "name_required": N_("Write the name you want in the game."),
        "name_too_long": N_("The name may have at most %(max)s characters."),
        "name_taken": N_("The name %(name)s is already taken in this game: choose another."),
        "link_expired": N_("This confirmation link has expired: sign up again."),
        "link_invalid": N_("This confirmation link is not valid: sign up again."),
    },
    # The narrator's phone.
    "table": {
        "game_started": N_("The game has already started: the circle cannot change."),
        "name_taken": N_("%(name)s is already at the table: add an initial."),
        "too_many_players": N_("At most %(maximum)s players."),
        "composition_size": N_("You chose %(roles)s cards for %(players)s players."),
        "no_open_phase": N_("Nothing is waiting for a tap now."),
    },
}


def _setup_reason(params: Mapping[str, Any], lang: str, ruleset: str | None) -> dict[str, Any]:
    """Why the rules refuse a set-up, in the ruleset's words for the engine's code
    (``why``); one without a code is shown as the engine wrote it."""
    why = params.get("why")
    worded = get_ruleset(ruleset).describe_rejection(why, dict(params), lang) if why and ruleset else None
    return {"reason": worded or str(params.get("reason", ""))}


# Params a sentence shows otherwise than as they came: code -> (params, lang, ruleset) -> params.
_SHOWN: dict[str, Callable[[Mapping[str, Any], str, str | None], dict[str, Any]]] = {
    "setup_failed": _setup_reason,
    "unknown_standing": lambda p, lang, ruleset: {"keys": ", ".join(map(str, p.get("keys") or []))},
}


class _Filled(dict):
    """The params a sentence is filled from: one it names but was not given reads as
    nothing, rather than failing the page that wanted to say why."""

    def __missing__(self, key: str) -> str:
        return ""


def code_of(refusal: Exception) -> str:
    """A refusal's code as the catalogue knows it (a link's as ``link_<code>``)."""
    code = str(getattr(refusal, "code", "") or "")
    return f"link_{code}" if isinstance(refusal, TokenError) else code


def _service(code: str, params: Mapping[str, Any], lang: str, page: str, ruleset: str | None) -> str | None:
    msgid = PAGES.get(page, {}).get(code) or CATALOGUE.get(code)
    if msgid is None and code.endswith("_too_long"):
        msgid = CATALOGUE["text_too_long"]
    if msgid is None:
        return None
    shown = _Filled(params)
    if code in _SHOWN:
        shown.update(_SHOWN[code](params, lang, ruleset))
    return gettext_in(lang, msgid) % shown


def _rules(code: str, params: Mapping[str, Any], lang: str, ruleset: str | None) -> str | None:
    if not ruleset:
        return None
    return get_ruleset(ruleset).describe_rejection(code, dict(params), lang) or None


def say(code: str, params: Mapping[str, Any] | None, lang: str, *, ruleset: str | None = None,
        page: str = "", rules_first: bool = False) -> str:
    """``code`` worded in ``lang``: never the bare code (see the module's docstring).
    ``rules_first``: the refusal is the rules' (a ``Rejected``), so the ruleset words it
    before the service does; a ``<key>_too_long`` the ruleset does not word reads as
    the general ``text_too_long``."""
    params = params or {}
    if rules_first:
        worded = _rules(code, params, lang, ruleset) or _service(code, params, lang, page, ruleset)
    else:
        worded = _service(code, params, lang, page, ruleset) or _rules(code, params, lang, ruleset)
    if worded:
        return worded
    log.warning("refusal %r is worded nowhere (page %r, ruleset %r): the reader got the general "
                "sentence", code, page or "-", ruleset or "-")
    return gettext_in(lang, GENERAL)


def refusal(exc: Exception, lang: str, *, ruleset: str | None = None, page: str = "") -> str:
    """Any refusal the service or the rules raised, worded in ``lang`` (``say``)."""
    return say(code_of(exc), getattr(exc, "params", None), lang, ruleset=ruleset, page=page,
               rules_first=isinstance(exc, Rejected))
