"""What the service mails back about a message to the Master: the receipt of its
commands (recorded, refused and why, not read), and the refusals of one that speaks for
nobody, told at a registered address, never to the sender as such. Error answers to one
address are capped a day (ERROR_REPLIES_PER_DAY), and every receipt counts against the
day's budgets of its address and its game (receipt_budget.py).
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from engine.core import GameState
from engine.registry import get_ruleset

from .. import operations, render
from ..role_cards import player_cards
from ..i18n import gettext_in
from ..models import (
    Game, InboundRow, MasterLog, OutboxRow, PhaseRow, PhaseStatus, Seat, User,
)
from ..mail.outbound import queue
from ..mail.reading.author import author_of
from ..mail.reading.wording import examples
from ..mail.reading.parse import ParsedMessage, without_reply_prefix
from ..operations.carry_out import abridge
from ..mail.sources.mailbox import headers_of
from .receipt_budget import check as check_budget
from .refusals import REFUSALS, seat_also_spoofed
from .identify import (
    Refused, is_master_address, seat_by_token, token_in_headers, user_by_address,
)

log = logging.getLogger(__name__)


def refuse(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage,
           who: Refused, now: datetime) -> list[str]:
    """Tell whom a refused message concerns, each in their own words, as the table of
    refusals says (refusals.py; identify.py says why); what the row records."""
    refusal = REFUSALS[who.why]
    spoofed = seat_also_spoofed(session, parsed, who)
    if spoofed is not None:
        _tell(session, config, row, parsed, Refused("spoof", seat=spoofed), now)
    _tell(session, config, row, parsed, who, now)
    return refusal.recorded(parsed)


def _tell(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage, who: Refused,
          now: datetime) -> None:
    refusal = REFUSALS[who.why]
    told = refusal.told(session, row, parsed, who)
    if told.game is not None:
        row.game_id = told.game.id
        if refusal.logged is not None:
            name = told.seat.name if told.seat is not None else told.user.name if told.user is not None else ""
            _log_refusal(session, told.game, now, player=name, sender=row.from_addr,
                         **({"reason": refusal.logged} if refusal.logged else {}),
                         **({"role": "master"} if told.master else {}))
    if told.user is None:
        return
    lang = told.user.lang
    _receipt(session, config, row, parsed, to=told.user.email, lang=lang, now=now, game=told.game,
             seat=told.seat, context={"phase_label": None, "deadline": None, "applied": [], "ignored": [],
                                      "errors": [refusal.says(session, config, parsed, who, lang)]},
             is_error=True, proven=refusal.proven, master=told.master)


def size_of(row: InboundRow) -> int:
    return row.size if row.size is not None else len(row.raw)


def oversized(row: InboundRow, config: dict[str, Any]) -> bool:
    """Over INBOUND_MAX_BYTES, or over the cap when it was read: then only its headers
    are here, even if the cap has been raised since."""
    return size_of(row) > int(config["INBOUND_MAX_BYTES"]) or size_of(row) > len(row.raw)


def commands_receipt(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage, *,
                     to: str, lang: str, now: datetime, game: Game, seat: Seat, by: User | None,
                     phase: PhaseRow | None, shown: PhaseRow | None, late: bool, tz: str,
                     applied: list[str], errors: list[str]) -> None:
    """The receipt of a message whose commands were carried out for ``seat`` (``by`` a
    Master, or its player): what was recorded and refused, what was not read, and the
    phase it counted for (``shown``: the one it answered when ``late``, else ``phase``,
    the one open now)."""
    open_now = phase is not None and phase.status == PhaseStatus.OPEN
    # The deadline as it stands now that the mail is applied (an extension moved it; an
    # answer that completed a window closed it, and then there is no time left to give).
    settled = open_now and not late and operations.timing.moments(game).closes_early and phase.ends_at <= now
    _receipt(session, config, row, parsed, to=to, lang=lang, now=now,
             game=game, seat=seat if by is None else None, context={
                 "phase_label": render.phase_label(shown, lang, tz) if shown else None,
                 "deadline": (render.deadline_text(shown.ends_at, lang, tz)
                              if shown is not None and shown.status == PhaseStatus.OPEN
                              and not settled else None),
                 "window_closed": settled,
                 # A Master's entry for a player (an SMS, a forward): whose commands these were.
                 "for_player": seat.name if by is not None else None,
                 # A reply to a moment that has passed: which one is open now, and until when.
                 "open_label": render.phase_label(phase, lang, tz) if late and open_now else None,
                 "open_deadline": (render.deadline_text(phase.ends_at, lang, tz)
                                   if late and open_now else None),
                 "applied": applied, "errors": errors,
                 "ignored": [] if parsed.help else _ignored(parsed, lang),
                 "examples": [] if applied else _examples(game, phase, seat, lang),
                 # "Cosa devo fare?": the player's role card (issue 31).
                 "cards": (player_cards(game, operations.current_state(game), seat.name, lang)
                           if parsed.help else []),
             }, is_error=bool(errors) and not applied, master=by is not None)


def refuse_oversized(session: Session, config: dict[str, Any], row: InboundRow, now: datetime) -> list[str]:
    """A message over INBOUND_MAX_BYTES is never downloaded nor parsed (a 67 MB
    message took 630 MB to parse): its headers and size are kept, the message
    itself stays in the mailbox, and its sender, if registered, is told once."""
    headers = headers_of(row.raw)
    author = author_of(headers)
    row.from_addr = author.address[:254]
    seat = seat_by_token(session, token_in_headers(headers, config))
    if seat is not None:
        row.game_id = seat.game_id
    size, cap = size_of(row), int(config["INBOUND_MAX_BYTES"])
    user = user_by_address(session, row.from_addr) if row.from_addr and not author.doubtful else None
    if user is not None and not (row.from_addr == config["NOREPLY_ADDRESS"].lower()
                                 or is_master_address(row.from_addr, config)):
        _receipt(session, config, row, ParsedMessage(), to=user.email, lang=user.lang, now=now,
                 game=seat.game if seat is not None else None, seat=None, context={
                     "phase_label": None, "deadline": None, "applied": [], "ignored": [],
                     "errors": [gettext_in(user.lang,
                                           "The message is too large (%(size)s MB; at most %(cap)s MB): it "
                                           "was not read. Send the commands again in a short message, "
                                           "without attachments.", size=_mb(size), cap=_mb(cap))]},
                 is_error=True, proven=False)
    return [f"too large: {size} bytes (at most {cap})"]


def _mb(size: int) -> str:
    return f"{size / 1_000_000:.1f}"


def master_receipt(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage,
                   master: User, game: Game | None, errors: list[str], now: datetime,
                   proven: bool = True) -> None:
    """The answer to a Master's own mail: ``errors`` say why nothing was recorded."""
    ignored = [abridge(x) for x in parsed.ignored_lines[:20]] if proven else []
    _receipt(session, config, row, parsed, to=master.email, lang=master.lang, now=now, game=game,
             seat=None, context={"phase_label": None, "deadline": None, "applied": [],
                                 "errors": errors, "ignored": ignored},
             is_error=True, proven=proven, master=True)


def talk_receipt(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage,
                 user: User, game: Game, errors: list[str], now: datetime, proven: bool = True) -> None:
    """The answer to a reply to a room's mail that was not posted as it stood: why."""
    _receipt(session, config, row, parsed, to=user.email, lang=user.lang, now=now, game=game, seat=None,
             context={"phase_label": None, "deadline": None, "applied": [], "errors": errors, "ignored": []},
             is_error=True, proven=proven)


# Refusals of mail in a game's name the Masters' log keeps a day: anyone can send
# them, and the log is the Masters' to read, not a stranger's to fill.
REFUSALS_LOGGED_PER_DAY = 20


def _log_refusal(session: Session, game: Game, now: datetime, **details: Any) -> None:
    """A refused message in the Masters' log (who it claimed, what it came from), up to
    REFUSALS_LOGGED_PER_DAY for the game in a day."""
    logged = session.scalar(select(func.count()).select_from(MasterLog).where(
        MasterLog.game_id == game.id, MasterLog.action == "refused_spoof", MasterLog.at >= now - timedelta(days=1)))
    if (logged or 0) >= REFUSALS_LOGGED_PER_DAY:
        log.info("refusal in game %s not logged: %d today already", game.id, logged)
        return
    operations.log(session, game, None, "refused_spoof", now, **details)


def _receipt(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage, *,
             to: str, lang: str, now: datetime, game: Game | None, seat: Seat | None,
             context: dict[str, Any], is_error: bool, proven: bool = True, master: bool = False) -> None:
    """Queue the answer. ``proven``: the message came from ``to`` itself (its
    token and its address). Otherwise the answer tells the registered owner
    of an address about a message someone else may have written: it neither
    repeats that message's subject nor threads under it, so a forger cannot
    make the service mail a player words of the forger's choosing. ``master``:
    a Master's own receipt (receipt_budget.py)."""
    if is_error and _error_replies_today(session, to, now) >= int(config["ERROR_REPLIES_PER_DAY"]):
        log.info("error replies to %s capped for today", to)
        return
    budget = check_budget(session, config, to, game, now, master)
    if budget.verdict == "none":
        log.info("receipts to %s (game %s) capped for today", to, game.id if game else "-")
        return
    capped = budget.verdict == "last"
    until = (render.deadline_text(budget.until, lang, operations.game_tz(game) if game else config["DEFAULT_TIMEZONE"])
             if capped else None)
    queue(session, config, to=to, template="receipt", lang=lang, now=now, game=game,
                 kind="receipt_capped" if capped else "receipt_error" if is_error else "receipt", auto_reply=True,
                 in_reply_to=parsed.message_id if proven else None,
                 references=(" ".join(parsed.references or []) or None) if proven else None,
                 context={"original_subject": without_reply_prefix(parsed.subject or "") if proven else "",
                          "seat": seat, "examples": [], **context, "capped_until": until})


def _error_replies_today(session: Session, address: str, now: datetime) -> int:
    return session.scalar(select(func.count()).select_from(OutboxRow).where(
        OutboxRow.to_addr == address, OutboxRow.kind == "receipt_error",
        OutboxRow.created_at >= now - timedelta(days=1))) or 0


def newest_mail_hint(config: dict[str, Any], game: Game, phase: PhaseRow, lang: str, tz: str) -> str:
    """For a reply to an older mail whose commands did not fit the phase open now: which
    phase that is, until when, and where to act on it."""
    page = f"{config['BASE_URL']}/g/{game.slug}/me"
    if phase.status != PhaseStatus.OPEN or phase.ends_at is None:
        return gettext_in(lang, "You replied to an older mail of the game, and no phase takes commands "
                                "now: wait for the next mail, or see the game's page: %(page)s",
                          page=page)
    return gettext_in(lang, "You replied to an older mail of the game. The phase open now: %(phase)s, "
                            "until %(deadline)s. Reply to its newest mail, or use the game's page: "
                            "%(page)s", phase=render.phase_label(phase, lang, tz),
                      deadline=render.deadline_text(phase.ends_at, lang, tz), page=page)


def _ignored(parsed: ParsedMessage, lang: str) -> list[str]:
    """What the receipt lists as not read: the lines that were no command, then the prose
    written after a command's arguments ("Voto Dario, secondo me è lui")."""
    lines = [abridge(line) for line in parsed.ignored_lines[:20]]
    lines += [gettext_in(lang, "“%(text)s” (after the command on the line “%(line)s”)",
                         text=abridge(item["text"], 200), line=abridge(item["line"], 80))
              for item in parsed.ignored_text[:20]]
    return lines


def _examples(game: Game, phase: PhaseRow | None, seat: Seat, lang: str) -> list[str]:
    """Example lines of what this player can send now (none when nothing; all the
    game's commands when no phase is open), for a receipt that recorded nothing: the
    whole lines legal now where the game words them (``operations.choices_now``)."""
    keys = None
    if phase is not None and phase.status == PhaseStatus.OPEN:
        found = operations.choices_now(game, phase, seat, None, lang)
        if found is not None:
            return found[1]
        forms = get_ruleset(game.ruleset).forms(GameState.from_dict(phase.state_before), seat.name)
        keys = {f.name for form in forms for f in form.fields}
    return examples(game.ruleset, lang, keys)
