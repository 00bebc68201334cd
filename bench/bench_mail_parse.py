"""Median time to parse one message of the external corpus (../shared/email-corpus).

    python bench/bench_mail_parse.py [--rounds 5]

Prints the median per message, messages per second, and the slowest files, so a
regression in the reply stripper (regex backtracking on long quotes) shows up. Without
the corpus beside the checkout (or in PBM_SHARED) it says so and records nothing.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbm.mail.reading.parse import parse_message  # noqa: E402
from tests.support.external import EMAIL_CORPUS as CORPUS  # noqa: E402
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Maria Luisa", "Nicolò"]


def load() -> list[tuple[str, bytes]]:
    entries = json.loads((CORPUS / "manifest.json").read_text())
    messages = []
    for e in entries:
        raw = (CORPUS / e["path"]).read_bytes()
        if e["kind"] == "html-fragment":
            raw = b"Content-Type: text/html; charset=utf-8\n\n" + raw
        elif e["kind"] != "rfc822":
            raw = b"Content-Type: text/plain; charset=utf-8\n\n" + raw
        messages.append((e["path"], raw))
    return messages


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if not (CORPUS / "manifest.json").is_file():
        print(f"SKIPPED: the independent mail corpus is not at {CORPUS} (set PBM_SHARED); nothing recorded",
              file=sys.stderr)
        return 0
    messages = load()
    per_message: dict[str, list[float]] = {path: [] for path, _ in messages}
    for _ in range(args.rounds):
        for path, raw in messages:
            start = time.perf_counter()
            parse_message(raw, PLAYERS)
            per_message[path].append(time.perf_counter() - start)
    medians = {path: statistics.median(times) for path, times in per_message.items()}
    overall = statistics.median(medians.values())
    total = sum(medians.values())
    print(f"messages: {len(messages)}, rounds: {args.rounds}")
    print(f"median per message: {overall * 1000:.2f} ms  ({1 / overall:.0f} messages/s)")
    print(f"whole corpus: {total:.2f} s  ({len(messages) / total:.0f} messages/s on average)")
    print("slowest:")
    for path, t in sorted(medians.items(), key=lambda kv: -kv[1])[:5]:
        print(f"  {t * 1000:8.1f} ms  {path}")
    from _support import record
    record("mail_parse", {"messages": len(messages), "rounds": args.rounds,
                          "ms_per_message_median": round(overall * 1000, 3)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
