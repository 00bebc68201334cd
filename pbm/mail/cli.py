"""`pbm mail parse FILE.eml --players "Anna,Bruno" [--ruleset KEY]`: the mail parser, offline.

Prints {"ignored", "on_behalf_of", "commands", "errors"} as JSON (--full adds the rest) and exits 0
whenever the file could be read, even when the message has errors or is ignored. Without
--ruleset the commands of every game are read (as the service does before it knows the game).
"""
from __future__ import annotations

import json
import sys


def _split_players(value: str) -> list[str]:
    return [p.strip() for p in (value or "").split(",") if p.strip()]


def _split_addresses(value: str) -> dict[str, str]:
    pairs = {}
    for item in (value or "").split(","):
        if "=" in item:
            name, addr = item.split("=", 1)
            if name.strip() and addr.strip():
                pairs[name.strip()] = addr.strip()
    return pairs


def cmd_parse(args) -> int:
    from .reading.parse import parse_message  # imported late: `pbm --help` stays fast

    try:
        if args.file == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as fh:
                raw = fh.read()
    except OSError as exc:
        print(f"pbm mail parse: {exc}", file=sys.stderr)
        return 2
    if args.ruleset is not None:
        from engine.registry import available
        if args.ruleset not in available():
            print(f"pbm mail parse: unknown ruleset {args.ruleset!r}; known: {', '.join(available())}",
                  file=sys.stderr)
            return 2
    players = _split_players(args.players)
    addresses = _split_addresses(args.addresses) if args.addresses else None
    parsed = parse_message(raw, players, addresses, vocabulary=args.ruleset).to_json()
    head = {key: parsed.pop(key) for key in ("ignored", "on_behalf_of", "commands", "errors")}
    out = {**head, **parsed} if args.full else head
    json.dump(out, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0


def register(subparsers) -> None:
    mail = subparsers.add_parser("mail", help="mail tools")
    mail_sub = mail.add_subparsers(dest="mail_command", required=True)
    parse = mail_sub.add_parser("parse", help="parse one raw message (.eml) and print JSON")
    parse.add_argument("file", help='a raw RFC 822 message ("-" reads it from standard input)')
    parse.add_argument("--players", required=True, help='player names, comma separated: "Anna,Bruno"')
    parse.add_argument("--addresses", default=None,
                       help='player mail addresses for forwards: "Anna=anna@x.it,Bruno=b@y.it"')
    parse.add_argument("--ruleset", default=None,
                       help="the game's ruleset, whose commands are read (default: every game's)")
    parse.add_argument("--full", action="store_true",
                       help="also print token, reply text, ignored lines, threading headers...")
    parse.set_defaults(func=cmd_parse)
