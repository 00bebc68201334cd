"""A 40-player Lupus LIVE! day of talk, by mail, within a relay of 500 mails a day
(issue 30): 300 posts (two in three by web, one in three replies by mail through the
router), half the players on every post and half on digests at 13:00 and 20:00; the
relay's day already holds the game's own mail (the night's results). Prints and records:
the mail the day's talk cost (each post as it came, the digests, the catch-up), how much
of the quota it took, the posts left to the web by a full day and caught up later, a
post's service time (median, through operations.rooms.post: the post stored and noted
for the worker), the worker's making of its mail (median, Worker.room_posts), and
the leaks found: a room's mail to anyone who is not its reader now, or a member's address
in any mail of the talk.

    .venv/bin/python bench/bench_talk_day.py [--posts 300] [--quota 500]
"""
from __future__ import annotations

import argparse
import random
import time
from datetime import timedelta
from email.message import EmailMessage
from email.utils import make_msgid

import _support  # noqa: F401  (the import path)
from _support import (
    NAMES, TUESDAY_0930_ROME, fast_passwords, median, open_day_one, player_email, record, scratch, service_app,
)
from sqlalchemy import func, select

from pbm.clock import FixedClock
from pbm.db import transaction
from pbm.inbox import apply_many, store_many
from pbm.mail.sources.mailbox import IncomingMail
from pbm.models import Game, OutboxRow
from pbm.operations import rooms
from pbm.talk_models import DIGEST, PostRow, RoomReader, RoomRow
from pbm.worker import Worker
from tests.fixtures.smtp import SmtpServer

TALK_KINDS = ("room_post", "room_digest")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--posts", type=int, default=300)
    parser.add_argument("--quota", type=int, default=500)
    args = parser.parse_args()
    fast_passwords()
    clock = FixedClock(TUESDAY_0930_ROME)
    relay = SmtpServer()  # aiosmtpd: what the day's mail really leaves through
    relay.start()
    app = service_app(scratch(), clock, MAIL_DAILY_QUOTA=args.quota, MAIL_SERVER="127.0.0.1", MAIL_PORT=relay.port,
                      MAIL_USE_TLS=False, MAIL_USERNAME=None, MAIL_PASSWORD=None)
    factory = app.extensions["pbm_sessions"]
    gid = open_day_one(app, clock)
    worker = Worker(app, clock)
    rng = random.Random(30)
    wolves = NAMES[:6]
    with transaction(factory) as s:
        game = s.get(Game, gid)
        for i, seat in enumerate(game.seats):
            for key in ("piazza", "lupi"):
                place = rooms.place_of(s, game, key, seat)
                if place is None:
                    continue
                reader = rooms.reader_of(s, rooms.room_row(s, game, key, clock.now()), seat.user)
                if i % 2:
                    rooms.choose_delivery(reader, DIGEST, hours=[13, 20])
    timings: list[float] = []
    mail_timings: list[float] = []
    by_mail = 0
    start = clock.now()
    for n in range(args.posts):
        clock.set(start + timedelta(seconds=n * 100))  # 09:30 to 17:50 in Rome
        author = rng.choice(NAMES)
        key = "lupi" if author in wolves and rng.random() < 0.3 else "piazza"
        text = f"Messaggio {n} di {author}: secondo me {rng.choice(NAMES)} mente."
        if n % 3 == 2:
            by_mail += _reply_by_mail(app, factory, gid, author, key, text, clock)
            worker.room_posts()
            continue
        began = time.perf_counter()
        with transaction(factory) as s:
            game = s.get(Game, gid)
            seat = game.seat_by_name(author)
            rooms.post(s, app.config, game, key, text, user=seat.user, seat=seat, now=clock.now())
        timings.append(time.perf_counter() - began)
        # The worker makes its mail seconds later (its outbox job), as it comes.
        began = time.perf_counter()
        worker.room_posts()
        mail_timings.append(time.perf_counter() - began)
        if n % 20 == 0:
            worker.outbox()
            worker.send_room_digests()
    for hour_utc in (12, 19):  # 13:00 and 20:00 in Rome
        clock.set(TUESDAY_0930_ROME.replace(hour=hour_utc, minute=5))
        worker.send_room_digests()
        worker.outbox()
    clock.set(TUESDAY_0930_ROME + timedelta(days=1, hours=1))  # the next day: the quota again
    caught_up = worker.send_room_digests()
    worker.outbox()
    with factory() as s:
        talk_mail = dict(s.execute(select(OutboxRow.kind, func.count()).where(OutboxRow.kind.in_(TALK_KINDS))
                                   .group_by(OutboxRow.kind)).all())
        sent_day1 = s.scalar(select(func.count()).select_from(OutboxRow).where(
            OutboxRow.sent_at.is_not(None), OutboxRow.sent_at < TUESDAY_0930_ROME + timedelta(days=1))) or 0
        posts = s.scalar(select(func.count()).select_from(PostRow)) or 0
        leaks = _leaks(s, gid)
        behind = s.scalar(select(func.count()).select_from(RoomReader).where(
            RoomReader.mailed_through_id < s.scalar(select(func.max(PostRow.id))))) or 0
    figures = {
        "posts": posts, "posts_by_mail": by_mail, "post_p50_ms": round(median(timings) * 1000, 2),
        "post_mail_by_the_worker_p50_ms": round(median(mail_timings) * 1000, 2),
        "room_post_mails": talk_mail.get("room_post", 0), "room_digest_mails": talk_mail.get("room_digest", 0),
        "digests_next_day": caught_up, "quota": args.quota, "sent_on_the_day": sent_day1,
        "readers_behind_at_the_end": behind, "leaks": len(leaks),
    }
    for k, v in figures.items():
        print(f"{k:>28}: {v}")
    for leak in leaks[:10]:
        print("LEAK", leak)
    relay.stop()
    record("talk_day", figures)
    if leaks or sent_day1 > args.quota:
        raise SystemExit(1)


def _reply_by_mail(app, factory, gid, author: str, key: str, text: str, clock) -> int:
    """A reply to the room's latest mail to ``author``, through the router; 0 if none."""
    with factory() as s:
        reader = s.scalar(select(RoomReader).join(RoomRow, RoomRow.id == RoomReader.room_id).where(
            RoomRow.game_id == gid, RoomRow.key == key,
            RoomReader.user_id == s.get(Game, gid).seat_by_name(author).user_id))
        if reader is None:
            return 0
        token = reader.token
    msg = EmailMessage()
    msg["From"] = f"{author} <{player_email(author)}>"
    msg["To"] = f"lupus+{token}@lupus.test"
    msg["Subject"] = "Re: stanza"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(f"{text}\n\n> quel che diceva qualcun altro\n")
    ids = [i for i in store_many(factory, [IncomingMail(f"bench:{msg['Message-ID']}", bytes(msg))], clock.now())
           if i is not None]
    apply_many(factory, app.config, ids, clock.now())
    return 1


def _leaks(s, gid: int) -> list[str]:
    """Every talk mail whose recipient does not read its room now, or that names a
    member's address other than the recipient's."""
    game = s.get(Game, gid)
    addresses = {player_email(n) for n in NAMES}
    readers_of = {}
    out = []
    for row in s.scalars(select(OutboxRow).where(OutboxRow.kind.in_(TALK_KINDS))):
        whole = f"{row.from_addr}\n{row.reply_to}\n{row.subject}\n{row.body}\n{row.headers}".lower()
        for other in addresses - {row.to_addr}:
            if other in whole:
                out.append(f"{row.id} to {row.to_addr} names {other}")
        if row.kind == "room_post":
            post_id = int(row.message_id.split("-")[1])
            post = s.get(PostRow, post_id)
            if post.room_id not in readers_of:
                readers_of[post.room_id] = {u.email for u, _, _ in rooms.readers(s, game, post.room)}
            if row.to_addr not in readers_of[post.room_id]:
                out.append(f"{row.id}: post {post_id} of {post.room.key} to {row.to_addr}")
    return out


if __name__ == "__main__":
    main()
