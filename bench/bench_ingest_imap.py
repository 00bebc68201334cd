"""How fast the poller drains the Master's mailbox: fetch_new + mark_processed_many.

Starts a private Dovecot (the test fixture's DovecotServer), appends N
messages to a fresh account per run, then times draining it through the
MailSource interface.  Prints messages per second per run and the median.

    .venv/bin/python bench/bench_ingest_imap.py [--messages 2000] [--runs 3]
        [--batch 500] [--kind imap|maildir]

The service-level benchmark plugs its own work in per message:

    from bench.bench_ingest_imap import run_benchmark
    run_benchmark(on_message=lambda mail: store_and_apply(mail))

``on_message`` runs between fetch and mark, exactly where the service
stores the raw message and commits.  As in the service, fetch_new is given
the default cap (sizes first, then the bodies) and a batch is marked with one
UID STORE; ``--one-by-one`` marks each message with a STORE of its own, as
the service did before, for comparison.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pbm.mail.sources import IncomingMail, MailSource, open_source  # noqa: E402
from pbm.mail.sources.maildir import deliver_to_maildir  # noqa: E402
from tests.fixtures.dovecot import DovecotServer  # noqa: E402

OnMessage = Callable[[IncomingMail], None]


def sample_message(n: int) -> bytes:
    return (
        f"From: giocatore{n % 12}@example.org\r\n"
        "To: master@lupus.test\r\n"
        f"Subject: Re: Partita 7 - notte {n // 12}\r\n"
        f"Message-ID: <bench-{n}-{time.time_ns()}@example.org>\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        "\r\n"
        f"VOTO giocatore{(n + 5) % 12}\r\n"
        "\r\n"
        "> Il Master ha scritto:\r\n> Notte: i lupi scelgano la vittima.\r\n"
    ).encode()


CAP = 5_000_000  # the service's default INBOUND_MAX_BYTES


def drain(source: MailSource, on_message: OnMessage | None, batch: int | None,
          one_by_one: bool = False) -> int:
    """The ingest loop's shape: fetch, (store + commit), then mark."""
    done = 0
    while True:
        mails = source.fetch_new(limit=batch, max_bytes=CAP)
        if not mails:
            return done
        for mail in mails:
            if on_message is not None:
                on_message(mail)
            if one_by_one:
                source.mark_processed(mail)
        if not one_by_one:
            source.mark_processed_many(mails)
        done += len(mails)


def fill_imap(server: DovecotServer, count: int) -> dict:
    username, password = server.fresh_user()
    client = server.client(username, folder=None)
    try:
        # MULTIAPPEND: one command per chunk instead of one per message.
        for start in range(0, count, 250):
            client.multiappend("INBOX", [sample_message(n)
                                         for n in range(start, min(count, start + 250))])
    finally:
        client.logout()
    return {"kind": "imap", "host": server.host, "port": server.port, "username": username,
            "password": password, "ssl": False, "folder": "INBOX", "processed_folder": None}


def fill_maildir(root: Path, run: int, count: int) -> dict:
    path = root / f"run{run}"
    for n in range(count):
        deliver_to_maildir(path, sample_message(n))
    return {"kind": "maildir", "path": str(path)}


def run_benchmark(messages: int = 2000, runs: int = 3, batch: int | None = 500,
                  kind: str = "imap", on_message: OnMessage | None = None,
                  out=sys.stdout, one_by_one: bool = False) -> float:
    """Returns the median messages per second."""
    rates = []
    with DovecotServer() as server, tempfile.TemporaryDirectory() as scratch:
        print(f"Dovecot {'.'.join(map(str, server.version))} started in "
              f"{server.startup_seconds:.2f}s", file=out)
        for run in range(1, runs + 1):
            filled_at = time.monotonic()
            if kind == "imap":
                config = fill_imap(server, messages)
            else:
                config = fill_maildir(Path(scratch), run, messages)
            fill_seconds = time.monotonic() - filled_at
            source = open_source(config)
            try:
                began = time.perf_counter()
                count = drain(source, on_message, batch, one_by_one)
                seconds = time.perf_counter() - began
                leftover = len(source.fetch_new())
            finally:
                source.close()
            if count != messages or leftover:
                raise SystemExit(f"run {run}: drained {count} of {messages}, {leftover} left")
            rates.append(count / seconds)
            print(f"run {run}: {count} messages in {seconds:.2f}s = {count / seconds:.0f} msg/s "
                  f"(append took {fill_seconds:.2f}s)", file=out)
    median = statistics.median(rates)
    marking = "mark_processed one by one" if one_by_one else "mark_processed_many"
    print(f"{kind} fetch_new + {marking}: median {median:.0f} messages/s "
          f"over {runs} runs of {messages}", file=out)
    return median


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=500,
                        help="fetch_new(limit=...) per round; 0 for everything at once")
    parser.add_argument("--kind", choices=("imap", "maildir"), default="imap")
    parser.add_argument("--one-by-one", action="store_true",
                        help="one STORE per message (the old way), for comparison; not recorded")
    args = parser.parse_args(argv)
    median = run_benchmark(args.messages, args.runs, args.batch or None, args.kind,
                           one_by_one=args.one_by_one)
    if not args.one_by_one:
        from _support import record
        record(f"mail_source_{args.kind}", {"messages": args.messages, "runs": args.runs,
                                            "batch": args.batch,
                                            "messages_per_second_median": round(median, 1)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
