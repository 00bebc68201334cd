"""Median time to parse one message of the external corpus (../shared/email-corpus), and
one player's reply to a game's mail (written here: natural lines, the bulletin quoted).

    python bench/bench_mail_parse.py [--rounds 5]

Prints the median per message, messages per second, and the slowest files, so a
regression in the reply stripper (regex backtracking on long quotes) shows up; then the
median per reply, read with its game's words and players named by first and last name:
what the reader itself costs (stems, names, the places a command starts). Without
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
# A game of twenty players named as people are, and replies as they write them.
GAME = ["Alessandro Bianchi", "Alessia De Luca", "Lucia Verdi", "Giorgio Rossi", "Niccolò Galli",
        "Sara Conti", "Chiara Fontana", "Tommaso Neri", "Marco D'Angelo", "Anna Russo", "Bruno Greco",
        "Carla Ferri", "Dario Costa", "Elena Marino", "Fabio Ricci", "Giulia Bruno", "Ivo Gallo",
        "Laura Romano", "Paolo Colombo", "Rita Moretti"]
LINES = {
    "lupus-live-12": ["VOTO Lucia Verdi", "voto per Bianchi", "Ciao a tutti, voto Rossi perché mente",
                      "Stanotte proteggiamo Tommaso", "Voto Alessandro. Anzi no, Lucia.",
                      "Dopo averci pensato a lungo, voto Fontana.", "Voterei Chiara", "Vto Sara",
                      "Ieri Giorgio ha votato Sara, vedremo oggi.", "Ci vediamo stasera!"],
    "complots": ["Passo", "Incasso una moneta", "Va bene, vai pure", "Ho l'Inquisitore: blocco il furto",
                 "Rubo due monete a Giorgio", "Sfido o passo? Boh", "Ciao, scusate il ritardo."],
}
QUOTE = ("\n\nIl giorno mar 24 nov 2026 alle ore 09:30 Lupus <lupus@lupus.example> ha scritto:\n\n"
         "> Partita: Villaggio\n> È iniziato il giorno di martedì 24 novembre.\n"
         "> Scrivi un comando per riga, per esempio:\n> VOTO Anna Russo\n")


def replies() -> list[tuple[str, bytes]]:
    out = []
    for ruleset, lines in LINES.items():
        for line in lines:
            for top in ("", "Ciao Master,\n\n"):
                body = (top + line + "\n\nInviato da iPhone" + QUOTE).encode("utf-8")
                head = (b"From: Anna <anna@example.it>\nSubject: Re: [Villaggio] Bollettino [lupus:tok3n12345]\n"
                        b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n")
                out.append((ruleset, head + body))
    return out


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
    cpu_message: dict[str, list[float]] = {path: [] for path, _ in messages}
    for _ in range(args.rounds):
        for path, raw in messages:
            start, cpu = time.perf_counter(), time.process_time()
            parse_message(raw, PLAYERS)
            per_message[path].append(time.perf_counter() - start)
            cpu_message[path].append(time.process_time() - cpu)
    medians = {path: statistics.median(times) for path, times in per_message.items()}
    overall = statistics.median(medians.values())
    # The processor time the parse took: what a machine shared with other work disturbs least.
    cpu_overall = statistics.median(statistics.median(times) for times in cpu_message.values())
    total = sum(medians.values())
    print(f"messages: {len(messages)}, rounds: {args.rounds}")
    print(f"median per message: {overall * 1000:.2f} ms  ({1 / overall:.0f} messages/s)")
    print(f"whole corpus: {total:.2f} s  ({len(messages) / total:.0f} messages/s on average)")
    print("slowest:")
    for path, t in sorted(medians.items(), key=lambda kv: -kv[1])[:5]:
        print(f"  {t * 1000:8.1f} ms  {path}")
    games = replies()
    per_reply: list[list[float]] = [[] for _ in games]
    cpu_reply: list[list[float]] = [[] for _ in games]
    for _ in range(args.rounds):
        for i, (ruleset, raw) in enumerate(games):
            start, cpu = time.perf_counter(), time.process_time()
            parse_message(raw, GAME, vocabulary=ruleset)
            per_reply[i].append(time.perf_counter() - start)
            cpu_reply[i].append(time.process_time() - cpu)
    reply_median = statistics.median(statistics.median(times) for times in per_reply)
    cpu_reply_median = statistics.median(statistics.median(times) for times in cpu_reply)
    print(f"processor time: {cpu_overall * 1000:.2f} ms a message")
    print(f"replies to a game's mail: {len(games)}, median per reply: {reply_median * 1000:.2f} ms, "
          f"processor time {cpu_reply_median * 1000:.2f} ms")
    from _support import record
    record("mail_parse", {"messages": len(messages), "rounds": args.rounds,
                          "ms_per_message_median": round(overall * 1000, 3),
                          "cpu_ms_per_message_median": round(cpu_overall * 1000, 3),
                          "replies": len(games), "ms_per_reply_median": round(reply_median * 1000, 3),
                          "cpu_ms_per_reply_median": round(cpu_reply_median * 1000, 3)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
