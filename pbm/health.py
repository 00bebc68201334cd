"""Is the service healthy? The database answers with the schema this code
expects, and a worker has shown a sign of life lately. Read by GET /healthz
(load balancers, container health checks, monitoring); written by the worker.
"""
from __future__ import annotations

import os
import socket
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import delete, func, select, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from .db import transaction
from .models import WorkerHeartbeat

# A heartbeat row nobody has renewed for this long belongs to a worker that
# died without saying so: it goes, so the table does not grow with restarts.
FORGET_AFTER = timedelta(days=1)


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def beat(factory: sessionmaker[Session], name: str, started_at: datetime, now: datetime) -> None:
    with transaction(factory) as session:
        row = session.get(WorkerHeartbeat, name)
        if row is None:
            session.add(WorkerHeartbeat(worker=name, started_at=started_at, beat_at=now))
        else:
            row.beat_at = now
        session.execute(delete(WorkerHeartbeat).where(WorkerHeartbeat.beat_at < now - FORGET_AFTER))


def forget(factory: sessionmaker[Session], name: str) -> None:
    """A worker stopping cleanly says so at once."""
    with transaction(factory) as session:
        session.execute(delete(WorkerHeartbeat).where(WorkerHeartbeat.worker == name))


@lru_cache(maxsize=1)
def expected_revisions() -> frozenset[str]:
    from alembic.script import ScriptDirectory

    from .migrate import alembic_config
    return frozenset(ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads())


def check(factory: sessionmaker[Session], now: datetime, max_age: timedelta) -> tuple[bool, dict[str, Any]]:
    """(healthy, report); the report's ``problems`` say why not, one line each."""
    report: dict[str, Any] = {"problems": []}
    problems: list[str] = report["problems"]
    try:
        with factory() as session:
            revision = session.scalar(text("SELECT version_num FROM alembic_version"))
            newest, alive = session.execute(
                select(func.max(WorkerHeartbeat.beat_at),
                       func.count().filter(WorkerHeartbeat.beat_at >= now - max_age))).one()
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc.__class__.__name__).splitlines()[0][:200]
        report["database"] = "unavailable"
        report["status"] = "unhealthy"
        problems.append(f"database unavailable: {reason}")
        return False, report
    report["database"] = "ok"
    report["schema"] = revision
    if revision not in expected_revisions():
        problems.append(f"database schema at {revision}, this code expects "
                        f"{', '.join(sorted(expected_revisions()))}: run `pbm db upgrade`")
    if newest is None:
        report["worker"] = {"alive": 0, "last_beat": None}
        problems.append("no worker is running (none has reported a heartbeat)")
    else:
        age = (now - newest).total_seconds()
        report["worker"] = {"alive": alive, "last_beat": newest.isoformat(), "age_seconds": round(age, 1)}
        if age > max_age.total_seconds():
            problems.append(f"no worker heartbeat for {age:.0f} s (more than {max_age.total_seconds():.0f} s): "
                            "boundaries, mail in and mail out are not running")
    report["status"] = "unhealthy" if problems else "ok"
    return not problems, report
