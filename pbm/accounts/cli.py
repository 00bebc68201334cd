"""`pbm user create [--admin] EMAIL`: an account (the first Master, say) on a real install.

It prints a link to choose the password, and mails it too: no password is
ever printed, generated or sent.
"""
from __future__ import annotations

import argparse

from .. import config as config_module


def _create(args: argparse.Namespace) -> int:
    from .. import accounts
    from ..app import create_service_app
    from ..db import transaction

    email = accounts.normalize_email(args.email)
    from .. import typed_text
    if typed_text.name_problem(args.name):
        print(f"the name holds a line break, a tab or an invisible character: {args.name!r}")
        return 2
    app = create_service_app(instance=config_module.instance_path())
    problem = accounts.address_problem(app.config, email)
    if problem is not None:
        from ..errors import say
        print(f"not a valid email address: {args.email!r}: {say(problem, {}, 'en')}")
        return 2
    now = app.extensions["pbm_clock"].now()
    with transaction(app.extensions["pbm_sessions"]) as session:
        user, created = accounts.create_user(session, email=email, name=args.name or email.split("@")[0],
                                             lang=args.lang, admin=args.admin)
        link = accounts.send_set_password(session, app.config, user, now)
    what = "created" if created else "already existed" + (" (now an admin)" if args.admin else "")
    print(f"user {email} {what}{' as an admin (may create games)' if args.admin and created else ''}.")
    print("Set the password with this link (it works once; also mailed to the address):")
    print(f"  {link}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    user = subparsers.add_parser("user", help="accounts")
    user_sub = user.add_subparsers(dest="user_command", required=True)
    create = user_sub.add_parser("create", help="create an account and print a link to set its password")
    create.add_argument("email")
    create.add_argument("--admin", action="store_true", help="may create games (a Master)")
    create.add_argument("--name", default="", help="the name shown on the site (default: the address's local part)")
    create.add_argument("--lang", choices=("it", "en"), default="it")
    create.set_defaults(func=_create)
