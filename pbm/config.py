"""Configuration: embedded defaults, overridden by instance/config.py and PBM_* variables.

The embedded default needs nothing installed: SQLite in instance/, the
embedded SMTP server on localhost, and a local Maildir for the Master's inbox.
A real deployment sets DATABASE_URL, MAIL_SOURCE (an IMAP account) and the
MAIL_SERVER relay in instance/config.py (see instance/config.example.py).
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any


def defaults(instance: Path) -> dict[str, Any]:
    return {
        "DATABASE_URL": f"sqlite:///{instance / 'pbm.sqlite3'}",
        "BASE_URL": "http://127.0.0.1:5000",
        # Where players' commands are mailed to; plus-addressing carries each
        # player's reply token: lupus+TOKEN@...
        "MASTER_ADDRESS": "lupus@lupus.localhost",
        # Receipts come from an address that takes no commands.
        "NOREPLY_ADDRESS": "noreply@lupus.localhost",
        "MAIL_SERVER": "127.0.0.1",
        "MAIL_PORT": 8025,
        "MAIL_USE_TLS": False,
        "MAIL_USE_SSL": False,
        "MAIL_USERNAME": None,
        "MAIL_PASSWORD": None,
        "MAIL_DEFAULT_SENDER": "lupus@lupus.localhost",
        # Flask-Mail would silently drop mail whenever TESTING is on; the
        # outbox decides what is sent, and tests use a real SMTP server.
        "MAIL_SUPPRESS_SEND": False,
        "MAIL_SOURCE": {"kind": "maildir", "path": str(instance / "maildir")},
        # The embedded SMTP server (aiosmtpd) on the default set-up.
        "EMBEDDED_SMTP_HOST": "127.0.0.1",
        "EMBEDDED_SMTP_PORT": 8025,
        "LOCAL_MAILBOX": str(instance / "sent-mail"),
        "DEFAULT_TIMEZONE": "Europe/Rome",
        "ERROR_REPLIES_PER_DAY": 10,
        "REMINDER_BEFORE_MINUTES": 120,
        "BABEL_DEFAULT_LOCALE": "it",
        "BABEL_DEFAULT_TIMEZONE": "Europe/Rome",
        "LANGUAGES": ["it", "en"],
        # The web server (gunicorn): processes, and threads in each. A worker
        # process costs ~60 MB; threads are cheap and wait on the database.
        "WEB_WORKERS": 2,
        "WEB_THREADS": 4,
        # GET /healthz fails when no worker has beaten for this many seconds
        # (a worker beats every 10 s, also during a long boundary).
        "HEALTH_WORKER_MAX_AGE": 60,
    }


def secret_key(instance: Path) -> str:
    path = instance / "secret_key"
    if path.exists():
        return path.read_text().strip()
    instance.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    path.write_text(key)
    return key


def load(instance: Path, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The configuration without Flask, for the worker and the CLI too."""
    config = defaults(instance)
    file = instance / "config.py"
    if file.exists():
        namespace: dict[str, Any] = {}
        exec(compile(file.read_text(), str(file), "exec"), namespace)
        config.update({k: v for k, v in namespace.items() if k.isupper()})
    for key, value in os.environ.items():
        if key.startswith("PBM_") and key[4:] in config:
            config[key[4:]] = type(config[key[4:]])(value) if isinstance(config[key[4:]], int) else value
    config.update(overrides or {})
    config.setdefault("SECRET_KEY", None)
    if not config.get("SECRET_KEY"):
        config["SECRET_KEY"] = secret_key(instance)
    return config


def instance_path() -> Path:
    return Path(os.environ.get("PBM_INSTANCE", Path.cwd() / "instance")).resolve()
