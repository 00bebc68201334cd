"""Mail out: messages per second drained from the outbox to a local SMTP server.

The outbox is filled with N copies of the bulletins a 40-player game's first
boundary queued (each its own Message-ID, ~2 kB, Italian and English); the
worker's own outbox job (pbm.sender.drain, through Worker.outbox) then sends
them to the embedded SMTP server (`pbm smtpd`, aiosmtpd writing each message
into a Maildir) started as a process of its own, as in `pbm run`. The clock
runs from the first claim to the last message marked sent; every message is
then counted in the Maildir. Also prints how many SMTP connections were
opened (the sender keeps one for a whole batch).
Target: at least 300 messages/s.

    .venv/bin/python bench/bench_mail_out.py [--messages 1000] [--runs 3] [--quick]
"""
from __future__ import annotations

import argparse
import mailbox
import os
import smtplib
import socket
import subprocess
import sys
import time
from pathlib import Path

from _support import MONDAY_10_ROME, ROOT, Timers, fast_passwords, median, open_day_one, record, scratch, service_app  # noqa: E402 (sets the path)

from flask_mail import Message  # noqa: E402
from sqlalchemy import delete, func, insert, select  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from pbm import mailer, sender  # noqa: E402
from pbm.clock import FixedClock  # noqa: E402
from pbm.models import OutboxRow  # noqa: E402
from pbm.worker import Worker  # noqa: E402
from tests.fixtures.smtp import free_port  # noqa: E402


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
             "message_id": mailer.new_message_id("lupus.test")} for n in range(count)])


def start_smtpd(folder: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "PBM_INSTANCE": str(folder), "PBM_EMBEDDED_SMTP_PORT": str(port)}
    server = subprocess.Popen([sys.executable, "-m", "pbm.cli", "smtpd"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("the SMTP server did not start")
            time.sleep(0.05)


def one_run(messages: int) -> tuple[float, int, dict[str, float]]:
    folder = scratch()
    port = free_port()
    clock = FixedClock(MONDAY_10_ROME)
    app = service_app(folder, clock, MAIL_PORT=port, EMBEDDED_SMTP_PORT=port,
                      LOCAL_MAILBOX=str(folder / "sent-mail"))
    factory = app.extensions["pbm_sessions"]
    open_day_one(app, clock)
    fill_outbox(factory, messages, clock.now())
    server = start_smtpd(folder, port)
    connections = 0
    real_connect = sender.connect

    def counting_connect(*args, **kwargs):
        nonlocal connections
        connections += 1
        return real_connect(*args, **kwargs)

    sender.connect = counting_connect
    timers = Timers()
    wrapped = [(owner, name, timers.wrap(owner, name, label)) for owner, name, label in (
        (Message, "as_bytes", "build each message (Flask-Mail, email package)"),
        (smtplib.SMTP, "sendmail", "SMTP exchange (MAIL, RCPT, DATA; server writes it)"),
        (Session, "commit", "database commits (claims, one per message sent)"))]
    try:
        worker = Worker(app, clock)
        began = time.perf_counter()
        sent = 0
        while done := worker.outbox():
            sent += done
        seconds = time.perf_counter() - began
    finally:
        sender.connect = real_connect
        for owner, name, real in wrapped:
            setattr(owner, name, real)
        server.terminate()
        server.wait(10)
    with factory() as s:
        marked = s.scalar(select(func.count()).select_from(OutboxRow).where(OutboxRow.status == "sent"))
    delivered = len(mailbox.Maildir(str(folder / "sent-mail"), create=False))
    if not sent == marked == delivered == messages:
        raise SystemExit(f"expected {messages}: drained {sent}, marked sent {marked}, delivered {delivered}")
    app.extensions["pbm_engine"].dispose()
    rate = messages / seconds
    print(f"  {messages} messages in {seconds:.2f} s = {rate:.0f} messages/s over {connections} SMTP connections")
    for label, spent in sorted(timers.seconds.items(), key=lambda kv: -kv[1]):
        print(f"    {label:52s} {spent * 1000 / messages:5.2f} ms a message ({100 * spent / seconds:4.1f}%)")
    return rate, connections, {label: spent * 1000 / messages for label, spent in timers.seconds.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="500 messages, one run")
    args = parser.parse_args(argv)
    if args.quick:
        args.messages, args.runs = 500, 1
    fast_passwords()
    print(f"outbox -> embedded SMTP server (aiosmtpd, own process), {args.messages} messages a run")
    results = [one_run(args.messages) for _ in range(args.runs)]
    rate = median([r for r, _, _ in results])
    connections = max(c for _, c, _ in results)
    print(f"mail out: median {rate:.0f} messages/s over {args.runs} runs, "
          f"{args.messages / connections:.0f} messages per SMTP connection (target: at least 300/s)")
    record("mail_out", {"messages": args.messages, "runs": args.runs,
                        "messages_per_second_median": round(rate, 1),
                        "messages_per_connection": round(args.messages / connections, 1),
                        "ms_a_message": {label: round(median([split[label] for _, _, split in results]), 2)
                                         for label in results[0][2]}})
    return 0


if __name__ == "__main__":
    sys.exit(main())
