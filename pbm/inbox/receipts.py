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
from ..i18n import gettext_in
from ..models import (
    Game, GameMaster, GameStatus, InboundRow, MasterLog, OutboxRow, PhaseRow, PhaseStatus, Seat, User,
)
from ..mail.outbound import master_address, queue
from ..mail.reading.author import author_of
from ..mail.reading.wording import examples
from ..mail.reading.parse import ParsedMessage, without_reply_prefix
from ..operations.carry_out import abridge
from ..mail.sources.mailbox import headers_of
from .receipt_budget import check as check_budget
from .identify import (
    Refused, is_master_address, same_address, seat_by_token, token_in_headers, user_by_address,
)

log = logging.getLogger(__name__)


def refuse(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage,
           who: Refused, now: datetime) -> list[str]:
    """Tell whom a refused message concerns, each in their own words (identify.py says
    who); what the row records as its errors."""
    if who.why == "doubtful":
        return _refuse_doubtful_author(session, config, row, parsed, who.seat, who.master, now)
    if who.why == "forged":
        return _refuse_forged(session, config, row, parsed, who.seat, now, master=who.master)
    if who.why == "master_spoof":
        return _refuse_master_spoof(session, config, row, parsed, who.master, now)
    if who.why == "master_without_token":
        return _refuse_master_without_token(session, config, row, parsed, who.user, now)
    if who.why == "unknown":
        return _refuse_unknown(session, config, row, parsed, now)
    if who.why == "spoof":
        return _refuse_spoof(session, config, row, parsed, who.seat, now)
    raise ValueError(f"no refusal for {who.why!r}")


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
                 # A reply to a moment that has passed: which one is open now, and until when.
                 "open_label": render.phase_label(phase, lang, tz) if late and open_now else None,
                 "open_deadline": (render.deadline_text(phase.ends_at, lang, tz)
                                   if late and open_now else None),
                 "applied": applied, "errors": errors,
                 "ignored": _ignored(parsed, lang),
                 "examples": [] if applied else _examples(game, phase, seat, lang),
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


def _refuse_master_without_token(session: Session, config: dict[str, Any], row: InboundRow,
                                 parsed: ParsedMessage, master: User, now: datetime) -> list[str]:
    """From a Master's address but not through their reply address: refused,
    and the Master (at the registered address, never the sender) is told
    which address each of their running games takes commands at. A player's
    token in it (a Master of another game using Bruno's reply address) is a
    spoof of that seat: its owner is told too."""
    seat = seat_by_token(session, parsed.token)
    if seat is not None and seat.mailable and not same_address(seat.user.email, master.email):
        _tell_seat_owner(session, config, row, parsed, seat, now)
    lang = master.lang
    games = [gm for gm in session.scalars(select(GameMaster).where(GameMaster.user_id == master.id))
             if gm.game.status == GameStatus.RUNNING]
    lines = "; ".join(f"{gm.game.name}: {master_address(config, gm)}" for gm in games)
    errors = [gettext_in(lang, "A Master's commands by mail count only when sent to your own address for "
                               "the game (reply to a mail of the game, or write to the address shown on "
                               "your desk): this message was not applied.")
              + (" " + gettext_in(lang, "Your addresses: %(addresses)s.", addresses=lines) if lines else "")]
    master_receipt(session, config, row, parsed, master, None, errors, now, proven=False)
    return ["master without token"]


def _refuse_master_spoof(session: Session, config: dict[str, Any], row: InboundRow,
                         parsed: ParsedMessage, gm: GameMaster, now: datetime) -> list[str]:
    """A Master's reply address from another address: refused; the Master is told."""
    master, game = gm.user, gm.game
    row.game_id = game.id
    master_receipt(session, config, row, parsed, master, game, [gettext_in(
        master.lang, "A message to your Master's address came from an address that is not yours: it was "
                     "not applied. The desk's log says which.")], now, proven=False)
    _log_refusal(session, game, now, player=master.name, role="master", sender=row.from_addr)
    return ["master token from another address"]


def _refuse_spoof(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage,
                  seat: Seat, now: datetime) -> list[str]:
    """Commands with a player's token from another address: refused, and the
    refusal goes to the registered address, never to the sender."""
    _tell_seat_owner(session, config, row, parsed, seat, now)
    return []


def _tell_seat_owner(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage,
                     seat: Seat, now: datetime) -> None:
    """Tell a seat's owner, at the registered address, that a message with their token
    came from another address, and log it for the Masters."""
    lang = seat.user.lang
    row.game_id = seat.game_id
    _receipt(session, config, row, parsed, to=seat.user.email, lang=lang, now=now, game=seat.game,
             seat=seat, context={"phase_label": None, "deadline": None, "applied": [], "ignored": [],
                                 "errors": [gettext_in(lang,
                                               "A message with your code came from an address that is not "
                                               "yours: it was not applied. Use your registered address.")]},
             is_error=True, proven=False)
    _log_refusal(session, seat.game, now, player=seat.name, sender=row.from_addr)


def _refuse_forged(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage,
                   seat: Seat | None, now: datetime, master: GameMaster | None = None) -> list[str]:
    """A From that the mail server says is forged speaks for nobody, Masters
    included; the registered address it claims is told, never the sender."""
    user = (seat.user if seat is not None and seat.mailable else master.user if master is not None
            else user_by_address(session, row.from_addr))
    if user is None:
        return ["dmarc fail"]
    lang = user.lang
    game = seat.game if seat is not None else master.game if master is not None else None
    if seat is not None:
        row.game_id = seat.game_id
        _log_refusal(session, seat.game, now, player=seat.name, sender=row.from_addr, reason="dmarc")
    elif master is not None:
        row.game_id = master.game_id
        _log_refusal(session, master.game, now, player=user.name, role="master", sender=row.from_addr,
                     reason="dmarc")
    _receipt(session, config, row, parsed, to=user.email, lang=lang, now=now, game=game, seat=seat,
             context={"phase_label": None, "deadline": None, "applied": [], "ignored": [],
                      "errors": [gettext_in(lang,
                                    "A message in your name arrived that the mail server found forged: it "
                                    "was not applied.")]},
             is_error=True, proven=False)
    return ["dmarc fail"]


def _refuse_doubtful_author(session: Session, config: dict[str, Any], row: InboundRow,
                            parsed: ParsedMessage, seat: Seat | None, master: GameMaster | None,
                            now: datetime) -> list[str]:
    """A From whose display name shows an address other than the one the message was
    sent from (the one the receiving server checked), or that names several senders,
    speaks for nobody. Told, at the registered address, in their language: the player
    or Master whose code it carries, else the owner of the address it came from, else
    the owner of the address it shows; never the sender as such."""
    user = (seat.user if seat is not None and seat.mailable else master.user if master is not None
            else user_by_address(session, row.from_addr)
            or (user_by_address(session, parsed.from_named) if parsed.from_named else None))
    game = seat.game if seat is not None else master.game if master is not None else None
    if game is not None:
        row.game_id = game.id
        _log_refusal(session, game, now, player=seat.name if seat is not None else user.name,
                     sender=row.from_addr, reason="display name", **({"role": "master"} if seat is None else {}))
    if user is None:
        return [f"doubtful From ({parsed.from_doubtful})"]
    lang = user.lang
    if parsed.from_doubtful == "named_other":
        error = gettext_in(lang, "A message arrived whose sender's name shows an address other than the one "
                                 "it was sent from: it was not applied. Commands count only from your "
                                 "registered address, with no other address in the sender's name.")
    else:
        error = gettext_in(lang, "A message arrived whose sender field names more than one sender: it was "
                                 "not applied. Send your commands from your registered address alone.")
    _receipt(session, config, row, parsed, to=user.email, lang=lang, now=now, game=game, seat=seat,
             context={"phase_label": None, "deadline": None, "applied": [], "ignored": [],
                      "errors": [error]}, is_error=True, proven=False)
    return [f"doubtful From ({parsed.from_doubtful})"]


def _refuse_unknown(session: Session, config: dict[str, Any], row: InboundRow, parsed: ParsedMessage,
                    now: datetime) -> list[str]:
    """No valid token: answer only a registered address, so strangers get no backscatter."""
    user = user_by_address(session, row.from_addr)
    if user is not None:
        _receipt(session, config, row, parsed, to=user.email, lang=user.lang, now=now, game=None,
                 seat=None, context={"phase_label": None, "deadline": None, "applied": [], "ignored": [],
                                     "errors": [gettext_in(user.lang,
                                                   "I cannot tell the game: reply to a mail you received from "
                                                   "the game, without changing the reply address.")]},
                 is_error=True, proven=False)
    return []


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
    game's commands when no phase is open), for a receipt that recorded nothing."""
    keys = None
    if phase is not None and phase.status == PhaseStatus.OPEN:
        forms = get_ruleset(game.ruleset).forms(GameState.from_dict(phase.state_before), seat.name)
        keys = {f.name for form in forms for f in form.fields}
    return examples(game.ruleset, lang, keys)
