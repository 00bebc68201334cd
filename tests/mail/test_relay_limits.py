"""The relay's limits, on the injected clock and a real SMTP server (aiosmtpd):
the sender paces to MAIL_RATE_PER_MINUTE and MAIL_DAILY_QUOTA, the first class
first; mail over a limit waits, never dropped; a throttling answer pauses the
relay as a whole, the pause growing while the answers last, logged once each;
the settings are read with their types and refused when they mean nothing."""
from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select, text

from pbm import config as config_module
from pbm.mail import outbound
from pbm.mail.outbound import relay_limits
from pbm.mail.outbound import send
from pbm.config import ConfigError
from pbm.db import transaction
from pbm.models import OutboxRow, RelayState
from pbm.worker import Worker
from tests.fixtures.quota_relays import RateLimitedRelay
from tests.fixtures.smtp import serving
from tests.support.helpers import make_game
from tests.support.mail import ROLES, fast_passwords  # noqa: F401  (a fixture)


def rows(factory) -> list[OutboxRow]:
    with factory() as s:
        return list(s.scalars(select(OutboxRow).order_by(OutboxRow.id)))


def queue(factory, config, now, count: int, template: str) -> list[str]:
    """``count`` mails of one kind, to the players' addresses."""
    contexts = {"reminder": {"phase_label": "giorno 1", "deadline": "domani", "missing": ["voto"]},
                "receipt": {"original_subject": "x", "phase_label": None, "deadline": None, "applied": [],
                            "errors": [], "ignored": []}}
    ids = []
    with transaction(factory) as s:
        from pbm.models import Game, Seat
        game = s.scalars(select(Game)).first()
        seat = s.scalars(select(Seat)).first()
        for n in range(count):
            row = outbound.queue(s, config, to=f"p{n}@players.test", template=template, lang="it", now=now,
                               game=game, seat=seat if template == "reminder" else None,
                               context=contexts[template])
            s.flush()
            ids.append(row.message_id)
    return ids


def test_the_sender_paces_to_the_relay_s_minute_first_class_first(make_app, clock, smtp_server):
    app = make_app(MAIL_PORT=smtp_server.port, MAIL_RATE_PER_MINUTE=5)
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    with factory() as s:
        s.execute(OutboxRow.__table__.delete())  # only the mail below
        s.commit()
    bulk = queue(factory, app.config, clock.now(), 6, "reminder")  # queued first...
    urgent = queue(factory, app.config, clock.now(), 3, "receipt")  # ...and these go first
    assert send.drain(app, factory, clock.now()) == 5
    assert send.drain(app, factory, clock.now() + timedelta(seconds=59)) == 0  # the same minute
    wire = [m.message["Message-ID"] for m in smtp_server.wait_for(5)]
    assert wire == urgent + bulk[:2]  # the first class first, the oldest first within it
    assert send.drain(app, factory, clock.now() + timedelta(seconds=61)) == 4
    assert [m.message["Message-ID"] for m in smtp_server.wait_for(9)] == urgent + bulk
    assert {r.status for r in rows(factory)} == {"sent"}


class _SlowThenQuick(RateLimitedRelay):
    """A relay of 5 a minute that takes 10 s of its clock over each of the first five
    messages (the service's clock with it), then 1 s: a run of the worker's outbox job
    lasts, and the next one may go faster."""

    def __init__(self, clock) -> None:
        super().__init__(5, clock.now)
        self.clock = clock

    async def handle_DATA(self, server, session, envelope):
        answer = await super().handle_DATA(server, session, envelope)
        self.clock.advance(seconds=10 if len(self.accepted) <= 5 else 1)
        return answer


def test_the_relay_s_minute_counts_each_message_from_when_it_was_taken(make_app, clock):
    """A run of five messages that took the relay 40 s was counted, before, as sent when
    the run began: a minute later the next run sent at once, while the relay still
    counted four of them, and it answered 421."""
    with _SlowThenQuick(clock) as relay:
        app = make_app(MAIL_PORT=relay.port, MAIL_RATE_PER_MINUTE=5)
        factory = app.extensions["pbm_sessions"]
        make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
        worker = Worker(app, clock)
        for _ in range(60):  # the worker's outbox job, every 5 s
            worker.outbox()
            if all(r.status == "sent" for r in rows(factory)):
                break
            clock.advance(seconds=5)
        sent = rows(factory)
        assert relay.throttled == 0
        assert {r.status for r in sent} == {"sent"} and sorted(relay.ids) == sorted(r.message_id for r in sent)
        # Each marked when the relay had taken it, not when its run began.
        taken = dict(relay.accepted)
        assert all(r.sent_at >= taken[r.message_id] for r in sent)
        assert len({r.sent_at for r in sent}) == len(sent)


def test_mail_over_the_daily_quota_waits_for_the_rolling_day(make_app, clock, smtp_server):
    app = make_app(MAIL_PORT=smtp_server.port, MAIL_DAILY_QUOTA=4)
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    total = len(rows(factory))
    assert total > 8
    start = clock.now()
    assert send.drain(app, factory, start) == 4
    assert send.drain(app, factory, start + timedelta(hours=23, minutes=59)) == 0
    # A send still counts at exactly 24 hours (the safe side of the relay's count).
    assert send.drain(app, factory, start + timedelta(hours=24)) == 0
    assert send.drain(app, factory, start + timedelta(hours=24, seconds=1)) == 4
    assert len(smtp_server.wait_for(8)) == 8
    waiting = [r for r in rows(factory) if r.status == "pending"]
    assert len(waiting) == total - 8 and all(r.attempts == 0 for r in waiting)  # waiting, not failing
    assert send.drain(app, factory, start + timedelta(hours=48, seconds=2)) == min(total - 8, 4)


def test_a_quota_day_that_starts_at_midnight_in_a_zone(make_app, clock, smtp_server):
    app = make_app(MAIL_PORT=smtp_server.port, MAIL_DAILY_QUOTA=3, MAIL_QUOTA_RESET="00:00",
                   MAIL_QUOTA_TIMEZONE="America/Los_Angeles")
    factory = app.extensions["pbm_sessions"]
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    # 23:50 in Los Angeles (07:50 UTC), then ten minutes later: a new day there.
    evening = datetime(2026, 11, 24, 7, 50, tzinfo=timezone.utc)
    assert send.drain(app, factory, evening) == 3
    assert send.drain(app, factory, evening + timedelta(minutes=9)) == 0
    assert send.drain(app, factory, evening + timedelta(minutes=10)) == 3
    limits = relay_limits.Limits.from_config(app.config)
    assert limits.next_reset(evening) == datetime(2026, 11, 24, 8, 0, tzinfo=timezone.utc)


class _SlowDown:
    """A relay that answers 421 at MAIL FROM while ``refusing`` says so."""

    def __init__(self) -> None:
        self.refusing = True
        self.answers = 0
        self.ids: list[str] = []

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if self.refusing:
            self.answers += 1
            return "421 4.7.0 Try again later, closing connection"
        envelope.mail_from = address
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.ids.append(envelope.content.split(b"Message-ID:", 1)[1].split(b"\r\n", 1)[0].strip().decode())
        return "250 OK"


def test_a_throttling_relay_pauses_all_mail_growing_and_logged_once(make_app, clock, caplog):
    handler = _SlowDown()
    with serving(handler) as controller:
        app = make_app(MAIL_PORT=controller.port)
        factory = app.extensions["pbm_sessions"]
        make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
        total = len(rows(factory))
        key = relay_limits.relay_key(app.config)
        caplog.set_level(logging.INFO, logger="pbm")
        now = clock.now()
        pauses = []
        for _ in range(3):
            assert send.drain(app, factory, now) == 0
            with factory() as s:
                state = s.get(RelayState, key)
                pauses.append(state.paused_until - now)
            # Paused: no connection at all until the pause ends.
            assert send.drain(app, factory, state.paused_until - timedelta(seconds=1)) == 0
            now = state.paused_until
        assert handler.answers == 3  # one answer each time, not one per message
        assert pauses == [relay_limits.pause_for(1), relay_limits.pause_for(2), relay_limits.pause_for(3)]
        assert pauses[0] == timedelta(seconds=15) and pauses[1] == 2 * pauses[0] and pauses[2] == 2 * pauses[1]
        logged = [r for r in caplog.records if "is throttling" in r.getMessage()]
        assert len(logged) == 3
        # No message was charged for the relay's answer: each waits in its place.
        assert all((r.status, r.attempts, r.next_attempt_at <= now) == ("pending", 0, True) for r in rows(factory))

        handler.refusing = False
        assert send.drain(app, factory, now) == total
        with factory() as s:
            assert s.get(RelayState, key).strikes == 0  # the next run of answers starts short again
        assert sorted(handler.ids) == sorted(r.message_id for r in rows(factory))


class _SesLike:
    """Amazon SES over its sending rate: "454 Throttling failure: Maximum sending rate
    exceeded" after DATA (docs.aws.amazon.com/ses/latest/dg/manage-sending-quotas-errors.html),
    for ``refusals`` messages, then 250."""

    def __init__(self, refusals: int) -> None:
        self.refusals = refusals
        self.ids: list[str] = []

    async def handle_DATA(self, server, session, envelope):
        if self.refusals:
            self.refusals -= 1
            return "454 Throttling failure: Maximum sending rate exceeded"
        self.ids.append(envelope.content.split(b"Message-ID:", 1)[1].split(b"\r\n", 1)[0].strip().decode())
        return "250 OK"


def test_a_454_after_data_is_the_relay_s_throttling_not_the_message_s_refusal(make_app, clock):
    """Before, 454 (Amazon SES's answer to a sender over its rate) counted as one
    message's failure, and the next message was sent at once into the same limit."""
    handler = _SesLike(refusals=1)
    with serving(handler) as controller:
        app = make_app(MAIL_PORT=controller.port)
        factory = app.extensions["pbm_sessions"]
        make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
        total = len(rows(factory))
        assert send.drain(app, factory, clock.now()) == 0  # the batch stops at the answer
        with factory() as s:
            paused = s.get(RelayState, relay_limits.relay_key(app.config)).paused_until
        assert paused == clock.now() + relay_limits.pause_for(1)
        assert all((r.status, r.attempts) == ("pending", 0) for r in rows(factory))  # none charged
        assert send.drain(app, factory, paused) == total
        assert sorted(handler.ids) == sorted(r.message_id for r in rows(factory))


def test_a_5xx_for_one_recipient_still_fails_only_that_message(make_app, clock):
    """The throttling codes change nothing for the permanent refusals."""
    class Refusing:
        ids: list[str] = []

        async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
            if address == "carla@players.test":
                return "550 5.1.1 User unknown"
            envelope.rcpt_tos.append(address)
            return "250 OK"

        async def handle_DATA(self, server, session, envelope):
            return "250 OK"

    with serving(Refusing()) as controller:
        app = make_app(MAIL_PORT=controller.port)
        factory = app.extensions["pbm_sessions"]
        make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
        total = len(rows(factory))
        assert send.drain(app, factory, clock.now()) == total - 2
    with factory() as s:
        assert s.get(RelayState, relay_limits.relay_key(app.config)) is None
    assert {r.status for r in rows(factory) if r.to_addr == "carla@players.test"} == {"failed"}


def test_the_sender_s_query_reads_the_classes_from_the_index(app, factory):
    """What waits, the first class first, oldest first: found in the index on
    (status, priority, id), not sorted apart (each engine's plan says so; PostgreSQL's
    with sequential scans priced out, as they are once the outbox is long, since an
    empty table is read whole whatever its indexes)."""
    with factory() as s:
        statement = select(OutboxRow.id).where(OutboxRow.status == "pending",
                                               OutboxRow.next_attempt_at <= datetime(2030, 1, 1, tzinfo=timezone.utc))
        statement = statement.order_by(OutboxRow.priority, OutboxRow.id).limit(200)
        compiled = statement.compile(s.get_bind(), compile_kwargs={"literal_binds": True})
        if s.get_bind().dialect.name == "postgresql":
            s.execute(text("SET LOCAL enable_seqscan = off"))
            plan = str(s.execute(text(f"EXPLAIN (FORMAT JSON) {compiled}")).scalar())
            assert "ix_outbox_status_priority_id" in plan and "'Sort'" not in plan, plan
            return
        plan = " ".join(str(r[-1]) for r in s.execute(text(f"EXPLAIN QUERY PLAN {compiled}")))
    assert "ix_outbox_status_priority_id" in plan and "TEMP B-TREE" not in plan, plan


@pytest.fixture
def instance(tmp_path, monkeypatch):
    for name in list(__import__("os").environ):
        if name.startswith("PBM_"):
            monkeypatch.delenv(name)
    return tmp_path / "instance"


def test_the_limits_are_read_with_their_types(instance, monkeypatch):
    config = config_module.load(instance)
    assert (config["MAIL_RATE_PER_MINUTE"], config["MAIL_DAILY_QUOTA"], config["MAIL_QUOTA_RESET"]) == (0, 0, "rolling")
    assert not relay_limits.Limits.from_config(config).limited  # the embedded server: no limit
    monkeypatch.setenv("PBM_MAIL_DAILY_QUOTA", " 500 ")
    monkeypatch.setenv("PBM_MAIL_RATE_PER_MINUTE", "20")
    monkeypatch.setenv("PBM_MAIL_QUOTA_RESET", "09:00")
    monkeypatch.setenv("PBM_MAIL_QUOTA_TIMEZONE", "Europe/Rome")
    limits = relay_limits.Limits.from_config(config_module.load(instance))
    assert (limits.per_day, limits.per_minute, limits.reset_at.hour, str(limits.zone)) == (500, 20, 9, "Europe/Rome")


@pytest.mark.parametrize("overrides, says", [
    ({"MAIL_DAILY_QUOTA": "500"}, "MAIL_DAILY_QUOTA = '500' should be a whole number"),
    ({"MAIL_RATE_PER_MINUTE": -1}, "MAIL_RATE_PER_MINUTE (PBM_MAIL_RATE_PER_MINUTE) = -1 is too small"),
    ({"MAIL_QUOTA_RESET": "midnight"}, "MAIL_QUOTA_RESET = 'midnight' should be \"rolling\" or a time of day"),
    ({"MAIL_QUOTA_RESET": "24:00"}, "MAIL_QUOTA_RESET = '24:00'"),
    ({"MAIL_QUOTA_TIMEZONE": "Mars/Olympus"}, "MAIL_QUOTA_TIMEZONE = 'Mars/Olympus' is not a time zone"),
    ({"DIGEST_HOUR": 24}, "DIGEST_HOUR (PBM_DIGEST_HOUR) = 24 is not an hour of the day"),
])
def test_limits_that_mean_nothing_are_refused_clearly(instance, overrides, says):
    with pytest.raises(ConfigError) as refused:
        config_module.load(instance, overrides)
    assert says in str(refused.value)
