"""The `pbm` console command.

Each area of the service contributes its own subcommands through a
``register(subparsers)`` function, so this module stays a thin dispatcher.
"""
from __future__ import annotations

import argparse
import importlib
import sys

# Modules that add subcommands; each defines register(subparsers).
SUBCOMMAND_MODULES = [
    "pbm.scenario_cli",
    "pbm.calendar.cli",
    "pbm.mail.cli",
    "pbm.service_cli",
    "pbm.accounts.cli",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pbm", description="Lupus play-by-mail service")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    from .config import ConfigError
    from .private_files import restrict_new_files
    restrict_new_files()  # every file a `pbm` process writes is its user's alone (pbm/private_files.py)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = args.func(args)
    except ConfigError as exc:
        print(f"pbm: configuration error: {exc}", file=sys.stderr)
        return 2
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
