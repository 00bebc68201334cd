"""Configuration: embedded defaults, overridden by instance/config.py and PBM_* variables.

The embedded default needs nothing installed: SQLite in instance/, the
embedded SMTP server on localhost, and a local Maildir for the Master's inbox.
A real deployment sets DATABASE_URL, MAIL_SOURCE (an IMAP account) and the
MAIL_SERVER relay in instance/config.py (see instance/config.example.py).
"""
from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any

from . import private_files


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
        # The authority that signed the relay's (and the IMAP server's) certificate,
        # when it is not one the system trusts; TLS is always verified.
        "MAIL_CA_FILE": None,
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
        # A larger message is kept, raw, and answered once, but never parsed.
        "INBOUND_MAX_BYTES": 5_000_000,
        # Days the raw text of inbound mail, and the bodies of mail sent, are
        # kept (for the Masters to see a message as it arrived); then the
        # worker empties them, and what was read from them stays (pbm/retention.py).
        "RAW_MAIL_DAYS": 60,
        "REMINDER_BEFORE_MINUTES": 120,
        "BABEL_DEFAULT_LOCALE": "it",
        "BABEL_DEFAULT_TIMEZONE": "Europe/Rome",
        "LANGUAGES": ["it", "en"],
        # The web server (gunicorn): processes, and threads in each. A worker
        # process costs ~60 MB; threads are cheap and wait on the database.
        "WEB_WORKERS": 2,
        "WEB_THREADS": 4,
        # Bytes a request's body may have (Flask's own setting): a larger one is
        # refused with 413 before it is read. Forms are small; the narrator's photo
        # upload has its own, larger limit (pbm/photos.py, MAX_REQUEST). The nginx
        # example refuses at the same sizes (deploy/nginx/lupus.conf).
        "MAX_CONTENT_LENGTH": 1024 * 1024,
        # GET /healthz fails when no worker has beaten for this many seconds
        # (a worker beats every 10 s, also during a long boundary).
        "HEALTH_WORKER_MAX_AGE": 60,
        # The SMTP relay's limits (pbm/mail/outbound/relay_limits.py, docs/deploy.md): messages a
        # minute and a day, 0 for none (the embedded server's default). The quota's
        # day is "rolling" (the last 24 hours) or starts at a time, "00:00", in
        # MAIL_QUOTA_TIMEZONE. Mail over a limit waits; it is never dropped.
        "MAIL_RATE_PER_MINUTE": 0,
        "MAIL_DAILY_QUOTA": 0,
        "MAIL_QUOTA_RESET": "rolling",
        "MAIL_QUOTA_TIMEZONE": "UTC",
        # The part of MAIL_DAILY_QUOTA (in %, 0-90) kept for the mail a game cannot go on
        # without: phase results, the Masters' reports, windows, role letters. Receipts,
        # links, reminders and notices stop short of it (docs/security.md).
        "MAIL_QUOTA_RESERVE_PERCENT": 20,
        # Receipts of mail commands a day (rolling) to one address, and about one game:
        # the last one says so, and the commands still count (pbm/inbox/receipts.py).
        "RECEIPTS_PER_ADDRESS_PER_DAY": 40,
        "RECEIPTS_PER_GAME_PER_DAY": 400,
        # Mail anyone may ask for without an account (sign-up links, resets), all
        # clients together, a day (rolling); beyond, the forms say to try later.
        "MAIL_ANONYMOUS_PER_DAY": 100,
        # Whether the relay offers SMTPUTF8 (RFC 6531): only then are addresses with
        # letters outside ASCII before the @ accepted (pbm/addresses.py); without it
        # they are refused when typed. Domains in any script go in their IDNA form.
        "MAIL_SMTPUTF8": False,
        # The hour (0-23, in the reader's zone) of the daily digest of bulletins,
        # for the players who chose it (pbm/mail/outbound/digests.py).
        "DIGEST_HOUR": 8,
        # GET /healthz tells anyone only ok or not ok; its report (schema, worker
        # heartbeat, problems) goes to requests made on this machine straight to
        # the web server, and to ``Authorization: Bearer <this>`` ("": no token).
        "HEALTHZ_TOKEN": "",
    }


# Keys with no embedded default that the environment may still set.
EXTRA_KEYS = ("SECRET_KEY",)

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class ConfigError(ValueError):
    """A setting of the wrong type: the service refuses to start rather than
    guess (``bool("false")`` is True: TLS would have been on when asked off)."""


def secret_key(instance: Path) -> str:
    """The key that signs sessions and forms, kept in instance/secret_key,
    readable by the service's own user only."""
    path = instance / "secret_key"
    instance.mkdir(parents=True, exist_ok=True)
    try:
        # Created 0600 from the first byte: a key written and then chmod'ed
        # could be read by anyone in between.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)  # an older install left it world-readable
        return path.read_text().strip()
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w") as file:
        file.write(key)
    return key


def from_environment(key: str, text: str, default: Any) -> Any:
    """A PBM_* variable read as the type of the setting's default."""
    name = f"PBM_{key}"
    if isinstance(default, bool):
        word = text.strip().lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise ConfigError(f"{name}={text!r} is not a yes or no: write true or false (also 1/0, yes/no, on/off).")
    if isinstance(default, int):
        try:
            return int(text.strip())
        except ValueError:
            raise ConfigError(f"{name}={text!r} is not a whole number.") from None
    if isinstance(default, (dict, list)):
        try:
            value = json.loads(text)
        except ValueError as exc:
            raise ConfigError(f"{name} is not valid JSON ({exc}).") from None
        if not isinstance(value, type(default)):
            raise ConfigError(f"{name} must be a JSON {'object' if isinstance(default, dict) else 'list'}.")
        return value
    return text


def check_types(config: dict[str, Any], defaults_: dict[str, Any]) -> None:
    """Every setting of instance/config.py or the overrides has its default's
    type (None stays allowed where the default is None)."""
    for key, default in defaults_.items():
        value = config.get(key)
        if default is None:
            continue
        if isinstance(default, bool):
            ok = isinstance(value, bool)
            wanted = "True or False"
        elif isinstance(default, int):
            ok = isinstance(value, int) and not isinstance(value, bool)
            wanted = "a whole number"
        elif isinstance(default, (dict, list, str)):
            ok = isinstance(value, type(default))
            wanted = {dict: "a dict", list: "a list", str: "a text"}[type(default)]
        else:
            continue
        if not ok:
            raise ConfigError(f"{key} = {value!r} should be {wanted}.")


# Whole-number settings that make no sense below a floor, with why.
MINIMUMS: dict[str, tuple[int, str]] = {
    "RAW_MAIL_DAYS": (1, "days to keep raw mail; at least 1"),
    "MAIL_RATE_PER_MINUTE": (0, "messages the relay takes a minute; 0 for no limit"),
    "MAIL_DAILY_QUOTA": (0, "messages the relay takes a day; 0 for no limit"),
    "RECEIPTS_PER_ADDRESS_PER_DAY": (2, "receipts a day to one address; at least 2, the last saying so"),
    "RECEIPTS_PER_GAME_PER_DAY": (2, "receipts a day about one game; at least 2, the last saying so"),
    "MAIL_ANONYMOUS_PER_DAY": (1, "mails a day anyone may ask for; at least 1"),
    "MAX_CONTENT_LENGTH": (64 * 1024, "bytes a request may send; at least 65536, as forms need"),
}


def check_minimums(config: dict[str, Any]) -> None:
    for key, (floor, meaning) in MINIMUMS.items():
        if config[key] < floor:
            raise ConfigError(f"{key} (PBM_{key}) = {config[key]!r} is too small: it is the number of {meaning}.")
    if not 0 <= config["DIGEST_HOUR"] <= 23:
        raise ConfigError(f"DIGEST_HOUR (PBM_DIGEST_HOUR) = {config['DIGEST_HOUR']!r} is not an hour of the day (0-23).")
    from .mail.outbound.relay_limits import Limits, LimitsError  # the quota's reset time and zone, read as the sender reads them
    try:
        Limits.from_config(config)
    except LimitsError as exc:
        raise ConfigError(str(exc)) from None
    token = config["HEALTHZ_TOKEN"]
    if token and (len(token) < 20 or token != token.strip()):
        # A short word is guessed; a space at either end would never match the header.
        raise ConfigError("HEALTHZ_TOKEN (PBM_HEALTHZ_TOKEN) must be empty or at least 20 characters, "
                          "without spaces at either end (e.g. `python3 -c 'import secrets; "
                          "print(secrets.token_urlsafe(32))'`).")


def follow_embedded_smtp(config: dict[str, Any], given: set[str]) -> None:
    """On the embedded set-up (the local Maildir, the relay on the embedded server's
    host) the worker sends to the embedded server's port unless MAIL_PORT is set:
    with only EMBEDDED_SMTP_PORT moved, mail went to 8025, to nothing or to a stranger."""
    if ("MAIL_PORT" not in given and config["MAIL_SOURCE"].get("kind") == "maildir"
            and str(config["MAIL_SERVER"]) == str(config["EMBEDDED_SMTP_HOST"])):
        config["MAIL_PORT"] = config["EMBEDDED_SMTP_PORT"]


def load(instance: Path, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The configuration without Flask, for the worker and the CLI too:
    defaults, then instance/config.py, then PBM_* variables, then overrides."""
    base = defaults(instance)
    config = dict(base)
    given: set[str] = set(overrides or {})  # the keys someone set, whatever the value
    file = instance / "config.py"
    if file.exists():
        namespace: dict[str, Any] = {}
        exec(compile(file.read_text(), str(file), "exec"), namespace)
        config.update({k: v for k, v in namespace.items() if k.isupper()})
        given.update(k for k in namespace if k.isupper())
    for name, text in os.environ.items():
        key = name[4:]
        if name.startswith("PBM_") and (key in base or key in EXTRA_KEYS):
            config[key] = from_environment(key, text, base.get(key))
            given.add(key)
    config.update(overrides or {})
    check_types(config, base)
    follow_embedded_smtp(config, given)
    check_minimums(config)
    # Before anything is written: the instance folder 0700, an older install's files closed.
    private_files.protect(instance, config)
    if not config.get("SECRET_KEY"):
        config["SECRET_KEY"] = secret_key(instance)
    if "MAIL_USERNAME" not in given and "MAIL_PASSWORD" not in given:
        from .mail.smtpd import is_embedded_relay, service_credentials
        if is_embedded_relay(config):  # the embedded server keeps only what the service sends
            config["MAIL_USERNAME"], config["MAIL_PASSWORD"] = service_credentials(config)
    return config


def instance_path() -> Path:
    return Path(os.environ.get("PBM_INSTANCE", Path.cwd() / "instance")).resolve()
