"""Spending the relay's quota (issue 29): a day of the service's clock against a relay
that takes 500 mails a day (tests/fixtures/quota_relays.py, its day from midnight
UTC, the service told so), while

- one player sends 200 mails in the hour after the morning's results (each one a
  vote: every one of them counts, and each used to get its receipt);
- one anonymous client asks, all day long, for as much as the routes let it: 20
  password resets an hour (for the players' and Masters' addresses, and for
  addresses with no account) and 20 sign-ups an hour for a game open to them
  (before: about 960 mails a day);
- five games go through their boundaries (08:00 and 20:00 UTC).

Every phase's results and every Masters' report leaves on time (within a few
minutes of its boundary), the quota is never overrun, and the flood's receipts and
the anonymous mail stop at their budgets. The relay's day and the service's clock
are the injected FixedClock (three days of a quota in seconds); the SMTP exchange,
the database, the mailbox the votes arrive in and the web routes are real.
"""
from __future__ import annotations

from collections import Counter
from datetime import timedelta

from sqlalchemy import select

from pbm import operations
from pbm.db import transaction
from pbm.models import OutboxRow, User
from pbm.operations import signups
from pbm.worker import Worker
from tests.conftest import csrf_from
from tests.fixtures.quota_relays import DailyQuotaRelay
from tests.support.helpers import make_game, make_master
from tests.support.mail import ROLES, TUESDAY_0930_ROME, deliver, message, run_mail

GAMES = 5
PER_DAY = 500
FLOOD = 200
ATTACKER = "203.0.113.66"
ON_TIME = timedelta(minutes=5)
RESERVED = ("phase_results", "master_report")


def _open_game(app, factory, now) -> str:
    """A game in set-up whose sign-ups are open: the anonymous client's target."""
    master_id = make_master(factory, "signups@example.org")
    with transaction(factory) as s:
        master = s.get(User, master_id)
        game = operations.create_game(s, name="Aperta", ruleset="lupus-live-12", master=master, now=now)
        return signups.open_signups(s, game, closes_at=now + timedelta(days=5), max_players=200, by=master,
                                    now=now).token


def _ask(client, path: str, data: dict) -> int:
    page = client.get(path).get_data(as_text=True)
    return client.post(path, data={"csrf_token": csrf_from(page), **data}).status_code


def test_one_player_and_an_anonymous_client_cannot_delay_the_boundaries(make_app, clock, report):
    limits = {"MAIL_DAILY_QUOTA": PER_DAY, "MAIL_QUOTA_RESET": "00:00", "MAIL_QUOTA_TIMEZONE": "UTC"}
    with DailyQuotaRelay(PER_DAY, clock.now) as relay:
        app = make_app(MAIL_PORT=relay.port, **limits)
        factory = app.extensions["pbm_sessions"]
        for g in range(GAMES):
            make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno", master_email=f"m{g}@example.org")
        token = _open_game(app, factory, clock.now())
        worker = Worker(app, clock)
        known = [f"{n.lower()}@players.test" for n in ROLES] + [f"m{g}@example.org" for g in range(GAMES)]
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = ATTACKER
        answers: Counter[int] = Counter()
        clock.set(TUESDAY_0930_ROME - timedelta(minutes=35))  # 07:55 UTC
        began, flooded, asked = clock.now(), 0, 0
        flood_target = None
        while clock.now() - began < timedelta(days=1, minutes=20):
            clock.advance(seconds=60)
            worker.boundaries()
            if flood_target is None:
                with factory() as s:  # the morning's results mail, which the player answers
                    flood_target = s.scalars(select(OutboxRow).where(
                        OutboxRow.kind == "phase_results", OutboxRow.to_addr == "dario@players.test")
                        .order_by(OutboxRow.id.desc()).limit(1)).first()
            if flood_target is not None and flooded < FLOOD:
                for _ in range(4):  # 200 in the first hour (some fifty minutes)
                    vote = ("Anna", "Carla", "Elena")[flooded % 3]
                    deliver(app, message("dario@players.test", flood_target.reply_to, f"VOTO {vote}",
                                         reply_to_row=flood_target))
                    flooded += 1
                run_mail(app, worker)
            minute = int((clock.now() - began).total_seconds() // 60)
            if minute % 3 == 0:  # 20 an hour of each, the most one client may ask
                target = known[asked % len(known)] if asked % 4 else f"nobody{asked}@example.net"
                answers[_ask(client, "/password-reset", {"email": target})] += 1
                answers[_ask(client, f"/join/{token}", {"name": f"Anon {asked}", "lang": "it",
                                                        "email": f"anon{asked}@example.net"})] += 1
                asked += 1
            worker.outbox()
        with factory() as s:
            rows = {r.message_id: r for r in s.scalars(select(OutboxRow))}
    sent_at = dict(relay.accepted)
    boundary = [r for r in rows.values() if r.kind in RESERVED]
    waits = [sent_at[r.message_id] - r.created_at for r in boundary if r.message_id in sent_at]
    late = [r for r in boundary if r.message_id not in sent_at or sent_at[r.message_id] - r.created_at > ON_TIME]
    per_day = Counter(at.date() for _, at in relay.accepted)
    kinds = Counter(rows[m].kind for m, _ in relay.accepted if m in rows)
    report(f"a day against a relay of {PER_DAY} mails a day: one player's {FLOOD} mails, an anonymous client", **{
        "mails the player sent": flooded,
        "receipts queued for the player": sum(1 for r in rows.values() if r.to_addr == "dario@players.test"
                                              and r.kind.startswith("receipt")),
        "anonymous requests (answers)": ", ".join(f"{k}: {n}" for k, n in sorted(answers.items())),
        "mails queued on anonymous requests": sum(1 for r in rows.values() if r.kind in ("signup", "password_reset")),
        "phase results and Masters' reports": len(boundary),
        "of them late (over 5 min) or unsent": len(late),
        "longest wait of one": str(max(waits)) if waits else "-",
        "relay's busiest day": max(per_day.values()),
        "throttling answers from the relay": relay.throttled,
        "sent by kind": ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())),
    })
    assert flooded == FLOOD and boundary
    assert late == [], [(r.kind, r.to_addr, r.created_at) for r in late]
    assert max(per_day.values()) <= PER_DAY
    # Every boundary of the day was there: both of Tuesday's and Wednesday's morning.
    assert len({r.created_at for r in boundary}) >= 3
