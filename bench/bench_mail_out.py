"""Mail out: messages per second drained from the outbox to a local SMTP server.

The outbox is filled with N copies of the bulletins a 40-player game's first
boundary queued (each its own Message-ID, ~2 kB, Italian and English); the
worker's own outbox job (pbm.mail.outbound.send.drain, through Worker.outbox) then sends
them to an aiosmtpd server in a process of its own that accepts each
message at once (standing in for the relay). The clock runs from the first claim to
the last message marked sent; the server then says how many distinct
messages it received. Also prints how many SMTP connections were opened (the
sender keeps one for a whole batch), how many commits it made (the marks are
written MARK_EVERY messages at a time) and where each message's time went.
Target: at least 300 messages/s.

(Not `pbm smtpd`: the embedded server of `make run` stores each message
with Python's mailbox module, which fsyncs every file, ~5 ms a message here;
the relay of a real deployment is what the service waits on.)

    .venv/bin/python bench/bench_mail_out.py [--messages 1000] [--runs 3] [--quick]

Side by side with an earlier revision (runs alternate, so both see the same
load; the machine is shared):

    git archive 2473e61 | tar -x -C /tmp/before
    .venv/bin/python bench/bench_mail_out.py --runs 5 --baseline /tmp/before
"""
from __future__ import annotations

import argparse
import os
import re
import signal
import smtplib
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

from _support import MONDAY_10_ROME, ROOT, Timers, fast_passwords, median, open_day_one, record, scratch, service_app  # first: it puts the checkout on sys.path

from aiosmtpd.controller import Controller
from sqlalchemy import delete, func, insert, select
from sqlalchemy.orm import Session

from pbm.mail import outbound
from pbm.mail.outbound import send, wire
from pbm.clock import FixedClock
from pbm.models import OutboxRow
from pbm.worker import Worker
from tests.fixtures.smtp import free_port

MESSAGE_ID = re.compile(rb"^Message-ID:\s*(<[^>]+>)", re.IGNORECASE | re.MULTILINE)


def fill_outbox(factory, count: int, now) -> None:
    """``count`` pending messages: the day-1 bulletins, copied round."""
    columns = ("game_id", "phase_id", "kind", "to_addr", "from_addr", "reply_to", "subject", "body", "headers")
    with factory() as s, s.begin():
        models = [{c: getattr(row, c) for c in columns}
                  for row in s.scalars(select(OutboxRow).where(OutboxRow.kind == "phase_results"))]
        s.execute(delete(OutboxRow))
        s.execute(insert(OutboxRow), [
            {**models[n % len(models)], "created_at": now, "status": "pending", "attempts": 0,
             "next_attempt_at": now, "last_error": "",
             "message_id": outbound.new_message_id("lupus.test")} for n in range(count)])


class _Counting:
    """An aiosmtpd handler that accepts at once and keeps only each Message-ID (and
    the size, the first and the last moment): a relay that queues fast, so the figure
    is the service's, not the server's."""

    def __init__(self) -> None:
        self.ids: list[bytes] = []
        self.octets = 0
        self.first = self.last = 0.0  # time.time() of the first and the last message accepted

    async def handle_DATA(self, server, session, envelope) -> str:
        content = envelope.original_content or envelope.content
        found = MESSAGE_ID.search(content)
        self.ids.append(found.group(1) if found else b"")
        self.octets += len(content)
        self.last = time.time()
        self.first = self.first or self.last
        return "250 OK"


def serve(port: int) -> None:
    """The SMTP server process: accepts until SIGTERM, then prints what it received."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    handler = _Counting()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    print("ready", flush=True)
    signal.sigwait({signal.SIGTERM})
    controller.stop()
    print(len(handler.ids), len(set(handler.ids)), handler.octets, handler.first, handler.last, flush=True)


def start_smtpd(port: int) -> subprocess.Popen:
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port)], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    if server.stdout.readline().strip() != "ready":
        raise SystemExit("the SMTP server did not start")
    return server


class Received(NamedTuple):
    messages: int
    distinct: int  # Message-IDs
    octets: int
    first: float  # time.time() when the first and the last message were accepted
    last: float


def received(server: subprocess.Popen) -> Received:
    """What the server got; it stops."""
    server.terminate()
    out, _ = server.communicate(timeout=60)
    total, distinct, octets, first, last = out.split()
    return Received(int(total), int(distinct), int(octets), float(first), float(last))


def one_run(messages: int) -> tuple[float, int, dict[str, float]]:
    folder = scratch()
    port = free_port()
    clock = FixedClock(MONDAY_10_ROME)
    app = service_app(folder, clock, MAIL_PORT=port)
    factory = app.extensions["pbm_sessions"]
    open_day_one(app, clock)
    fill_outbox(factory, messages, clock.now())
    server = start_smtpd(port)
    connections = 0
    real_connect = send.connect

    def counting_connect(*args, **kwargs):
        nonlocal connections
        connections += 1
        return real_connect(*args, **kwargs)

    send.connect = counting_connect
    timers = Timers()
    commits = 0
    real_commit = Session.commit

    def counting_commit(self):
        nonlocal commits
        commits += 1
        return real_commit(self)

    Session.commit = counting_commit
    wrapped = [(owner, name, timers.wrap(owner, name, label)) for owner, name, label in (
        # The sender's own subclass: wrapping Flask-Mail's method would time nothing.
        (wire.WireMessage, "as_bytes", "build each message (Flask-Mail, email package)"),
        (smtplib.SMTP, "sendmail", "SMTP exchange (MAIL, RCPT, DATA)"),
        (Session, "commit", f"database commits (claims; marks, {send.MARK_EVERY} at a time)"))]
    try:
        worker = Worker(app, clock)
        began = time.perf_counter()
        sent = 0
        while done := worker.outbox():
            sent += done
        seconds = time.perf_counter() - began
    finally:
        send.connect = real_connect
        Session.commit = real_commit
        for owner, name, real in wrapped:
            setattr(owner, name, real)
        delivered, distinct = received(server)[:2]
    with factory() as s:
        marked = s.scalar(select(func.count()).select_from(OutboxRow).where(OutboxRow.status == "sent"))
    if not sent == marked == delivered == distinct == messages:
        raise SystemExit(f"expected {messages}: drained {sent}, marked sent {marked}, delivered {delivered} "
                         f"({distinct} distinct)")
    app.extensions["pbm_engine"].dispose()
    rate = messages / seconds
    print(f"  {messages} messages in {seconds:.2f} s = {rate:.0f} messages/s over {connections} SMTP connections, "
          f"{commits} commits (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    for label, spent in sorted(timers.seconds.items(), key=lambda kv: -kv[1]):
        print(f"    {label:52s} {spent * 1000 / messages:5.2f} ms a message ({100 * spent / seconds:4.1f}%)")
    return rate, connections, {label: spent * 1000 / messages for label, spent in timers.seconds.items()}


def baseline_run(folder: str, messages: int) -> float:
    """One run of the same benchmark in another checkout (its own pbm), in a process of its own."""
    out = subprocess.run([sys.executable, str(Path(folder) / "bench" / "bench_mail_out.py"), "--runs", "1",
                          "--messages", str(messages)], cwd=folder, capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": folder}).stdout
    rate = float(re.search(r"= (\d+) messages/s", out).group(1))
    print(f"  before ({folder}): {rate:.0f} messages/s")
    return rate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="500 messages, one run")
    parser.add_argument("--baseline", metavar="DIR",
                        help="a checkout of an earlier revision, run alternately with this one")
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.serve)
        return 0
    if args.quick:
        args.messages, args.runs = 500, 1
    fast_passwords()
    load = os.getloadavg()[0]
    print(f"outbox -> aiosmtpd (own process), {args.messages} messages a run")
    results, before = [], []
    for _ in range(args.runs):
        if args.baseline:
            before.append(baseline_run(args.baseline, args.messages))
        results.append(one_run(args.messages))
    rate = median([r for r, _, _ in results])
    connections = max(c for _, c, _ in results)
    print(f"mail out: median {rate:.0f} messages/s over {args.runs} runs, "
          f"{args.messages / connections:.0f} messages per SMTP connection (target: at least 300/s)")
    side_by_side = {}
    if before:
        print(f"side by side, alternating: before median {median(before):.0f} messages/s, "
              f"after median {rate:.0f} messages/s ({rate / median(before):.2f}x)")
        side_by_side = {"side_by_side": {
            "baseline": args.baseline, "before_messages_per_second": [round(r) for r in before],
            "after_messages_per_second": [round(r) for r, _, _ in results],
            "before_median": round(median(before), 1), "after_median": round(rate, 1),
            "ratio_of_medians": round(rate / median(before), 2)}}
    record("mail_out", {**side_by_side, "messages": args.messages, "runs": args.runs,
                        "messages_per_second_median": round(rate, 1),
                        "messages_per_connection": round(args.messages / connections, 1),
                        "mark_every": send.MARK_EVERY, "load_average_at_start": round(load, 1),
                        "ms_a_message": {label: round(median([split[label] for _, _, split in results]), 2)
                                         for label in results[0][2]}})
    return 0


if __name__ == "__main__":
    sys.exit(main())
