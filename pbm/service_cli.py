"""`pbm db upgrade`, `pbm seed-demo`, `pbm smtpd`, `pbm worker`, `pbm web`, `pbm run`."""
from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import time

from . import config as config_module


def _config() -> dict:
    return config_module.load(config_module.instance_path())


def _db_upgrade(_args: argparse.Namespace) -> int:
    from .migrate import upgrade
    upgrade(_config()["DATABASE_URL"])
    print("database up to date")
    return 0


def _seed_demo(_args: argparse.Namespace) -> int:
    from .app import create_service_app
    from .db import transaction
    from .demo import seed
    app = create_service_app()
    with transaction(app.extensions["pbm_sessions"]) as session:
        game = seed(session, app.config, app.extensions["pbm_clock"].now())
    print("demo game created" if game else "database not empty: no demo seeded")
    return 0


def _smtpd(_args: argparse.Namespace) -> int:
    from .smtpd import start
    cfg = _config()
    controller = start(cfg)
    print(f"embedded SMTP server on {cfg['EMBEDDED_SMTP_HOST']}:{cfg['EMBEDDED_SMTP_PORT']}", flush=True)
    try:
        signal.sigwait({signal.SIGINT, signal.SIGTERM})
    finally:
        controller.stop()
    return 0


def _worker(_args: argparse.Namespace) -> int:
    from .app import create_service_app
    from .worker import Worker
    logging.basicConfig(level=logging.INFO, format="%(asctime)s worker %(levelname)s %(message)s")
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # one line per job run is noise
    Worker(create_service_app()).run()
    return 0


def _web(args: argparse.Namespace) -> int:
    from .app import create_app
    create_app().run(host=args.host, port=args.port, debug=False, use_reloader=False)
    return 0


def _run(args: argparse.Namespace) -> int:
    """Everything for a laptop: migrate, seed the demo, start SMTP, worker and web."""
    from . import demo
    # Mails written while seeding carry links: give them the address being served.
    os.environ.setdefault("PBM_BASE_URL", f"http://{args.host}:{args.port}")
    _db_upgrade(args)
    _seed_demo(args)
    cfg = _config()
    pbm = [sys.executable, "-m", "pbm.cli"]
    env = {**os.environ, "PBM_INSTANCE": str(config_module.instance_path()),
           "PBM_BASE_URL": f"http://{args.host}:{args.port}"}
    children = [subprocess.Popen(pbm + ["smtpd"], env=env)]
    time.sleep(1)
    children.append(subprocess.Popen(pbm + ["worker"], env=env))
    print(f"""
Lupus PBM is running at http://{args.host}:{args.port}/
  Master:  {demo.MASTER[1]} / {demo.MASTER[2]}
  Players: {', '.join(demo.player_email(p) for p in demo.PLAYERS)} / {demo.PLAYER_PASSWORD}
  Mail:    SMTP on {cfg['EMBEDDED_SMTP_HOST']}:{cfg['EMBEDDED_SMTP_PORT']}; every message is kept
           locally and shown at http://{args.host}:{args.port}/master/mailbox
Press Ctrl-C to stop.
""", flush=True)
    try:
        web = subprocess.Popen(pbm + ["web", "--host", args.host, "--port", str(args.port)], env=env)
        children.append(web)
        web.wait()
    except KeyboardInterrupt:
        pass
    finally:
        for child in children:
            child.terminate()
        for child in children:
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    db = subparsers.add_parser("db", help="database")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    db_sub.add_parser("upgrade", help="apply migrations").set_defaults(func=_db_upgrade)
    subparsers.add_parser("seed-demo", help="seed the demo game on an empty database").set_defaults(func=_seed_demo)
    subparsers.add_parser("smtpd", help="the embedded SMTP server").set_defaults(func=_smtpd)
    subparsers.add_parser("worker", help="the scheduler: boundaries, outbox, mail").set_defaults(func=_worker)
    for name, func in (("web", _web), ("run", _run)):
        p = subparsers.add_parser(name, help="the web server" if name == "web" else "everything, on the embedded default")
        p.add_argument("--host", default="127.0.0.1")
        p.add_argument("--port", type=int, default=5000)
        p.set_defaults(func=func)
