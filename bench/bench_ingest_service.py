"""End-to-end mail ingest throughput: from Dovecot to stored command and queued receipt.

A Lupus LIVE! 12 game of 40 players is set up and opened on day 1; a burst of
N vote replies (each a real reply to the player's bulletin: their token in the
plus-address, threaded, the bulletin quoted below the vote) is appended to a
private Dovecot (tests/fixtures/dovecot.py); the clock runs from the first
fetch until pbm.inbox.ingest has stored each raw message, identified the
player, applied the vote through operations.submit, queued the receipt and
marked the message processed in the mailbox (per batch of inbox.FETCH_BATCH:
one commit to store, one to apply, one IMAP STORE to mark).  Prints messages
per second per run, the median, and where the time went.

    .venv/bin/python bench/bench_ingest_service.py [--messages 2000] [--runs 3]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from _support import MONDAY_10_ROME, NAMES, Timers, fast_passwords, open_day_one, record, service_app  # first: it puts the checkout on sys.path

from pbm import operations
from pbm import inbox
from pbm.inbox import apply, store
from pbm.inbox import receipts as answers  # a count below is called receipts
from pbm.clock import FixedClock
from pbm.mail.sources import open_source
from pbm.models import ActionRow, InboundRow, OutboxRow, Seat
from tests.fixtures.dovecot import DovecotServer


def set_up_game(root: Path, imap_config: dict):
    """A fresh database and a 40-player game on day 1 (setup time not measured)."""
    clock = FixedClock(MONDAY_10_ROME)
    app = service_app(root, clock, MAIL_SOURCE=imap_config)
    open_day_one(app, clock)
    return app, app.extensions["pbm_sessions"], clock


def vote_replies(factory, count: int) -> list[bytes]:
    """What 40 phones send: each player replies to their bulletin, many times."""
    with factory() as s:
        bulletins = {}
        for seat in s.query(Seat).order_by(Seat.position):
            bulletins[seat.name] = (seat.user.email, s.query(OutboxRow).filter_by(
                to_addr=seat.user.email, kind="phase_results").order_by(OutboxRow.id.desc()).first())
    out = []
    for n in range(count):
        voter = NAMES[n % len(NAMES)]
        target = NAMES[(n * 7 + 3) % len(NAMES)]
        address, bulletin = bulletins[voter]
        msg = EmailMessage()
        msg["From"] = f"{voter} <{address}>"
        msg["To"] = bulletin.reply_to
        msg["Subject"] = "Re: " + bulletin.subject
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg["In-Reply-To"] = bulletin.message_id
        msg["References"] = bulletin.message_id
        quoted = "\n".join("> " + line for line in bulletin.body.split("\n"))
        msg.set_content(f"VOTO {target}\n\nInviato da iPhone\n\n"
                        f"Il giorno mar 24 nov 2026 alle ore 09:30 Lupus ha scritto:\n{quoted}\n")
        out.append(bytes(msg))
    return out


def one_run(server: DovecotServer, messages: int, out) -> tuple[float, dict[str, float]]:
    username, password = server.fresh_user()
    imap_config = {"kind": "imap", "host": server.host, "port": server.port, "username": username,
                   "password": password, "ssl": False, "folder": "INBOX", "processed_folder": None}
    with tempfile.TemporaryDirectory() as scratch:
        app, factory, clock = set_up_game(Path(scratch), imap_config)
        replies = vote_replies(factory, messages)
        client = server.client(username, folder=None)
        try:
            for start in range(0, len(replies), 250):
                client.multiappend("INBOX", replies[start:start + 250])
        finally:
            client.logout()

        timers = Timers()
        source = open_source(imap_config)
        batched = hasattr(store, "apply_many")  # (run against older code too, for a side-by-side)
        apply_name = "apply_many" if batched else "process"
        real_store = timers.wrap(store, "store_many", f"store raw (one commit per {inbox.FETCH_BATCH})")
        real_apply = timers.wrap(store, apply_name, "identify + parse + submit + receipt (one commit per "
                                 + (f"{inbox.FETCH_BATCH})" if batched else "message)"))
        # Inside the step above: the parser (run twice: to identify, then with the names).
        real_parse = timers.wrap(apply, "parse_message", "  of which: parse_message")
        real_submit = timers.wrap(operations, "submit", "  of which: operations.submit (engine validation)")
        real_queue = timers.wrap(answers, "queue", "  of which: render + queue the receipt")
        timers.wrap(source, "fetch_new", "IMAP fetch (RFC822.SIZE, then BODY.PEEK[])")
        if batched:
            timers.wrap(source, "mark_processed_many", "IMAP mark processed (one UID STORE per batch)")
        else:
            timers.wrap(source, "mark_processed", "IMAP mark processed (one STORE per message)")
        try:
            began, cpu_began = time.perf_counter(), time.process_time()
            applied = 0
            while True:
                done = inbox.ingest(factory, app.config, source, clock.now())
                applied += done
                if done == 0:
                    break
            seconds, cpu = time.perf_counter() - began, time.process_time() - cpu_began
            leftover = len(source.fetch_new())
        finally:
            store.store_many = real_store
            setattr(store, apply_name, real_apply)
            apply.parse_message, operations.submit, answers.queue = real_parse, real_submit, real_queue
            source.close()

        with factory() as s:
            votes = s.query(ActionRow).filter_by(kind="vote").count()
            receipts = s.query(OutboxRow).filter_by(kind="receipt").count()
            stored = s.query(InboundRow).filter_by(status="processed").count()
        if not (applied == votes == receipts == stored == messages) or leftover:
            raise SystemExit(f"expected {messages} of each: applied {applied}, votes {votes}, "
                             f"receipts {receipts}, processed {stored}, {leftover} left in the mailbox")
        # CPU time of this process (not Dovecot's): less at the mercy of a loaded machine.
        print(f"  {messages} messages in {seconds:.2f}s = {messages / seconds:.0f} msg/s; "
              f"{1000 * cpu / messages:.2f} ms of CPU a message", file=out)
        return messages / seconds, dict(timers.seconds, total=seconds, cpu=cpu)


def main(argv: list[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    fast_passwords()
    out = sys.stdout
    rates, splits = [], []
    with DovecotServer() as server:
        print(f"Dovecot {'.'.join(map(str, server.version))}; game of {len(NAMES)} players; "
              f"{args.messages} vote replies per run", file=out)
        for run in range(1, args.runs + 1):
            print(f"run {run}:", file=out)
            rate, split = one_run(server, args.messages, out)
            rates.append(rate)
            splits.append(split)
    median = statistics.median(rates)
    print(f"end-to-end ingest (fetch -> stored command + queued receipt -> marked): "
          f"median {median:.0f} messages/s over {args.runs} runs", file=out)
    total = statistics.median(s["total"] for s in splits)
    print("where the time goes (median seconds, share of the run):", file=out)
    top = [k for k in splits[0] if not k.startswith(" ") and k not in ("total", "cpu")]
    nested = [k for k in splits[0] if k.startswith(" ")]
    order = sorted(top, key=lambda k: -splits[0][k])
    order.insert(1 if order else 0, None)
    for label in order:
        if label is None:
            for sub in sorted(nested, key=lambda k: -splits[0][k]):
                value = statistics.median(s.get(sub, 0.0) for s in splits)
                print(f"  {sub:48s} {value:6.2f}s  {100 * value / total:5.1f}%", file=out)
            continue
        value = statistics.median(s.get(label, 0.0) for s in splits)
        print(f"  {label:48s} {value:6.2f}s  {100 * value / total:5.1f}%", file=out)
    record("mail_in_dovecot", {"messages": args.messages, "runs": args.runs, "batch": inbox.FETCH_BATCH,
                               "messages_per_second_median": round(median, 1),
                               "runs_messages_per_second": [round(r, 1) for r in rates],
                               "cpu_ms_a_message_median": round(
                                   1000 * statistics.median(s["cpu"] for s in splits) / args.messages, 2)})
    return median


if __name__ == "__main__":
    main()
