"""`pbm db upgrade`, `pbm seed-demo`, `pbm smtpd`, `pbm worker`, `pbm web`, `pbm run`, `pbm health`."""
from __future__ import annotations

import argparse
import errno
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import cast

from . import config as config_module

STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _config() -> dict:
    return config_module.load(config_module.instance_path())


def _db_upgrade(_args: argparse.Namespace) -> int:
    from .migrate import upgrade
    upgrade(_config()["DATABASE_URL"])
    print("database up to date")
    return 0


def _db_backup(args: argparse.Namespace) -> int:
    from .backup import BackupError, backup
    try:
        backup(_config()["DATABASE_URL"], Path(args.path))
    except BackupError as exc:
        print(f"backup failed: {exc}", file=sys.stderr)
        return 1
    print(f"database backed up to {args.path}")
    return 0


def _health(_args: argparse.Namespace) -> int:
    """/healthz's report, read on this machine without HTTP (and so without any proxy)."""
    import json
    from datetime import timedelta

    from . import health
    from .app import create_service_app
    app = create_service_app()
    healthy, report = health.check(app.extensions["pbm_sessions"], app.extensions["pbm_clock"].now(),
                                   timedelta(seconds=int(app.config["HEALTH_WORKER_MAX_AGE"])))
    print(json.dumps(report, indent=2))
    return 0 if healthy else 1


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
    from .mail.smtpd import start
    cfg = _config()
    # Blocked before the server's threads start (they inherit the mask), so
    # SIGINT and SIGTERM reach only sigwait below, and the server stops cleanly.
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    controller = start(cfg)
    print(f"embedded SMTP server on {cfg['EMBEDDED_SMTP_HOST']}:{cfg['EMBEDDED_SMTP_PORT']}", flush=True)
    try:
        signal.sigwait(STOP_SIGNALS)
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
    from .webserver import serve
    cfg = _config()
    serve(args.host, args.port, workers=args.workers or int(cfg["WEB_WORKERS"]),
          threads=args.threads or int(cfg["WEB_THREADS"]))
    return 0


def _run(args: argparse.Namespace) -> int:
    """Everything for a laptop: migrate, seed the demo, start SMTP, worker and web.

    Until SIGINT (Ctrl-C) or SIGTERM, or until one of the three exits: then
    each of the others is sent SIGTERM and waited for, so nothing is left
    running (a supervisor stopping `pbm run` stops all of it)."""
    from . import demo
    if args.smtp_port:  # the children read it too; the worker's sender follows it (config.py)
        os.environ["PBM_EMBEDDED_SMTP_PORT"] = str(args.smtp_port)
    cfg = _config()
    taken = [f"{host}:{port} is in use (another `pbm run`, or another program): stop it, or choose "
             f"another port with {flag}" for host, port, flag in
             ((args.host, args.port, "--port"),
              (cfg["EMBEDDED_SMTP_HOST"], int(cfg["EMBEDDED_SMTP_PORT"]), "--smtp-port"))
             if _port_taken(host, port)]
    if taken:
        # Before, the other program's port answered the wait for ours: "running" was
        # printed, then a traceback, and the children stopped.
        print("pbm run: not started: " + "; ".join(taken), file=sys.stderr, flush=True)
        return 1
    stop = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in STOP_SIGNALS}
    # Mails written while seeding carry links: give them the address being served.
    os.environ.setdefault("PBM_BASE_URL", f"http://{args.host}:{args.port}")
    _db_upgrade(args)
    _seed_demo(args)
    pbm = [sys.executable, "-m", "pbm.cli"]
    env = {**os.environ, "PBM_INSTANCE": str(config_module.instance_path()),
           "PBM_BASE_URL": f"http://{args.host}:{args.port}"}
    web_options = ["--host", args.host, "--port", str(args.port)]
    for flag, value in (("--workers", args.workers), ("--threads", args.threads)):
        if value:
            web_options += [flag, str(value)]
    children: list[subprocess.Popen] = []
    if stop.is_set():  # told to stop while migrating
        return 0
    try:
        children.append(subprocess.Popen(pbm + ["smtpd"], env=env))
        _wait_for_port(cfg["EMBEDDED_SMTP_HOST"], int(cfg["EMBEDDED_SMTP_PORT"]), children[0], stop)
        children.append(subprocess.Popen(pbm + ["worker"], env=env))
        children.append(subprocess.Popen(pbm + ["web"] + web_options, env=env))
        _wait_for_port(args.host, args.port, children[-1], stop)
        if not stop.is_set() and all(child.poll() is None for child in children):
            print(f"""
Lupus PBM is running at http://{args.host}:{args.port}/
  Master:  {demo.MASTER[1]} / {demo.MASTER[2]}
  Players: {', '.join(demo.player_email(p) for p in demo.PLAYERS)} / {demo.PLAYER_PASSWORD}
  Mail:    SMTP on {cfg['EMBEDDED_SMTP_HOST']}:{cfg['EMBEDDED_SMTP_PORT']}; every message is kept
           locally and shown at http://{args.host}:{args.port}/master/mailbox
Press Ctrl-C to stop.
""", flush=True)
        while not stop.is_set() and all(child.poll() is None for child in children):
            stop.wait(0.2)
    finally:
        _stop_all(children)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    # Each child stops cleanly on SIGTERM (exit 0), or dies of it while still
    # starting up, before it could install its handler; anything else (a crash,
    # the SIGKILL of _stop_all) is worth a look.
    failed = [f"{' '.join(cast(list[str], child.args)[3:4])} ({child.returncode})" for child in children
              if child.returncode not in (0, -signal.SIGTERM)]
    if failed:
        print(f"stopped; not cleanly: {', '.join(failed)}", file=sys.stderr, flush=True)
    return 1 if failed else 0


def _port_taken(host: str, port: int) -> bool:
    """Whether something listens on the port already: a bind as the servers bind
    (SO_REUSEADDR, so a port a stopped server left in TIME_WAIT counts as free)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except OSError:
        return False  # a name that does not resolve: the server says so itself
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            # Only "in use": an address this machine lacks (IPv6 off) is the server's to say.
            return exc.errno == errno.EADDRINUSE
    return False


def _wait_for_port(host: str, port: int, child: subprocess.Popen, stop: threading.Event,
                   timeout: float = 30.0) -> None:
    """Until the child listens on the port (or dies, or we are told to stop)."""
    deadline = time.monotonic() + timeout
    while not stop.is_set() and child.poll() is None and time.monotonic() < deadline:
        try:
            socket.create_connection((host, port), timeout=1).close()
            return
        except OSError:
            stop.wait(0.1)


def _stop_all(children: list[subprocess.Popen], patience: float = 25.0) -> None:
    """SIGTERM to every child still running (the last started first), then wait;
    one that outlives the patience (longer than gunicorn's graceful 20 s) is killed."""
    for child in reversed(children):
        if child.poll() is None:
            child.terminate()
    deadline = time.monotonic() + patience
    for child in reversed(children):
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def register(subparsers: argparse._SubParsersAction) -> None:
    db = subparsers.add_parser("db", help="database")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    db_sub.add_parser("upgrade", help="apply migrations").set_defaults(func=_db_upgrade)
    backup = db_sub.add_parser("backup", help="a consistent copy of the database, while the service runs "
                                              "(SQLite: a database file; PostgreSQL: pg_dump's custom format)")
    backup.add_argument("path")
    backup.set_defaults(func=_db_backup)
    subparsers.add_parser("seed-demo", help="seed the demo game on an empty database").set_defaults(func=_seed_demo)
    subparsers.add_parser("health", help="/healthz's report, read here without HTTP (exit 1 when unhealthy)"
                          ).set_defaults(func=_health)
    subparsers.add_parser("smtpd", help="the embedded SMTP server").set_defaults(func=_smtpd)
    subparsers.add_parser("worker", help="the scheduler: boundaries, outbox, mail").set_defaults(func=_worker)
    for name, func in (("web", _web), ("run", _run)):
        p = subparsers.add_parser(name, help="the web server" if name == "web" else "everything, on the embedded default")
        p.add_argument("--host", default="127.0.0.1")
        p.add_argument("--port", type=int, default=5000)
        p.add_argument("--workers", type=int, default=None,
                       help="web server processes (default: WEB_WORKERS, 2)")
        p.add_argument("--threads", type=int, default=None,
                       help="threads in each web process (default: WEB_THREADS, 4)")
        if name == "run":
            p.add_argument("--smtp-port", type=int, default=None,
                           help="the embedded SMTP server's port (default: EMBEDDED_SMTP_PORT, 8025)")
        p.set_defaults(func=func)
