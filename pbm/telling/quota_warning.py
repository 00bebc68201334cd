"""The Masters warned, by the worker, of a boundary whose mail will not fit in the
relay's day (pbm/mail/outbound/quota_watch.py forecasts it), once per phase, and only
when the quota has room for the warning itself; the Masters' log records it either way
(the desk shows it)."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import render
from ..mail.outbound import queue
from ..mail.outbound.quota_watch import WARNED, backlog, shortfalls
from ..mail.outbound.relay_limits import Limits, used_today
from ..models import Game, MasterLog, PhaseRow
from ..operations.base import log, reader_tz


def warn_masters(session: Session, config: dict[str, Any], now: datetime) -> int:
    """Mail the Masters of each game whose next boundary will not fit, once per
    phase, when the quota has room for those mails now; the desk shows it either
    way. How many games were warned."""
    limits = Limits.from_config(config)
    waiting = sum(backlog(session).values())
    found = shortfalls(session, limits, now, waiting)
    if not found:
        return 0
    warned = {(g, (d or {}).get("phase")) for g, d in session.execute(
        select(MasterLog.game_id, MasterLog.details).where(
            MasterLog.game_id.in_([s.game_id for s in found]), MasterLog.action == WARNED))}
    room_now = limits.per_day - used_today(session, limits, now) - waiting
    count = 0
    for shortfall in found:
        if (shortfall.game_id, shortfall.phase_index) in warned:
            continue
        game = session.get(Game, shortfall.game_id)
        phase = session.get(PhaseRow, shortfall.phase_id)
        mailed = len(game.masters) <= room_now
        if mailed:
            room_now -= len(game.masters)
            reset = limits.next_reset(now)
            for m in game.masters:
                lang, tz = m.user.lang, reader_tz(game, m.user)
                queue(session, config, to=m.user.email, template="quota_warning", lang=lang, now=now,
                      game=game, context={
                          "user": m.user, "needed": shortfall.needed, "room": shortfall.room,
                          "quota": limits.per_day,
                          "phase_label": render.phase_label(phase, lang, tz),
                          "deadline": render.deadline_text(phase.ends_at, lang, tz),
                          "reset": render.deadline_text(reset, lang, tz) if reset else ""})
        log(session, game, None, WARNED, now, phase=shortfall.phase_index, needed=shortfall.needed,
            room=shortfall.room, mailed=mailed)
        count += 1
    return count
