"""What the Masters' desk shows: its queries and the view built from them.

The controllers (``master.py``) add their forms and render; everything here reads
the game and words it for the Masters, and changes nothing.
"""
from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core import MASTER, Event, GameState
from engine.interface import Viewer
from engine.registry import get_ruleset

from .. import operations, render, role_cards, visibility
from ..mail.outbound import quota_watch
from ..mail.outbound.relay_limits import Limits, paused_until, relay_key, used_today
from ..seating import load_seats
from ..models import EventRow, Game, InboundRow, MasterLog, OutboxRow, PhaseRow, PhaseStatus
from ..operations import desk as desk_ops
from ..operations.reminders import who_must_act
from .public import ruleset_name


def _source_label(code: str | None) -> str:
    """Where a submission came from, as the Masters read it."""
    labels = {"web": _("web"), "mail": _("mail"), "master": _("by a Master"), "sms": "SMS",
              "phone": _("phone"), "in person": _("in person"), "email": _("email")}
    return labels.get(code or "", code or "")


def _how(row) -> str:
    """How a submission arrived: 'web', 'mail', or 'SMS, entered by Anna (Master)'."""
    if row.source == "master":
        return _("%(source)s, entered by %(master)s", source=_source_label(row.source_detail),
                 master=row.by_user.name if row.by_user else "?")
    return _source_label(row.source)


def _visibility_label(visibility: str, to: list[str] | None = None) -> str:
    labels = {"public": _("public"), "private": _("private"), "master": _("Masters only")}
    label = labels.get(visibility, visibility)
    return f"[{label}{' → ' + ', '.join(to) if to else ''}] "


def _master_lines(events: Any, game: Game, lang: str) -> list[str]:
    """Every event, as the Masters read it (causes, weights), marked with who else sees it."""
    return [_visibility_label(s.visibility, s.event.to) + (s.text or s.event.kind)
            for s in visibility.seen(events, Viewer(master=True), game.ruleset, lang)]


def desk(session: Session, game: Game, lang: str, now: datetime,
         typed: dict[str, int] | None = None) -> dict[str, Any]:
    """Everything the desk page shows; ``typed``: the composition the Master typed
    last (kept when the rules refused it)."""
    load_seats(session, game)  # the desk shows every seat's user
    tz = operations.game_tz(game)
    phase = operations.current_phase(session, game)
    state = operations.current_state(game)
    drafts = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id,
                                                    PhaseRow.status == PhaseStatus.DRAFT)
                             .order_by(PhaseRow.index)).all()
    draft_views = []
    for d in drafts:
        # The record of an intervention is for replaying it; its events tell what it did.
        events = session.scalars(select(EventRow).where(EventRow.phase_id == d.id,
                                                        ~desk_ops.is_remedy_record())
                                 .order_by(EventRow.seq)).all()
        draft_views.append({"phase": d, "label": render.phase_label(d, lang, tz),
                            "lines": _master_lines(events, game, lang),
                            "pending": [_pending_view(game, x, lang) for x in d.pending or []]})
    actions, awaited = [], []
    if phase is not None:
        latest = operations.latest_actions(session, phase)
        actions = [(r.seat.name, render.describe_submission(r.args, lang, game.ruleset), _how(r))
                   for r in latest]
        if phase.status == PhaseStatus.OPEN:
            awaited = _awaited(game, phase, {(r.seat_id, r.kind) for r in latest}, lang)
    logs = session.scalars(select(MasterLog).where(MasterLog.game_id == game.id)
                           .order_by(MasterLog.id.desc()).limit(50)).all()
    log_lines = _log_lines(session, game, logs, lang, tz)
    roles = get_ruleset(game.ruleset).roles()
    # What each role does (its card), and the rules' own set for this many players.
    role_help = {c.role: c.does for c in role_cards.game_cards(game, None, lang)} if roles else {}
    suggested = get_ruleset(game.ruleset).default_composition(len(game.seats)) if roles else None
    prepared = game.prepared
    all_roles = [r.name for r in roles]
    # The numbers the Master typed last (kept when the rules refused them), else the draw's.
    composition = (typed
                   or (dict(Counter(role for _n, role in prepared["seating"])) if prepared else None)
                   or game.composition or {})
    preview = desk_ops.preview(session, game) if phase is not None and phase.status == PhaseStatus.OPEN else None
    preview_lines = _master_lines(preview.events, game, lang) if preview else []
    pending_items = _pending_items(session, game, phase, draft_views)
    troubled_mail = session.scalars(select(InboundRow).where(
        InboundRow.game_id == game.id, InboundRow.status.in_(["error", "refused", "ignored"]))
        .order_by(InboundRow.id.desc()).limit(30)).all()
    can_roll_back = session.scalar(select(PhaseRow.id).where(
        PhaseRow.game_id == game.id, PhaseRow.status == PhaseStatus.PUBLISHED).limit(1)) is not None
    return {
        "can_roll_back": can_roll_back,
        "mail_out": mail_panel(session, current_app.config, game, lang, now),
        "troubled_mail": troubled_mail,
        "preview_lines": preview_lines, "pending_items": pending_items,
        "prepared": prepared, "all_roles": all_roles, "composition": composition,
        "seat_roles": dict(prepared["seating"]) if prepared else {},
        "prepared_parts": _prepared_parts(game, prepared, lang),
        **_remedies(game, lang),
        "remaining": _remaining(phase.ends_at - now) if phase is not None and phase.status == PhaseStatus.OPEN
        and phase.has_deadline else None,
        "factions": get_ruleset(game.ruleset).factions,
        "tz": operations.game_tz(game),
        "game": game, "phase": phase, "state": state, "panels": panels(session, game, lang),
        "titles": render.titles(game.ruleset, state, lang),
        "drafts": draft_views, "actions": actions, "awaited": awaited,
        "role_help": role_help, "suggested": suggested, "logs": log_lines, "roles": roles,
        "phase_label": render.phase_label(phase, lang, tz) if phase else None,
        "deadline": render.deadline_text(phase.ends_at, lang, tz) if phase and phase.has_deadline else None,
    }


def _awaited(game: Game, phase: PhaseRow, acted: set[tuple[int, str]], lang: str) -> list[tuple[str, str]]:
    """Who the open phase still waits for, and what (the reminders' rule: the living,
    the kinds their ruleset requires of them, ``operations.reminders.who_must_act``):
    the desk listed only who had acted (issue 31)."""
    state = GameState.from_dict(phase.state_before)
    rules = get_ruleset(game.ruleset)
    out = []
    for seat in game.seats:
        if seat.disqualified or not state.has_player(seat.name) or not state.player(seat.name).alive:
            continue
        missing = sorted(k for k in who_must_act(state, game.ruleset, seat.name)
                         if (seat.id, k) not in acted)
        if missing:
            out.append((seat.name, ", ".join(rules.describe_action(k, lang) for k in missing)))
    return out


def _remedies(game: Game, lang: str) -> dict[str, Any]:
    """What the ruleset lets the Masters do (BaseRuleset.remedies): the remedies on
    ticked players or on nobody in one form, ending the game in its own; a player
    (or a faction) is disqualified through the ruleset's kill."""
    offered = get_ruleset(game.ruleset).remedies()
    keys = {r.key for r in offered}
    return {"remedies": [(r.key, r.label.get(lang) or r.label.get("it") or r.key) for r in offered
                         if r.key != "end"],
            "can_disqualify": "kill" in keys, "can_end": "end" in keys}


def _prepared_parts(game: Game, prepared: dict[str, Any] | None, lang: str) -> list[dict[str, Any]]:
    """The parts of a draw the Masters may edit: every prepared option shaped
    ``{subject: [{"player", "role"}...]}`` (BaseRuleset.prepared_options)."""
    if not prepared:
        return []
    ruleset = get_ruleset(game.ruleset)
    parts = []
    for key, value in (prepared.get("options") or {}).items():
        if not isinstance(value, dict):
            continue
        for subject, items in value.items():
            if isinstance(items, list) and all(isinstance(x, dict) for x in items):
                parts.append({"key": key, "subject": subject, "items": items,
                              "title": ruleset.describe_prepared(key, subject, lang)})
    return parts


def _pending_view(game: Game, item: dict[str, Any], lang: str) -> dict[str, Any]:
    """What a draft waits for, worded by the ruleset. A blocking item about one
    player is a question the Masters answer yes or no (``gm["answers"][player]``,
    docs/rulesets.md)."""
    data = item.get("data") or {}
    text = get_ruleset(game.ruleset).describe(Event(item["kind"], data, MASTER), lang, Viewer(master=True))
    return {"text": text or item["kind"],
            "player": data.get("player") if item.get("blocking") else None}


def _counts(counts: dict[str, int] | None) -> str:
    """"Lupo ×2, Contadino ×5"; nothing for a game dealt without roles (Complots)."""
    return ", ".join(f"{role} ×{n}" for role, n in (counts or {}).items() if role)


def talk_log_words(game, lang: str, when) -> dict[str, Any]:
    """The Masters' moderation of the rooms and their talk choices (pbm/operations/rooms.py)."""
    from ..operations.rooms import rooms_of
    rooms = rooms_of(game)

    def room(d: dict[str, Any]) -> str:
        spec = rooms.spec(d.get("room") or "") if rooms is not None else None
        return spec.name.read(lang) if spec is not None else _("a private conversation")

    return {
        "post_hold": lambda d: _("held a post in %(room)s for review", room=room(d)),
        "post_release": lambda d: _("showed again a post in %(room)s", room=room(d)),
        "post_remove": lambda d: _("removed a post in %(room)s", room=room(d)),
        "room_silence": lambda d: (_("silenced %(name)s in %(room)s until %(when)s", name=d.get("player"),
                                     room=room(d), when=when(d.get("until"))) if d.get("until") else
                                   _("let %(name)s write again in %(room)s", name=d.get("player"), room=room(d))),
        "room_lock": lambda d: _("locked %(room)s", room=room(d)),
        "room_unlock": lambda d: _("opened %(room)s again", room=room(d)),
        "talk_settings": lambda d: _("changed the choices about the players' talk"),
        "reports_seen": lambda d: _("looked at the posts the players reported"),
    }


def _log_lines(session, game, logs, lang: str, tz: str) -> list[tuple[str, str, str]]:
    """The Masters' log as (local time, who, what), worded: never a code or a dict."""
    phases = {p.index: p for p in session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id))}

    def phase(d: dict[str, Any]) -> str:
        row = phases.get(d.get("phase"))
        if row is not None:
            return render.phase_label(row, lang, tz)
        return _("phase %(n)s", n=int(d.get("phase", 0)) + 1)

    def when(iso: str | None) -> str:
        try:
            return render.deadline_text(datetime.fromisoformat(iso), lang, tz)
        except (TypeError, ValueError):
            return iso or ""

    def day(iso: str | None) -> str:
        try:
            return render.day_text(iso, lang)
        except (TypeError, ValueError):
            return iso or ""

    def names(d: dict[str, Any]) -> str:
        return ", ".join(d.get("players") or [])

    def reason(d: dict[str, Any]) -> str:
        return _(" (reason: %(reason)s)", reason=d["reason"]) if d.get("reason") else ""

    def submissions(items: list[dict[str, Any]]) -> str:
        return "; ".join(f"{x.get('player')}: " + ", ".join(render.describe_submission(x.get("args") or {}, lang, game.ruleset))
                         for x in items)

    words = {
        "create_game": lambda d: _("created the game %(name)s (%(ruleset)s)", name=d.get("name"),
                                   ruleset=ruleset_name(d.get("ruleset", ""))),
        "add_player": lambda d: _("added %(name)s (%(email)s)", name=d.get("name"), email=d.get("email")),
        "add_master": lambda d: _("made %(email)s a Master of the game", email=d.get("email")),
        "open_signups": lambda d: _("opened the sign-ups until %(when)s, at most %(n)s players",
                                    when=when(d.get("closes_at")), n=d.get("max_players")),
        "close_signups": lambda d: _("closed the sign-ups"),
        "new_signup_link": lambda d: _("made a new sign-up link (the old one stopped working)"),
        "draw_roles": lambda d: (_("drew the roles: %(roles)s", roles=_counts(d.get("roles")))
                                 if _counts(d.get("roles")) else _("prepared the set-up")),
        "edit_setup": lambda d: _("edited the set-up"),
        "season": lambda d: (_("chose the game's season (fair dealing)") if d.get("fair_deal")
                             else _("chose the game's season") if d.get("season") else _("took the game out of its season")),
        "start_game": lambda d: (_("started the game: %(roles)s", roles=_counts(d.get("composition")))
                                 if _counts(d.get("composition")) else _("started the game")),
        "submit_on_behalf": lambda d: _("entered for %(name)s (%(source)s): %(what)s", name=d.get("player"),
                                        source=_source_label(d.get("source")),
                                        what="; ".join(render.describe_submission(d.get("submission") or {}, lang, game.ruleset))),
        "close_phase": lambda d: _("closed %(phase)s ahead of time", phase=phase(d)),
        "publish": lambda d: _("published %(phase)s", phase=phase(d)),
        "answer_pending": lambda d: _("answered the pending items of %(phase)s", phase=phase(d)),
        "pause": lambda d: _("paused the game"),
        "resume": lambda d: _("resumed the game"),
        "extend": lambda d: _("moved the deadline of %(phase)s from %(old)s to %(new)s", phase=phase(d),
                              old=when(d.get("old")), new=when(d.get("new"))),
        "rollback": lambda d: _("rolled back %(phase)s: it is a draft again", phase=phase(d)),
        "rollback_dropped_phase": lambda d: _(
            "removed phase %(n)s, opened by the rolled back one; its submissions: %(what)s",
            n=int(d.get("phase", 0)) + 1, what=submissions(d.get("submissions") or []) or "—"),
        "kill": lambda d: _("killed %(names)s", names=names(d)) + reason(d),
        "resurrect": lambda d: _("resurrected %(names)s", names=names(d)) + reason(d),
        "disqualify": lambda d: _("disqualified %(names)s", names=names(d)) + reason(d),
        "draw": lambda d: _("declared a draw") + reason(d),
        "end": lambda d: _("ended the game, winner: %(winner)s",
                           winner=", ".join(d.get("players") or []).replace("draw", _("draw"))) + reason(d),
        "clear_bounce": lambda d: _("marked the address of %(name)s as working", name=d.get("player")),
        "address_failing": lambda d: _("mail to %(name)s bounces (%(email)s)", name=d.get("player"),
                                       email=d.get("address")),
        "refused_spoof": lambda d: _("refused a mail for %(name)s from %(sender)s", name=d.get("player"),
                                     sender=d.get("sender")),
        "late_boundary": lambda d: _("resolved %(phase)s late (the worker was down)", phase=phase(d)),
        "quota_warning": lambda d: (_("warned: the next boundary's %(needed)s mails will not fit in the %(room)s "
                                      "left in the relay's daily quota", needed=d.get("needed"), room=d.get("room"))
                                    + ("" if d.get("mailed") else _(" (no mail: the quota had no room for it)"))),
        # The narrator's phone at a table (pbm/operations/table.py).
        "seat_at_table": lambda d: _("seated %(name)s at the table", name=d.get("name")),
        "unseat": lambda d: _("took %(name)s out of the circle", name=d.get("name")),
        "narrator_call": lambda d: _("called %(role)s, tapped: %(taps)s", role=d.get("role"),
                                     taps=", ".join(d.get("taps") or []) or "—"),
        "narrator_correction": lambda d: _("corrected %(role)s before the dawn: %(before)s, now %(taps)s",
                                           role=d.get("role"), before=", ".join(d.get("before") or []) or "—",
                                           taps=", ".join(d.get("taps") or []) or "—"),
        "narrator_vote": lambda d: _("recorded the vote of %(voter)s for %(choice)s",
                                     voter=d.get("voter"), choice=d.get("choice")),
        "mailbox_reply": lambda d: _("replied as %(email)s from the demo's local mailbox", email=d.get("to")),
        "substitute": lambda d: _("handed the seat of %(name)s from %(old)s to %(new)s", name=d.get("player"),
                                  old=d.get("old"), new=d.get("new")),
        "volunteer": lambda d: _("%(email)s volunteered as substitute", email=d.get("email")),
        "volunteer_withdrawn": lambda d: _("%(email)s left the list of substitutes", email=d.get("email")),
        "declined": lambda d: _("%(player)s (%(email)s) gave the seat back before the start",
                                player=d.get("player"), email=d.get("email")),
        "absence": lambda d: _("%(name)s will be away from %(first)s to %(last)s", name=d.get("player"),
                               first=day(d.get("first_day")), last=day(d.get("last_day")))
        + (f" («{d['note']}»)" if d.get("note") else ""),
        "absence_withdrawn": lambda d: _("%(name)s withdrew the absence from %(first)s to %(last)s",
                                         name=d.get("player"), first=day(d.get("first_day")),
                                         last=day(d.get("last_day"))),
        # An answer window given more time at a player's request (operations/windows.py).
        "extend_window": lambda d: _("gave %(name)s more time: %(phase)s now ends %(new)s instead of %(old)s",
                                     name=d.get("player"), phase=phase(d), old=when(d.get("old")),
                                     new=when(d.get("new"))),
        "standing_answers": lambda d: (
            (_("set the standing answers of %(name)s", name=d.get("player")) if d.get("standing") else
             _("withdrew the standing answers of %(name)s", name=d.get("player"))) if d.get("by_master") else
            (_("%(name)s changed their standing answers", name=d.get("player")) if d.get("standing") else
             _("%(name)s withdrew their standing answers", name=d.get("player")))),
        **talk_log_words(game, lang, when),
    }
    lines = []
    for entry in logs:
        details = entry.details or {}
        word = words.get(entry.action)
        try:
            text = word(details) if word else None
        except (KeyError, TypeError, ValueError):
            text = None
        if text is None:  # never a code and its data: tests/web/test_desk_wording.py words every action
            text = _("did something this version of the service cannot describe")
        lines.append((render.when_text(entry.at, lang, tz), entry.user.name if entry.user else _("service"), text))
    return lines


def _remaining(delta) -> str:
    seconds = max(int(delta.total_seconds()), 0)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return _("%(d)s d %(h)s h %(m)s min", d=days, h=hours, m=minutes)
    return _("%(h)s h %(m)s min", h=hours, m=minutes)


def _pending_items(session, game, phase, drafts) -> list[str]:
    """What needs a Master's eye: questions, bounces, spoofing, entries on behalf."""
    items = []
    for d in drafts:
        items += [p["text"] for p in d["pending"]]
    for s in game.seats:  # loaded with their users (``desk``)
        if s.mailable and s.user.address_failing:
            items.append(_("Mail to %(name)s bounces (%(email)s).", name=s.name, email=s.user.email))
    spoofs = session.scalars(select(MasterLog).where(MasterLog.game_id == game.id,
                                                     MasterLog.action == "refused_spoof")
                             .order_by(MasterLog.id.desc()).limit(10)).all()
    for entry in spoofs:
        items.append(_("Refused: a mail for %(name)s came from %(sender)s.",
                       name=entry.details.get("player"), sender=entry.details.get("sender")))
    for row in _failed_masters_mail(session, game):
        items.append(_("A mail to the Masters was not delivered: “%(subject)s”, to %(email)s (%(error)s).",
                       subject=row.subject, email=row.to_addr, error=(row.last_error or "?")[:200]))
    if phase is not None:
        for r in operations.latest_actions(session, phase):
            if r.source == "master":
                items.append(_("Entered on behalf of %(name)s by %(master)s (%(source)s).",
                               name=r.seat.name, master=r.by_user.name if r.by_user else "?",
                               source=_source_label(r.source_detail)))
    return items


def _failed_masters_mail(session: Session, game: Game) -> list[OutboxRow]:
    """The game's mail to its Masters that the relay refused for good (an absence
    declared, a draft to publish): the desk is where a Master can learn that a notice
    never reached them (a player's refused mail shows as a bouncing address)."""
    addresses = [m.user.email for m in game.masters]
    return list(session.scalars(select(OutboxRow).where(
        OutboxRow.game_id == game.id, OutboxRow.status == "failed", OutboxRow.to_addr.in_(addresses))
        .order_by(OutboxRow.id.desc()).limit(10)))


def panels(session: Session, game: Game, lang: str) -> list[Any]:
    """The ruleset's panels for the Masters (``BaseRuleset.panels``), over every event
    of the game in the order they happened (the set-up's first)."""
    state = operations.current_state(game)
    if state is None:
        return []
    rows = session.scalars(select(EventRow).where(EventRow.game_id == game.id)
                           .order_by(EventRow.phase_id.is_not(None), EventRow.phase_id, EventRow.seq)).all()
    events = [Event(r.kind, r.data or {}, r.visibility, list(r.recipients or [])) for r in rows]
    return get_ruleset(game.ruleset).panels(state, events, lang)


def mail_panel(session: Session, config: dict[str, Any], game: Game, lang: str, now: datetime) -> dict[str, Any]:
    """The desk's mail panel: the relay's backlog and quota, and this game's warning."""
    limits = Limits.from_config(config)
    waiting = quota_watch.backlog(session)
    shortfall = next((s for s in quota_watch.shortfalls(session, limits, now, sum(waiting.values()))
                      if s.game_id == game.id), None)
    tz = operations.game_tz(game)
    reset = limits.next_reset(now)
    return {
        "backlog": waiting, "per_day": limits.per_day, "per_minute": limits.per_minute,
        "used_today": used_today(session, limits, now),
        "rolling": limits.reset_at is None,
        "reset": render.deadline_text(reset, lang, tz) if reset else None,
        "paused_until": paused_until(session, relay_key(config), now),
        "shortfall": shortfall,
    }
